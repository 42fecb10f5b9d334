package expand

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// FuzzExpand checks that expansion never panics, that every diagnostic
// resolves to a range of main.rs, and that expanding twice gives the same
// tree and diagnostics.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{
		"macro_rules! m { ($x:expr) => { $x * 2 }; } fn main() { let a = m!(1 + 1); }",
		"macro_rules! s { () => { 0 }; ($x:expr $(, $r:expr)*) => { $x + s!($($r),*) }; } fn main() { s!(1, 2, 3); }",
		"macro_rules! f { ($($n:ident),*) => { $(fn $n() {})* }; } f!(a, b); impl S { f!(c); }",
		"macro_rules! r { () => { r!() }; } fn main() { r!(); }",
		"macro_rules! z { ($($a:ident)* $b:ident) => {}; } fn main() { z!(x y); }",
		"macro_rules! p { ($p:pat) => { $p }; } fn main() { match x { p!(Some(_)) => 1, _ => 2 } }",
		"macro_rules! t { () => { u8 }; } fn f() -> t!() { 1 }",
		"fn main() { stringify!(a b); concat!(1, \"x\"); env!(\"CARGO_PKG_NAME\"); line!(); cfg!(unix); }",
		"macro_rules! e { ($($x:tt)*) => { $($x)* }; } fn main() { e!(let a = 1; a); }",
		"macro_rules! h { ($e:expr) => {{ let x = 1; $e + x }}; } fn main() { let x = 2; h!(x); }",
		"use log::info; fn main() { info!(\"{}\", 1); tracing::info!(a = %b, \"c\"); }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		run := func() (string, diag.List) {
			file, pd := syntax.Parse(src)
			if pd.HasErrors() {
				return "", nil
			}
			sf := source.NewFile(diag.MainRS, src)
			diags := Expand(file, sf, Options{})
			for i := range diags {
				r := sf.Resolve(diags[i].Range)
				if r.Start < 0 || r.End > len(src) || r.Start > r.End {
					t.Fatalf("diagnostic %q resolves to %v outside [0, %d]", diags[i].Message, r, len(src))
				}
				diags[i].Range = r
				diags[i].Labels = nil
			}
			return syntax.Dump(file, false), diags
		}
		a, da := run()
		b, db := run()
		if a != b || len(da) != len(db) {
			t.Fatalf("expanding twice differs")
		}
	})
}

package syntax

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, that every diagnostic and every
// node stays inside the input with children inside their parents and in
// order, and that parsing is deterministic.
func FuzzParse(f *testing.F) {
	snippets, _ := readSpecSnippets()
	for _, b := range snippets {
		f.Add(b.code)
	}
	files, _ := filepath.Glob("testdata/*/*.rs")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"", "(", "}", "let x = ((1);", "'", "\"", "/*", "r#\"", "b'", "0x", "1.e5", "t.0.1.2",
		"fn f<'a, T: 'a + ?Sized>(x: &'a mut T) -> impl Fn(i32) -> i32 + 'a where T: Clone {}",
		"match x { A | B if g => {} C { d, .. } => e, }", "vec![x; n]", "s![..;-1]", "a < b < c",
		"let x: Vec<Vec<u8>>= y;", "x as u8 < y", "#![a] #[b] fn c() {}", "\xff\xfe", "&&&&x",
		"macro_rules! m { ($x:expr) => { $x * 2 }; ($($y:ident),* $(,)?) => {}; }",
		"macro_rules! n ( () => ( 1 ) ); n!(); crate::n![]; m! { a b c }",
		"#[macro_export] macro_rules! t { ($name:ident) => { #[test] fn $name() {} } } t!(x);",
		"impl S { m!(a); } fn f() -> m!(u8) { match x { p!() => 1, _ => 2 } }",
		"macro_rules! bad { $x => {} } macro_rules! r { () => x }", "log::info!(target: \"t\", a = %b, \"{}\", c);",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, diags := Parse(src)
		for _, d := range diags {
			if d.Range.Start < 0 || d.Range.End > len(src) || d.Range.Start > d.Range.End {
				t.Fatalf("diagnostic %q has range %v outside [0, %d]", d.Message, d.Range, len(src))
			}
			for _, l := range d.Labels {
				if l.Range.Start < 0 || l.Range.End > len(src) || l.Range.Start > l.Range.End {
					t.Fatalf("label %q has range %v outside [0, %d]", l.Message, l.Range, len(src))
				}
			}
		}
		if len(diags) > MaxDiagnostics {
			t.Fatalf("%d diagnostics, more than the cap", len(diags))
		}
		checkRanges(t, src, file)
		again, _ := Parse(src)
		if Dump(file, true) != Dump(again, true) {
			t.Fatalf("parsing twice gave different trees")
		}
	})
}

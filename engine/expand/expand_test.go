package expand

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// expandSrc parses and expands src; it fails the test on a parse error.
func expandSrc(t *testing.T, src string, opts Options) (*syntax.File, *source.File, diag.List) {
	t.Helper()
	f, pd := syntax.Parse(src)
	if pd.HasErrors() {
		t.Fatalf("parse: %v", pd)
	}
	file := source.NewFile(diag.MainRS, src)
	return f, file, Expand(f, file, opts)
}

// letInit finds `let r = ...;` and dumps its initialiser.
func letInit(f *syntax.File, name string) string {
	var out string
	f.Walk(func(n syntax.Node) bool {
		if l, ok := n.(*syntax.LetStmt); ok && out == "" {
			if id, ok := l.Pat.(*syntax.IdentPat); ok && id.Name == name && l.Init != nil {
				out = syntax.Dump(l.Init, false)
			}
		}
		return out == ""
	})
	return out
}

// TestExpandExpressions expands the macro call bound to `r` and compares
// the expression it became.
func TestExpandExpressions(t *testing.T) {
	cases := []struct {
		name, defs, call, want string
	}{
		{"expr stays one operand", `macro_rules! double { ($e:expr) => { $e * 2 }; }`, `double!(1 + 1)`, `(* (+ 1 1) 2)`},
		{"rules in order", `macro_rules! m { ($x:ident) => { 1 }; ($x:expr) => { 2 }; }`, `m!(a)`, `1`},
		{"second rule", `macro_rules! m { ($x:ident) => { 1 }; ($x:expr) => { 2 }; }`, `m!(a + b)`, `2`},
		{"repetition with separator", `macro_rules! arr { ($($x:expr),*) => { [$($x),*] }; }`, `arr![1, 2, 3]`, `(array 1 2 3)`},
		{"empty repetition", `macro_rules! arr { ($($x:expr),*) => { [$($x),*] }; }`, `arr!()`, `(array)`},
		{"plus repetition", `macro_rules! first { ($x:expr $(, $y:expr)+) => { $x }; }`, `first!(7, 8)`, `7`},
		{"optional trailing comma", `macro_rules! arr { ($($x:expr),* $(,)?) => { [$($x),*] }; }`, `arr!(1, 2,)`, `(array 1 2)`},
		{"nested repetition", `macro_rules! rows { ($($($x:expr)*);*) => { [$([$($x),*]),*] }; }`, `rows!(1 2; 3)`, `(array (array 1 2) (array 3))`},
		{"lockstep", `macro_rules! pairs { ($($a:ident = $b:expr),*) => { ($(($b, stringify!($a))),*) }; }`, `pairs!(x = 1, y = 2)`, `(tuple (tuple 1 "x") (tuple 2 "y"))`},
		{"depth-0 var inside repetition", `macro_rules! scale { ($k:expr; $($x:expr),*) => { [$($x * $k),*] }; }`, `scale!(2; 1, 3)`, `(array (* 1 2) (* 3 2))`},
		{"recursion", `macro_rules! sum { () => { 0 }; ($x:expr $(, $r:expr)*) => { $x + sum!($($r),*) }; }`, `sum!(1, 2)`, `(+ 1 (+ 2 0))`},
		{"macro calling macro", `macro_rules! inner { ($e:expr) => { $e + 1 }; } macro_rules! outer { ($e:expr) => { inner!($e) * 2 }; }`, `outer!(3)`, `(* (+ 3 1) 2)`},
		{"tt muncher", `macro_rules! count { () => { 0 }; ($h:tt $($t:tt)*) => { 1 + count!($($t)*) }; }`, `count!(a (b c) d)`, `(+ 1 (+ 1 (+ 1 0)))`},
		{"ident fragment", `macro_rules! get { ($s:ident . $f:ident) => { $s.$f }; }`, `get!(p.x)`, `(field p x)`},
		{"ty fragment", `macro_rules! zero { ($t:ty) => { <$t>::default() }; }`, `zero!(Vec<u8>)`, `(call <Vec<u8>>::default)`},
		{"path fragment", `macro_rules! call { ($p:path) => { $p() }; }`, `call!(a::b)`, `(call a::b)`},
		{"literal fragment", `macro_rules! neg { ($l:literal) => { $l }; }`, `neg!(-3)`, `(neg 3)`},
		{"block fragment", `macro_rules! run { ($b:block) => { $b }; }`, `run!({ 1 })`, `(block (expr 1))`},
		{"pat fragment", `macro_rules! is { ($e:expr, $p:pat) => { match $e { $p => true, _ => false } }; }`, `is!(x, Some(_) | None)`, `(match x (arm (Some _) None => true) (arm _ => false))`},
		{"lifetime and vis fragments", `macro_rules! lt { ($l:lifetime, $v:vis) => { stringify!($v $l) }; }`, `lt!('a, pub(crate))`, `"pub(crate) 'a"`},
		{"meta fragment", `macro_rules! attr { ($m:meta) => { stringify!(#[$m]) }; }`, `attr!(derive(Clone))`, `"#[derive(Clone)]"`},
		{"$crate", `#[macro_export] macro_rules! helper { () => { 5 }; } macro_rules! m { () => { $crate::helper!() }; }`, `m!()`, `5`},
		{"crate path call", `#[macro_export] macro_rules! helper { () => { 5 }; }`, `crate::helper!()`, `5`},
		{"literal tokens in matcher", `macro_rules! op { (add $a:expr, $b:expr) => { $a + $b }; (sub $a:expr, $b:expr) => { $a - $b }; }`, `op!(sub 5, 3)`, `(- 5 3)`},
		{"hygiene", `macro_rules! plus_one { ($e:expr) => {{ let x = 1; $e + x }}; }`, `plus_one!(x)`, `(block (let x#1 1) (expr (+ x x#1)))`},
		{"caller's ident binds", `macro_rules! bind { ($n:ident) => {{ let $n = 2; $n }}; }`, `bind!(y)`, `(block (let y 2) (expr y))`},
		{"stringify", ``, `stringify!(a + b, f(x).y)`, `"a + b, f(x).y"`},
		{"concat", ``, `concat!("a", 1, -2, 2.5, true, 'c', stringify!(d))`, `"a1-22.5truecd"`},
		{"line and column", ``, `(line!(), column!())`, `(tuple 1u32 31u32)`},
		{"file", ``, `file!()`, `"src/main.rs"`},
		{"module_path", ``, `module_path!()`, `"my_pkg::inner"`},
		{"env", ``, `(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION_MINOR"), env!("CARGO_CRATE_NAME"), env!("CARGO_MANIFEST_DIR"))`, `(tuple "my-pkg" "4" "my_pkg" "/playground/my-pkg")`},
		{"option_env set", ``, `option_env!("CARGO_PKG_AUTHORS")`, `(call Some "Ada:Alan")`},
		{"option_env unset", ``, `option_env!("NOT_SET")`, `None`},
		{"cfg feature", ``, `(cfg!(feature = "fast"), cfg!(feature = "slow"), cfg!(all(unix, not(windows))), cfg!(any(test, target_arch = "wasm32")))`, `(tuple true false true false)`},
		{"built-in shadowed later", `fn f() { let r = vec![1]; } macro_rules! vec { () => { 0 }; }`, `vec!()`, `(vec! 1)`},
		{"built-in shadowed", `macro_rules! vec { () => { 0 }; }`, `vec!()`, `0`},
	}
	opts := Options{Package: config.Package{Name: "my-pkg", Version: "1.4.2", Authors: []string{"Ada", "Alan"}, Features: []string{"fast"}}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "mod inner { " + c.defs + "\nfn main() { let r = " + c.call + "; } }"
			if c.name == "line and column" {
				src = "fn main() { let r = " + c.call + "; }"
			}
			f, _, diags := expandSrc(t, src, opts)
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %v", diags)
			}
			if got := letInit(f, "r"); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestExpandPositions expands macros in item, impl, statement, pattern
// and type position.
func TestExpandPositions(t *testing.T) {
	src := `
macro_rules! getters {
    ($($name:ident: $v:expr),*) => { $(fn $name(&self) -> i32 { $v })* };
}
macro_rules! tests {
    ($($name:ident),*) => { $(#[test] fn $name() { assert!(true); })* };
}
macro_rules! some { ($p:pat) => { Some($p) }; }
macro_rules! int { () => { i64 }; }
macro_rules! lets { ($($n:ident = $v:expr);*) => { $(let $n = $v;)* }; }
struct S;
impl S { getters!(a: 1, b: 2); }
tests!(first, second);
fn main() {
    lets!(p = 1; q = 2);
    let v: int!() = 3;
    match o { some!(x) => x, _ => 0 };
}`
	f, _, diags := expandSrc(t, src, Options{})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	var dumps []string
	f.Walk(func(n syntax.Node) bool {
		switch n.(type) {
		case syntax.Item, syntax.Stmt, *syntax.MatchArm:
			dumps = append(dumps, syntax.Dump(n, false))
		}
		return true
	})
	got := strings.Join(dumps, "\n")
	for _, want := range []string{
		"(impl\n  S\n  (fn a (params (param &self)) (-> i32) (block (expr 1)))\n  (fn b (params (param &self)) (-> i32) (block (expr 2))))",
		`(fn #[test] first (params) (block (semi (assert! true))))`,
		`(fn #[test] second (params) (block (semi (assert! true))))`,
		`(let p 1)`, `(let q 2)`, `(let v (: i64) 3)`, `(arm (Some x) => x)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}

// TestExpandErrors checks rustc's wording for what goes wrong, and where
// each error points in main.rs.
func TestExpandErrors(t *testing.T) {
	cases := []struct {
		name, src, msg, at string
	}{
		{"no rule matches", `macro_rules! two { ($a:expr, $b:expr) => {}; } fn main() { two!(1; 2); }`,
			"no rules expected `;`", ";"},
		{"keyword token", `macro_rules! m { (a) => {}; } fn main() { m!(fn); }`, "no rules expected keyword `fn`", "fn"},
		{"unexpected end", `macro_rules! two { ($a:expr, $b:expr) => {}; } fn main() { two!(1,); }`,
			"unexpected end of macro invocation", ""},
		{"invalid fragment", `macro_rules! m { ($e:expression) => {}; }`, "invalid fragment specifier `expression`", "expression"},
		{"missing fragment", `macro_rules! m { ($e) => {}; }`, "missing fragment specifier", "$e"},
		{"missing kleene", `macro_rules! m { ($($e:expr),) => {}; }`, "expected one of: `*`, `+`, or `?`", ","},
		{"question with separator", `macro_rules! m { ($($e:expr),?) => {}; }`, "the `?` macro repetition operator does not take a separator", "?"},
		{"unknown macro", `fn main() { let x = nothing!(1); }`, "cannot find macro `nothing` in this scope", "nothing"},
		{"unknown path macro", `fn main() { other::thing!(); }`, "cannot find macro `other::thing` in this scope", "other::thing"},
		{"used before defined", `fn main() { later!(); } macro_rules! later { () => {} }`, "cannot find macro `later` in this scope", "later"},
		{"recursion limit", `macro_rules! forever { () => { forever!() }; } fn main() { forever!(); }`,
			"recursion limit reached while expanding `forever!`", "forever!()"},
		{"repeat mismatch", `macro_rules! zip { ($($a:ident),*; $($b:ident),*) => { $(($a, $b))* }; } fn main() { zip!(x, y; z); }`,
			"meta-variable `a` repeats 2 times, but `b` repeats 1 time", "$b"},
		{"still repeating", `macro_rules! m { ($($a:ident),*) => { $a }; } fn main() { m!(x); }`,
			"variable `a` is still repeating at this depth", "$a"},
		{"no repeating vars", `macro_rules! m { ($a:ident) => { $( $a )* }; } fn main() { m!(x); }`,
			"attempted to repeat an expression containing no syntax variables matched as repeating at this depth", "$"},
		{"must repeat", `macro_rules! m { ($($a:ident)*) => { $( $a )+ }; } fn main() { m!(); }`,
			"this must repeat at least once", "$"},
		{"unbound metavariable", `macro_rules! m { () => { $nope }; } fn main() { m!(); }`,
			"cannot find macro parameter `$nope` in this scope", "$nope"},
		{"local ambiguity", `macro_rules! m { ($($a:ident)* $b:ident) => {}; } fn main() { m!(x y); }`,
			"local ambiguity when calling macro `m`: multiple parsing options: built-in NTs ident ('a') or ident ('b').", "x"},
		{"fragment does not parse", `macro_rules! m { ($e:expr) => {}; } fn main() { m!(1 +); }`,
			"expected expression, found `<eof>`", ""},
		{"trailing tokens", `macro_rules! m { () => { let a = 1; a }; } fn main() { let x = m!(); }`,
			"expected expression, found `let` statement", "m!()"},
		{"ignores tokens", `macro_rules! m { () => { 1; 2 }; } fn main() { let x = m!(); }`,
			"macro expansion ignores `;` and any tokens following", "m!()"},
		{"incomplete expression", `macro_rules! m { () => { 1 + }; } fn main() { let x = m!(); }`,
			"macro expansion ends with an incomplete expression: expected expression", "m!()"},
		{"env not defined", `fn main() { let x = env!("NOT_SET"); }`,
			"environment variable `NOT_SET` not defined at compile time", `env!("NOT_SET")`},
		{"env custom message", `fn main() { let x = env!("NOT_SET", "set NOT_SET first"); }`,
			"set NOT_SET first", `env!("NOT_SET", "set NOT_SET first")`},
		{"compile_error", `macro_rules! m { () => { compile_error!("no") }; } m!();`, "no", "m!()"},
		{"concat of a non-literal", `fn main() { let x = concat!("a", b); }`, "expected a literal", "b"},
		{"include in item position", `include!("generated.rs");`,
			"`include!(\"generated.rs\")` reads `src/generated.rs`, a file of the crate this request does not carry: the playground cannot read it here", `include!("generated.rs")`},
		{"OUT_DIR", `include!(concat!(env!("OUT_DIR"), "/model.rs"));`,
			"environment variable `OUT_DIR` not defined at compile time", `env!("OUT_DIR")`},
		{"unsupported std macro", `thread_local! { static X: u8 = 1; }`, "macro `thread_local!` is not supported by the playground", "thread_local!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, file, diags := expandSrc(t, c.src, Options{})
			if len(diags) == 0 {
				t.Fatalf("no diagnostic; want %q", c.msg)
			}
			d := diags[0]
			if d.Message != c.msg {
				t.Errorf("message %q, want %q", d.Message, c.msg)
			}
			r := file.Resolve(d.Range)
			if r.End > len(c.src) {
				t.Errorf("range %v outside main.rs", r)
			}
			if got := file.Slice(r); got != c.at {
				t.Errorf("points at %q, want %q", got, c.at)
			}
		})
	}
}

// TestNoRuleNotes checks the labels of rustc's failed-match error.
func TestNoRuleNotes(t *testing.T) {
	src := `macro_rules! double { ($e:expr) => { $e * 2 }; }
fn main() { double!(1, 2); }`
	_, file, diags := expandSrc(t, src, Options{})
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	var labels []string
	for _, l := range diags[0].Labels {
		labels = append(labels, l.Message+" @ "+file.Slice(l.Range))
	}
	want := []string{
		"no rules expected this token in macro call @ ,",
		"when calling this macro @ macro_rules! double",
		"while trying to match meta-variable `$e:expr` @ $e:expr",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("labels:\n%s\nwant:\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
}

// TestExpansionSpans checks that a node from an argument points at the
// argument and a node of the macro's own body at the call.
func TestExpansionSpans(t *testing.T) {
	src := `macro_rules! wrap { ($e:expr) => { f($e) }; }
fn main() { let r = wrap!(a + b); }`
	f, file, diags := expandSrc(t, src, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var call *syntax.CallExpr
	f.Walk(func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			call = c
		}
		return true
	})
	if call == nil {
		t.Fatal("no call")
	}
	if got := file.Slice(file.Resolve(call.Args[0].Span())); got != "a + b" {
		t.Errorf("argument resolves to %q", got)
	}
	if got := file.Slice(file.Resolve(call.Span())); got != "wrap!(a + b)" {
		t.Errorf("body node resolves to %q", got)
	}
	// The evaluator reads a node's text from the generated region.
	if got := file.Slice(call.Span()); got != "f(a + b)" {
		t.Errorf("generated text %q", got)
	}
}

// TestCfgGatedErrorsAreSilent checks that what #[cfg] leaves out reports
// nothing, and that the same code reports when it is in.
func TestCfgGatedErrorsAreSilent(t *testing.T) {
	src := `#[cfg(feature = "gpu")] fn gpu() { missing!(); }`
	if _, _, d := expandSrc(t, src, Options{}); len(d) != 0 {
		t.Errorf("cfg'd-out code reported %v", d)
	}
	if _, _, d := expandSrc(t, src, Options{Package: config.Package{Features: []string{"gpu"}}}); len(d) != 1 {
		t.Errorf("cfg'd-in code reported %v, want one error", d)
	}
}

// TestLogMacros checks how the log and tracing macros are resolved and
// split into format arguments and fields.
func TestLogMacros(t *testing.T) {
	src := `use log::{info, warn as w};
use tracing::*;
fn main() {
    let a = info!(target: "app", "n = {}", n);
    let b = w!("{x}");
    let c = tracing::debug!(name: "e", parent: &s, x, y = %z, ?q, "done {}", k);
    let d = event!(Level::INFO, "e");
    let e = info_span!("load", file = %f);
    let g = log::log_enabled!(Level::Info);
}`
	f, _, diags := expandSrc(t, src, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for name, want := range map[string]string{
		"a": `(info! "n = {}" n)`,
		"b": `(warn! "{x}")`,
		"c": `(debug! "done {}" k (field (ref s)) (field x) (field z) (field q))`,
		"d": `(event! "e")`,
		"e": `(info_span! (field f))`,
		"g": `false`,
	} {
		if got := letInit(f, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

// TestFailedTopLevelCallLeavesNothing checks that a top-level macro call
// that fails does not stay as a bare statement, which would stand in for
// main.
func TestFailedTopLevelCallLeavesNothing(t *testing.T) {
	f, _, diags := expandSrc(t, "unknown_tests!(a, b);\nfn main() {}\n", Options{})
	if len(diags) != 1 || diags[0].Code != CodeUnknownMacro {
		t.Fatalf("diagnostics %v", diags)
	}
	if len(f.Stmts) != 0 {
		t.Errorf("statements left: %s", f.String())
	}
}

// TestMeantFragment: a fragment specifier written out in full, or
// misspelt, gets the one it means as a fix.
func TestMeantFragment(t *testing.T) {
	for word, want := range map[string]string{"expression": "expr", "type": "ty", "pattern": "pat", "idnet": "ident", "identifier": "ident", "nonsense": ""} {
		_, _, diags := expandSrc(t, "macro_rules! m { ($e:"+word+") => {}; }", Options{})
		if len(diags) != 1 {
			t.Fatalf("%s: %+v", word, diags)
		}
		got := ""
		if len(diags[0].Fixes) == 1 {
			got = diags[0].Fixes[0].Edits[0].NewText
		}
		if got != want {
			t.Errorf("%s: fix %q, want %q", word, got, want)
		}
	}
}

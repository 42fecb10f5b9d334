package interp

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/syntax"
)

func TestUseTrees(t *testing.T) {
	src := "use burn::{tensor::{Device, Tensor as T, activation}, server::start, backend::*};\nuse burn :: nn :: { LinearConfig , self };"
	f, d := syntax.Parse(src)
	if d.HasErrors() {
		t.Fatal(d)
	}
	in := newInterp(f, nil, Options{})
	want := map[string]string{
		"Device": "burn::tensor::Device", "T": "burn::tensor::Tensor", "activation": "burn::tensor::activation",
		"start": "burn::server::start", "LinearConfig": "burn::nn::LinearConfig", "nn": "burn::nn",
	}
	for name, path := range want {
		got := in.resolveIn(in.mod, []string{name}, 0)
		if got.external == nil {
			t.Errorf("%s: not a path into another crate: %+v", name, got)
			continue
		}
		if joined := strings.Join(got.external, "::"); joined != path {
			t.Errorf("%s = %s, want %s", name, joined, path)
		}
	}
	if len(in.rootMod.globs) != 1 || strings.Join(in.rootMod.globs[0], "::") != "burn::backend" {
		t.Errorf("globs = %v, want [burn::backend]", in.rootMod.globs)
	}
	if _, ok := in.rootMod.uses["*"]; ok {
		t.Error("glob imported as a name")
	}
}

// TestItems runs programs made of Rust items the way rustc resolves them:
// modules and paths, type aliases, consts and statics, extern crates, Self.
func TestItems(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"inline module paths", `
mod flex { pub fn run() -> i32 { 1 } }
mod wgpu { pub fn run() -> i32 { 2 } pub mod inner { pub fn up() -> i32 { super::run() + crate::flex::run() } } }
fn main() { println!("{} {} {}", flex::run(), wgpu::run(), wgpu::inner::up()); }`, "1 2 3\n"},
		{"items of a block shadow the module's", `
trait Check { fn args(&self) -> i32; fn check(&self) -> i32 { self.args() + 1 } }
fn helper() -> i32 { 10 }
#[allow(non_snake_case)]
fn Case() -> i32 {
    let before = Case.args();
    struct Case;
    impl Check for Case { fn args(&self) -> i32 { helper() + self::helper() } }
    before + Check::check(&Case)
}
fn main() { println!("{}", Case()); }`, "41\n"},
		{"use of the program's own items", `
mod model { pub struct Model { pub n: i32 } impl Model { pub fn new(n: i32) -> Self { Self { n } } pub fn twice(&self) -> i32 { self.n * 2 } } }
use model::Model;
fn main() { let m = Model::new(4); println!("{}", m.twice()); }`, "8\n"},
		{"glob import of super", `
fn helper() -> i32 { 5 }
mod tests { use super::*; pub fn check() -> i32 { helper() + 1 } }
fn main() { println!("{}", tests::check()); }`, "6\n"},
		{"self and re-export", `
mod a { pub mod b { pub fn f() -> i32 { 7 } } pub use self::b::f; }
fn main() { println!("{}", a::f()); }`, "7\n"},
		{"const and static", `
const N: usize = 3;
static GREETING: &str = "hi";
mod m { pub const K: i32 = super::N as i32 * 2; }
fn main() { println!("{} {} {}", N, GREETING, m::K); }`, "3 hi 6\n"},
		{"scalar type alias", `
type FloatElem = f32;
fn main() { let x = 1 as FloatElem; println!("{:?}", x / 4.0); }`, "0.25\n"},
		{"Self in an impl", `
struct Counter { n: i32 }
impl Counter {
    const START: i32 = 10;
    fn new() -> Self { Self { n: Self::START } }
    fn bump(&self) -> i32 { self.n + Self::step() }
    fn step() -> i32 { 2 }
}
fn main() { println!("{}", Counter::new().bump()); }`, "12\n"},
		{"trait impl methods and defaults", `
trait Shape { fn area(&self) -> i32; fn twice(&self) -> i32 { self.area() * 2 } }
struct Sq { s: i32 }
impl Shape for Sq { fn area(&self) -> i32 { self.s * self.s } }
fn main() { let q = Sq { s: 3 }; println!("{} {}", q.area(), q.twice()); }`, "9 18\n"},
		{"extern crate", `
extern crate alloc;
use alloc::vec::Vec;
fn main() { let v: Vec<i32> = Vec::new(); println!("{}", v.len()); }`, "0\n"},
		{"alias of a program type", `
struct P { x: i32 }
impl P { fn make(x: i32) -> P { P { x } } }
type Q = P;
fn main() { println!("{}", Q::make(9).x); }`, "9\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runOK(t, c.src, c.want) })
	}
}

// TestItemErrors gives rustc's words for paths that name nothing.
func TestItemErrors(t *testing.T) {
	cases := []struct{ name, src, code, msg string }{
		{"function of a module that lacks it", "mod m { pub fn f() {} }\nfn main() { m::g(); }", "unknown-function", "failed to resolve: could not find `g` in `m::g`"},
		{"a module used as a value", "mod m {}\nfn main() { let x = m; }", "unknown-variable", "expected value, found module `m`"},
		{"a private name of the parent without use", "fn helper() {}\nmod m { pub fn f() { helper(); } }\nfn main() { m::f(); }", "unknown-function", "cannot find function `helper` in this scope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { reports(t, c.src, c.code, c.msg) })
	}
}

// TestUncalledFunctionsAreChecked: rustc checks every function; a Burn
// panic or failed assert in a function nothing calls is not the program's.
func TestUncalledFunctionsAreChecked(t *testing.T) {
	cases := []struct {
		name, src string
		code      string // "" when check must find no error
	}{
		{"a misspelled call in an uncalled function", "fn unused() { let x = undefined_helper(1); }\nfn main() {}", "unknown-function"},
		{"an unknown method on an uncalled method's parameter", "struct S;\nimpl S { fn f(&self, n: i32) -> i32 { n.no_such_method() } }\nfn main() {}", ""},
		{"a failed assert in an uncalled function", "fn never() { assert_eq!(1, 2); }\nfn main() {}", ""},
		{"a panic in an uncalled function", "fn never() { panic!(\"boom\"); }\nfn main() { println!(\"hi\"); }", ""},
		{"an uncalled function in a module", "mod m { pub fn g() { nope(); } }\nfn main() {}", "unknown-function"},
		{"a #[cfg(test)] module of a normal build", "#[cfg(test)]\nmod tests { fn t() { nope(); } }\nfn main() {}", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := eval(t, Check, c.src, Options{})
			var errs []string
			for _, d := range out.Diags {
				if d.Severity == "error" {
					errs = append(errs, d.Code+": "+d.Message)
				}
			}
			switch {
			case c.code == "" && len(errs) > 0:
				t.Errorf("unexpected errors %v", errs)
			case c.code != "" && (len(errs) == 0 || !strings.HasPrefix(errs[0], c.code+":")):
				t.Errorf("errors %v, want %s", errs, c.code)
			}
		})
	}
}

// TestGlobImportsResolveOnce: names behind several glob imports of other
// crates resolve without following the globs through one another, which
// took time exponential in their number.
func TestGlobImportsResolveOnce(t *testing.T) {
	var src strings.Builder
	for _, c := range []string{"burn::prelude", "burn::nn", "burn::optim", "burn::train", "polars::prelude", "std::collections", "burn::data::dataset", "burn::module"} {
		src.WriteString("use " + c + "::*;\n")
	}
	src.WriteString("mod a { use super::*; pub fn f() { missing(); } }\nfn main() { a::f(); }\n")
	reports(t, src.String(), "unknown-function", "cannot find function `missing` in this scope")
}

// TestPathsToMethods: a method called through its type's or trait's path
// takes the receiver first; types and functions live in two namespaces.
func TestPathsToMethods(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"a trait's default method through the trait", `
trait Check { fn name(&self) -> i32; fn check(&self) -> i32 { self.name() + Self::base() } fn base() -> i32 { 100 } }
struct A;
impl Check for A { fn name(&self) -> i32 { 1 } }
fn main() { let a = A; println!("{}", Check::check(&a)); }`, "101\n"},
		{"an inherent method through the type", `
struct P { x: i32 }
impl P { fn get(&self) -> i32 { self.x } }
fn main() { let p = P { x: 3 }; println!("{}", P::get(&p)); }`, "3\n"},
		{"a struct and a function of one name", `
fn clone_invariance() -> i32 {
    struct clone_invariance { n: i32 }
    impl clone_invariance { fn n(&self) -> i32 { self.n } }
    clone_invariance { n: 4 }.n()
}
fn main() { println!("{}", clone_invariance()); }`, "4\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runOK(t, c.src, c.want) })
	}
}

// TestCfg: #[cfg] on items, statements and match arms, against the
// package's own features.
func TestCfg(t *testing.T) {
	src := `
#[cfg(feature = "cuda")]
mod cuda { pub fn run() -> &'static str { "cuda" } }
#[cfg(not(feature = "cuda"))]
mod cuda { pub fn run() -> &'static str { "no cuda" } }
fn main() {
    #[cfg(feature = "flex")]
    println!("flex");
    #[cfg(not(feature = "flex"))]
    println!("not flex");
    let n = 2;
    let s = match n {
        #[cfg(feature = "cuda")]
        2 => "two with cuda",
        _ => "other",
    };
    println!("{} {}", cuda::run(), s);
}`
	for _, c := range []struct {
		features []string
		want     string
	}{
		{nil, "not flex\nno cuda other\n"},
		{[]string{"flex", "cuda"}, "flex\ncuda two with cuda\n"},
	} {
		out := eval(t, Run, src, Options{Features: c.features})
		if out.Panic != nil || out.Diags.HasErrors() {
			t.Fatalf("%v: panic %+v diags %+v", c.features, out.Panic, out.Diags)
		}
		if out.Output != c.want {
			t.Errorf("%v: output %q, want %q", c.features, out.Output, c.want)
		}
	}
}

// TestInlineFormatArgumentsNameConsts: `{NAME}` in a format string
// captures a const item as it captures a variable.
func TestInlineFormatArgumentsNameConsts(t *testing.T) {
	runOK(t, "const IMAGE_INDEX: usize = 42;\nfn main() { println!(\"index {IMAGE_INDEX}\"); }", "index 42\n")
}

// TestEnvArgs: argv holds the program's name only, as an iterator.
func TestEnvArgs(t *testing.T) {
	runOK(t, `use std::env::args;
fn main() {
    let index = if let Some(i) = args().nth(1) { i.parse::<usize>().unwrap() } else { 7 };
    let all: Vec<String> = std::env::args().collect();
    println!("{} {}", index, all.len());
}`, "7 1\n")
}

// TestPreludeFunctionsThroughPaths: std's functions on prelude types and
// primitives, called through their paths.
func TestPreludeFunctionsThroughPaths(t *testing.T) {
	runOK(t, `fn main() {
    let words: Vec<String> = ["a", "b"].iter().map(|s| String::from(*s)).collect();
    println!("{} {} {}", i32::max(3, 9), f32::sqrt(16.0), words.len());
}`, "9 4 2\n")
}

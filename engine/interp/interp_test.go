package interp

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

func eval(t *testing.T, mode Mode, src string, opts Options) Outcome {
	t.Helper()
	f, d := syntax.Parse(src)
	if d.HasErrors() {
		t.Fatalf("parse: %+v", d)
	}
	opts.Mode = mode
	return Eval(f, source.NewFile("main.rs", src), opts)
}

// runOK runs src and checks it: the run prints want, and neither the run
// nor the check reports an error.
func runOK(t *testing.T, src, want string) {
	t.Helper()
	out := eval(t, Run, src, Options{})
	if out.Panic != nil || out.Diags.HasErrors() {
		t.Fatalf("panic %+v diags %+v", out.Panic, out.Diags)
	}
	if out.Output != want {
		t.Errorf("output %q, want %q", out.Output, want)
	}
	if checked := eval(t, Check, src, Options{}); checked.Diags.HasErrors() {
		t.Errorf("check: %+v", checked.Diags)
	}
}

// reports checks src and returns its diagnostic with code and msg, failing
// the test when the check has none.
func reports(t *testing.T, src, code, msg string) diag.Diagnostic {
	t.Helper()
	out := eval(t, Check, src, Options{})
	for _, d := range out.Diags {
		if d.Code == code && d.Message == msg {
			return d
		}
	}
	t.Errorf("no %s %q in %+v", code, msg, out.Diags)
	return diag.Diagnostic{}
}

func TestPlainRust(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"arith", `println!("{}", 1 + 2 * 3 - 4 / 2);`, "5\n"},
		{"floats", `let x = 1.5f32; println!("{} {:?}", x * 2.0, x * 2.0);`, "3 3.0\n"},
		{"shadowing", `let x = 1; let x = x + 1; { let x = 10; } println!("{x}");`, "2\n"},
		{"loops", `let mut s = 0; for i in 0..5 { if i == 3 { continue; } s += i; } println!("{s}");`, "7\n"},
		{"inclusive", `let mut s = 0; for i in 1..=4 { s += i; } println!("{s}");`, "10\n"},
		{"while", `let mut n = 0; while n < 3 { n += 1; } println!("{n}");`, "3\n"},
		{"loop break value", `let mut n = 0; let v = loop { n += 2; if n > 5 { break n * 10; } }; println!("{v}");`, "60\n"},
		{"fn", "fn sq(x: i32) -> i32 { x * x }\nfn main() { println!(\"{}\", sq(7)); }", "49\n"},
		{"early return", "fn f(x: i32) -> i32 { if x > 0 { return 1; } 0 }\nfn main() { println!(\"{} {}\", f(5), f(-5)); }", "1 0\n"},
		{"closure", `let k = 3; let add = |x: i32| x + k; println!("{}", add(4));`, "7\n"},
		{"vec map", `let v = vec![1, 2, 3]; let w: Vec<i32> = v.iter().map(|x| x * 2).collect(); println!("{:?} {}", w, w.len());`, "[2, 4, 6] 3\n"},
		{"match", `let x = Some(4); match x { Some(n) if n > 3 => println!("big {n}"), Some(_) => println!("small"), None => println!("none") }`, "big 4\n"},
		{"if let", `let x: Option<i32> = None; if let Some(v) = x { println!("{v}"); } else { println!("nothing"); }`, "nothing\n"},
		{"tuple", `let (a, b) = (1, "two"); println!("{a} {b}");`, "1 two\n"},
		{"dbg", `let x = dbg!(2 + 2);`, "[src/main.rs:1:9] 2 + 2 = 4\n"},
		{"struct", "struct P { x: i32 }\nimpl P { fn get(&self) -> i32 { self.x } }\nfn main() { let p = P { x: 5 }; println!(\"{}\", p.get()); }", "5\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runOK(t, c.src, c.want) })
	}
}

func TestUserPanics(t *testing.T) {
	cases := []struct{ name, src, code, msg string }{
		{"assert", "let x = 1;\nassert!(x == 2);", "assertion-failed", "assertion failed: x == 2"},
		{"assert msg", `assert!(false, "bad {}", 7);`, "assertion-failed", "bad 7"},
		{"assert_eq", `assert_eq!(1 + 1, 3);`, "assertion-failed", "assertion `left == right` failed\n  left: 2\n right: 3"},
		{"assert_eq msg", `assert_eq!(1, 2, "sizes");`, "assertion-failed", "assertion `left == right` failed: sizes\n  left: 1\n right: 2"},
		{"panic", `panic!("boom {}", 1);`, "user-panic", "boom 1"},
		{"todo", `todo!();`, "user-panic", "not yet implemented"},
		{"overflow", `let x: u8 = 0u8; let y = x - 1u8;`, "user-panic", "attempt to subtract with overflow"},
		{"div zero", `let z = 0; let y = 1 / z;`, "user-panic", "attempt to divide by zero"},
		{"index", `let v = vec![1, 2]; let y = v[5];`, "user-panic", "index out of bounds: the len is 2 but the index is 5"},
		{"unwrap", `let x: Option<i32> = None; x.unwrap();`, "user-panic", "called `Option::unwrap()` on a `None` value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := eval(t, Run, c.src, Options{})
			if out.Panic == nil {
				t.Fatalf("no panic; diags %+v", out.Diags)
			}
			if out.Panic.ID != c.code || out.Panic.Message != c.msg {
				t.Errorf("panic %s %q, want %s %q", out.Panic.ID, out.Panic.Message, c.code, c.msg)
			}
			if !strings.HasPrefix(out.Panic.Location, "src/main.rs:") {
				t.Errorf("location %q", out.Panic.Location)
			}
			// Check finds the same panic at the same place, and goes on.
			chk := eval(t, Check, c.src, Options{})
			found := false
			for _, d := range chk.Diags {
				found = found || (d.Code == c.code && d.Range == out.Panic.Range)
			}
			if !found {
				t.Errorf("check did not report %s at %v: %+v", c.code, out.Panic.Range, chk.Diags)
			}
		})
	}
}

func TestCheckReportsEveryErrorRunStopsAtFirst(t *testing.T) {
	src := "assert!(1 == 2);\nassert!(3 == 4);\nprintln!(\"after\");"
	chk := eval(t, Check, src, Options{})
	if n := len(chk.Diags); n != 2 {
		t.Errorf("check found %d diagnostics, want 2: %+v", n, chk.Diags)
	}
	run := eval(t, Run, src, Options{})
	if run.Panic == nil || run.Panic.Message != "assertion failed: 1 == 2" {
		t.Fatalf("run panic %+v", run.Panic)
	}
	if run.Output != "" {
		t.Errorf("run went on after the panic: %q", run.Output)
	}
}

func TestCheckFollowsKnownConditions(t *testing.T) {
	src := "fn f(b: bool) { if b { assert!(false, \"then\"); } else { assert!(false, \"else\"); } }\nfn main() { let x = vec![true]; for b in x.iter() { f(*b) } }"
	chk := eval(t, Check, src, Options{})
	if len(chk.Diags) != 1 {
		t.Errorf("known condition: want 1 diagnostic, got %+v", chk.Diags)
	}
}

func TestLimits(t *testing.T) {
	loop := "let mut n = 0u64;\nfor i in 0..u64::MAX { n += 1; }"
	out := eval(t, Run, loop, Options{StepLimit: 10_000})
	if out.Limited != "time" || len(out.Diags) != 1 || out.Diags[0].Code != "playground-time-limit" {
		t.Errorf("time limit: %+v %+v", out.Limited, out.Diags)
	}
	chk := eval(t, Check, loop, Options{StepLimit: 10_000})
	if chk.Limited != "time" || len(chk.Diags) != 0 {
		t.Errorf("a check that runs out of budget stops quietly: %+v %+v", chk.Limited, chk.Diags)
	}
	spam := `loop { println!("spam spam spam"); }`
	out = eval(t, Run, spam, Options{OutputLimit: 100})
	if out.Limited != "output" || len(out.Output) != 100 {
		t.Errorf("output limit: %q %d", out.Limited, len(out.Output))
	}
	rec := "fn f(n: i32) -> i32 { f(n + 1) }\nfn main() { f(0); }"
	out = eval(t, Run, rec, Options{})
	if out.Limited != "depth" || out.Diags[0].Code != "playground-time-limit" {
		t.Errorf("recursion: %+v %+v", out.Limited, out.Diags)
	}
	big := "let v = vec![0; 100000000];"
	out = eval(t, Run, big, Options{})
	if out.Limited != "memory" || out.Diags[0].Code != "playground-memory-limit" {
		t.Errorf("memory: %+v %+v", out.Limited, out.Diags)
	}
}

func TestUnknownNames(t *testing.T) {
	out := eval(t, Check, "let y = x + 1;\nfrobnicate(2);", Options{})
	codes := []string{}
	for _, d := range out.Diags {
		codes = append(codes, d.Code)
	}
	if strings.Join(codes, ",") != "unknown-variable,unknown-function" {
		t.Errorf("codes %v", codes)
	}
	for _, d := range out.Diags {
		if d.Phase != diag.Check || d.Severity != diag.Error {
			t.Errorf("diag %+v", d)
		}
	}
}

func TestUnwrapIsLocatedAtTheMethodName(t *testing.T) {
	out := eval(t, Run, "let x: Option<i32> = None;\nlet y = x.clone().unwrap();", Options{})
	if out.Panic == nil || out.Panic.Location != "src/main.rs:2:19" {
		t.Fatalf("panic %+v, want location src/main.rs:2:19", out.Panic)
	}
}

// TestArgumentTypesFromTheSignature gives a tensor method's argument the
// type Rust infers from the method's signature: a tensor of the
// receiver's rank, which decides an unsqueeze's D2.
func TestArgumentTypesFromTheSignature(t *testing.T) {
	runOK(t, `use burn::tensor::Tensor;
fn main() {
    let device = Default::default();
    let x = Tensor::<2>::ones([2, 3], &device);
    let y = x.clone().mul(x.clone().sum_dim(1).unsqueeze());
    let z: Tensor<3> = x.sum_dim(0).unsqueeze();
    println!("{:?} {:?}", y.dims(), z.dims());
}`, "[2, 3] [1, 1, 3]\n")
}

// TestBurnFunctionsAsValues passes Burn's functions where a closure goes:
// `.map(Slice::from)`, and a Range into a Slice.
func TestBurnFunctionsAsValues(t *testing.T) {
	runOK(t, `use burn::tensor::{Tensor, Slice, activation};
fn main() {
    let device = Default::default();
    let x = Tensor::<2>::from_data([[0.0, -1.0, 2.0], [3.0, 4.0, -5.0]], &device);
    let slices: Vec<Slice> = vec![1..2, 0..2].into_iter().map(Slice::from).collect();
    let one: Vec<Slice> = vec![(0..1).into()];
    let relued: Vec<Tensor<2>> = vec![x.clone()].into_iter().map(activation::relu).collect();
    println!("{:?} {:?} {}", x.clone().slice(slices).dims(), x.slice(one).dims(), relued[0].clone().into_data());
}`, "[1, 2] [1, 3] [0.0, 0.0, 2.0, 3.0, 4.0, 0.0]\n")
}

// TestDeclaredEmptyVecOfTensors: the declaration types an empty list, so
// cat and stack reach burn-tensor's check instead of needing annotations.
func TestDeclaredEmptyVecOfTensors(t *testing.T) {
	for _, fn := range []string{"cat", "stack"} {
		src := "use burn::tensor::Tensor;\nfn main() {\n    let list: Vec<Tensor<2>> = vec![];\n    let _ = Tensor::" + fn + "(list, 0);\n}"
		out := eval(t, Run, src, Options{})
		want := map[string]string{"cat": "Can't concatenate an empty list of tensors.", "stack": "Can't stack an empty list of tensors."}[fn]
		if out.Panic == nil || !strings.Contains(out.Panic.Message, want) {
			t.Errorf("%s: panic %+v, diags %+v: want %q", fn, out.Panic, out.Diags, want)
		}
	}
}

// TestImplIntoDevice: an `impl Into<Device>` argument's `into()` is the
// device.
func TestImplIntoDevice(t *testing.T) {
	runOK(t, `use burn::tensor::{Device, Tensor};
fn infer(device: impl Into<Device>) -> usize {
    let device = device.into();
    Tensor::<1>::ones([3], &device).dims()[0]
}
fn main() { println!("{}", infer(Device::default())); }`, "3\n")
}

// TestMethodsOfAnotherKind: a method Burn declares for other tensor kinds
// than the receiver's is rustc's "no method named", and one every kind has
// still runs; a Vec is no iterator, while an array's map is its own.
func TestMethodsOfAnotherKind(t *testing.T) {
	reports(t, `use burn::tensor::{Device, Tensor};
fn main() {
    let device = Device::default();
    let w = Tensor::<2>::ones([4, 2], &device);
    let ids = w.int();
    let g = ids.argmax(1).backward();
}`, "unknown-method", "no method named `backward` found for struct `Tensor<2, Int>` in the current scope")
	out := eval(t, Check, "fn main() { let v = vec![1, 2]; let s: i32 = v.sum(); }", Options{})
	if len(out.Diags) != 1 || out.Diags[0].Code != "unknown-method" || !strings.HasPrefix(out.Diags[0].Message, "no method named `sum` found for") {
		t.Errorf("a Vec's sum: %+v", out.Diags)
	}
	runOK(t, `use burn::tensor::{Device, Tensor};
fn main() {
    let device = Device::default();
    let ids = Tensor::<2>::ones([4, 2], &device).int();
    let doubled = [1, 2].map(|x| x * 2);
    println!("{:?} {:?}", ids.sum().dims(), doubled);
}`, "[1] [2, 4]\n")
}

// TestSimilarVariable: a misspelt variable gets rustc's help and its edit.
func TestSimilarVariable(t *testing.T) {
	d := reports(t, "fn main() { let weights = 2; let total = weight + 1; }", "unknown-variable", "cannot find value `weight` in this scope")
	if len(d.Help) != 1 || d.Help[0] != "a local variable with a similar name exists: `weights`" {
		t.Errorf("help %q", d.Help)
	}
	if len(d.Fixes) != 1 || d.Fixes[0].Title != "Use `weights`" || d.Fixes[0].Edits[0].NewText != "weights" {
		t.Errorf("fixes %+v", d.Fixes)
	}
	if d := reports(t, "fn main() { let lr = 2; let total = rate + 1; }", "unknown-variable", "cannot find value `rate` in this scope"); len(d.Fixes) != 0 {
		t.Errorf("a name nothing resembles got %+v", d.Fixes)
	}
}

// TestSimilarTensorMethod: a misspelt method or associated function of
// Tensor gets rustc's help and its edit.
func TestSimilarTensorMethod(t *testing.T) {
	d := reports(t, `use burn::tensor::{Device, Tensor};
fn main() {
    let device = Device::default();
    let x = Tensor::<2>::ones([2, 3], &device);
    let y = x.unsqeeze::<3>();
}`, "unknown-method", "no method named `unsqeeze` found for struct `Tensor` in the current scope")
	if len(d.Fixes) != 1 || d.Fixes[0].Title != "Use `unsqueeze`" || len(d.Help) == 0 || d.Help[len(d.Help)-1] != "there is a method `unsqueeze` with a similar name" {
		t.Errorf("help %q fixes %+v", d.Help, d.Fixes)
	}
	d = reports(t, `use burn::tensor::{Device, Tensor};
fn main() {
    let device = Device::default();
    let x = Tensor::<2>::zeroes([2, 3], &device);
}`, "unknown-function", "no function or associated item named `zeroes` found for struct `Tensor` in the current scope")
	if len(d.Fixes) != 1 || d.Fixes[0].Title != "Use `zeros`" {
		t.Errorf("help %q fixes %+v", d.Help, d.Fixes)
	}
}

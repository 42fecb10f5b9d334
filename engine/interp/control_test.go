package interp

import "testing"

// TestControlFlow runs Rust's control flow: labels on loops and blocks,
// break with a value, `?` with its early return, return in closures.
func TestControlFlow(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"labelled block", `fn main() { let v = 'a: { if true { break 'a 1; } 2 }; println!("{v}"); }`, "1\n"},
		{"continue and break an outer loop", `
fn main() { let mut n = 0; 'outer: for i in 0..5 { for j in 0..5 { if j == 2 { continue 'outer; } if i == 3 { break 'outer; } n += 1; } } println!("{n}"); }`, "6\n"},
		{"break a value out of nested loops", `
fn main() { let mut n = 0; let r = 'l: loop { loop { n += 1; if n > 3 { break 'l n * 2; } } }; println!("{r}"); }`, "8\n"},
		{"while with a label", `
fn main() { let mut i = 0; 'w: while i < 10 { i += 1; for _ in 0..3 { if i == 4 { break 'w; } } } println!("{i}"); }`, "4\n"},
		{"? on Option through nested calls", `
fn first(v: &[i32]) -> Option<i32> { let x = v.first()?; Some(*x + 1) }
fn outer(v: &[i32]) -> Option<i32> { let a = first(v)?; Some(a * 10) }
fn main() { println!("{:?} {:?}", outer(&[1]), outer(&[])); }`, "Some(20) None\n"},
		{"? converts the error with From", `
#[derive(Debug)] enum AppError { Parse(String), Neg }
impl From<std::num::ParseIntError> for AppError { fn from(e: std::num::ParseIntError) -> Self { AppError::Parse(e.to_string()) } }
fn check(n: i32) -> Result<i32, AppError> { if n < 0 { return Err(AppError::Neg); } Ok(n) }
fn parse(s: &str) -> Result<i32, AppError> { let n = s.parse::<i32>()?; let m = check(n)?; Ok(m * 2) }
fn main() { println!("{:?} {:?} {:?}", parse("21"), parse("x"), parse("-1")); }`, "Ok(42) Err(Parse(\"invalid digit found in string\")) Err(Neg)\n"},
		{"return inside a closure returns from the closure", `
fn main() { let f = |x: i32| -> i32 { if x > 0 { return 1; } 0 }; println!("{} {}", f(5), f(-1)); }`, "1 0\n"},
		{"let else", `
fn get(v: Option<i32>) -> i32 { let Some(x) = v else { return -1; }; x }
fn main() { println!("{} {}", get(Some(3)), get(None)); }`, "3 -1\n"},
		{"while let", `
fn main() { let mut v = vec![1, 2, 3]; let mut s = 0; while let Some(x) = v.pop() { s += x; } println!("{s}"); }`, "6\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runOK(t, c.src, c.want) })
	}
}

// TestControlErrors gives rustc's words for control flow rustc rejects.
func TestControlErrors(t *testing.T) {
	cases := []struct{ name, src, code, msg string }{
		{"let else that falls through (E0308)", "fn main() { let v = Some(1); let Some(x) = v else { println!(\"no\"); }; }", "type-mismatch", "`else` clause of `let...else` does not diverge"},
		{"let else with a loop that breaks", "fn main() { let v = Some(1); let Some(x) = v else { loop { break; } }; }", "type-mismatch", "`else` clause of `let...else` does not diverge"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { reports(t, c.src, c.code, c.msg) })
	}
	for _, ok := range []string{
		"fn main() { let v = Some(1); let Some(x) = v else { panic!(\"no\") }; }",
		"fn main() { let v = Some(1); let Some(x) = v else { std::process::exit(1) }; }",
		"fn main() { for i in 0..2 { let v = Some(i); let Some(x) = v else { continue }; } }",
		"fn main() { let v = Some(1); let Some(x) = v else { loop {} }; }",
	} {
		if out := eval(t, Check, ok, Options{}); out.Diags.HasErrors() {
			t.Errorf("%s: %+v", ok, out.Diags)
		}
	}
}

package interp

import "testing"

// TestExhaustiveness gives rustc's E0004 and E0005 for patterns that miss
// values, and accepts matches rustc accepts.
func TestExhaustiveness(t *testing.T) {
	cases := []struct{ name, src, code, msg string }{
		{"Option", "fn main() { let o = Some(1); match o { Some(x) => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `None` not covered"},
		{"the program's enum", "enum Shape { Circle(f64), Sq(f64), Unit }\nfn main() { let s = Shape::Unit; match s { Shape::Circle(_) => {}, Shape::Sq(_) => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `Shape::Unit` not covered"},
		{"two variants", "enum E { A, B(i32), C { x: i32 } }\nfn main() { match E::A { E::A => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `E::B(_)` and `E::C { .. }` not covered"},
		{"integer ranges", "fn main() { let n = 3; match n { 1..=5 => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `i32::MIN..=0_i32` and `6_i32..=i32::MAX` not covered"},
		{"u8 literals", "fn main() { let n = 3u8; match n { 0 => {}, 2..=255 => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `1_u8` not covered"},
		{"a guarded arm covers nothing", "fn main() { let o = Some(1); match o { Some(x) if x > 0 => {}, None => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `Some(_)` not covered"},
		{"bool in a tuple", "fn main() { let p = (true, false); match p { (true, _) => {}, (false, true) => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `(false, false)` not covered"},
		{"nested Option", "fn main() { let o = Some(Some(1)); match o { Some(Some(_)) => {}, None => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `Some(None)` not covered"},
		{"Result", "fn main() { let r: Result<i32, i32> = Ok(1); match r { Ok(_) => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `Err(_)` not covered"},
		{"slices", "fn main() { let v = vec![1, 2]; match v.as_slice() { [] => {}, [x] => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `&[_, _, ..]` not covered"},
		{"strings need a wildcard", "fn main() { let s = \"a\"; match s { \"a\" => {} } }", "non-exhaustive-patterns", "non-exhaustive patterns: `&_` not covered"},
		{"refutable let (E0005)", "fn main() { let o = Some(1); let Some(x) = o; }", "refutable-pattern-in-local-binding", "refutable pattern in local binding"},
		{"unreachable arm is a warning", "fn main() { let n = 1; match n { _ => {}, 1 => {} } }", "unreachable-pattern", "unreachable pattern"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := reports(t, c.src, c.code, c.msg)
			if d.Code == "unreachable-pattern" && d.Severity != "warning" {
				t.Errorf("severity %s, want warning", d.Severity)
			}
		})
	}
	for _, ok := range []string{
		"fn main() { let o = Some(1); match o { Some(_) => {}, None => {} } }",
		"enum E { A, B(i32) }\nfn main() { match E::A { E::A => {}, E::B(n) if n > 0 => {}, E::B(_) => {} } }",
		"fn main() { let n = 3u8; match n { 0..=127 => {}, 128..=u8::MAX => {} } }",
		"fn main() { let n = 3; match n { i32::MIN..=0 => {}, 1.. => {} } }",
		"fn main() { let p = (true, 1); match p { (true, _) | (false, _) => {} } }",
		"fn main() { let v = vec![1]; match v.as_slice() { [] => {}, [x, ..] => {} } }",
		"fn main() { let v = vec![1]; match v.as_slice() { [first, .., last] => {}, [x] => {}, [] => {} } }",
		"struct P { x: i32, y: bool }\nfn main() { let p = P { x: 1, y: true }; match p { P { y: true, .. } => {}, P { x, y: false } => {} } }",
		"fn main() { let s = \"a\"; match s { \"a\" => {}, other => {} } }",
		"fn main() { let o = Some(1); let x = match o { Some(n @ 1..=9) => n, Some(n) => n, None => 0 }; }",
		"fn main() { let (a, b) = (1, 2); }",
		"fn main() { let t = (1, (2, 3)); let (a, (b, c)) = t; }",
	} {
		if out := eval(t, Check, ok, Options{}); out.Diags.HasErrors() {
			t.Errorf("%s: %+v", ok, out.Diags)
		}
	}
}

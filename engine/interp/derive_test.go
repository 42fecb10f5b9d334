package interp

import "testing"

// TestDerives gives the program's types the meaning Rust's derives give
// them.
func TestDerives(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"Debug of named, tuple and unit structs", `
#[derive(Debug)] struct Point { x: i32, y: i32 }
#[derive(Debug)] struct Rect(f64, f64);
#[derive(Debug)] struct Unit;
fn main() { println!("{:?} {:?} {:?}", Point { x: 1, y: 2 }, Rect(2.0, 3.0), Unit); }`, "Point { x: 1, y: 2 } Rect(2.0, 3.0) Unit\n"},
		{"Debug prints fields in declaration order", `
#[derive(Debug)] struct S { b: i32, a: &'static str }
fn main() { println!("{:?}", S { a: "x", b: 1 }); }`, "S { b: 1, a: \"x\" }\n"},
		{"pretty Debug", `
#[derive(Debug)] struct P { x: i32, v: Vec<i32> }
#[derive(Debug)] struct W(P);
fn main() { println!("{:#?}", W(P { x: 1, v: vec![2] })); }`, "W(\n    P {\n        x: 1,\n        v: [\n            2,\n        ],\n    },\n)\n"},
		{"Debug of enum variants inside std types", `
#[derive(Debug)] enum Shape { Circle { r: f64 }, Sq(f64), Dot }
fn main() { println!("{:?}", vec![Some(Shape::Circle { r: 1.5 }), Some(Shape::Sq(2.0)), Some(Shape::Dot), None]); }`,
			"[Some(Circle { r: 1.5 }), Some(Sq(2.0)), Some(Dot), None]\n"},
		{"comparison operators use the type's own PartialOrd", `
use std::cmp::Ordering;
#[derive(PartialEq, Eq, PartialOrd, Ord, Debug)] struct V(i32, i32);
#[derive(PartialEq, Eq, Debug)] struct Rev(i32);
impl PartialOrd for Rev { fn partial_cmp(&self, o: &Self) -> Option<Ordering> { Some(o.0.cmp(&self.0)) } }
fn main() { println!("{} {} {} {} {}", V(1, 2) < V(1, 3), V(2, 0) > V(1, 9), Rev(1) < Rev(2), Rev(3) > Rev(1), Rev(1) >= Rev(1)); }`, "true true false false true\n"},
		{"Formatter's debug builders and write_str", `
use std::fmt;
struct P { a: i32, b: String }
impl fmt::Debug for P {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("P").field("a", &self.a).field("b", &self.b).finish()
    }
}
struct L(Vec<i32>);
impl fmt::Debug for L {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.debug_list().entries(self.0.iter()).entry(&9).finish() }
}
struct T(i32);
impl fmt::Debug for T {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.debug_tuple("T").field(&self.0).finish() }
}
struct H;
impl fmt::Debug for H {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.debug_struct("H").field("x", &1).finish_non_exhaustive() }
}
struct Q(i32);
impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("Q=")?;
        self.0.fmt(f)?;
        write!(f, "{}", if f.alternate() { "#" } else { "" })
    }
}
fn main() {
    println!("{:?} {:?} {:?} {:?} {}", P { a: 1, b: "x".into() }, L(vec![1, 2]), T(3), H, Q(4));
    println!("{:#?}", P { a: 1, b: "x".into() });
}`, "P { a: 1, b: \"x\" } [1, 2, 9] T(3) H { x: 1, .. } Q=4\nP {\n    a: 1,\n    b: \"x\",\n}\n"},
		{"T::new() through a type parameter", `
trait Make { fn new() -> Self; fn v(&self) -> i32; }
struct A;
impl Make for A { fn new() -> Self { A } fn v(&self) -> i32 { 7 } }
struct B;
impl Make for B { fn new() -> Self { B } fn v(&self) -> i32 { 8 } }
fn build<T: Make>() -> i32 { T::new().v() }
fn again<T: Make>(x: &T) -> i32 { x.v() + T::new().v() }
fn main() { println!("{} {} {}", build::<A>(), build::<B>(), again(&B)); }`, "7 8 16\n"},
		{"Display and Debug impls of the program", `
use std::fmt;
struct P { x: i32 }
impl fmt::Display for P { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "P<{}>", self.x) } }
struct Q;
impl fmt::Debug for Q { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "custom") } }
fn main() { println!("[{}] [{:>6}] {:?} {:?}", P { x: 4 }, P { x: 5 }, Q, vec![Q]); }`, "[P<4>] [  P<5>] custom [custom]\n"},
		{"Default fills each field", `
#[derive(Debug, Default)] struct C { n: i32, s: String, v: Vec<u8>, o: Option<i32>, f: f32, b: bool }
fn main() { let c = C::default(); println!("{:?}", c); let d: C = Default::default(); println!("{}", d.n); }`,
			"C { n: 0, s: \"\", v: [], o: None, f: 0.0, b: false }\n0\n"},
		{"struct update syntax", `
#[derive(Debug, Default, Clone)] struct Cfg { a: i32, b: i32, c: i32 }
fn main() { let base = Cfg { a: 1, ..Default::default() }; let x = Cfg { c: 3, ..base.clone() }; println!("{:?} {:?}", base, x); }`,
			"Cfg { a: 1, b: 0, c: 0 } Cfg { a: 1, b: 0, c: 3 }\n"},
		{"PartialEq compares fields", `
#[derive(PartialEq, Debug)] struct P { x: i32, y: i32 }
fn main() { println!("{} {} {}", P { x: 1, y: 2 } == P { x: 1, y: 2 }, P { x: 1, y: 2 } == P { x: 1, y: 3 }, P { x: 1, y: 2 } != P { x: 1, y: 3 }); }`, "true false true\n"},
		{"PartialOrd is lexicographic", `
#[derive(PartialEq, PartialOrd)] struct V(i32, i32);
#[derive(PartialEq, PartialOrd)] enum L { Low, High(i32) }
fn main() { println!("{} {} {} {}", V(1, 9) < V(2, 0), V(2, 1) > V(2, 0), L::Low < L::High(0), L::High(3) <= L::High(2)); }`, "true true true false\n"},
		{"Clone is a deep copy", `
#[derive(Clone, Debug)] struct S { v: Vec<i32>, n: i32 }
fn main() { let a = S { v: vec![1], n: 1 }; let mut b = a.clone(); b.n = 2; b.v.push(2); println!("{:?} {:?}", a, b); }`,
			"S { v: [1], n: 1 } S { v: [1, 2], n: 2 }\n"},
		{"Copy types copy on assignment", `
#[derive(Clone, Copy, Debug)] struct P { x: i32 }
fn bump(mut p: P) -> i32 { p.x += 1; p.x }
fn main() { let a = P { x: 1 }; let mut b = a; b.x = 5; println!("{} {} {}", a.x, b.x, bump(a)); println!("{}", a.x); }`, "1 5 2\n1\n"},
		{"discriminants", `
enum E { A = 1, B, C = 10, D }
fn main() { println!("{} {} {} {}", E::A as i32, E::B as i32, E::C as u8, E::D as i64); }`, "1 2 10 11\n"},
		{"operator impls", `
use std::ops::Add;
#[derive(Debug, Clone, Copy)] struct V { x: i32 }
impl Add for V { type Output = V; fn add(self, o: V) -> V { V { x: self.x + o.x } } }
impl PartialEq for V { fn eq(&self, o: &V) -> bool { self.x % 10 == o.x % 10 } }
fn main() { println!("{:?} {} {}", V { x: 1 } + V { x: 2 }, V { x: 1 } == V { x: 11 }, V { x: 1 } != V { x: 11 }); }`, "V { x: 3 } true false\n"},
		{"the impl of a generic trait is picked by the arguments' types", `
trait Batcher<I, O> { fn batch(&self, items: Vec<I>) -> O; }
struct Item { text: String }
struct B;
impl Batcher<Item, usize> for B { fn batch(&self, items: Vec<Item>) -> usize { items.iter().map(|i| i.text.len()).sum() } }
impl Batcher<String, String> for B { fn batch(&self, items: Vec<String>) -> String { items.join("+") } }
fn main() {
    let b = B;
    println!("{} {}", b.batch(vec![Item { text: "abc".to_string() }]), b.batch(vec!["x".to_string(), "y".to_string()]));
}`, "3 x+y\n"},
		{"derive-new's constructors", `
use derive_new::new;
use std::marker::PhantomData;
#[derive(new, Debug)] struct B { seq: usize, name: String, #[new(default)] count: u32, #[new(value = "2.5")] scale: f64, _p: PhantomData<u8> }
#[derive(new, Debug)] struct Pair(i32, i32);
#[derive(new, Debug)] enum Shape { Square(u32), HTTPPoint { x: i32, y: i32 } }
fn main() {
    let b = B::new(3, "x".to_string());
    println!("{} {} {} {}", b.seq, b.name, b.count, b.scale);
    println!("{:?} {:?} {:?}", Pair::new(1, 2), Shape::new_square(4), Shape::new_http_point(1, 2));
}`, "3 x 0 2.5\nPair(1, 2) Square(4) HTTPPoint { x: 1, y: 2 }\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runOK(t, c.src, c.want) })
	}
}

// TestStructErrors gives rustc's words for struct literals, fields and
// methods the program's types lack.
func TestStructErrors(t *testing.T) {
	cases := []struct{ name, src, code, msg string }{
		{"unknown field in a literal (E0560)", "struct S { x: i32 }\nfn main() { let s = S { x: 1, z: 2 }; }", "unknown-field", "struct `S` has no field named `z`"},
		{"unknown field of a variant", "enum E { V { a: i32 } }\nfn main() { let e = E::V { a: 1, b: 2 }; }", "unknown-field", "variant `E::V` has no field named `b`"},
		{"missing field (E0063)", "struct S { x: i32, y: i32 }\nfn main() { let s = S { x: 1 }; }", "missing-field", "missing field `y` in initializer of `S`"},
		{"missing fields", "struct S { a: i32, b: i32, c: i32 }\nfn main() { let s = S { a: 1 }; }", "missing-field", "missing fields `b` and `c` in initializer of `S`"},
		{"many missing fields", "struct S { a: i32, b: i32, c: i32, d: i32, e: i32 }\nfn main() { let s = S { }; }", "missing-field", "missing fields `a`, `b`, `c` and 2 other fields in initializer of `S`"},
		{"no field on a value (E0609)", "struct S { x: i32 }\nfn main() { let s = S { x: 1 }; let z = s.z; }", "unknown-method", "no field `z` on type `S`"},
		{"no method (E0599)", "struct S { x: i32 }\nfn main() { let s = S { x: 1 }; s.x(); }", "unknown-method", "no method named `x` found for struct `S` in the current scope"},
		{"no method on an enum", "enum E { A }\nfn main() { E::A.go(); }", "unknown-method", "no method named `go` found for enum `E` in the current scope"},
		{"no Debug (E0277)", "#[derive(Clone)] struct S { x: i32 }\nfn main() { let s = S { x: 1 }; println!(\"{:?}\", s); }", "type-mismatch", "`S` doesn't implement `Debug`"},
		{"derive-new's constructor takes the fields without a default", "#[derive(new)] struct S { a: i32, #[new(default)] b: i32 }\nfn main() { let s = S::new(1, 2); }", "wrong-arguments", "this function takes 1 argument but 2 arguments were supplied"},
		{"no Debug inside a Vec", "struct S;\nfn main() { println!(\"{:?}\", vec![Some(S)]); }", "type-mismatch", "`S` doesn't implement `Debug`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { reports(t, c.src, c.code, c.msg) })
	}
}

package interp

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
)

// TestStdPrograms runs programs of Rust's standard library through the
// evaluator: what each prints, or the panic it stops with, is what rustc's
// debug build gives.
func TestStdPrograms(t *testing.T) {
	cases := []struct{ name, src, want string }{
		// Closures capture by reference, or by value with move.
		{"closure by reference", `let mut n = 0; let mut inc = || n += 1; inc(); inc(); println!("{n}");`, "2\n"},
		{"closure move", `let mut n = 0; let mut inc = move || { n += 1; n }; println!("{} {}", inc(), inc()); println!("{n}");`, "1 2\n0\n"},
		{"closure returned", "fn adder(k: i32) -> impl Fn(i32) -> i32 { move |x| x + k }\nfn main() { let add5 = adder(5); println!(\"{}\", add5(2)); }", "7\n"},
		// Iterators are lazy.
		{"infinite range taken", `let v: Vec<i32> = (0..).map(|x| x * x).take(4).collect(); println!("{:?}", v);`, "[0, 1, 4, 9]\n"},
		{"map runs when pulled", `let mut it = (1..4).map(|x| { println!("map {x}"); x * 10 }); println!("start"); let a = it.next(); println!("{:?}", a);`, "start\nmap 1\nSome(10)\n"},
		{"filter map enumerate", `let v = vec![3, 8, 1, 9]; for (i, x) in v.iter().filter(|x| **x > 2).enumerate() { println!("{i}: {x}"); }`, "0: 3\n1: 8\n2: 9\n"},
		{"zip chain rev", `let a = [1, 2, 3]; let b = vec![10, 20]; let z: Vec<(i32, i32)> = a.iter().copied().zip(b.into_iter()).collect(); let c: Vec<i32> = (0..2).chain(5..7).rev().collect(); println!("{:?} {:?}", z, c);`, "[(1, 10), (2, 20)] [6, 5, 1, 0]\n"},
		{"skip step_by", `let v: Vec<i32> = (0..20).skip(2).step_by(5).collect(); println!("{:?}", v);`, "[2, 7, 12, 17]\n"},
		{"while adapters", `let v: Vec<i32> = [1, 2, 5, 1, 7].iter().cloned().skip_while(|x| *x < 2).take_while(|x| *x < 7).collect(); println!("{:?}", v);`, "[2, 5, 1]\n"},
		{"flat_map flatten", `let v: Vec<i32> = (1..4).flat_map(|n| 0..n).collect(); let w: Vec<i32> = vec![vec![1], vec![2, 3]].into_iter().flatten().collect(); println!("{:?} {:?}", v, w);`, "[0, 0, 1, 0, 1, 2] [1, 2, 3]\n"},
		{"fold sum product", `let s: i32 = (1..=4).sum(); let p = (1..=5).product::<i64>(); let f = (1..4).fold(String::new(), |acc, x| format!("{acc}{x}")); println!("{s} {p} {f}");`, "10 120 123\n"},
		{"min max by key", `let v = vec!["apple", "fig", "banana"]; println!("{:?} {:?} {:?}", v.iter().max_by_key(|s| s.len()), v.iter().min(), v.iter().map(|s| s.len()).max());`, "Some(\"banana\") Some(\"apple\") Some(6)\n"},
		{"any all find position", `let v = [2, 4, 5]; println!("{} {} {:?} {:?} {} {:?}", v.iter().any(|x| x % 2 == 1), v.iter().all(|x| *x > 1), v.iter().find(|x| **x > 3), v.iter().position(|x| *x == 5), v.iter().count(), v.iter().last());`, "true true Some(4) Some(2) 3 Some(5)\n"},
		{"peekable scan", `let mut it = [1, 2, 3].iter().peekable(); println!("{:?}", it.peek()); let s: Vec<i32> = (1..5).scan(0, |acc, x| { *acc += x; Some(*acc) }).collect(); println!("{:?}", s);`, "Some(1)\n[1, 3, 6, 10]\n"},
		{"collect result", `let ok: Result<Vec<i32>, String> = vec!["1", "2"].iter().map(|s| s.parse::<i32>().map_err(|e| e.to_string())).collect(); let bad: Result<Vec<i32>, String> = vec!["1", "x"].iter().map(|s| s.parse::<i32>().map_err(|e| e.to_string())).collect(); println!("{:?} {:?}", ok, bad);`, "Ok([1, 2]) Err(\"invalid digit found in string\")\n"},
		{"collect string and map", "use std::collections::HashMap;\nfn main() { let s: String = vec!['h', 'i'].into_iter().collect(); let m: HashMap<&str, i32> = vec![(\"a\", 1), (\"b\", 2)].into_iter().collect(); println!(\"{s} {:?} {}\", m, m[\"b\"]); }", "hi {\"a\": 1, \"b\": 2} 2\n"},
		{"windows chunks", `let v = [1, 2, 3, 4, 5]; let w: Vec<i32> = v.windows(2).map(|w| w[0] + w[1]).collect(); for c in v.chunks(2) { println!("{:?}", c); } println!("{:?}", w);`, "[1, 2]\n[3, 4]\n[5]\n[3, 5, 7, 9]\n"},
		{"for over map and set", "use std::collections::{BTreeMap, HashSet};\nfn main() { let mut m = BTreeMap::new(); m.insert(3, \"c\"); m.insert(1, \"a\"); for (k, v) in &m { println!(\"{k}={v}\"); } let mut s = HashSet::new(); s.insert(2); s.insert(2); println!(\"{}\", s.len()); }", "1=a\n3=c\n1\n"},
		{"entry counts", "use std::collections::HashMap;\nfn main() { let mut c = HashMap::new(); for w in \"a b a c a\".split_whitespace() { *c.entry(w).or_insert(0) += 1; } println!(\"{:?}\", c); }", "{\"a\": 3, \"b\": 1, \"c\": 1}\n"},
		{"iter_mut break", `let mut v = vec![1, 2, 3]; for x in v.iter_mut() { *x = 0; break; } println!("{:?}", v);`, "[0, 2, 3]\n"},
		{"iter_mut", `let mut v = vec![1, 2, 3]; for x in v.iter_mut() { *x *= 10; } v.iter_mut().for_each(|x| *x += 1); for y in &mut v { *y -= 1; } println!("{:?}", v);`, "[10, 20, 30]\n"},
		{"get_mut first_mut last_mut", `let mut v = vec![1, 2, 3]; if let Some(x) = v.get_mut(1) { *x = 20; } if let Some(f) = v.first_mut() { *f += 5; } *v.last_mut().unwrap() = 9; let mut e: Vec<i32> = Vec::new(); println!("{:?} {:?} {:?}", v, e.last_mut(), v.get_mut(7));`, "[6, 20, 9] None None\n"},
		{"declared types type literals", "type Elem = f32;\nstruct P { a: u8, b: f32 }\nfn third(x: f32) -> f32 { x / 3.0 }\nfn half() -> Elem { 1.0 / 2.0 + 1.0 / 3.0 }\nfn main() { let p = P { a: 200, b: 1.0 }; println!(\"{} {} {} {}\", third(1.0), p.b / 3.0, half(), p.a.checked_add(100).is_none()); }", "0.33333334 0.33333334 0.8333333 true\n"},
		{"declared parameter type overflows", "fn f(x: u8) -> u8 { x + 250 }\nfn main() { println!(\"{}\", f(10)); }", "panic: attempt to add with overflow"},
		{"float ranges", `let r = 0.5f32..1.5; let ri = 0.0..=1.0; println!("{:?} {:?} {} {} {} {}", r, ri, r.contains(&1.5), ri.contains(&1.0), (1.0..0.5).is_empty(), ri.end());`, "0.5..1.5 0.0..=1.0 false true true 1\n"},
		{"vec try_into an array", `let v = vec![1, 2]; let [a, b]: [i32; 2] = v.clone().try_into().unwrap(); let [c, d] = v.clone().try_into().unwrap(); let r: Result<[i32; 3], _> = v.try_into(); println!("{a}{b}{c}{d} {:?}", r);`, "1212 Err([1, 2])\n"},
		{"vec try_into an array of another length", `let [a] = vec![1, 2].try_into().unwrap(); println!("{a}");`, "panic: called `Result::unwrap()` on an `Err` value: [1, 2]"},
		{"threads and atomics", "use std::sync::{Arc, atomic::{AtomicU32, AtomicBool, Ordering}};\nfn main() { let counter = Arc::new(AtomicU32::new(0)); let mut hs = Vec::new(); for i in 0..3 { let c = counter.clone(); hs.push(std::thread::spawn(move || { c.fetch_add(i + 1, Ordering::Relaxed); i * 10 })); } let r: Vec<u32> = hs.into_iter().map(|h| h.join().unwrap()).collect(); let f = AtomicBool::new(false); f.store(true, Ordering::SeqCst); let m = AtomicU32::new(u32::MAX); let old = m.fetch_add(2, Ordering::Relaxed); println!(\"{} {:?} {} {} {} {:?}\", counter.load(Ordering::Relaxed), r, f.load(Ordering::SeqCst), old, m.load(Ordering::Relaxed), counter.compare_exchange(5, 7, Ordering::SeqCst, Ordering::SeqCst)); }", "6 [0, 10, 20] true 4294967295 1 Err(6)\n"},
		{"durations", "use std::time::Duration;\nfn main() { println!(\"{:?} {:?} {:?} {:?} {:?} {} {}\", Duration::from_millis(1500), Duration::from_micros(10), Duration::from_nanos(100), Duration::from_secs(2), Duration::new(1, 5), Duration::from_millis(2500).as_secs_f32(), Duration::from_secs(3).as_millis()); }", "1.5s 10µs 100ns 2s 1.000000005s 2.5 3000\n"},
		{"bool then", `let a = (1 > 0).then(|| 5); let b = (1 < 0).then(|| 5); println!("{:?} {:?}", a, b);`, "Some(5) None\n"},
		{"TypeId and type_name through aliases", "type FloatElem = f32;\ntype IntElem = i32;\nfn main() { println!(\"{} {} {}\", core::any::TypeId::of::<FloatElem>() == core::any::TypeId::of::<f32>(), std::any::TypeId::of::<FloatElem>() == std::any::TypeId::of::<f64>(), core::any::type_name::<IntElem>()); }", "true false i32\n"},
		{"iterator constructors of std::iter", "fn main() { let v: Vec<i32> = [1, 2].iter().flat_map(|&v| core::iter::repeat_n(v, 3)).collect(); let w: Vec<i32> = std::iter::repeat(7).take(2).chain(std::iter::once(8)).collect(); let mut n = 0; let f: Vec<i32> = std::iter::from_fn(|| { n += 1; if n < 4 { Some(n) } else { None } }).collect(); let s: Vec<u32> = std::iter::successors(Some(1u32), |x| if *x < 100 { Some(x * 10) } else { None }).collect(); let e: Vec<i32> = std::iter::empty().collect(); println!(\"{:?} {:?} {:?} {:?} {:?}\", v, w, f, s, e); }", "[1, 1, 1, 2, 2, 2] [7, 7, 8] [1, 2, 3] [1, 10, 100] []\n"},
		{"num_traits cast", "use num_traits::cast::cast;\ntype FloatElem = f32;\nfn main() { let tol: FloatElem = cast(1e-4f64).unwrap(); let a: Option<u8> = cast::<i32, u8>(300); let b = cast::<f64, i32>(2.7); println!(\"{} {:?} {:?}\", tol, a, b); }", "0.0001 None Some(2)\n"},
		{"paths", "use std::path::{Path, PathBuf};\nfn main() { let dir = Path::new(\"/tmp/artifacts\"); let mut p = PathBuf::from(\"runs\"); p.push(\"exp1\"); let log = dir.join(\"experiment.log\"); println!(\"{} {:?} {:?} {:?} {:?} {:?}\", log.display(), p, log.extension(), log.file_name(), log.with_extension(\"txt\"), dir.parent()); }", "/tmp/artifacts/experiment.log \"runs/exp1\" Some(\"log\") Some(\"experiment.log\") \"/tmp/artifacts/experiment.txt\" Some(\"/tmp\")\n"},
		{"own iterator", "struct Countdown { n: u32 }\nimpl Iterator for Countdown { type Item = u32; fn next(&mut self) -> Option<u32> { if self.n == 0 { None } else { self.n -= 1; Some(self.n + 1) } } }\nfn main() { let v: Vec<u32> = Countdown { n: 5 }.filter(|x| x % 2 == 1).collect(); println!(\"{:?}\", v); for x in (Countdown { n: 2 }) { print!(\"{x} \"); } println!(); }", "[5, 3, 1]\n2 1 \n"},
		{"cell", "use std::cell::Cell;\nfn main() { let c = Cell::new(1); c.set(c.get() + 41); println!(\"{}\", c.get()); }", "42\n"},
		// Integers.
		{"u64 max exact", `let m = u64::MAX; println!("{} {}", m, m / 2);`, "18446744073709551615 9223372036854775807\n"},
		{"overflow i32", `let x: i32 = 2147483647; let y = x + 1; println!("{y}");`, "panic: attempt to add with overflow"},
		{"overflow u8 literal type", `let a: u8 = 200; let b = a * 2; println!("{b}");`, "panic: attempt to multiply with overflow"},
		{"checked wrapping", `let a: u8 = 200; println!("{:?} {} {} {:?}", a.checked_mul(2), a.wrapping_mul(2), a.saturating_mul(2), a.overflowing_add(100));`, "None 144 255 (44, true)\n"},
		{"casts", `println!("{} {} {} {}", -1i32 as u8, 300.5f64 as u8, f64::NAN as i32, (255u8 as i8));`, "255 255 0 -1\n"},
		{"negate overflow", `let m = i32::MIN; let n = -m;`, "panic: attempt to negate with overflow"},
		{"usize range underflow", `let v = vec![1, 2, 3]; for i in 0..v.len() { println!("{}", v[i] - v[i - 1]); }`, "panic: attempt to subtract with overflow"},
		{"typed range", `let s: u8 = (250u8..=255).map(|x| x - 250).sum(); println!("{s}");`, "15\n"},
		{"divide by zero", `let z = 0; println!("{}", 10 / z);`, "panic: attempt to divide by zero"},
		// Floats.
		{"f32 arithmetic", `let a = 0.1f32; let b = 0.2f32; println!("{} {:?} {}", a + b, 1.0f32 / 3.0, 0.1 + 0.2);`, "0.3 0.33333334 0.30000000000000004\n"},
		{"f32 typed by context", `let a: f32 = 0.1; let v: Vec<f32> = vec![0.2, 0.7]; println!("{} {} {:?} {}", a + v[0], v[0] + v[1] * 3.0, v, v[0] as f64);`, "0.3 2.3 [0.2, 0.7] 0.20000000298023224\n"},
		{"f32 methods", `let x: f32 = 2.0; println!("{} {} {}", x.sqrt(), x.powi(3), std::f32::consts::PI);`, "1.4142135 8 3.1415927\n"},
		// Strings and chars.
		{"str methods", `let s = "  Hello, World  "; let t = s.trim(); println!("{} {} {} {:?}", t.len(), t.to_uppercase(), t.replace("l", "L"), t.split(", ").collect::<Vec<_>>());`, "12 HELLO, WORLD HeLLo, WorLd [\"Hello\", \"World\"]\n"},
		{"chars", `let s = "abc"; let v: Vec<char> = s.chars().rev().collect(); println!("{:?} {}", v, s.chars().map(|c| c.to_ascii_uppercase()).collect::<String>());`, "['c', 'b', 'a'] ABC\n"},
		{"char range", `let s: String = ('a'..='e').collect(); let c = 'q'; println!("{s} {} {:?}", ('a'..'z').contains(&c), ('x'..='z').rev().collect::<Vec<char>>()); match c { 'a'..='m' => println!("first half"), _ => println!("second half") }`, "abcde true ['z', 'y', 'x']\nsecond half\n"},
		{"push_str", `let mut s = String::new(); s.push_str("ab"); s.push('c'); println!("{s} {}", s.len());`, "abc 3\n"},
		{"parse errors", `let e = "12a".parse::<i32>(); let f = "".parse::<u8>(); let g = "300".parse::<u8>(); println!("{:?}", e); match f { Err(x) => println!("{}", x), Ok(_) => {} } println!("{}", g.unwrap_err());`, "Err(ParseIntError { kind: InvalidDigit })\ncannot parse integer from empty string\nnumber too large to fit in target type\n"},
		{"parse unwrap panic", `let n: i32 = "x".parse::<i32>().unwrap();`, "panic: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }"},
		{"str slice", `let s = "hello"; println!("{}", &s[1..3]); let t = &s[2..9];`, "el\npanic: byte index 9 is out of bounds of `hello`"},
		// format!.
		{"format specs", `let pi = 3.14159265; let n = 255; println!("[{:>8.3}] [{:<5}] [{:^7}] [{:*^9}] [{:+}] [{:08.2}]", pi, n, "mid", "x", 5, -pi);`, "[   3.142] [255  ] [  mid  ] [****x****] [+5] [-0003.14]\n"},
		{"format radix exp", `println!("{:x} {:#X} {:o} {:#b} {:e} {:E} {:#010x}", 255, 255, 8, 5, 1500.0, 0.00012, 255);`, "ff 0xFF 10 0b101 1.5e3 1.2E-4 0x000000ff\n"},
		{"format args", `let w = 6; let x = 1.5; println!("[{:1$}] [{:.*}] [{:w$}] [{x:>w$.2}] [{0}-{0}]", 7, 2, 3.14159, "ab");`, "[ 7] [3.14] [ab    ] [  1.50] [7-7]\n"},
		{"pretty debug", `let v = vec![(1, "a")]; println!("{:#?}", v);`, "[\n    (\n        1,\n        \"a\",\n    ),\n]\n"},
		{"debug precision", `println!("{:.1?} {:5?}|", vec![1.25, 2.0], Some(3));`, "[1.2, 2.0] Some(    3)|\n"},
		// Vec.
		{"vec ops", `let mut v = vec![5, 3, 8, 1]; v.sort(); v.insert(1, 2); v.retain(|x| *x != 8); v.dedup(); println!("{:?} {:?} {:?}", v, v.first(), v.iter().rev().collect::<Vec<_>>());`, "[1, 2, 3, 5] Some(1) [5, 3, 2, 1]\n"},
		{"sort_by_key join", `let mut v = vec!["ccc", "a", "bb"]; v.sort_by_key(|s| s.len()); println!("{}", v.join("-")); let mut w = vec![3, 1, 2]; w.sort_by(|a, b| b.cmp(a)); println!("{:?}", w);`, "a-bb-ccc\n[3, 2, 1]\n"},
		{"drain split_at", `let mut v = vec![1, 2, 3, 4, 5]; let d: Vec<i32> = v.drain(1..3).collect(); let (a, b) = v.split_at(1); println!("{:?} {:?} {:?} {:?}", d, v, a, b);`, "[2, 3] [1, 4, 5] [1] [4, 5]\n"},
		{"index panic usize", `let v = vec![1, 2, 3]; let i = -1i64 as usize; v[i];`, "panic: index out of bounds: the len is 3 but the index is 18446744073709551615"},
		{"pretty map", "use std::collections::HashMap;\nfn main() { let mut m = HashMap::new(); m.insert(\"k\", vec![1]); println!(\"{:#?}\", m); }", "{\n    \"k\": [\n        1,\n    ],\n}\n"},
		{"index panic", `let v = vec![1, 2, 3]; let i = 5; println!("{}", v[i]);`, "panic: index out of bounds: the len is 3 but the index is 5"},
		{"remove panic", `let mut v = vec![1]; v.remove(3);`, "panic: removal index (is 3) should be < len (is 1)"},
		{"slice panic", `let v = [1, 2, 3]; let s = &v[2..1];`, "panic: slice index starts at 2 but ends at 1"},
		// Option and Result.
		{"combinators", `let x = Some(3); println!("{:?} {:?} {:?} {} {:?} {}", x.map(|v| v * 2), x.and_then(|v| if v > 5 { Some(v) } else { None }), x.filter(|v| *v == 3), x.is_some_and(|v| v > 1), x.ok_or("none"), None.unwrap_or_else(|| 7));`, "Some(6) None Some(3) true Ok(3) 7\n"},
		{"result combinators", `let r: Result<i32, String> = Err("bad".to_string()); println!("{:?} {:?} {} {:?}", r.clone().map_err(|e| e.len()), r.clone().or_else(|_| Ok::<i32, String>(0)), r.clone().unwrap_or_default(), r.ok());`, "Err(3) Ok(0) 0 None\n"},
		{"take", `let mut x = Some(2); let y = x.take(); println!("{:?} {:?}", x, y);`, "None Some(2)\n"},
		{"expect panic", `let x: Option<i32> = None; x.expect("need a value");`, "panic: need a value"},
		{"unwrap none", `let x: Option<i32> = None; x.unwrap();`, "panic: called `Option::unwrap()` on a `None` value"},
		{"std functions", "use std::mem;\nuse std::cmp::max;\nfn main() { let mut a = 1; let mut b = 2; mem::swap(&mut a, &mut b); let mut v = vec![1]; let old = std::mem::take(&mut v); let r = mem::replace(&mut a, 9); println!(\"{a} {b} {:?} {:?} {r} {}\", v, old, max(3, 7)); let words: Vec<String> = vec![\"x\", \"y\"].into_iter().map(String::from).collect(); let oks: Vec<i32> = vec![\"1\", \"z\", \"3\"].iter().map(|s| s.parse::<i32>()).filter_map(Result::ok).collect(); println!(\"{:?} {:?} {}\", words, oks, \"ab1\".chars().filter(char::is_ascii_digit).count()); }", "9 1 [] [1] 2 7\n[\"x\", \"y\"] [1, 3] 1\n"},
		// Pointers with value semantics.
		{"box rc refcell", "use std::rc::Rc;\nuse std::cell::RefCell;\nfn main() { let b = Box::new(5); let r = Rc::new(RefCell::new(vec![1])); r.borrow_mut().push(2); println!(\"{} {:?} {}\", b, r.borrow(), *b + 1); }", "5 [1, 2] 6\n"},
		{"rc refcell shared", "use std::rc::Rc;\nuse std::cell::RefCell;\nfn main() { let a = Rc::new(RefCell::new(0)); let b = Rc::clone(&a); *b.borrow_mut() += 5; let c = a.clone(); *c.borrow_mut() *= 2; println!(\"{} {:?}\", a.borrow(), b); }", "10 RefCell { value: 10 }\n"},
		{"mutex guard", "use std::sync::{Arc, Mutex};\nfn main() { let m = Arc::new(Mutex::new(1)); let m2 = Arc::clone(&m); { let mut g = m2.lock().unwrap(); *g += 41; } println!(\"{} {:?}\", *m.lock().unwrap(), m); }", "42 Mutex { data: 42, poisoned: false, .. }\n"},
		{"mutex", "use std::sync::{Arc, Mutex};\nfn main() { let m = Arc::new(Mutex::new(vec![1])); m.lock().unwrap().push(4); println!(\"{:?}\", m.lock().unwrap()); }", "[1, 4]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			if !strings.Contains(src, "fn main") {
				src = "fn main() {\n" + src + "\n}"
			}
			out := eval(t, Run, src, Options{})
			got := out.Output
			if out.Panic != nil {
				got += "panic: " + out.Panic.Message
			}
			for _, d := range out.Diags {
				if d.Code != "user-panic" {
					got += "\n[" + d.Code + "] " + d.Message
				}
			}
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestOutsideWorldIsABoundary lets a program that needs the clock or the
// file system run: the call is a warning and its value unknown, never a
// value the playground made up; sleeping needs nothing.
func TestOutsideWorldIsABoundary(t *testing.T) {
	src := `use std::time::{Duration, Instant};
fn unused() { let _ = std::fs::read_to_string("x"); }
fn main() {
    let start = Instant::now();
    std::thread::sleep(Duration::from_millis(5));
    println!("ran");
    let _t = start;
}`
	checked := eval(t, Check, src, Options{})
	var warned []string
	for _, d := range checked.Diags {
		if d.Severity == diag.Error {
			t.Errorf("error %s: %s", d.Code, d.Message)
		}
		if d.Code == CodeOutsideWorld {
			warned = append(warned, d.Message)
		}
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "`std::time::Instant::now` needs the clock") {
		t.Errorf("warnings %q: want one, for Instant::now (not for sleep, nor for the uncalled read)", warned)
	}
	if ran := eval(t, Run, src, Options{}); ran.Output != "ran\n" || ran.Panic != nil {
		t.Errorf("run printed %q, panic %+v", ran.Output, ran.Panic)
	}
}

// TestExitEndsTheCheck: after a process::exit that surely runs nothing
// runs, so what follows raises no panic in the check either; what follows
// is still compiled.
func TestExitEndsTheCheck(t *testing.T) {
	src := `fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage");
        std::process::exit(1);
    }
    println!("{}", args[2]);
}`
	runOK(t, src, "usage\n")
	reports(t, "fn main() {\n    std::process::exit(0);\n    no_such_fn();\n}", "unknown-function", "cannot find function `no_such_fn` in this scope")
}

// Macros and patterns.
let a = foo!(1, 2);
let b = my::path!{};
include_str!("data.txt");
println!("{}" x /* ERROR "^expected one of `,` or `\)`, found `x`$" */);
let v = vec![1; 2; /* ERROR "^expected `\]`, found `;`$" */ 3];
let m = matches!(x /* ERROR HERE "^expected `,`, found `\)`$" */ );
assert!(a, b,);
let g = async /* ERROR unsupported-syntax "^`async` closures are not supported by the playground$" */ |x| x;
let h = static /* ERROR unsupported-syntax "^`static` closures are not supported" */ || 1;

let box /* ERROR unsupported-syntax "^`box` patterns are not supported" */ inner = boxed;
let < /* ERROR unsupported-syntax "^qualified paths in patterns are not supported" */ T as Tr>::C = x;
match x { mac!() => 1, _ => 2 }
match x { 1... /* ERROR "^`...` range patterns are deprecated$" */ 5 => 1, _ => 2 }
match x { A => /* ERROR HERE "^expected expression, found `\}`$" */ }
match x { A 1 /* ERROR "^expected `=>`, found `1`$" */ => 1, B => 2 }
match x { - /* ERROR "^expected pattern, found `-`$" */ a => 1, _ => 2 }
let Point { x, .. } = p;
let [first, .., last] = xs;
let (a, ref mut b, _) = t;
match v { Some(n @ 1..=9) | Some(n @ -9..=-1) => n, _ => 0 };

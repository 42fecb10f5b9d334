// Macro definitions and calls in every position the parser keeps them.
#[macro_export]
macro_rules! square {
    ($x:expr) => { $x * $x };
    ($x:expr, $($rest:expr),+ $(,)?) => { square!($x) + square!($($rest),+) };
}

macro_rules! make_fn [
    ($name:ident) => { fn $name() -> u8 { 1 } }
];

make_fn!(one);
crate::make_fn! { two }

struct S;
impl S {
    make_fn!(three);
}

fn main() {
    let a = square!(2);
    let b = log::info!(target: "app", "a = {}", a);
    let v: ty_of!(u8) = 1;
    match a {
        pat_of!(4) => {}
        _ => {}
    }
    stmts! { let c = 1; }
    println!("{}", stringify!(a + b, c));
}

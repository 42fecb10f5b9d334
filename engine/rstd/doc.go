// Package rstd is Rust's standard library as the engine models it: the
// integer and float types with their widths, overflow panics and `as`
// casts, str and String, format! and its specs, Vec and slices, HashMap,
// HashSet and BTreeMap, Option and Result, the smart pointers, and
// Iterator with its lazy adapters.
//
// It is not Burn: nothing here knows about tensors or devices; the values
// Burn's API takes and returns live in engine/dispatch and are formatted
// there. The library is a set of small named functions, one file per area
// (ints.go, floats.go, strings.go, format.go, collections.go, iter.go,
// option_result.go), reached through Method, Binary, Cast, Function and
// Const.
//
// rstd must not import engine/interp: the evaluator calls into it, and the
// few things std needs back from the evaluator (calling a closure, charging
// a step of the budget) go through the Caller interface, so the library
// stays a library.
//
// Semantics follow a debug build of rustc: arithmetic that overflows
// panics with std's message ("attempt to add with overflow"), as do
// division by zero, out-of-bounds indexing and unwrapping None, each with
// std's exact text. A u64 or usize value is held in Int.V as its bit
// pattern (the suffix says how to read it); i128 and u128 values that do
// not fit 64 bits are Big. f32 arithmetic is rounded to f32 after every
// operation and prints with f32's shortest round-trip digits.
//
// An integer literal without a suffix takes the type its context names
// (the declared type of a let, the other operand), else i32 as rustc
// defaults it. When neither operand of an operation names a type, the
// engine checks the operation against i64's range: rustc would infer the
// type from later uses, which the engine does not follow, and a narrower
// guess would panic where the real program does not.
//
// Iterators are lazy as Rust's are: an Iter pulls one element at a time
// from its source, so `(0..).map(f).take(3)` ends and a closure in map runs
// only for the elements pulled. Every pulled element costs one step of the
// evaluator's budget (Caller.Step).
//
// HashMap and HashSet iterate in insertion order. Rust's iterate in an
// order that depends on a random seed per process, so a real program may
// print a HashMap in another order than the playground; the playground
// must be deterministic (the native engine and the WebAssembly build agree
// byte for byte), and insertion order is the one a reader expects.
// BTreeMap and BTreeSet iterate sorted, as Rust's do.
//
// Box, Rc and Arc are transparent (Box::new(x) is x). RefCell, Cell,
// Mutex and RwLock are one shared slot (Cell): borrow_mut and
// lock().unwrap() hand out the slot as a `&mut`, so a write through them
// lands in the cell, and every clone of the Rc or Arc around one sees it.
// Cloning a bare RefCell shares it too, where Rust would copy it.
package rstd

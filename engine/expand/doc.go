// Package expand is macro expansion: the phase between the parser and the
// evaluator that replaces every macro call rustc expands before type
// checking with what it expands to. It follows rustc_expand's mbe
// (macro-by-example) algorithm and works on token trees; it must not
// evaluate anything.
//
// The program's own `macro_rules!` macros are expanded as rustc does:
//
//   - A definition compiles each rule's matcher into rustc's flat
//     MatcherLoc form (rules.go). Fragment specifiers are checked ("invalid
//     fragment specifier"), as are repetition operators.
//   - A call tries the rules in order. Matching (match.go) is rustc's
//     macro_parser: an NFA over the matcher that reads the arguments a
//     token at a time; at a `$x:kind` it calls the parser for that one
//     fragment (syntax.ParseFragment) and commits to what it reads, so a
//     fragment that does not parse is an error, and two ways on at a
//     fragment is a "local ambiguity". Every fragment kind is read: expr,
//     ident, ty, tt, pat, pat_param, path, literal, block, stmt, item,
//     lifetime, meta, vis. When no rule matches, the error is rustc's, at
//     the token where the rule that got furthest stopped: "no rules
//     expected `x`" or "unexpected end of macro invocation", with "while
//     trying to match ..." and "when calling this macro".
//   - Transcription (transcribe.go) substitutes the bindings and repeats
//     `$(...) sep op` in lockstep, with rustc's errors for repetitions
//     that do not line up. `$crate` becomes `crate`. A substituted `$e:expr`
//     is wrapped in invisible delimiters, so it stays one operand (`$e * 2`
//     with `1 + 1` is 4).
//   - The output is parsed for the call's position (expression,
//     statements, items, impl or trait members, pattern, type) and
//     expanded in turn; macros defining items (`#[test] fn`s, `impl`s,
//     other macros) and macros calling macros work as they do in rustc.
//     Nesting deeper than RecursionLimit (rustc's default, 128) is
//     "recursion limit reached while expanding `m!`"; MaxTokens and
//     MaxExpansions bound what hostile input can build.
//
// Scoping is macro_rules!'s textual scope: a macro is visible after its
// definition, in the rest of its block or module (past the module with
// #[macro_use]); a #[macro_export] macro is visible everywhere, also as
// `crate::name!` and `$crate::name!`. A call of a macro that is neither the
// program's nor a built-in is "cannot find macro `x` in this scope".
//
// Hygiene is modelled for local variables only: a variable that a macro's
// body binds (with `let`, `if let`, `while let`, `for`, or as a function's
// or closure's parameter) is renamed, with its uses in that body, so that
// it neither captures nor shadows the caller's variables. Names that come
// from the arguments are the caller's and stay. Not modelled: the hygiene
// of match arm bindings, of labels, of implicit format captures (`{x}` in
// a format string of the body), and the def-site resolution of items; as in
// rustc, items a macro defines are not hygienic.
//
// Options.Test says whether the program is built as tests, for cfg!(test).
//
// Spans: each expansion's text is added to main.rs's source.File as a
// region of generated text whose call site is the invocation (see
// source.File.Generate). The nodes built from it have their ranges there,
// so that the evaluator reads their text, and the engine resolves every
// range it reports: a node inside an argument points at that argument in
// the call, anything else at the call itself.
//
// The built-ins that rustc expands before type checking are expanded here
// (builtin.go): stringify!, concat!, env! and option_env! (Cargo's
// compile-time variables for the user's package), line!, column!, file!,
// module_path!, cfg! (against the package's features, a debug build and the
// target), compile_error!, and include_str!, include_bytes! and include!,
// which name a file the request does not carry: a playground-unmodelled
// warning and an unknown value. The log and tracing macros are resolved and
// their parts separated (log.go); the built-ins that evaluate their
// arguments (println!, assert!, vec!, ...) are left to the evaluator with
// their arguments expanded.
//
// Under an item or statement that #[cfg] leaves out (in a run and in a
// test run), expansion still runs but reports nothing, as rustc does not
// look there.
package expand

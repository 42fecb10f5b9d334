// Package syntax reads the Burn snippet language, a subset of Rust, into an
// AST whose every node carries its byte range in main.rs.
//
// Parse is the entry point. It accepts whole programs (use lines, fn main and
// other items) and doc-test style snippets of bare statements, mixed in any
// order. It never panics and never gives up silently: malformed input yields
// parse-phase diagnostics in rustc's words ("expected `;`, found keyword
// `let`") pointing at the offending token, valid Rust outside the subset is
// named in an unsupported-syntax diagnostic, and hostile input (deep
// nesting, megabytes of noise) is cut short by MaxNesting and
// MaxDiagnostics. Inspect and File.Walk traverse the tree in source order;
// Dump prints it as an S-expression for tests.
//
// Macros stay macros here: a `macro_rules!` definition is an item holding
// its rules as tokens, and a call of any macro whose arguments the parser
// does not read itself keeps its token tree (MacroExpr.Tokens), in item,
// statement, expression, pattern and type position. Expanding them is
// expand's job; for it, Tokens, ParseExpr, ParseStmts, ParseItems,
// ParsePattern, ParseType and ParseFragment run the same parser over a
// token slice instead of text.
//
// It knows nothing of Burn's semantics, resolves no names or types, and
// keeps no state between calls; interpreting the tree is interp's job and
// checking it is check's.
package syntax

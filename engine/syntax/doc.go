// Package syntax reads the Burn snippet language, a subset of Rust, into an
// AST whose every node carries its byte range in main.rs.
//
// Parse never panics and never gives up silently: malformed input yields
// diagnostics in rustc's words ("expected `;`, found `let`") pointing at the
// offending token, and constructs outside the subset are named in a
// diagnostic. It knows nothing of Burn's semantics; that is interp's job.
package syntax

// Package interp evaluates a parsed snippet against the dispatch model.
//
// It runs in one of two modes over the same evaluator, so the two promises
// of the design hold by construction:
//
//   - Check walks every statement without stopping: a Burn panic or a call
//     rustc would reject becomes a diagnostic, the failing value becomes
//     dispatch.Unknown (which silences everything computed from it), and
//     both arms of a condition it cannot decide are visited. Every error it
//     can find is reported.
//   - Run executes statement by statement and stops at the first panic,
//     exactly where Burn would, with the trace of what ran before it.
//
// Because a Run follows one of the paths Check visits with the same values,
// a panic in Run is always a diagnostic of Check at the same span, and a
// Check without errors means Run does not panic.
//
// Check covers the whole program, as rustc does: after the entry it
// evaluates every function and method the entry did not reach, once, with
// its parameters unknown (whole.go). Unknown values silence whatever is
// computed from them, so those functions yield only what rustc would find
// (unknown names, wrong arities, methods Burn's API does not have); the
// panics they would raise if called are dropped, since they never run. The
// promises therefore still hold: the extra checking adds no panic
// diagnostic, and Run never enters a function its entry does not call.
//
// Limits are deterministic: a step budget stands for the time limit and an
// output budget for the output limit, so the native engine and the
// WebAssembly build agree byte for byte. The package holds no global state
// and never lets a Go panic escape (see Eval's single recover).
package interp

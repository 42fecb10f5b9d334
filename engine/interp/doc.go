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
// Limits are deterministic: a step budget stands for the time limit and an
// output budget for the output limit, so the native engine and the
// WebAssembly build agree byte for byte. The package holds no global state
// and never lets a Go panic escape (see Eval's single recover).
package interp

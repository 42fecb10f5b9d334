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
// No verdict the engine cannot back. An assertion (assert!, assert_eq!,
// assert_ne! and their debug_ forms, TensorData's assert_eq and
// assert_approx_eq, a tensor comparison used as a condition), a branch
// (if, while, match, a guard) or a print whose values the engine does not
// know never passes in silence: it is a playground-unchecked warning at its
// span that names what was not known, and the Result is not complete. The
// warning comes from Run alone (unchecked.go). In Run, a value is unknown
// only for a cause other than an error: an operation whose values are not
// computed, a tensor past the value budget, a Burn item or a boundary
// (a file) the engine does not model, since an error stops the run or
// rejects the program before it. Check is not where it can be said:
// there an unknown value is as often the failing step of an error already
// reported, an arm of a condition it could not decide, or a parameter of a
// function nobody calls, and none of those is something the program did.
// Once a run has reported an error of its own, it warns no more.
//
// A branch whose condition the engine does not know is run as the warning
// says (both arms of an if, the first arm of a match), but Burn may never
// take it: a panic raised inside it (guessedIf, guessedPanic) is neither
// the check's error nor the run's panic. It is a playground-unchecked
// warning of the run that quotes the panic, and the branch goes on with an
// unknown value. Both modes agree, so the promises hold.
//
// With that exception the promises read: for a complete Result both hold
// as above; for an incomplete one, (1) reads "no panic the engine can
// see": where it did not know the values, Burn may still panic or an
// assertion fail, and the warnings say where.
//
// Limits are deterministic: a step budget stands for the time limit and an
// output budget for the output limit, so the native engine and the
// WebAssembly build agree byte for byte. The package holds no global state
// and never lets a Go panic escape (see Eval's single recover).
package interp

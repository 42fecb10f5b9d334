package interp

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

// The program as Burn's crates call it back. burn-dataset's loader calls
// the program's Batcher, burn-train's learner its TrainStep and
// InferenceStep, a Dataset's iterator its get: the models of those crates
// (engine/nn and beside it) call through hostOf, at the site of the Burn
// call that is running, and a panic or a limit inside the program's code
// comes back to them as an error they return unchanged, which burnAt
// turns back into the evaluator's signal.

// site is the range of the Burn call that is running, where a callback
// into the program is charged and reported.
func (h hostOf) site() source.Range {
	if n := len(h.in.sites); n > 0 {
		return h.in.sites[n-1]
	}
	return source.Range{}
}

// CallMethod calls recv.name(args) as the program would write it: the
// program's own method (an inherent one, a trait impl's or a trait's
// default) when recv is a value of its types, otherwise Burn's method of
// that name. ok is false when recv is the program's and it has no such
// method.
func (h hostOf) CallMethod(recv dispatch.Value, name string, args []dispatch.Value) (v dispatch.Value, ok bool, err error) {
	r := h.site()
	if isUnknown(recv) {
		return unknown, true, nil
	}
	trait, method, qualified := strings.Cut(name, "::")
	if en, isUser := dispatch.Deref(recv).(*dispatch.Enum); isUser && h.in.structs[en.Type] != nil {
		fn := h.in.pickImpl(h.in.assocFn(en.Type, name), en.Type, name, args)
		if qualified {
			// `Trait::name`: that trait's method, as `<T as Trait>::name`
			// calls it (TrainStep::step beside InferenceStep::step).
			fn = h.in.implOrDefault(trait, en.Type, method)
		}
		if fn == nil {
			return nil, false, nil
		}
		v, sig := h.in.callUserSelf(fn, recv, args, r)
		if sig != nil {
			return nil, true, &sigError{sig}
		}
		h.resume(r)
		return v, true, nil
	}
	if qualified {
		name = method
	}
	v, sig := h.in.burn(dispatch.Call{Recv: recv, Method: name, Args: args}, r, nil)
	if sig != nil {
		return nil, true, &sigError{sig}
	}
	h.resume(r)
	return v, true, nil
}

// resume makes the Burn call that called the program back the running
// one again, as burnAt does after a Callback: what it does next is traced
// and reported at its site, not at the last call the program made.
func (h hostOf) resume(r source.Range) {
	if len(h.in.sites) == 0 {
		return
	}
	h.in.world.SetSite(len(h.in.sites))
	h.in.sites = append(h.in.sites, r)
}

// Call calls a closure or function value the program gave Burn.
func (h hostOf) Call(fn dispatch.Value, args []dispatch.Value) (dispatch.Value, error) {
	r := h.site()
	v, sig := h.in.callBack(fn, args, r)
	if sig != nil {
		return nil, &sigError{sig}
	}
	h.resume(r)
	return v, nil
}

// Step charges one step of the budget, as a loop of Burn's over the
// program's data does for every element it pulls.
func (h hostOf) Step() error {
	if sig := h.in.step(h.site()); sig != nil {
		return &sigError{sig}
	}
	return nil
}

// Unchecked reports, in a run, at the site of the Burn call that is
// running, that what a crate model did was not checked because the
// playground does not know unknownWhat (a loader over a dataset of
// unknown length runs one batch).
func (h hostOf) Unchecked(what, unknownWhat string) {
	h.in.unchecked(h.site(), what, unknownWhat)
}

// NotModelled reports, at the site of the running Burn call, a part of
// Burn's work there that the engine does not model or did not run
// (message, a sentence): a playground-unmodelled warning of the check, so
// the Result is not complete, while the call goes on with what it has.
func (h hostOf) NotModelled(message string, help ...string) {
	in := h.in
	if in.opts.Mode != Check || in.uncalled {
		return
	}
	in.report(diag.Diagnostic{Code: CodeUnmodelled, Severity: diag.Warning, Phase: diag.Check, File: diag.MainRS,
		Range: h.site(), Message: message, Help: help})
}

// Uncalled reports whether the code running is a function nobody calls,
// evaluated for its compile errors only (whole.go): a crate model may do
// less work there, since no value of it is seen.
func (h hostOf) Uncalled() bool { return h.in.uncalled }

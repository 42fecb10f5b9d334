package interp

import (
	"sort"

	"github.com/dispatch-playground/playground/engine/syntax"
)

// rustc checks every function of a crate, called or not: a misspelled call
// in a function nothing calls is still an error. Check does the same. After
// the program's own entry (main, or the bare statements) it evaluates each
// function and method the entry did not reach, once, in source order, with
// its parameters (and self) unknown. Unknown values silence everything
// computed from them, so such a check finds what rustc finds (unknown
// names, wrong arities, calls Burn's API does not have) and nothing that
// depends on values. What it can never find is a panic: a function that is
// not called does not run, so a Burn panic or a failed assert it would
// raise if called is not reported. Both promises keep holding: the
// uncalled functions add no panic to the check, and the run never enters
// them.

// checkUncalled evaluates, in check mode, every function of the program the
// entry did not reach.
func (in *interp) checkUncalled() {
	if in.opts.Mode != Check || in.panic != nil || in.limited != "" {
		return
	}
	var fns []*syntax.FnDecl
	for fn := range in.fnMod {
		if fn.Body != nil && !in.entered[fn] {
			fns = append(fns, fn)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Range.Start < fns[j].Range.Start })
	in.uncalled = true
	defer func() { in.uncalled = false }()
	for _, fn := range fns {
		if in.entered[fn] || in.limited != "" {
			continue
		}
		params := fn.Params
		var self value
		if len(params) > 0 && params[0].Self {
			self, params = unknown, params[1:]
		}
		args := make([]value, len(params))
		for i := range args {
			args[i] = unknown
		}
		in.world = in.freshWorld()
		if _, sig := in.callUserSelf(fn, self, args, fn.NameSpan); sig != nil && sig.kind == sigStop {
			return
		}
	}
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/train"
)

// unknownArgTakers are the crate models that answer some calls whose
// arguments are unknown (each says which); burnAt gives every other call
// with an unknown argument an unknown result.
var unknownArgTakers = []func(dispatch.Call) bool{
	train.TakesUnknown,
}

func takesUnknown(c dispatch.Call) bool {
	for _, f := range unknownArgTakers {
		if f(c) {
			return true
		}
	}
	return false
}

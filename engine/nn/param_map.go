package nn

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// ParamCall answers Param::map(self, func) (burn-core
// src/module/param/base.rs:390): the tensor, initialized if it was lazy
// (consume derefs it), given to the program's closure; the Param it makes
// keeps the id and takes the require_grad of the closure's tensor. The
// modern-lstm example sets a Linear's bias this way
// (`weight_ih.bias.map(|p| p.map(|_t| bias))`).
func ParamCall(w *dispatch.World, c dispatch.Call, h Host) (dispatch.Value, bool, error) {
	p, isParam := dispatch.Deref(c.Recv).(*Param)
	if !isParam || c.Method != "map" {
		return nil, false, nil
	}
	if len(c.Args) != 1 {
		return nil, true, wrongArity(1, len(c.Args))
	}
	var unknownResult bool
	out, err := p.mapped(w, func(t *dispatch.Tensor) (dispatch.Value, error) {
		v, err := h.Call(c.Args[0], []dispatch.Value{t})
		if err != nil {
			return nil, err
		}
		if nt, isTensor := dispatch.Deref(v).(*dispatch.Tensor); isTensor {
			return nt, nil
		}
		// A closure's tensor the engine does not know: the Param is
		// unknown too.
		unknownResult = true
		return t, nil
	})
	if err != nil {
		return nil, true, err
	}
	if unknownResult {
		return dispatch.Unknown{}, true, nil
	}
	return out, true, nil
}

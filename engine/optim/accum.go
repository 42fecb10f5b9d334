package optim

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// GradientsAccumulator is burn-optim's GradientsAccumulator
// (optim/grad_accum.rs:11): the sum of the gradients of several
// backwards, by param.
type GradientsAccumulator struct {
	grads *GradientsParams
}

func (*GradientsAccumulator) TypeName() string { return "GradientsAccumulator" }

func accumulatorMethod(w *dispatch.World, h nn.Host, a *GradientsAccumulator, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "accumulate":
		// grad_accum.rs:34-40 with ModuleGradsAccumulator (:58-72): for
		// every float Param of the module, the new gradient added to the
		// one held, each removed with the param's rank.
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		if !nn.IsModule(c.Args[0], h) {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "the trait bound `" + dispatch.Deref(c.Args[0]).TypeName() + ": AutodiffModule` is not satisfied"}
		}
		incoming, ok := dispatch.Deref(c.Args[1]).(*GradientsParams)
		if !ok {
			return nil, mismatch(2, "GradientsParams", c.Args[1])
		}
		incoming = incoming.clone()
		err := nn.ForEachParam(w, c.Args[0], h, func(p *nn.Param) error {
			if t, _ := initialized(w, p); t != nil && t.Kind() != dispatch.KindFloat {
				return nil
			}
			key, rank := paramKey(w, p.ID), len(p.Shape())
			remove := func(g *GradientsParams) (*dispatch.Tensor, error) {
				e, ok := g.grads[key]
				if !ok {
					return nil, nil
				}
				if e.t.Rank() != rank {
					return nil, burnPanic("optim-grads-remove-rank", msgResultUnwrapAny, "crates/burn-std/src/tensor/container.rs:69")
				}
				delete(g.grads, key)
				return e.t, nil
			}
			fresh, err := remove(incoming)
			if err != nil {
				return err
			}
			held, err := remove(a.grads)
			if err != nil {
				return err
			}
			sum := fresh
			switch {
			case fresh != nil && held != nil:
				v, err := w.Call(dispatch.Call{Recv: held, Method: "add", Args: []dispatch.Value{fresh}})
				if err != nil {
					return err
				}
				t, ok := dispatch.Deref(v).(*dispatch.Tensor)
				if !ok {
					return errNotTensor
				}
				sum = t
			case fresh == nil && held == nil:
				return nil
			case fresh == nil:
				sum = held
			}
			a.grads.grads[key] = gradEntry{id: dispatch.Deref(p.ID), t: sum}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return dispatch.Unit{}, nil
	case "grads":
		// grad_accum.rs:43-48: the sum, the accumulator emptied.
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		out := a.grads
		a.grads = newGradientsParams()
		return out, nil
	}
	return nil, unknownMethod("GradientsAccumulator", c.Method)
}

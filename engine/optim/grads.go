package optim

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// GradientsParams is burn-optim's GradientsParams (optim/grads.rs:14):
// the gradients of a module's parameters by ParamId, in a TensorContainer
// (burn-std tensor/container.rs), a map.
type GradientsParams struct {
	grads map[any]gradEntry
}

type gradEntry struct {
	id dispatch.Value
	t  *dispatch.Tensor
}

func (*GradientsParams) TypeName() string { return "GradientsParams" }

func newGradientsParams() *GradientsParams { return &GradientsParams{grads: map[any]gradEntry{}} }

func (g *GradientsParams) clone() *GradientsParams {
	out := newGradientsParams()
	for k, v := range g.grads {
		out.grads[k] = v
	}
	return out
}

// Len is GradientsParams::len.
func (g *GradientsParams) Len() int { return len(g.grads) }

func (g *GradientsParams) take(key any) (*dispatch.Tensor, bool) {
	e, ok := g.grads[key]
	if ok {
		delete(g.grads, key)
	}
	return e.t, ok
}

// FromModule is GradientsParams::from_module / from_params
// (grads.rs:34-52) with GradientsParamsConverter (visitor.rs:26-48): for
// every float Param of the module (in the filter, when there is one) that
// requires a gradient, param.val().grad_remove(grads), registered under
// its id when there is one.
func FromModule(w *dispatch.World, h nn.Host, grads dispatch.Value, module dispatch.Value, filter []dispatch.Value) (*GradientsParams, error) {
	out := newGradientsParams()
	var keep map[any]bool
	if filter != nil {
		keep = map[any]bool{}
		for _, id := range filter {
			keep[paramKey(w, id)] = true
		}
	}
	err := nn.ForEachParam(w, module, h, func(p *nn.Param) error {
		if t, _ := initialized(w, p); t != nil && t.Kind() != dispatch.KindFloat {
			return nil
		}
		key := paramKey(w, p.ID)
		if keep != nil && !keep[key] {
			return nil
		}
		// `param.is_require_grad()` (visitor.rs:38) derefs the Param to its
		// tensor, creating a lazy one, and asks the tensor: false off an
		// autodiff device, so grad_remove is not called there.
		t, err := p.Val(w)
		if err != nil {
			return err
		}
		if !isTrue(w.Call(dispatch.Call{Recv: t, Method: "is_require_grad"})) {
			return nil
		}
		v, err := w.Call(dispatch.Call{Recv: t, Method: "grad_remove", Args: []dispatch.Value{&dispatch.Ref{V: grads, Mut: true}}})
		if err != nil {
			return err
		}
		if en, ok := dispatch.Deref(v).(*dispatch.Enum); ok && en.Variant == "Some" && len(en.Fields) == 1 {
			if gt, ok := dispatch.Deref(en.Fields[0]).(*dispatch.Tensor); ok {
				out.grads[key] = gradEntry{id: p.ID, t: gt}
			}
		}
		return nil
	})
	return out, err
}

// initialized is the Param's tensor when it exists, without creating a
// lazy one.
func initialized(w *dispatch.World, p *nn.Param) (*dispatch.Tensor, error) {
	if !p.Initialized() {
		return nil, nil
	}
	return p.Val(w)
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// forgetOpenLoop is the end of a `for` loop over an open iterator (one
// whose end the engine does not know, rstd.FromNextOpen: a DataLoader's
// pass over a dataset of unknown length). The loop ran the elements the
// engine knows; Burn's may run more, so a variable of the enclosing code
// the body assigns (`n += 1`, `total = total + loss`) holds what an unknown
// number of iterations made: a scalar is unknown, a tensor keeps its shape
// and loses its values.
func (in *interp) forgetOpenLoop(body *syntax.BlockExpr) {
	syntax.Inspect(body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FnDecl:
			return false
		case *syntax.AssignExpr:
			p, isPath := x.Lhs.(*syntax.PathExpr)
			if !isPath || len(p.Segments) != 1 {
				return true
			}
			b := in.scope.lookup(p.Segments[0].Name)
			if b == nil {
				return true
			}
			if r, isRef := b.v.(*dispatch.Ref); isRef && r.Mut {
				r.Store(forgetCount(r.V))
			} else {
				b.v = forgetCount(b.v)
			}
		}
		return true
	})
}

// forgetCount is v after an unknown number of iterations changed it.
func forgetCount(v dispatch.Value) dispatch.Value {
	if t, isTensor := v.(*dispatch.Tensor); isTensor {
		return t.WithoutValues()
	}
	return dispatch.Unknown{}
}

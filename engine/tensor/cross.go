package tensor

// Cross is cross(other, dim) of two tensors of one shape whose dim has
// size 3, as burn-flex computes it (crates/burn-flex/src/ops/float.rs:193):
// c0 = a1*b2 - a2*b1, c1 = a2*b0 - a0*b2, c2 = a0*b1 - a1*b0, each product
// and difference in the dtype. burn-autodiff's gradients
// (crates/burn-autodiff/src/ops/tensor.rs:618) are cross(b, grad) for a
// and cross(grad, a) for b. Tensors of different shapes (broadcast) are
// left to the caller: no values.
func Cross(a, b *Tensor, dim int) (*Tensor, error) {
	if err := checkDim(a, dim); err != nil {
		return nil, err
	}
	if !sameShape(a.Shape, b.Shape) || a.Shape[dim] != 3 || !a.DType.IsFloat() || a.DType != b.DType {
		return nil, shapeError("cross of %v and %v along %d", a.Shape, b.Shape, dim)
	}
	out := crossData(&a.Data, &b.Data, dim)
	return track(out, []*Tensor{a, b}, func(g *Data, need []bool) []*Data {
		grads := make([]*Data, 2)
		if need[0] {
			grads[0] = crossData(&b.Data, g, dim)
		}
		if need[1] {
			grads[1] = crossData(g, &a.Data, dim)
		}
		return grads
	}), nil
}

// crossData is the cross product of x and y (one shape) along dim.
func crossData(x, y *Data, dim int) *Data {
	r := x.DType.roundFloat
	ax := splitAt(x.Shape, dim)
	out := newData(x.DType, x.Shape)
	for o := range ax.outer {
		for i := range ax.inner {
			at := func(d *Data, k int) float64 { return d.F[ax.pos(o, k, i)] }
			a0, a1, a2 := at(x, 0), at(x, 1), at(x, 2)
			b0, b1, b2 := at(y, 0), at(y, 1), at(y, 2)
			out.F[ax.pos(o, 0, i)] = r(r(a1*b2) - r(a2*b1))
			out.F[ax.pos(o, 1, i)] = r(r(a2*b0) - r(a0*b2))
			out.F[ax.pos(o, 2, i)] = r(r(a0*b1) - r(a1*b0))
		}
	}
	return out
}

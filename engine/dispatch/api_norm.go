package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::batch_norm (crates/burn-tensor/src/tensor/module.rs:22-48): its
// asserts, then Dispatch::batch_norm, a multi_op! on the five tensors
// (crates/burn-dispatch/src/ops/module.rs:13-27). Neither burn-flex nor
// burn-autodiff overrides ModuleOps' default (crates/burn-backend/src/
// backend/ops/modules/base.rs:108-129), (x - mean) / sqrt(var + eps) *
// gamma + beta per channel, so package tensor's operations compute it
// and differentiate it as burn-autodiff differentiates those ops.
func (w *World) batchNorm(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(6); ue != nil {
		return nil, ue, nil
	}
	ts := make([]*Tensor, 5)
	for i := range ts {
		t, ue := a.tensor(i)
		if ue != nil {
			return nil, ue, nil
		}
		if t.kind != KindFloat || (i > 0 && t.Rank() != 1) {
			return nil, errArgType(i+1, map[bool]string{true: "Tensor<D>", false: "Tensor<1>"}[i == 0], c.Args[i]), nil
		}
		ts[i] = t
	}
	eps, ue := a.float(5)
	if ue != nil {
		return nil, ue, nil
	}
	x := ts[0]
	const loc = "crates/burn-tensor/src/tensor/module.rs"
	if x.Rank() < 2 {
		return nil, nil, newPanic("batch-norm-rank", at(loc, 30), "batch norm requires an input rank of at least 2")
	}
	channels := x.shape[1]
	for i, name := range []string{"gamma", "beta", "mean", "variance"} {
		if got := ts[i+1].shape[0]; got != channels {
			return nil, nil, newPanic("batch-norm-shape", at(loc, 32+i),
				fmt.Sprintf("assertion `left == right` failed: invalid batch norm %s shape\n  left: [%d]\n right: [%d]", name, got, channels))
		}
	}
	pl, p := routeMulti([]namedInput{{name: "input", t: x, arg: 1}, {name: "gamma", t: ts[1], arg: 2}, {name: "beta", t: ts[2], arg: 3},
		{name: "mean", t: ts[3], arg: 4}, {name: "variance", t: ts[4], arg: 5}})
	v, ue, p := w.finish("batch_norm", x, pl, p, KindFloat, x.shape, x.dtype)
	return w.computed(v, ue, p, ts, func(*Tensor) (*tensor.Tensor, error) {
		shape := make([]int, x.Rank())
		for i := range shape {
			shape[i] = 1
		}
		shape[1] = int(channels)
		vals := make([]*tensor.Tensor, 4)
		for i := range vals {
			r, err := tensor.Reshape(ts[i+1].vals(), shape)
			if err != nil {
				return nil, err
			}
			vals[i] = r
		}
		gamma, beta, mean, variance := vals[0], vals[1], vals[2], vals[3]
		std, err := tensor.WithScalar("add_scalar", variance, tensor.FloatScalar(eps))
		if err != nil {
			return nil, err
		}
		if std, err = tensor.Unary("sqrt", std); err != nil {
			return nil, err
		}
		out, err := tensor.Binary("sub", x.vals(), mean)
		if err != nil {
			return nil, err
		}
		for _, step := range []struct {
			op string
			t  *tensor.Tensor
		}{{"div", std}, {"mul", gamma}, {"add", beta}} {
			if out, err = tensor.Binary(step.op, out, step.t); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// layerNorm is module::layer_norm(input, gamma, beta, epsilon)
// (crates/burn-tensor/src/tensor/module.rs:721-749): Dispatch::layer_norm
// is a multi_op! on input and gamma, beta optional
// (crates/burn-dispatch/src/ops/module.rs:665-677). burn-flex's kernel
// asserts gamma's and beta's shapes (crates/burn-flex/src/ops/activation.rs:575-592);
// burn-autodiff keeps ModuleOps' default (crates/burn-backend/src/backend/
// ops/modules/base.rs:846-878): mean and biased variance over the last
// dim, as package tensor's operations compute and differentiate them.
func (w *World) layerNorm(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(4); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	gamma, ue := a.tensor(1)
	if ue != nil {
		return nil, ue, nil
	}
	if x.kind != KindFloat || x.Rank() < 1 {
		return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
	}
	if gamma.kind != KindFloat || gamma.Rank() != 1 {
		return nil, errArgType(2, "Tensor<1>", c.Args[1]), nil
	}
	var beta *Tensor
	if e, ok := a.get(2).(*Enum); ok && e.Type == "Option" && e.Variant == "Some" && len(e.Fields) == 1 {
		beta, _ = Deref(e.Fields[0]).(*Tensor)
	}
	if e, ok := a.get(2).(*Enum); !ok || e.Type != "Option" || (e.Variant == "Some" && (beta == nil || beta.kind != KindFloat || beta.Rank() != 1)) {
		return nil, errArgType(3, "Option<Tensor<1>>", c.Args[2]), nil
	}
	eps, ue := a.float(3)
	if ue != nil {
		return nil, ue, nil
	}
	pl, p := routeMulti([]namedInput{{name: "tensor", t: x, arg: 1}, {name: "gamma", t: gamma, arg: 2}, {name: "beta", t: beta, optional: true, arg: 3}})
	dModel := x.shape[x.Rank()-1]
	if p == nil && !pl.autodiff && pl.on.Inner().backend == Flex {
		const loc = "crates/burn-flex/src/ops/activation.rs"
		for _, in := range []struct {
			name string
			t    *Tensor
			line int
		}{{"gamma", gamma, 576}, {"beta", beta, 585}} {
			if in.t != nil && in.t.shape[0] != dModel {
				if p := w.prepare(pl.on); p != nil {
					return nil, nil, p
				}
				return nil, nil, newPanic("flex-layer-norm-shape", at(loc, in.line), fmt.Sprintf(
					"layer_norm: %s must be a 1-D tensor of length equal to last dim of input (got shape %s, expected [%d])",
					in.name, shapeDebug(in.t.shape), dModel))
			}
		}
	}
	v, ue, p := w.finish("layer_norm", x, pl, p, KindFloat, x.shape, x.dtype)
	inputs := []*Tensor{x, gamma}
	if beta != nil {
		inputs = append(inputs, beta)
	}
	return w.computed(v, ue, p, inputs, func(*Tensor) (*tensor.Tensor, error) {
		last := x.Rank() - 1
		mean, err := tensor.ReduceDim("mean_dim", x.vals(), last, x.vals().DType)
		if err != nil {
			return nil, err
		}
		centered, err := tensor.Binary("sub", x.vals(), mean)
		if err != nil {
			return nil, err
		}
		sq, err := tensor.Binary("mul", centered, centered)
		if err != nil {
			return nil, err
		}
		variance, err := tensor.ReduceDim("mean_dim", sq, last, sq.DType)
		if err != nil {
			return nil, err
		}
		denom, err := tensor.WithScalar("add_scalar", variance, tensor.FloatScalar(eps))
		if err != nil {
			return nil, err
		}
		if denom, err = tensor.Unary("sqrt", denom); err != nil {
			return nil, err
		}
		out, err := tensor.Binary("div", centered, denom)
		if err != nil {
			return nil, err
		}
		// gamma and beta reshaped to [1, .., d_model] (base.rs:865-876).
		broadcast := make([]int, x.Rank())
		for i := range broadcast {
			broadcast[i] = 1
		}
		broadcast[last] = int(dModel)
		g, err := tensor.Reshape(gamma.vals(), broadcast)
		if err != nil {
			return nil, err
		}
		if out, err = tensor.Binary("mul", out, g); err != nil {
			return nil, err
		}
		if beta != nil {
			b, err := tensor.Reshape(beta.vals(), broadcast)
			if err != nil {
				return nil, err
			}
			out, err = tensor.Binary("add", out, b)
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

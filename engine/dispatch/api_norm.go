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
			r, err := tensor.Reshape(ts[i+1].values, shape)
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
		out, err := tensor.Binary("sub", x.values, mean)
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

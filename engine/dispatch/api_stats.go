package dispatch

import (
	"github.com/dispatch-playground/playground/engine/burncheck"
)

// The statistics burn-tensor composes (crates/burn-tensor/src/tensor/
// stats/mod.rs and api/float.rs:151-185, 225-245, 358-367): var, var_bias,
// var_mean, var_mean_bias, median, median_with_indices and cov, each by
// calling the tensor methods Burn calls, in its order.

const locStats = "crates/burn-tensor/src/tensor/stats/mod.rs"

var statsMethods = map[string]bool{"var": true, "var_bias": true, "var_mean": true, "var_mean_bias": true,
	"median": true, "median_with_indices": true, "cov": true}

func init() {
	for m := range statsMethods {
		burnOpMethods[m] = true
	}
}

// usizeUnderflow is a debug build's panic on `size - 1` of an empty dim.
func usizeUnderflow(line int) *Panic {
	return newPanic("rust-sub-overflow", at(locStats, line), "attempt to subtract with overflow").on(0)
}

func (w *World) statsMethod(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	want := 1
	if method == "cov" {
		want = 2
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	if t.kind != KindFloat {
		return nil, errTraitBounds(method, t), nil
	}
	d, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("Tensor::"+method, d, t.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	size := t.shape[dim]
	di := Int{V: int64(dim)}
	switch method {
	case "median", "median_with_indices":
		// The sort runs before `(total_elem_numbers - 1) / 2` (stats/mod.rs:
		// 38 then 47, 56 then 65), so an empty dim panics after it.
		at := Int{V: (size - 1) / 2}
		if method == "median" {
			sorted, ue, p := w.step(t, "sort", di)
			if ue != nil || p != nil {
				return nil, ue, p
			}
			if size == 0 {
				return nil, nil, usizeUnderflow(47)
			}
			return w.tensorMethod(sorted, Call{Recv: sorted, Method: "narrow", Args: []Value{di, at, Int{V: 1}}})
		}
		v, ue, p := w.tensorMethod(t, Call{Recv: t, Method: "sort_with_indices", Args: []Value{di}})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		if size == 0 {
			return nil, nil, usizeUnderflow(65)
		}
		pair := v.(Tuple)
		values, ue, p := w.step(pair[0].(*Tensor), "narrow", di, at, Int{V: 1})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		indices, ue, p := w.step(pair[1].(*Tensor), "narrow", di, at, Int{V: 1})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return Tuple{values, indices}, nil, nil
	case "cov":
		correction, ue := a.int(1)
		if ue != nil || correction < 0 {
			return nil, errArgType(2, "usize", a.c.Args[1]), nil
		}
		mean, ue, p := w.step(t, "mean_dim", di)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		diff, ue, p := w.step(t, "sub", mean)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		centered, ue, p := w.step(diff, "swap_dims", di, Int{V: 0})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		tr, ue, p := w.step(centered, "transpose")
		if ue != nil || p != nil {
			return nil, ue, p
		}
		prod, ue, p := w.step(tr, "matmul", centered)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.tensorMethod(prod, Call{Recv: prod, Method: "div_scalar", Args: []Value{Float{V: float64(float32(size)) - float64(float32(correction))}}})
	}
	// var and friends: mean_dim (stats/mod.rs:4, 14; float.rs:169, 179),
	// then var_with_mean's `shape[dim] - 1` (stats/mod.rs:9: an empty dim
	// panics after the mean), then sub, square, sum_dim, div_scalar(n)
	// (stats/mod.rs:33).
	bias := method == "var_bias" || method == "var_mean_bias"
	mean, ue, p := w.step(t, "mean_dim", di)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	n := size
	if !bias {
		if size == 0 {
			return nil, nil, usizeUnderflow(9)
		}
		n = size - 1
	}
	cur := t
	for _, s := range [][]Value{{Str("sub"), mean}, {Str("square")}, {Str("sum_dim"), di}, {Str("div_scalar"), Float{V: float64(float32(n))}}} {
		if cur, ue, p = w.step(cur, string(s[0].(Str)), s[1:]...); ue != nil || p != nil {
			return nil, ue, p
		}
	}
	if method == "var_mean" || method == "var_mean_bias" {
		return Tuple{cur, mean}, nil, nil
	}
	return cur, nil, nil
}

package dispatch

import (
	"math"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// The window functions of burn::tensor::signal
// (crates/burn-tensor/src/tensor/signal/{hann,hamming,blackman}_window.rs),
// composed as burn-tensor composes them: an Int arange on the options'
// device, float(), a scaled cos, and the window's affine terms, cast to
// the options' dtype. Sizes 0 and 1 are empty and ones.

var signalWindows = map[string]bool{"hann_window": true, "hamming_window": true, "blackman_window": true}

func (w *World) signalWindow(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	size, ue := a.int(0)
	if ue != nil || size < 0 {
		return nil, errArgType(1, "usize", c.Args[0]), nil
	}
	periodic, ue := a.boolean(1)
	if ue != nil {
		return nil, ue, nil
	}
	d, requested, ue, p := w.creationOptions(a, 2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if p := checkFailed(burncheck.TensorCreate("signal::"+name, 1, []int64{size})); p != nil {
		return nil, nil, p
	}
	float1 := tensorType{rank: 1, kind: KindFloat}
	switch size {
	case 0:
		return w.create("empty", float1, []int64{0}, a, 2)
	case 1:
		return w.create("ones", float1, []int64{1}, a, 2)
	}
	dtype := requested
	if dtype == "" {
		dtype = w.defaultsFor(d.Inner()).float
	}
	lo := int64(0)
	rng, ue, p := w.create("arange", tensorType{rank: 1, kind: KindInt}, []int64{size},
		argList{c: Call{Args: []Value{&Range{Lo: &lo, Hi: &size}, d}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	den := size - 1
	if periodic {
		den = size
	}
	inc := 2 * math.Pi / float64(den)
	steps := func(t *Tensor, ops ...[]Value) (*Tensor, *UsageError, *Panic) {
		for _, o := range ops {
			var ue *UsageError
			var p *Panic
			if t, ue, p = w.step(t, string(o[0].(Str)), o[1:]...); ue != nil || p != nil {
				return nil, ue, p
			}
		}
		return t, nil, nil
	}
	op := func(name string, args ...Value) []Value { return append([]Value{Str(name)}, args...) }
	cos, ue, p := steps(rng.(*Tensor), op("float"), op("mul_scalar", Float{V: inc}), op("cos"))
	if ue != nil || p != nil {
		return nil, ue, p
	}
	var out *Tensor
	switch name {
	case "hann_window":
		out, ue, p = steps(cos, op("mul_scalar", Float{V: -0.5}), op("add_scalar", Float{V: 0.5}))
	case "hamming_window":
		alpha := 25.0 / 46.0
		out, ue, p = steps(cos, op("mul_scalar", Float{V: -(1 - alpha)}), op("add_scalar", Float{V: alpha}))
	default:
		first, ue1, p1 := steps(cos, op("mul_scalar", Float{V: -0.5}))
		if ue1 != nil || p1 != nil {
			return nil, ue1, p1
		}
		second, ue1, p1 := steps(cos, op("powi_scalar", Int{V: 2}), op("mul_scalar", Float{V: 0.16}))
		if ue1 != nil || p1 != nil {
			return nil, ue1, p1
		}
		out, ue, p = steps(first, op("add", second), op("add_scalar", Float{V: 0.34}))
	}
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.castFloat(out, dtype)
}

// castFloat is Tensor::cast to a FloatDType (crates/burn-tensor/src/
// tensor/api/cast.rs:23-36): the tensor itself when it has that dtype,
// else float_cast.
func (w *World) castFloat(t *Tensor, dtype DType) (Value, *UsageError, *Panic) {
	if t.dtype == dtype {
		return t, nil, nil
	}
	out, p := w.unaryOp(t, "float_cast", KindFloat, nil, dtype)
	if p != nil {
		return nil, nil, p
	}
	w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) {
		dt, ok := valueDType(dtype)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.Cast(t.vals(), dt), nil
	})
	return out, nil, nil
}

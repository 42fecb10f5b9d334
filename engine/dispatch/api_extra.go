package dispatch

import "math"

// Tensor methods of burn-tensor's API modelled here: each is composed as
// burn-tensor composes it (the file:line beside each), so its trace,
// routing, panics, values and gradients are those of the methods it calls.

// extraTensorMethods are the methods handled here.
var extraTensorMethods = map[string]bool{"deg2rad": true, "rad2deg": true,
	"sum_dims": true, "mean_dims": true, "prod_dims": true, "max_dims": true, "min_dims": true, "max_abs_dims": true,
	"sum_dims_squeeze": true, "argwhere": true, "nonzero": true,
	"contains_nan": true, "is_finite": true, "is_close": true, "all_close": true, "select_dim": true, "random_like": true,
	"grid_sample_2d": true}

// foldDims are the *_dims methods, each a fold of its _dim method over
// the dims (numeric.rs:373-536, orderable.rs:769-772, 877-879, 1148-1150).
var foldDims = map[string]string{"sum_dims": "sum_dim", "mean_dims": "mean_dim", "prod_dims": "prod_dim",
	"max_dims": "max_dim", "min_dims": "min_dim", "max_abs_dims": "max_abs_dim", "sum_dims_squeeze": "sum_dim"}

func (w *World) extraTensorMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if floatPredMethods[c.Method] {
		return w.floatPredMethod(t, c)
	}
	if step, ok := foldDims[c.Method]; ok {
		if t.kind == KindBool {
			return nil, errTraitBounds(c.Method, t), nil
		}
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		dims, ok := a.get(0).(*Array)
		if !ok {
			return nil, errArgType(1, "&[I]", c.Args[0]), nil
		}
		out := t
		for _, d := range dims.Elems {
			var ue *UsageError
			var p *Panic
			if out, ue, p = w.step(out, step, d); ue != nil || p != nil {
				return nil, ue, p
			}
		}
		if c.Method == "sum_dims_squeeze" {
			// numeric.rs:458-460: self.sum_dims(dims).squeeze_dims::<D2>(dims).
			return w.tensorMethod(out, Call{Recv: out, Method: "squeeze_dims", Args: c.Args, Generics: c.Generics, Expect: c.Expect})
		}
		return out, nil, nil
	}
	switch c.Method {
	case "argwhere", "nonzero":
		return w.argwhere(t, c.Method, a)
	case "grid_sample_2d":
		return w.gridSample2d(t, a)
	case "deg2rad", "rad2deg":
		// float.rs:78-90: self.mul_scalar(f32::consts::PI / 180.0) and
		// self.mul_scalar(180.0 / f32::consts::PI), the factor an f32.
		if t.kind != KindFloat {
			return nil, errTraitBounds(c.Method, t), nil
		}
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		pi := float32(math.Pi)
		factor := pi / 180
		if c.Method == "rad2deg" {
			factor = 180 / pi
		}
		return w.tensorMethod(t, Call{Recv: t, Method: "mul_scalar", Args: []Value{Float{V: float64(factor), Suffix: "f32"}}})
	}
	return nil, errUnknownMethod(tensorStruct, c.Method), nil
}

package dispatch

import "math"

// Tensor methods of burn-tensor's API modelled here: each is composed as
// burn-tensor composes it (the file:line beside each), so its trace,
// routing, panics, values and gradients are those of the methods it calls.

// extraTensorMethods are the methods handled here.
var extraTensorMethods = map[string]bool{"deg2rad": true, "rad2deg": true}

func (w *World) extraTensorMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
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

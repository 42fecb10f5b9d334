package tensor

import (
	"fmt"
	"math"
)

// Float-only element-wise ops beside elementwise.go's: hypot (burn-flex's
// f32::hypot, crates/burn-flex/src/ops/float.rs:1082-1090, with
// burn-autodiff's gradient lhs/hypot and rhs/hypot, crates/burn-autodiff/
// src/ops/tensor.rs:3853-3895) and the predicates is_nan and is_inf.

func init() {
	binaryKernels["hypot"] = binaryKernel{float: math.Hypot,
		da: func(a, _, y float64) float64 { return a / y },
		db: func(_, b, y float64) float64 { return b / y }}
}

// Predicate is is_nan or is_inf: a bool tensor of boolDType, true where the
// float element is NaN, or infinite.
func Predicate(method string, t *Tensor, boolDType DType) (*Tensor, error) {
	var test func(float64) bool
	switch method {
	case "is_nan":
		test = math.IsNaN
	case "is_inf":
		test = func(x float64) bool { return math.IsInf(x, 0) }
	default:
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if !t.DType.IsFloat() || !boolDType.IsBool() {
		return nil, kindError("%s of a %s tensor", method, t.DType.Kind())
	}
	out := newData(boolDType, t.Shape)
	for i, x := range t.F {
		out.B[i] = test(x)
	}
	return &Tensor{Data: *out}, nil
}

package tensor

import "math"

// The inverse trigonometric and hyperbolic methods of a Float tensor
// (crates/burn-tensor/src/tensor/api/float.rs:971-1066): each is one
// float_* op, and its derivative is burn-autodiff's backward step
// (crates/burn-autodiff/src/ops/tensor.rs:3079-3320).
func init() {
	for name, k := range map[string]unaryKernel{
		// d/dx asin(x) = 1/sqrt(1 - x^2) (tensor.rs:3096-3099)
		"asin": {float: math.Asin, deriv: func(x, _ float64) float64 { return 1 / math.Sqrt(1-x*x) }},
		// d/dx acos(x) = -1/sqrt(1 - x^2) (tensor.rs:3136-3140)
		"acos": {float: math.Acos, deriv: func(x, _ float64) float64 { return -(1 / math.Sqrt(1-x*x)) }},
		// d/dx atan(x) = 1/(1 + x^2) (tensor.rs:3177-3180)
		"atan": {float: math.Atan, deriv: func(x, _ float64) float64 { return 1 / (x*x + 1) }},
		// d/dx asinh(x) = 1/sqrt(x^2 + 1) (tensor.rs:3217-3221)
		"asinh": {float: math.Asinh, deriv: func(x, _ float64) float64 { return 1 / math.Sqrt(x*x+1) }},
		// d/dx acosh(x) = 1/sqrt(x^2 - 1) (tensor.rs:3257-3262)
		"acosh": {float: math.Acosh, deriv: func(x, _ float64) float64 { return 1 / math.Sqrt(x*x-1) }},
		// d/dx atanh(x) = 1/(1 - x^2) (tensor.rs:3299-3303)
		"atanh": {float: math.Atanh, deriv: func(x, _ float64) float64 { return 1 / (1 - x*x) }},
	} {
		unaryKernels[name] = k
	}
}

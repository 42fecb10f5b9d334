package dispatch

import "github.com/dispatch-playground/playground/engine/tensor"

// The inverse trigonometric and hyperbolic table ops (ops.tsv) are
// computed by package tensor's Unary.
func init() {
	for _, m := range []string{"asin", "acos", "atan", "asinh", "acosh", "atanh"} {
		unaryValueOps[m] = struct{}{}
	}
}

// extraRowValues computes the values of the table ops rowValues does not
// list (the bitwise ops); ok is false for any other op.
func extraRowValues(m string, tv, other *tensor.Tensor, scalars []tensor.Scalar, dims []int64, rank int,
	outDT tensor.DType) (v *tensor.Tensor, err error, ok bool) {
	if tensor.IsBitwise(m) {
		var s tensor.Scalar
		if len(scalars) > 0 {
			s = scalars[0]
		}
		v, err = tensor.Bitwise(m, tv, other, s)
		return v, err, true
	}
	return nil, nil, false
}

package dispatch

// The inverse trigonometric and hyperbolic table ops (ops.tsv) are
// computed by package tensor's Unary.
func init() {
	for _, m := range []string{"asin", "acos", "atan", "asinh", "acosh", "atanh"} {
		unaryValueOps[m] = struct{}{}
	}
}

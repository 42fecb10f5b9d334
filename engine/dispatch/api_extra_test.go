package dispatch

import (
	"testing"
)

// The inverse trigonometric methods lower to one float_* op each
// (float.rs:971-1066); deg2rad and rad2deg are mul_scalar by an f32
// factor (float.rs:78-90). Values worked by hand, rounded to f32.
func TestInverseTrigAndDegrees(t *testing.T) {
	fx := newOpFixture(t)
	x := fx.floats("1", arr(f(0), f(1)))
	deg := fx.floats("1", arr(f(0), f(90), f(180)))
	runOpCases(t, fx.w, []opCase{
		{"asin", method(x, "asin"), "[0.0, 1.5707964]"},
		{"acos", method(x, "acos"), "[1.5707964, 0.0]"},
		{"atan", method(x, "atan"), "[0.0, 0.7853982]"},
		{"asinh", method(x, "asinh"), "[0.0, 0.8813736]"},
		{"acosh", method(fx.floats("1", arr(f(1))), "acosh"), "[0.0]"},
		{"atanh", method(fx.floats("1", arr(f(0), f(0.5))), "atanh"), "[0.0, 0.54930615]"},
		// 90 * (pi_f32 / 180) in f32 is 1.5707964, pi_f32 itself at 180.
		{"deg2rad", method(deg, "deg2rad"), "[0.0, 1.5707964, 3.1415927]"},
		{"rad2deg", method(fx.floats("1", arr(f(0), f(1.5707963705062866))), "rad2deg"), "[0.0, 90.0]"},
	})
	for _, m := range []string{"asin", "acos", "atan", "asinh", "acosh", "atanh"} {
		mustCall(t, fx.w, method(x, m))
		if got := lastOps(fx.w, 1); got != "float_"+m {
			t.Errorf("%s dispatches %s", m, got)
		}
	}
	mustCall(t, fx.w, method(deg, "deg2rad"))
	if got := lastOps(fx.w, 1); got != "float_mul_scalar" {
		t.Errorf("deg2rad dispatches %s", got)
	}
	ints := fx.ints("1", arr(i(1)))
	for _, m := range []string{"asin", "deg2rad"} {
		if _, err := fx.w.Call(method(ints, m)); err == nil {
			t.Errorf("%s of an Int tensor ran", m)
		}
	}
}

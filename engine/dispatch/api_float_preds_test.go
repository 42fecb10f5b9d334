package dispatch

import (
	"math"
	"testing"
)

// contains_nan, is_finite, is_close, all_close (float.rs:467-625),
// select_dim (base.rs:1583) and random_like (float.rs:144): values by
// hand and the ops of each composition.
func TestFloatPredicates(t *testing.T) {
	fx := newOpFixture(t)
	x := fx.floats("1", arr(f(1), f(math.NaN()), f(math.Inf(1)), f(-2)))
	y := fx.floats("1", arr(f(1.000001), f(math.NaN()), f(math.Inf(1)), f(-2.1)))
	none := &Enum{Type: "Option", Variant: "None"}
	some := func(v float64) *Enum { return &Enum{Type: "Option", Variant: "Some", Fields: []Value{f(v)}} }
	cases := []struct {
		call      Call
		want, ops string
	}{
		{method(x, "contains_nan"), "[true]", "float_is_nan bool_any"},
		{method(x, "is_finite"), "[true, false, false, true]", "float_is_nan bool_not float_is_inf bool_not bool_and"},
		// |1 - 1.000001| <= 1e-5 * 1.000001 + 1e-8; NaN is never close; the
		// same infinity is; |-2 + 2.1| is not within the defaults.
		{method(x, "is_close", y, none, none), "[true, false, true, false]", ""},
		{method(x, "is_close", y, some(0.1), none), "[true, false, true, true]", ""},
		{method(fx.floats("2", arr(arr(f(1), f(2)), arr(f(3), f(4)))), "select_dim", i(1), i(1)), "[2.0, 4.0]", "float_slice float_reshape"},
	}
	for _, c := range cases {
		before := len(fx.w.Trace())
		out := mustCall(t, fx.w, c.call).(*Tensor)
		if out.vals() == nil || out.vals().Preview(16) != c.want {
			t.Errorf("%s = %v, want %s", c.call.Method, out.vals(), c.want)
		}
		if got := lastOps(fx.w, len(fx.w.Trace())-before); c.ops != "" && got != c.ops {
			t.Errorf("%s dispatches %q, want %q", c.call.Method, got, c.ops)
		}
	}
	a := fx.floats("1", arr(f(1), f(2)))
	if v := mustCall(t, fx.w, method(a, "all_close", fx.floats("1", arr(f(1), f(2.00001))), none, none)); v != Bool(true) {
		t.Errorf("all_close of near values = %v", v)
	}
	if v := mustCall(t, fx.w, method(a, "all_close", fx.floats("1", arr(f(1), f(2.1))), none, none)); v != Bool(false) {
		t.Errorf("all_close of far values = %v", v)
	}
	r := mustCall(t, fx.w, method(a, "random_like", &Enum{Type: "Distribution", Variant: "Uniform", Fields: []Value{f(5), f(6)}})).(*Tensor)
	if lastOps(fx.w, 1) != "float_random" || !sameShape(r.shape, []int64{2}) || r.vals() == nil ||
		r.vals().F[0] < 5 || r.vals().F[0] >= 6 {
		t.Errorf("random_like: %s %v %v", lastOps(fx.w, 1), r.shape, r.vals())
	}
	if v, ok := BurnConst([]string{"burn_tensor", "DEFAULT_RTOL"}); !ok || v.(Float).V != 1e-5 {
		t.Errorf("DEFAULT_RTOL = %v", v)
	}
}

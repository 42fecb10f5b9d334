package dispatch

import (
	"strings"
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

// The bitwise methods of an Int tensor (int.rs:111-168) are Dispatch's
// bitwise ops, traced under their own names; a Float tensor has none.
func TestBitwiseMethods(t *testing.T) {
	fx := newOpFixture(t)
	a := fx.ints("1", arr(i(12), i(-1), i(5)))
	b := fx.ints("1", arr(i(10), i(3), i(1)))
	cases := []struct {
		call       Call
		want, trop string
	}{
		{method(a, "bitwise_and", b), "[8, 3, 1]", "bitwise_and"},
		{method(a, "bitwise_or", b), "[14, -1, 5]", "bitwise_or"},
		{method(a, "bitwise_xor", b), "[6, -4, 4]", "bitwise_xor"},
		{method(a, "bitwise_not"), "[-13, 0, -6]", "bitwise_not"},
		{method(a, "bitwise_left_shift", b), "[12288, -8, 10]", "bitwise_left_shift"},
		{method(a, "bitwise_right_shift_scalar", i(2)), "[3, -1, 1]", "bitwise_right_shift_scalar"},
		{method(a, "bitwise_xor_scalar", i(1)), "[13, -2, 4]", "bitwise_xor_scalar"},
	}
	for _, c := range cases {
		out := mustCall(t, fx.w, c.call).(*Tensor)
		if got := out.vals().Preview(16); got != c.want {
			t.Errorf("%s = %s, want %s", c.call.Method, got, c.want)
		}
		if got := lastOps(fx.w, 1); got != c.trop {
			t.Errorf("%s dispatches %s", c.call.Method, got)
		}
	}
	if _, err := fx.w.Call(method(fx.floats("1", arr(f(1))), "bitwise_not")); err == nil {
		t.Error("bitwise_not of a Float tensor ran")
	}
}

// An array literal has one element type: an element that fixes it (a
// suffixed number, a float among ints) types the unsuffixed ones.
func TestLiteralDataElementType(t *testing.T) {
	fx := newOpFixture(t)
	for _, c := range []struct {
		data Value
		want DType
	}{
		{arr(i(0), Float{V: -3.4028234663852886e38, Suffix: "f32"}), F32},
		{arr(Float{V: 1, Suffix: "f32"}, i(0)), F32},
		{arr(i(0), f(1.5)), F64},
		{arr(i(1), i(2)), I32},
		{arr(arr(i(1)), arr(Int{V: 2, Suffix: "i64"})), I64},
	} {
		td := mustCall(t, fx.w, Call{Path: []string{"TensorData", "from"}, Args: []Value{c.data}}).(*TensorData)
		if td.dtype != c.want {
			t.Errorf("TensorData::from(%s) is %s, want %s", Debug(c.data), td.dtype, c.want)
		}
	}
}

// The *_dims methods fold their _dim method over the dims
// (numeric.rs:373-536, orderable.rs:769-1150), one op per dim, keeping
// the rank; sum_dims_squeeze then squeezes those dims.
func TestFoldedDimsReductions(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(-7), f(3)), arr(f(4), f(5), f(-6))))
	cases := []struct {
		call      Call
		want, ops string
	}{
		{method(m, "sum_dims", arr(i(0), i(1))), "[[0.0]]", "float_sum_dim float_sum_dim"},
		{method(m, "sum_dims", arr(i(-1))), "[[-3.0], [3.0]]", "float_sum_dim"},
		{method(m, "mean_dims", arr(i(0))), "[[2.5, -1.0, -1.5]]", "float_mean_dim"},
		{method(m, "prod_dims", arr(i(1), i(0))), "[[2520.0]]", "float_prod_dim float_prod_dim"},
		{method(m, "max_dims", arr(i(1))), "[[3.0], [5.0]]", "float_max_dim"},
		{method(m, "min_dims", arr(i(0), i(1))), "[[-7.0]]", "float_min_dim float_min_dim"},
		{method(m, "max_abs_dims", arr(i(0), i(1))), "[[7.0]]", "float_abs float_max_dim float_abs float_max_dim"},
		{method(m, "sum_dims", arr()), "[[1.0, -7.0, 3.0], [4.0, 5.0, -6.0]]", ""},
	}
	for _, c := range cases {
		before := len(fx.w.Trace())
		out := mustCall(t, fx.w, c.call).(*Tensor)
		if got := out.vals().Preview(32); got != c.want {
			t.Errorf("%s%s = %s, want %s", c.call.Method, Debug(c.call.Args[0]), got, c.want)
		}
		if got := lastOps(fx.w, len(fx.w.Trace())-before); got != c.ops {
			t.Errorf("%s dispatches %q, want %q", c.call.Method, got, c.ops)
		}
	}
	sq := Call{Recv: m, Method: "sum_dims_squeeze", Args: []Value{arr(i(1))}, Generics: [][]string{{"1"}}}
	out := mustCall(t, fx.w, sq).(*Tensor)
	if got := out.vals().Preview(32); got != "[-3.0, 3.0]" || out.Rank() != 1 {
		t.Errorf("sum_dims_squeeze::<1>(&[1]) = %s (rank %d)", got, out.Rank())
	}
	if p := mustPanic(t, fx.w, method(m, "max_dims", arr(i(2)))); !strings.Contains(p.Message, "Max Dim") && !strings.Contains(p.Message, "dim") {
		t.Errorf("max_dims(&[2]) of a rank-2 tensor: %q", p.Message)
	}
	if _, err := fx.w.Call(method(mustCall(t, fx.w, method(fx.ints("1", arr(i(1))), "bool")), "sum_dims", arr(i(0)))); err == nil {
		t.Error("sum_dims of a Bool tensor ran")
	}
}

// equal_elem, not_equal_elem, gather, mask_fill and mask_where exist for a
// Bool tensor too (Dispatch's bool_* ops, burn-dispatch/src/ops/
// bool_tensor.rs:70-193), a bool being an ElementConversion.
func TestBoolTensorOps(t *testing.T) {
	fx := newOpFixture(t)
	b := func(vals Value) *Tensor { return mustCall(t, fx.w, method(fx.ints("1", vals), "bool")).(*Tensor) }
	x := b(arr(i(1), i(0), i(1)))
	mask := b(arr(i(0), i(1), i(1)))
	cases := []struct {
		call       Call
		want, trop string
	}{
		{method(x, "equal_elem", Bool(false)), "[false, true, false]", "bool_equal_elem"},
		{method(x, "not_equal_elem", Bool(false)), "[true, false, true]", "bool_not_equal_elem"},
		{method(x, "gather", i(0), fx.ints("1", arr(i(2), i(1), i(1)))), "[true, false, false]", "bool_gather"},
		{method(x, "mask_fill", mask, Bool(true)), "[true, true, true]", "bool_mask_fill"},
		{method(x, "mask_where", mask, b(arr(i(0), i(0), i(0)))), "[true, false, false]", "bool_mask_where"},
	}
	for _, c := range cases {
		out := mustCall(t, fx.w, c.call).(*Tensor)
		if out.vals() == nil || out.vals().Preview(16) != c.want {
			t.Errorf("bool %s = %v, want %s", c.call.Method, out.vals(), c.want)
			continue
		}
		if got := lastOps(fx.w, 1); got != c.trop {
			t.Errorf("bool %s dispatches %s", c.call.Method, got)
		}
	}
	// A bool scalar is an ElementConversion for the other kinds as well.
	out := mustCall(t, fx.w, method(fx.floats("1", arr(f(0.5))), "add_scalar", Bool(true))).(*Tensor)
	if got := out.vals().Preview(8); got != "[1.5]" {
		t.Errorf("add_scalar(true) = %s", got)
	}
}

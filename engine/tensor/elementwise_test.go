package tensor

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestIntArithmetic(t *testing.T) {
	a := mustInts(t, []int64{7, -7, math.MaxInt32, 5}, []int{4}, I32)
	b := mustInts(t, []int64{2, 2, 1, -3}, []int{4}, I32)
	cases := []struct {
		method string
		want   []int64
	}{
		{"add", []int64{9, -5, math.MinInt32, 2}}, // i32 wraps
		{"sub", []int64{5, -9, math.MaxInt32 - 1, 8}},
		{"mul", []int64{14, -14, math.MaxInt32, -15}},
		{"div", []int64{3, -3, math.MaxInt32, -1}}, // truncates toward zero
		{"remainder", []int64{1, 1, 0, -1}},        // takes the divisor's sign
		{"max_pair", []int64{7, 2, math.MaxInt32, 5}},
		{"min_pair", []int64{2, -7, 1, -3}},
	}
	for _, c := range cases {
		got, err := Binary(c.method, a, b)
		if err != nil || !slices.Equal(got.I, c.want) {
			t.Errorf("%s = %v %v, want %v", c.method, got, err, c.want)
		}
	}
	zero := Zeros([]int{4}, I32)
	if _, err := Binary("div", a, zero); !errors.Is(err, ErrIntDivideByZero) {
		t.Errorf("int division by zero: %v", err)
	}
	if _, err := Binary("add", a, Cast(a, F32)); !errors.Is(err, ErrKind) {
		t.Error("int plus float")
	}
	sq, err := Unary("abs", mustInts(t, []int64{-3, 4}, []int{2}, I64))
	if err != nil || !slices.Equal(sq.I, []int64{3, 4}) {
		t.Errorf("int abs %v", sq)
	}
	if _, err := Unary("exp", a); !errors.Is(err, ErrKind) {
		t.Error("exp has no int form")
	}
	s, err := WithScalar("mul_scalar", a, FloatScalar(2.9))
	if err != nil || s.I[0] != 14 {
		t.Errorf("a float scalar converts to the int dtype by truncation: %v", s)
	}
	p, err := WithScalar("powi_scalar", mustInts(t, []int64{3, -2}, []int{2}, I64), IntScalar(3))
	if err != nil || !slices.Equal(p.I, []int64{27, -8}) {
		t.Errorf("int powi_scalar %v %v", p, err)
	}
}

func TestFloatArithmeticRoundsToTheDType(t *testing.T) {
	a := mustFloats(t, []float64{0.1}, []int{1}, F32)
	b := mustFloats(t, []float64{0.2}, []int{1}, F32)
	sum, _ := Binary("add", a, b)
	// 0.1f32 + 0.2f32 is 0.3f32 + 1 ulp, which prints as 0.3 in f32 (the
	// f64 sum would print 0.30000000447034836).
	if DebugFloat(sum.F[0], 32) != "0.3" || sum.F[0] != float64(float32(0.1)+float32(0.2)) {
		t.Errorf("0.1 + 0.2 in f32 = %v", sum.F[0])
	}
	h := mustFloats(t, []float64{1}, []int{1}, F16)
	third, _ := WithScalar("div_scalar", h, IntScalar(3))
	if third.F[0] != 0.333251953125 {
		t.Errorf("1/3 in f16 = %v", third.F[0])
	}
	rem, _ := Binary("remainder", mustFloats(t, []float64{-7, 7}, []int{2}, F64), mustFloats(t, []float64{3, -3}, []int{2}, F64))
	if !slices.Equal(rem.F, []float64{2, -2}) {
		t.Errorf("remainder takes the divisor's sign: %v", rem.F)
	}
	r, _ := Unary("round", mustFloats(t, []float64{0.5, 1.5, 2.5, -0.5}, []int{4}, F32))
	if !slices.Equal(r.F, []float64{0, 2, 2, -0}) {
		t.Errorf("round half to even: %v", r.F)
	}
	c, _ := Clamp(mustFloats(t, []float64{-2, 0.5, 3}, []int{3}, F32), IntScalar(0), IntScalar(1))
	if !slices.Equal(c.F, []float64{0, 0.5, 1}) {
		t.Errorf("clamp %v", c.F)
	}
}

func TestComparisons(t *testing.T) {
	nan := math.NaN()
	a := mustFloats(t, []float64{1, 2, nan}, []int{3}, F32)
	b := mustFloats(t, []float64{2, 2, nan}, []int{3}, F32)
	cases := map[string][]bool{
		"equal":         {false, true, false},
		"not_equal":     {true, false, true},
		"greater":       {false, false, false},
		"greater_equal": {false, true, false},
		"lower":         {true, false, false},
		"lower_equal":   {true, true, false},
	}
	for method, want := range cases {
		got, err := Compare(method, a, b, BoolU32)
		if err != nil || !slices.Equal(got.B, want) || got.DType != BoolU32 {
			t.Errorf("%s = %v %v, want %v", method, got, err, want)
		}
	}
	g, err := CompareScalar("greater_elem", mustInts(t, []int64{1, 2, 3}, []int{3}, I32), FloatScalar(2.5), BoolNative)
	if err != nil || !slices.Equal(g.B, []bool{false, false, true}) {
		t.Errorf("greater_elem(2.5) on ints compares with 2: %v", g)
	}
	bools, _ := FromBools([]bool{true, false}, []int{2}, BoolNative)
	eq, err := Compare("equal", bools, bools, BoolNative)
	if err != nil || !slices.Equal(eq.B, []bool{true, true}) {
		t.Errorf("bool equal %v %v", eq, err)
	}
	if _, err := Compare("greater", bools, bools, BoolNative); err == nil {
		t.Error("bools are not ordered in Burn")
	}
	and, _ := Binary("bool_and", bools, mustBools(t, []bool{true, true}))
	not, _ := Not(bools)
	if !slices.Equal(and.B, []bool{true, false}) || !slices.Equal(not.B, []bool{false, true}) {
		t.Error("bool ops")
	}
}

func mustBools(t *testing.T, values []bool) *Tensor {
	x, err := FromBools(values, []int{len(values)}, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestCasts(t *testing.T) {
	f := mustFloats(t, []float64{-1.7, 0, 2.9, 1e10}, []int{4}, F32)
	i := Cast(f, I32)
	if !slices.Equal(i.I, []int64{-1, 0, 2, math.MaxInt32}) {
		t.Errorf("float to int truncates and saturates: %v", i.I)
	}
	b := Cast(f, BoolNative)
	if !slices.Equal(b.B, []bool{true, false, true, true}) {
		t.Errorf("bool() is not_equal_elem(0): %v", b.B)
	}
	back := Cast(b, F32)
	if !slices.Equal(back.F, []float64{1, 0, 1, 1}) {
		t.Errorf("bool to float: %v", back.F)
	}
	big := mustInts(t, []int64{16777217}, []int{1}, I64)
	if Cast(big, F32).F[0] != 16777216 {
		t.Error("an int that f32 cannot hold rounds to even")
	}
	tracked, _ := f.RequireGrad()
	if !Cast(tracked, F64).Tracked() {
		t.Error("a float-to-float cast keeps the graph")
	}
	if Cast(tracked, I32).Tracked() {
		t.Error("int results are never tracked")
	}
}

func TestPowfScalarFollowsBurnsRewrites(t *testing.T) {
	x, _ := mustFloats(t, []float64{-2, 3}, []int{2}, F32).RequireGrad()
	zeroth, _ := WithScalar("powf_scalar", x, FloatScalar(0))
	if zeroth.Tracked() || !slices.Equal(zeroth.F, []float64{1, 1}) {
		t.Errorf("x^0 is a fresh ones tensor: %v tracked=%v", zeroth.F, zeroth.Tracked())
	}
	first, _ := WithScalar("powf_scalar", x, FloatScalar(1))
	if first != x {
		t.Error("x^1 is x itself")
	}
	cube, _ := WithScalar("powf_scalar", x, FloatScalar(3))
	if !slices.Equal(cube.F, []float64{-8, 27}) {
		t.Errorf("an integral exponent keeps the sign of a negative base: %v", cube.F)
	}
	half, _ := WithScalar("powf_scalar", x, FloatScalar(0.5))
	if !math.IsNaN(half.F[0]) || half.F[1] != float64(float32(math.Sqrt(3))) {
		t.Errorf("x^0.5 = %v", half.F)
	}
	_, g := gradOf(t, []float64{-2, 3}, F32, func(x *Tensor) *Tensor {
		r, _ := WithScalar("powi_scalar", x, IntScalar(-1))
		return r
	})
	if !slices.Equal(g.F, []float64{-0.25, float64(float32(-1.0 / 9))}) {
		t.Errorf("d/dx x^-1 = %v", g.F)
	}
}

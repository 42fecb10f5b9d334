package tensor

import (
	"math"
	"slices"
	"testing"
)

func TestHypotAndPredicates(t *testing.T) {
	a := mustFloats(t, []float64{3, 5, 0}, []int{3}, F32)
	b := mustFloats(t, []float64{4, 12, 0}, []int{3}, F32)
	h, err := Binary("hypot", a, b)
	if err != nil || !slices.Equal(h.F, []float64{5, 13, 0}) {
		t.Fatalf("hypot = %v, %v", h, err)
	}
	// Broadcast: a [2, 1] against [1, 2].
	col := mustFloats(t, []float64{3, 6}, []int{2, 1}, F32)
	row := mustFloats(t, []float64{4, 8}, []int{1, 2}, F32)
	if hb, _ := Binary("hypot", col, row); !slices.Equal(hb.F, []float64{5, float64(float32(math.Sqrt(73))), float64(float32(math.Sqrt(52))), 10}) {
		t.Errorf("broadcast hypot = %v", hb.F)
	}
	// The gradient of sum(hypot(x, 4)) at x = 3 is 3/5.
	_, g := gradOf(t, []float64{3}, F32, func(x *Tensor) *Tensor {
		y, _ := Binary("hypot", x, mustFloats(t, []float64{4}, []int{1}, F32))
		return y
	})
	if g.F[0] != float64(float32(0.6)) {
		t.Errorf("hypot gradient %v", g.F)
	}
	x := mustFloats(t, []float64{1, math.NaN(), math.Inf(1), math.Inf(-1)}, []int{4}, F32)
	nan, _ := Predicate("is_nan", x, BoolNative)
	inf, _ := Predicate("is_inf", x, BoolNative)
	if !slices.Equal(nan.B, []bool{false, true, false, false}) || !slices.Equal(inf.B, []bool{false, false, true, true}) {
		t.Errorf("is_nan %v, is_inf %v", nan.B, inf.B)
	}
	if _, err := Predicate("is_nan", mustInts(t, []int64{1}, []int{1}, I32), BoolNative); err == nil {
		t.Error("is_nan of an int tensor")
	}
	tr, _ := Unary("trunc", mustFloats(t, []float64{2.7, -2.7, -0.5}, []int{3}, F32))
	if tr.F[0] != 2 || tr.F[1] != -2 || tr.F[2] != 0 || !math.Signbit(tr.F[2]) {
		t.Errorf("trunc = %v", tr.F)
	}
}

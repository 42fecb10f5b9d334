package tensor

import (
	"math"
	"slices"
	"testing"
)

func TestCreation(t *testing.T) {
	a, err := Arange(2, 9, 3, I64)
	if err != nil || !slices.Equal(a.I, []int64{2, 5, 8}) || !sameShape(a.Shape, []int{3}) {
		t.Errorf("arange_step(2..9, 3) = %v %v", a, err)
	}
	if a, _ := Arange(5, 5, 1, I32); a.NumElements() != 0 {
		t.Error("an empty range")
	}
	if _, err := Arange(0, 5, 0, I32); err == nil {
		t.Error("a zero step")
	}
	if e := Empty([]int{2}, F32); !slices.Equal(e.F, []float64{0, 0}) {
		t.Error("empty shows zeros")
	}
	if _, err := FromFloats([]float64{1, 2, 3}, []int{2, 2}, F32); err == nil {
		t.Error("3 values for 4 elements")
	}
	// from_data converts literal data to the dtype the tensor is made with.
	lit := mustFloats(t, []float64{1.5, -2.5}, []int{2}, F64).IntoData()
	if x := FromData(lit, I32); !slices.Equal(x.I, []int64{1, -2}) || x.DType != I32 {
		t.Errorf("from_data into i32: %v", x)
	}
	if x := FromData(lit, F64); &x.F[0] != &lit.F[0] {
		t.Error("data already in the dtype is shared, not copied")
	}
	full := Full([]int{2}, I8, IntScalar(300))
	if full.I[0] != 44 {
		t.Errorf("300 as i8 wraps to 44: %v", full.I)
	}
	if s := mustFloats(t, []float64{1, 2}, []int{2}, F32).String(); s != "Tensor[2] F32 [1.0, 2.0]" {
		t.Errorf("String() = %q", s)
	}
}

func TestSignAndActivationsByName(t *testing.T) {
	s, _ := Unary("sign", mustFloats(t, []float64{-3, 0, 2, math.NaN()}, []int{4}, F32))
	if s.F[0] != -1 || s.F[1] != 0 || s.F[2] != 1 || !math.IsNaN(s.F[3]) {
		t.Errorf("float sign %v", s.F)
	}
	if nz, _ := Unary("sign", mustFloats(t, []float64{math.Copysign(0, -1)}, []int{1}, F32)); math.Signbit(nz.F[0]) {
		t.Errorf("sign(-0.0) is %v: Flex gives +0.0", nz.F[0])
	}
	si, _ := Unary("sign", mustInts(t, []int64{-3, 0, 2}, []int{3}, I32))
	if !slices.Equal(si.I, []int64{-1, 0, 1}) {
		t.Errorf("int sign %v", si.I)
	}
	su, _ := Unary("sign", Full([]int{1}, U64, IntScalar(-1)))
	if su.I[0] != 1 {
		t.Errorf("u64::MAX is positive: %v", su.I)
	}
	x := mustFloats(t, []float64{-1, 1}, []int{2}, F32)
	for _, name := range []string{"relu", "sigmoid", "log_sigmoid", "gelu", "silu", "mish", "tanh"} {
		if _, err := Unary(name, x); err != nil {
			t.Errorf("Unary(%q): %v", name, err)
		}
	}
	if _, err := Unary("relu", mustInts(t, []int64{1}, []int{1}, I32)); err == nil {
		t.Error("relu of an int tensor")
	}
	if _, err := Unary("softmax", x); err == nil {
		t.Error("softmax takes a dim: not a Unary method")
	}
	hs := HardSigmoid(mustFloats(t, []float64{-10, 0, 1.5, 10}, []int{4}, F64), 0.2, 0.5)
	if !slices.Equal(hs.F, []float64{0, 0.5, float64(float32(0.8)), 1}) {
		t.Errorf("hard_sigmoid runs in f32 and clamps to [0, 1]: %v", hs.F)
	}
}

func TestTolerancePresets(t *testing.T) {
	strict := StrictTolerance(F32)
	if strict.Relative != 0 || strict.Absolute != 64*0x1p-126 {
		t.Errorf("strict %+v", strict)
	}
	one := Ones([]int{1}, F32).IntoData()
	near := Full([]int{1}, F32, FloatScalar(1.005)).IntoData()
	if one.AssertApproxEq(near, strict) == "" {
		t.Error("strict refuses 1 vs 1.005")
	}
	if msg := one.AssertApproxEq(near, PermissiveTolerance(F32)); msg != "" {
		t.Errorf("permissive accepts 1 vs 1.005: %s", msg)
	}
}

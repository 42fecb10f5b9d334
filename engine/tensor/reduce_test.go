package tensor

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestReductionsKeepBurnsShapes(t *testing.T) {
	x := mustFloats(t, []float64{1, 5, 3, 4, 2, 6}, []int{2, 3}, F32)
	cases := []struct {
		method string
		dim    int
		shape  []int
		values []float64
	}{
		{"sum_dim", 1, []int{2, 1}, []float64{9, 12}},
		{"sum_dim", 0, []int{1, 3}, []float64{5, 7, 9}},
		{"mean_dim", 1, []int{2, 1}, []float64{3, 4}},
		{"prod_dim", 0, []int{1, 3}, []float64{4, 10, 18}},
		{"max_dim", 1, []int{2, 1}, []float64{5, 6}},
		{"min_dim", 0, []int{1, 3}, []float64{1, 2, 3}},
	}
	for _, c := range cases {
		got, err := ReduceDim(c.method, x, c.dim, I32)
		if err != nil || !sameShape(got.Shape, c.shape) || !slices.Equal(got.F, c.values) {
			t.Errorf("%s(%d) = %v %v, want %v %v", c.method, c.dim, got, err, c.shape, c.values)
		}
	}
	am, err := ReduceDim("argmax", x, 1, I64)
	if err != nil || am.DType != I64 || !sameShape(am.Shape, []int{2, 1}) || !slices.Equal(am.I, []int64{1, 2}) {
		t.Errorf("argmax returns Int with the dim kept: %v %v", am, err)
	}
	ties := mustFloats(t, []float64{2, 7, 7, 1}, []int{4}, F32)
	if am, _ := ReduceDim("argmax", ties, 0, I32); am.I[0] != 1 {
		t.Errorf("argmax picks the first of equal maxima: %v", am.I)
	}
	if am, _ := ReduceDim("argmin", ties, 0, I32); am.I[0] != 3 {
		t.Errorf("argmin %v", am.I)
	}
	for method, want := range map[string]float64{"sum": 21, "mean": 3.5, "prod": 720, "max": 6, "min": 1} {
		got, err := Reduce(method, x, BoolNative)
		if err != nil || !sameShape(got.Shape, []int{1}) || got.F[0] != want {
			t.Errorf("%s() = %v %v, want [%v]", method, got, err, want)
		}
	}
	ix := mustInts(t, []int64{1, 2, 4}, []int{3}, I32)
	if m, _ := Reduce("mean", ix, BoolNative); m.I[0] != 2 {
		t.Errorf("an int mean truncates: %v", m.I)
	}
	b, _ := FromBools([]bool{true, false, true, true}, []int{2, 2}, BoolNative)
	if a, _ := ReduceDim("all_dim", b, 1, BoolU8); !slices.Equal(a.B, []bool{false, true}) || a.DType != BoolU8 {
		t.Errorf("all_dim %v", a)
	}
	if a, _ := Reduce("any", mustFloats(t, []float64{0, 0}, []int{2}, F32), BoolNative); a.B[0] {
		t.Error("any of zeros")
	}
	if _, err := ReduceDim("sum_dim", x, 2, I32); !errors.Is(err, ErrShape) {
		t.Error("dim 2 of a rank-2 tensor")
	}
	cs, _ := Cumsum(x, 1)
	if !slices.Equal(cs.F, []float64{1, 6, 9, 4, 6, 12}) {
		t.Errorf("cumsum %v", cs.F)
	}
	withNaN := mustFloats(t, []float64{1, math.NaN(), 3}, []int{3}, F32)
	if m, _ := Reduce("max", withNaN, BoolNative); !math.IsNaN(m.F[0]) {
		t.Error("a NaN propagates through max")
	}
}

func TestReductionGradients(t *testing.T) {
	// max: the whole gradient goes to the first maximum.
	_, g := gradOf(t, []float64{1, 3, 3, 2}, F32, func(x *Tensor) *Tensor {
		m, _ := Reduce("max", x, BoolNative)
		return m
	})
	if !slices.Equal(g.F, []float64{0, 1, 0, 0}) {
		t.Errorf("max gradient %v", g.F)
	}
	_, g = gradOf(t, []float64{1, 2, 3, 4}, F32, func(x *Tensor) *Tensor {
		m, _ := Reduce("mean", x, BoolNative)
		return m
	})
	if !slices.Equal(g.F, []float64{0.25, 0.25, 0.25, 0.25}) {
		t.Errorf("mean gradient %v", g.F)
	}
	// prod with a zero: the others' product, no division by zero.
	_, g = gradOf(t, []float64{2, 0, 5}, F32, func(x *Tensor) *Tensor {
		m, _ := Reduce("prod", x, BoolNative)
		return m
	})
	if !slices.Equal(g.F, []float64{0, 10, 0}) {
		t.Errorf("prod gradient %v", g.F)
	}
	_, g = gradOf(t, []float64{1, 2, 3}, F32, func(x *Tensor) *Tensor {
		c, _ := Cumsum(x, 0)
		return c
	})
	if !slices.Equal(g.F, []float64{3, 2, 1}) {
		t.Errorf("cumsum gradient %v", g.F)
	}
}

package tensor

import (
	"slices"
	"testing"
)

// The values of Burn's mask_select, cross, unfold and bool scatter tests
// (crates/burn-backend-tests/tests/tensor/float/ops/mask_select.rs,
// unfold.rs, bool/ops/select.rs, gather_scatter.rs) and the gradients of
// autodiff/mask_select.rs, cross.rs and unfold.rs.
func TestMaskSelectValuesAndGradient(t *testing.T) {
	mask := &Tensor{Data: Data{DType: BoolNative, Shape: []int{2, 3}, B: []bool{true, false, true, false, true, false}}}
	y, g := sumGrad(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, func(x *Tensor) (*Tensor, error) { return MaskSelect(x, mask) })
	if !slices.Equal(y.Shape, []int{3}) || !slices.Equal(y.F, []float64{1, 3, 5}) || !slices.Equal(g.F, []float64{1, 0, 1, 0, 1, 0}) {
		t.Errorf("mask_select = %v %v, grad %v", y.Shape, y.F, g.F)
	}
	none := &Tensor{Data: Data{DType: BoolNative, Shape: []int{2, 3}, B: make([]bool, 6)}}
	empty, err := MaskSelect(mustFloats(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32), none)
	if err != nil || !slices.Equal(empty.Shape, []int{0}) || CountTrue(mask) != 3 {
		t.Errorf("an all-false mask selects %v (%v)", empty.Shape, err)
	}
}

func TestCrossValuesAndGradients(t *testing.T) {
	a, _ := mustFloats(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32).RequireGrad()
	b, _ := mustFloats(t, []float64{6, 5, 4, 3, 2, 1}, []int{2, 3}, F32).RequireGrad()
	c, err := Cross(a, b, 1)
	if err != nil || !slices.Equal(c.F, []float64{-7, 14, -7, -7, 14, -7}) {
		t.Fatalf("cross = %v (%v)", c.F, err)
	}
	loss, _ := Reduce("sum", c, BoolNative)
	grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
	if err != nil {
		t.Fatal(err)
	}
	ga, _ := grads.Get(a)
	gb, _ := grads.Get(b)
	// burn-autodiff: grad a = b x grad, grad b = grad x a.
	if !slices.Equal(ga.F, []float64{1, -2, 1, 1, -2, 1}) || !slices.Equal(gb.F, []float64{1, -2, 1, 1, -2, 1}) {
		t.Errorf("cross grads %v and %v", ga.F, gb.F)
	}
	if _, err := Cross(a, mustFloats(t, []float64{1, 2, 3}, []int{1, 3}, F32), 1); err == nil {
		t.Error("a broadcast cross has values")
	}
}

func TestUnfoldValuesAndGradient(t *testing.T) {
	y, g := sumGrad(t, []float64{1, 2, 3, 4, 5}, []int{5}, func(x *Tensor) (*Tensor, error) { return Unfold(x, 0, 3, 1) })
	if !slices.Equal(y.Shape, []int{3, 3}) || !slices.Equal(y.F, []float64{1, 2, 3, 2, 3, 4, 3, 4, 5}) || !slices.Equal(g.F, []float64{1, 2, 3, 2, 1}) {
		t.Errorf("unfold = %v %v, grad %v", y.Shape, y.F, g.F)
	}
	x := mustFloats(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32)
	cols, err := Unfold(x, 0, 2, 1)
	if err != nil || !slices.Equal(cols.Shape, []int{1, 3, 2}) || !slices.Equal(cols.F, []float64{1, 4, 2, 5, 3, 6}) {
		t.Errorf("unfold of dim 0 = %v %v (%v)", cols.Shape, cols.F, err)
	}
}

func TestBoolScatterAddIsOr(t *testing.T) {
	data := &Tensor{Data: Data{DType: BoolNative, Shape: []int{3}, B: []bool{false, true, false}}}
	values := &Tensor{Data: Data{DType: BoolNative, Shape: []int{3}, B: []bool{true, false, false}}}
	out, err := Scatter(data, 0, mustInts(t, []int64{0, 1, 0}, []int{3}, I64), values, "add")
	if err != nil || !slices.Equal(out.B, []bool{true, true, false}) {
		t.Errorf("bool scatter add = %v (%v)", out.B, err)
	}
}

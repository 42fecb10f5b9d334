package tensor

import (
	"errors"
	"slices"
	"testing"
)

func ints(t *Tensor) []int64 {
	if t.DType.IsFloat() {
		out := make([]int64, len(t.F))
		for i, v := range t.F {
			out[i] = int64(v)
		}
		return out
	}
	return t.I
}

func expect(t *testing.T, what string, got *Tensor, err error, shape []int, values []int64) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !sameShape(got.Shape, shape) || !slices.Equal(ints(got), values) {
		t.Errorf("%s = %v %v, want %v %v", what, got.Shape, ints(got), shape, values)
	}
}

func TestShapeOps(t *testing.T) {
	x := mustInts(t, count(12, 0), []int{3, 4}, I32) // [[0..3], [4..7], [8..11]]

	r, err := Reshape(x, []int{2, 6})
	expect(t, "reshape", r, err, []int{2, 6}, count(12, 0))
	if _, err := Reshape(x, []int{5}); !errors.Is(err, ErrShape) {
		t.Error("reshape to another element count")
	}

	r, err = Transpose(x)
	expect(t, "transpose", r, err, []int{4, 3}, []int64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11})

	cube := mustInts(t, count(24, 0), []int{2, 3, 4}, I32)
	r, err = Permute(cube, []int{2, 0, 1})
	if err != nil || !sameShape(r.Shape, []int{4, 2, 3}) || r.I[1] != 4 || r.I[3] != 12 || r.I[6] != 1 {
		t.Errorf("permute: %v %v", r, err)
	}
	if _, err := Permute(cube, []int{0, 0, 1}); err == nil {
		t.Error("a repeated axis is not a permutation")
	}

	r, err = SwapDims(cube, 0, 2)
	if err != nil || !sameShape(r.Shape, []int{4, 3, 2}) || r.I[1] != 12 {
		t.Errorf("swap_dims: %v %v", r, err)
	}

	r, err = Flip(x, []int{1})
	expect(t, "flip", r, err, []int{3, 4}, []int64{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8})

	// s![.., 2..8;-2] on 10 columns selects 7, 5, 3 (burn-std's slice docs).
	row := mustInts(t, count(10, 0), []int{1, 10}, I64)
	r, err = Slice(row, []Range{FullRange(1), {Start: 2, End: 8, Step: -2}})
	expect(t, "negative step", r, err, []int{1, 3}, []int64{7, 5, 3})
	r, err = Slice(row, []Range{FullRange(1), {Start: 0, End: 10, Step: 3}})
	expect(t, "step 3", r, err, []int{1, 4}, []int64{0, 3, 6, 9})
	r, err = Slice(row, []Range{FullRange(1), {Start: 5, End: 5, Step: 1}})
	expect(t, "empty slice", r, err, []int{1, 0}, []int64{})

	r, err = Narrow(x, 1, 1, 2)
	expect(t, "narrow", r, err, []int{3, 2}, []int64{1, 2, 5, 6, 9, 10})

	r, err = Expand(mustInts(t, []int64{1, 2}, []int{2, 1}, I32), []int{2, 2, 3})
	expect(t, "expand", r, err, []int{2, 2, 3}, []int64{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2})
	if _, err := Expand(x, []int{3, 5}); err == nil {
		t.Error("expand changes only dims of size 1")
	}

	r, err = RepeatDim(mustInts(t, []int64{1, 2, 3, 4}, []int{2, 2}, I32), 0, 2)
	expect(t, "repeat_dim tiles", r, err, []int{4, 2}, []int64{1, 2, 3, 4, 1, 2, 3, 4})
	r, err = RepeatDim(mustInts(t, []int64{1, 2, 3, 4}, []int{2, 2}, I32), 1, 2)
	expect(t, "repeat_dim 1", r, err, []int{2, 4}, []int64{1, 2, 1, 2, 3, 4, 3, 4})
}

func TestCatAndStack(t *testing.T) {
	a := mustInts(t, []int64{1, 2, 3, 4}, []int{2, 2}, I32)
	b := mustInts(t, []int64{5, 6}, []int{2, 1}, I32)
	r, err := Cat([]*Tensor{a, b}, 1)
	expect(t, "cat dim 1", r, err, []int{2, 3}, []int64{1, 2, 5, 3, 4, 6})
	r, err = Cat([]*Tensor{a, a}, 0)
	expect(t, "cat dim 0", r, err, []int{4, 2}, []int64{1, 2, 3, 4, 1, 2, 3, 4})
	if _, err := Cat([]*Tensor{a, b}, 0); err == nil {
		t.Error("cat along 0 needs equal dim 1")
	}
	if _, err := Cat([]*Tensor{a, Cast(a, I64)}, 0); err == nil {
		t.Error("cat of two dtypes")
	}
	r, err = Stack([]*Tensor{a, a}, 0)
	expect(t, "stack 0", r, err, []int{2, 2, 2}, []int64{1, 2, 3, 4, 1, 2, 3, 4})
	r, err = Stack([]*Tensor{a, a}, 2)
	expect(t, "stack 2", r, err, []int{2, 2, 2}, []int64{1, 1, 2, 2, 3, 3, 4, 4})
}

func TestIndexingOps(t *testing.T) {
	x := mustInts(t, count(12, 0), []int{3, 4}, I32)

	r, err := Select(x, 0, mustInts(t, []int64{2, 0, 2}, []int{3}, I64))
	expect(t, "select", r, err, []int{3, 4}, []int64{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11})
	if _, err := Select(x, 0, mustInts(t, []int64{3}, []int{1}, I64)); !errors.Is(err, ErrIndex) {
		t.Errorf("select past the end: %v", err)
	}
	if _, err := Select(x, 0, mustFloats(t, []float64{0}, []int{1}, F32)); !errors.Is(err, ErrKind) {
		t.Errorf("float indices: %v", err)
	}

	idx := mustInts(t, []int64{3, 0, 1, 1, 2, 2}, []int{3, 2}, I64)
	r, err = Gather(x, 1, idx)
	expect(t, "gather", r, err, []int{3, 2}, []int64{3, 0, 5, 5, 10, 10})

	// scatter add: rows of ones added at the indexed columns; a repeated
	// index accumulates.
	values := Ones([]int{3, 2}, I32)
	r, err = Scatter(Zeros([]int{3, 4}, I32), 1, idx, values, "add")
	expect(t, "scatter add", r, err, []int{3, 4}, []int64{1, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2, 0})
	ten := mustInts(t, []int64{10, 20, 30, 40, 50, 60}, []int{3, 2}, I32)
	r, err = Scatter(x, 1, idx, ten, "assign")
	expect(t, "scatter assign", r, err, []int{3, 4}, []int64{20, 1, 2, 10, 4, 40, 6, 7, 8, 9, 60, 11})
	if _, err := Scatter(x, 1, idx, ten, "mul"); !errors.Is(err, ErrUnknownOp) {
		t.Errorf("an update op without a kernel: %v", err)
	}

	mask, _ := FromBools([]bool{true, false, false, true}, []int{1, 4}, BoolNative)
	r, err = MaskFill(x, mask, IntScalar(-1))
	expect(t, "mask_fill broadcasts the mask", r, err, []int{3, 4}, []int64{-1, 1, 2, -1, -1, 5, 6, -1, -1, 9, 10, -1})
	r, err = MaskWhere(x, mask, mustInts(t, []int64{100, 200, 300}, []int{3, 1}, I32))
	expect(t, "mask_where", r, err, []int{3, 4}, []int64{100, 1, 2, 100, 200, 5, 6, 200, 300, 9, 10, 300})
	if _, err := MaskFill(x, x, IntScalar(0)); !errors.Is(err, ErrKind) {
		t.Error("an int mask")
	}

	// one_hot of [2, 0, 1] over 3 classes, and -1 counting from the end.
	r, err = OneHot(mustInts(t, []int64{2, 0, -1}, []int{3}, I64), 3, I64)
	expect(t, "one_hot", r, err, []int{3, 3}, []int64{0, 0, 1, 1, 0, 0, 0, 0, 1})
	if _, err := OneHot(mustInts(t, []int64{3}, []int{1}, I64), 3, I64); !errors.Is(err, ErrIndex) {
		t.Error("class 3 of 3")
	}
}

func TestIndexingGradients(t *testing.T) {
	// gather reads x[0, 1] twice, so its gradient is 2 there; select of
	// rows [1, 1] doubles row 1.
	_, g := gradOf(t, []float64{1, 2, 3, 4}, F32, func(x *Tensor) *Tensor {
		m, _ := Reshape(x, []int{2, 2})
		idx := mustInts(t, []int64{1, 1, 0, 0}, []int{2, 2}, I64)
		r, _ := Gather(m, 1, idx)
		return r
	})
	if !slices.Equal(g.F, []float64{0, 2, 2, 0}) {
		t.Errorf("gather gradient %v", g.F)
	}
	_, g = gradOf(t, []float64{1, 2, 3, 4}, F32, func(x *Tensor) *Tensor {
		m, _ := Reshape(x, []int{2, 2})
		r, _ := Select(m, 0, mustInts(t, []int64{1, 1}, []int{2}, I64))
		return r
	})
	if !slices.Equal(g.F, []float64{0, 0, 2, 2}) {
		t.Errorf("select gradient %v", g.F)
	}
	// scatter assign: the overwritten element gets no gradient from the
	// original tensor.
	_, g = gradOf(t, []float64{1, 2, 3}, F32, func(x *Tensor) *Tensor {
		r, _ := Scatter(x, 0, mustInts(t, []int64{1}, []int{1}, I64), Full([]int{1}, F32, IntScalar(9)), "assign")
		return r
	})
	if !slices.Equal(g.F, []float64{1, 0, 1}) {
		t.Errorf("scatter assign gradient %v", g.F)
	}
	// mask_fill: no gradient where filled.
	mask, _ := FromBools([]bool{false, true, false}, []int{3}, BoolNative)
	_, g = gradOf(t, []float64{1, 2, 3}, F32, func(x *Tensor) *Tensor {
		r, _ := MaskFill(x, mask, FloatScalar(0))
		return r
	})
	if !slices.Equal(g.F, []float64{1, 0, 1}) {
		t.Errorf("mask_fill gradient %v", g.F)
	}
	// one_hot is built from fresh tensors: no graph.
	tracked, _ := Ones([]int{2}, F32).RequireGrad()
	oh, _ := OneHot(tracked, 2, F32)
	if oh.Tracked() {
		t.Error("one_hot of a tracked tensor is a fresh tensor in Burn")
	}
}

func TestAssignSortAndTopK(t *testing.T) {
	x := mustInts(t, count(12, 0), []int{3, 4}, I32)
	patch := mustInts(t, []int64{-1, -2, -3, -4}, []int{2, 2}, I32)
	r, err := SliceAssign(x, []Range{{1, 3, 1}, {0, 4, 2}}, patch)
	expect(t, "slice_assign", r, err, []int{3, 4}, []int64{0, 1, 2, 3, -1, 5, -2, 7, -3, 9, -4, 11})
	if _, err := SliceAssign(x, []Range{{0, 1, 1}, FullRange(4)}, patch); err == nil {
		t.Error("values of the wrong shape")
	}
	r, err = SliceFill(x, []Range{FullRange(3), {3, 4, 1}}, IntScalar(0))
	expect(t, "slice_fill", r, err, []int{3, 4}, []int64{0, 1, 2, 0, 4, 5, 6, 0, 8, 9, 10, 0})

	rows := Ones([]int{2, 4}, I32)
	r, err = SelectAssign(x, 0, mustInts(t, []int64{2, 2}, []int{2}, I64), rows, "add")
	expect(t, "select_assign add", r, err, []int{3, 4}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13})

	v := mustFloats(t, []float64{3, 1, 2, 3, 9, 0}, []int{2, 3}, F32)
	r, err = Sort(v, 1, false)
	expect(t, "sort", r, err, []int{2, 3}, []int64{1, 2, 3, 0, 3, 9})
	r, err = TopK(v, 2, 1)
	expect(t, "topk", r, err, []int{2, 2}, []int64{3, 2, 9, 3})
	if _, err := TopK(v, 4, 1); err == nil {
		t.Error("topk 4 of 3")
	}

	// slice_assign's gradient: the region to the values, the rest to t.
	base, _ := Zeros([]int{4}, F32).RequireGrad()
	vals, _ := Ones([]int{2}, F32).RequireGrad()
	out, _ := SliceAssign(base, []Range{{1, 3, 1}}, vals)
	w := mustFloats(t, []float64{1, 2, 3, 4}, []int{4}, F32)
	weighted, _ := Binary("mul", out, w)
	loss, _ := Reduce("sum", weighted, BoolNative)
	grads, _ := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
	gb, _ := grads.Get(base)
	gv, _ := grads.Get(vals)
	if !slices.Equal(gb.F, []float64{1, 0, 0, 4}) || !slices.Equal(gv.F, []float64{2, 3}) {
		t.Errorf("slice_assign gradients %v %v", gb.F, gv.F)
	}

	sq, err := Unary("square", mustInts(t, []int64{-3, 4}, []int{2}, I32))
	if err != nil || !slices.Equal(sq.I, []int64{9, 16}) {
		t.Errorf("int square %v %v", sq, err)
	}
}

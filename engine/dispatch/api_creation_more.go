package dispatch

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Associated functions of Tensor that burn-tensor composes from other
// creations and methods (the file:line beside each): triu_mask, tril_mask
// and diag_mask, eye, and arange_step.

const (
	locBoolAPI    = "crates/burn-tensor/src/tensor/api/bool.rs"
	locFlexIntOps = "crates/burn-flex/src/ops/int.rs"
)

// extraTensorFunctions are the associated functions handled here.
var extraTensorFunctions = map[string]bool{"triu_mask": true, "tril_mask": true, "diag_mask": true,
	"eye": true, "arange_step": true, "cartesian_grid": true}

func (w *World) extraTensorFunction(name string, tt tensorType, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "triu_mask", "tril_mask", "diag_mask":
		return w.triMask(name, tt, a)
	case "eye":
		return w.eye(tt, a)
	case "arange_step":
		return w.arangeStep(tt, a)
	case "cartesian_grid":
		return w.cartesianGrid(tt, a)
	}
	return nil, errUnknownFunction(tensorStruct, name), nil
}

func usizeDims(dims []int64) *Array {
	out := &Array{}
	for _, d := range dims {
		out.Elems = append(out.Elems, Int{V: d, Suffix: "usize"})
	}
	return out
}

// arange is Tensor::<1, Int>::arange(0..n, device).
func (w *World) arange(n int64, device Value) (*Tensor, *UsageError, *Panic) {
	lo := int64(0)
	v, ue, p := w.create("arange", tensorType{rank: 1, kind: KindInt}, []int64{max(n, 0)},
		argList{c: Call{Args: []Value{&Range{Lo: &lo, Hi: &n}, device}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return v.(*Tensor), nil, nil
}

// triMask is tri_mask (bool.rs:290-321): arange rows and columns, reshaped
// to broadcast, row - (col - offset), compared with 0 (greater_scalar for
// the upper part, lower_scalar for the lower, not_equal_scalar off the
// diagonal), then unsqueeze to D, a reshape to the same rank.
func (w *World) triMask(name string, tt tensorType, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	shape, ue := shapeArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	offset, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	rank := tt.rank
	if rank <= 0 {
		rank = len(shape)
	}
	if rank < 2 || len(shape) != rank {
		return nil, errArgType(1, "[usize; D] with D >= 2", a.c.Args[0]), nil
	}
	height, width := shape[rank-2], shape[rank-1]
	rows, ue, p := w.arange(height, a.c.Args[2])
	if ue != nil || p != nil {
		return nil, ue, p
	}
	cols, ue, p := w.arange(width, a.c.Args[2])
	if ue != nil || p != nil {
		return nil, ue, p
	}
	rowShape, colShape := make([]int64, rank), make([]int64, rank)
	for i := range rank {
		rowShape[i], colShape[i] = 1, 1
	}
	rowShape[rank-2], colShape[rank-1] = height, width
	ac := actComposer{w: w}
	rowB := ac.method(rows, "reshape", usizeDims(rowShape))
	colB := ac.method(cols, "reshape", usizeDims(colShape))
	matrix := ac.method(rowB, "sub", ac.method(colB, "sub_scalar", Int{V: offset, Suffix: "i64"}))
	compare := map[string]string{"triu_mask": "greater_scalar", "tril_mask": "lower_scalar", "diag_mask": "not_equal_scalar"}[name]
	mask := ac.method(matrix, compare, Int{V: 0})
	var out *Tensor
	if mask != nil {
		out = ac.method(mask, "reshape", usizeDims(mask.shape))
	}
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return out, nil, nil
}

// eye is Tensor::eye (numeric.rs:883-889): arange(0..size).unsqueeze()
// as [1, size] indices, ones([1, size]) scattered with Add into
// zeros([size, size]) along dim 0.
func (w *World) eye(tt tensorType, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	size, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	if tt.kind == KindBool {
		return nil, errUnknownFunction(tensorStruct, "eye"), nil
	}
	tt.rank = 2
	device := a.c.Args[1]
	idx, ue, p := w.arange(size, device)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	ac := actComposer{w: w}
	indices := ac.method(idx, "reshape", usizeDims([]int64{1, size}))
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	ones, ue, p := w.create("ones", tt, []int64{1, size}, argList{c: Call{Args: []Value{device}}}, 0)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	zeros, ue, p := w.create("zeros", tt, []int64{size, size}, argList{c: Call{Args: []Value{device}}}, 0)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := ac.method(zeros.(*Tensor), "scatter", Int{V: 0}, indices, ones, &Enum{Type: "IndexingUpdateOp", Variant: "Add"})
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return out, nil, nil
}

// arangeStep is Tensor::<1, Int>::arange_step(range, step, options)
// (int.rs:30-38): Dispatch's int_arange_step, which Flex computes as
// range.step_by(step) (burn-flex/src/ops/int.rs:1094-1105); step_by
// asserts a non-zero step.
func (w *World) arangeStep(tt tensorType, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	r, ok := a.get(0).(*Range)
	if !ok || r.Lo == nil || r.Hi == nil || r.Inclusive {
		return nil, errArgType(1, "Range<i64>", a.c.Args[0]), nil
	}
	step, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	if step < 0 {
		return nil, errArgType(2, "usize", a.c.Args[1]), nil
	}
	if step == 0 {
		return nil, nil, newPanic("flex-arange-step-zero", at(locFlexIntOps, 1103), "assertion failed: step != 0")
	}
	lo, hi := *r.Lo, *r.Hi
	n := int64(0)
	if hi > lo {
		n = (hi-lo-1)/step + 1
	}
	tt.kind, tt.rank = KindInt, 1
	v, ue, p := w.create("arange_step", tt, []int64{n}, a, 2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := v.(*Tensor)
	w.compute(out, nil, func() (*tensor.Tensor, error) {
		dt, ok := valueDType(out.dtype)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.Arange(lo, hi, step, dt)
	})
	return out, nil, nil
}

// cartesianGrid is Tensor::<D, Int>::cartesian_grid::<S, D2>(shape, device)
// (int.rs:95-100, cartesian_grid.rs:25-52): for each dim an arange of its
// size reshaped onto that dim and repeated along every other, the D
// grids stacked at dim D. D2 is D + 1; a program naming another D2 is not
// modelled (Burn panics "D2 must equal D + 1 for Tensor::cartesian_grid").
func (w *World) cartesianGrid(tt tensorType, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	dims, ue := shapeArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	rank := tt.rank
	if rank <= 0 {
		rank = len(dims)
	}
	if len(dims) != rank || rank == 0 {
		return nil, errArgType(1, fmt.Sprintf("[usize; %d]", rank), a.c.Args[0]), nil
	}
	if g := lastGenerics(a.c); len(g) == 2 && strings.TrimSpace(g[1]) != fmt.Sprint(rank+1) {
		return nil, errUnsupported("Tensor::cartesian_grid with D2 other than D + 1"), nil
	}
	ac := actComposer{w: w}
	grids := &Array{Vec: true}
	for d := range rank {
		r, ue, p := w.arange(dims[d], a.c.Args[1])
		if ue != nil || p != nil {
			return nil, ue, p
		}
		shape := make([]int64, rank)
		for k := range shape {
			shape[k] = 1
		}
		shape[d] = dims[d]
		g := ac.method(r, "reshape", usizeDims(shape))
		for k, size := range dims {
			if k != d {
				g = ac.method(g, "repeat_dim", Int{V: int64(k), Suffix: "usize"}, Int{V: size, Suffix: "usize"})
			}
		}
		grids.Elems = append(grids.Elems, g)
	}
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return w.tensorFunction("stack", Call{Path: []string{"Tensor", "stack"}, Generics: [][]string{{fmt.Sprint(rank + 1), "Int"}, nil},
		Args: []Value{grids, Int{V: int64(rank), Suffix: "usize"}}})
}

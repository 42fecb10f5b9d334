package tensor

import (
	"errors"
	"math"
	"slices"
)

// ErrTiedOrder: indices of equal elements, whose order burn-flex's
// unstable sort leaves to its algorithm; the caller carries a shape only.
var ErrTiedOrder = errors.New("tensor: the order of tied elements is not known")

// SortWithIndices is burn-flex's sort, sort_with_indices and argsort
// (crates/burn-flex/src/ops/sort.rs:36-200): each lane along dim ordered
// by f32::total_cmp (-0.0 before +0.0, NaN after +inf) or Ord, ascending
// or descending. The values are exact whatever the order of tied
// elements, since tied elements are equal bit for bit; their indices are
// not (sort_unstable_by), so indices is nil and ties true when a lane has
// a tie. The values' gradient is burn-autodiff's SortDim: the output's
// gradient scattered back to where each value came from (crates/
// burn-autodiff/src/ops/sort.rs).
func SortWithIndices(t *Tensor, dim int, descending bool, indexDType DType) (values, indices *Tensor, ties bool, err error) {
	if err := checkDim(t, dim); err != nil {
		return nil, nil, false, err
	}
	if t.DType.IsBool() {
		return nil, nil, false, kindError("sort of a Bool tensor")
	}
	a := splitAt(t.Shape, dim)
	index := make([]int, t.NumElements())
	lane := make([]int, a.size)
	for o := range a.outer {
		for i := range a.inner {
			for k := range lane {
				lane[k] = a.pos(o, k, i)
			}
			slices.SortStableFunc(lane, func(p, q int) int {
				c := totalOrder(t, p, q)
				if descending {
					return -c
				}
				return c
			})
			for k, p := range lane {
				if k > 0 && totalOrder(t, lane[k-1], p) == 0 {
					ties = true
				}
				index[a.pos(o, k, i)] = p
			}
		}
	}
	values = remap(t, t.Shape, index)
	if ties {
		return values, nil, true, nil
	}
	out := newData(indexDType, t.Shape)
	for q, p := range index {
		out.I[q] = int64((p / a.inner) % a.size)
	}
	return values, &Tensor{Data: *out}, false, nil
}

// totalOrder compares two elements as f32::total_cmp and the integers'
// Ord do.
func totalOrder(t *Tensor, p, q int) int {
	if t.DType.IsInt() {
		return compareInt(t.DType, t.I[p], t.I[q])
	}
	x, y := totalKey(t.F[p]), totalKey(t.F[q])
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// totalKey maps a float to an integer whose order is total_cmp's.
func totalKey(x float64) int64 {
	b := int64(math.Float64bits(x))
	if b < 0 {
		b ^= math.MaxInt64
	}
	return b
}

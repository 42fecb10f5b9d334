package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortWithIndices(t *testing.T) {
	x := mustFloats(t, []float64{3, -1, 2, 0.5, 7, -4}, []int{2, 3}, F32)
	v, idx, ties, err := SortWithIndices(x, 1, false, I64)
	if err != nil || ties || !slices.Equal(v.F, []float64{-1, 2, 3, -4, 0.5, 7}) || !slices.Equal(idx.I, []int64{1, 2, 0, 2, 0, 1}) {
		t.Fatalf("sort(1) = %v %v %v %v", v, idx, ties, err)
	}
	v, idx, _, _ = SortWithIndices(x, 0, true, I64)
	if !slices.Equal(v.F, []float64{3, 7, 2, 0.5, -1, -4}) || !slices.Equal(idx.I, []int64{0, 1, 0, 1, 0, 1}) {
		t.Errorf("sort_descending(0) = %v %v", v.F, idx.I)
	}
	// total_cmp: -0.0 before 0.0, NaN after inf.
	special := mustFloats(t, []float64{math.NaN(), 0, math.Inf(1), math.Copysign(0, -1)}, []int{4}, F32)
	v, idx, ties, _ = SortWithIndices(special, 0, false, I64)
	if ties || !math.Signbit(v.F[0]) || v.F[1] != 0 || math.Signbit(v.F[1]) || !math.IsInf(v.F[2], 1) || !math.IsNaN(v.F[3]) ||
		!slices.Equal(idx.I, []int64{3, 1, 2, 0}) {
		t.Errorf("total order: %v %v", v.F, idx.I)
	}
	// A tie: the values are known, the indices are not.
	tied := mustInts(t, []int64{2, 1, 2}, []int{3}, I32)
	v, idx, ties, _ = SortWithIndices(tied, 0, false, I64)
	if !ties || idx != nil || !slices.Equal(v.I, []int64{1, 2, 2}) {
		t.Errorf("tied sort: %v %v %v", v.I, idx, ties)
	}
	// The gradient goes back to where each value came from.
	_, g := gradOf(t, []float64{3, 1, 2}, F32, func(x *Tensor) *Tensor {
		s, _, _, _ := SortWithIndices(x, 0, false, I64)
		w := mustFloats(t, []float64{10, 20, 30}, []int{3}, F32)
		y, _ := Binary("mul", s, w)
		return y
	})
	if !slices.Equal(g.F, []float64{30, 10, 20}) {
		t.Errorf("sort gradient %v", g.F)
	}
}

// TestSortAgainstCounting checks random lanes: each output value's index
// names an input element equal to it, the values are ordered, and the
// indices are a permutation; without ties the rank of every element is
// the count of elements below it.
func TestSortAgainstCounting(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for trial := range 100 {
		shape := randomShape(r)
		dim := r.IntN(len(shape))
		values := make([]float64, numel(shape))
		for i := range values {
			values[i] = float64(r.IntN(1000)) - 500 // ties are rare
		}
		x := mustFloats(t, values, shape, F64)
		for _, desc := range []bool{false, true} {
			v, idx, ties, err := SortWithIndices(x, dim, desc, I64)
			if err != nil {
				t.Fatal(err)
			}
			for p := range values {
				c := decode(p, shape)
				if ties {
					break
				}
				src := append([]int(nil), c...)
				src[dim] = int(idx.I[p])
				if got := values[flatOf(src, shape)]; got != v.F[p] {
					t.Fatalf("trial %d: value %v at %v, its index reads %v", trial, v.F[p], c, got)
				}
				// Rank: how many of the lane sort before this value.
				below := 0
				for k := range shape[dim] {
					cc := append([]int(nil), c...)
					cc[dim] = k
					e := values[flatOf(cc, shape)]
					if (!desc && e < v.F[p]) || (desc && e > v.F[p]) {
						below++
					}
				}
				if below != c[dim] {
					t.Fatalf("trial %d: %v at position %d of its lane has %d before it", trial, v.F[p], c[dim], below)
				}
			}
		}
	}
}

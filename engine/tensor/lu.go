package tensor

import "math"

// LU is linalg::lu (crates/burn-tensor/src/tensor/linalg/lu.rs) for
// matrices whose smaller side is under 256, where Burn runs
// standard_lu_with_partial_piv (lu.rs:139-166) op by op: for each column
// k, the row of the largest |a[i][k]| (the first on ties) from k down is
// swapped in, as swap_tensor_rows does it (row k set to row r, then
// row_k - row_r scatter-added onto row r, in the dtype); the column below
// the pivot is divided by the pivot (1 when it is 0); the trailing block
// loses the outer product of that column and the pivot row. P is the
// identity with the pivots' swaps applied, transposed; L the strictly
// lower part with a unit diagonal, U the upper part, cut to m x min(m, n)
// and min(m, n) x n. F16 and BF16 work in F32 and round back (lu.rs:
// 34-38, 104-110). The outputs carry no gradient: ErrUnknownOp when the
// input is tracked, or when Burn's blocked algorithm would run.
func LU(t *Tensor) (p, l, u *Tensor, err error) {
	rank := len(t.Shape)
	if rank < 2 || !t.DType.IsFloat() {
		return nil, nil, nil, kindError("lu of a rank-%d %s tensor", rank, t.DType.Kind())
	}
	if t.node != nil {
		return nil, nil, nil, ErrUnknownOp
	}
	m, n := t.Shape[rank-2], t.Shape[rank-1]
	k := min(m, n)
	if k >= maxDetLU {
		return nil, nil, nil, ErrUnknownOp
	}
	work := t.DType
	if work == F16 || work == BF16 {
		work = F32
	}
	batch := numel(t.Shape[:rank-2])
	outShape := func(r, c int) []int { return append(append([]int(nil), t.Shape[:rank-2]...), r, c) }
	pd, ld, ud := newData(t.DType, outShape(m, m)), newData(t.DType, outShape(m, k)), newData(t.DType, outShape(k, n))
	a := make([]float64, m*n)
	for b := range batch {
		for i := range a {
			a[i] = work.roundFloat(t.F[b*m*n+i])
		}
		perm := make([]int, m)
		for i := range perm {
			perm[i] = i
		}
		for c := range k {
			r := c
			for i := c + 1; i < m; i++ {
				if math.Abs(a[i*n+c]) > math.Abs(a[r*n+c]) {
					r = i
				}
			}
			for j := range n {
				// Also when r == c, where it adds a zero (-0.0 becomes 0.0).
				vk, vr := a[c*n+j], a[r*n+j]
				a[c*n+j] = vr
				a[r*n+j] = work.roundFloat(vr + work.roundFloat(vk-vr))
			}
			perm[c], perm[r] = perm[r], perm[c]
			if c >= m-1 {
				continue
			}
			pivot := a[c*n+c]
			if pivot == 0 {
				pivot = 1
			}
			for i := c + 1; i < m; i++ {
				a[i*n+c] = work.roundFloat(a[i*n+c] / pivot)
			}
			if c >= k-1 {
				continue
			}
			for i := c + 1; i < m; i++ {
				for j := c + 1; j < n; j++ {
					a[i*n+j] = work.roundFloat(a[i*n+j] - work.roundFloat(a[i*n+c]*a[c*n+j]))
				}
			}
		}
		// P = (identity with rows selected by perm) transposed: P[j][i] is
		// 1 where perm[i] == j.
		for i, j := range perm {
			pd.F[b*m*m+j*m+i] = 1
		}
		for i := range m {
			for j := range k {
				switch {
				case i == j:
					ld.F[b*m*k+i*k+j] = 1
				case j < i:
					ld.F[b*m*k+i*k+j] = t.DType.roundFloat(a[i*n+j])
				}
			}
		}
		for i := range k {
			for j := i; j < n; j++ {
				ud.F[b*k*n+i*n+j] = t.DType.roundFloat(a[i*n+j])
			}
		}
	}
	return &Tensor{Data: *pd}, &Tensor{Data: *ld}, &Tensor{Data: *ud}, nil
}

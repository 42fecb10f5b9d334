package tensor

import (
	"math"
)

// linalg::det as burn-tensor composes it at 2c06be35
// (crates/burn-tensor/src/tensor/linalg/det.rs, lu.rs), every step in the
// element type Burn computes it in.

// maxDetLU is the size from which Burn's det factors by block LU
// (lu.rs:125, size >= 256); the engine computes the standard algorithm
// only, and leaves larger determinants without values.
const maxDetLU = 256

// Det is linalg::det of a float tensor of shape [.., n, n], shaped shape
// (the batch dims, padded as the call's output rank asks). F16 and BF16
// are computed in F32 and cast back (det.rs:84-91). 1x1, 2x2 and 3x3
// matrices use Burn's closed forms (det.rs:95-131); larger ones the
// partial-pivoting LU of lu.rs:245 with det.rs:134-172's sign, product of
// the diagonal and singularity threshold. The result carries no gradient:
// a tracked input is an error here, so its values stay unknown.
func Det(t *Tensor, shape []int) (*Tensor, error) {
	rank := len(t.Shape)
	if !t.DType.IsFloat() || rank < 2 || t.Shape[rank-1] != t.Shape[rank-2] {
		return nil, shapeError("det of a tensor of shape %v", t.Shape)
	}
	if t.Tracked() {
		return nil, kindError("det of a tracked tensor")
	}
	n := t.Shape[rank-1]
	if n >= maxDetLU || n == 0 {
		return nil, shapeError("det of %dx%d matrices", n, n)
	}
	work := t.DType
	if work == F16 || work == BF16 {
		work = F32
	}
	batch := numel(t.Shape[:rank-2])
	if numel(shape) != batch {
		return nil, shapeError("det of shape %v into %v", t.Shape, shape)
	}
	out := newData(t.DType, shape)
	m := make([]float64, n*n)
	for b := range batch {
		for i := range m {
			m[i] = work.roundFloat(t.F[b*n*n+i])
		}
		out.F[b] = t.DType.roundFloat(detOf(m, n, work))
	}
	return &Tensor{Data: *out}, nil
}

// detOf is the determinant of the n x n matrix a (row-major), in dtype
// work; a is overwritten.
func detOf(a []float64, n int, work DType) float64 {
	r := work.roundFloat
	mul := func(x, y float64) float64 { return r(x * y) }
	sub := func(x, y float64) float64 { return r(x - y) }
	switch n {
	case 1:
		return a[0]
	case 2:
		return sub(mul(a[0], a[3]), mul(a[1], a[2]))
	case 3:
		A, B, C, D, E, F, G, H, I := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]
		return r(sub(mul(A, sub(mul(E, I), mul(F, H))), mul(B, sub(mul(D, I), mul(F, G)))) + mul(C, sub(mul(D, H), mul(E, G))))
	}
	swaps := 0
	for k := range n {
		// The pivot: the first row from k down with the largest |a[i][k]|
		// (argmax of abs, lu.rs:259-265).
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[p*n+k]) {
				p = i
			}
		}
		if p != k {
			swaps++
			// swap_tensor_rows (lu.rs:337): row k takes row p's values;
			// row p becomes row p + (row k - row p), added in the dtype.
			for j := range n {
				vk, vp := a[k*n+j], a[p*n+j]
				a[k*n+j] = vp
				a[p*n+j] = r(vp + r(vk-vp))
			}
		}
		if k == n-1 {
			break
		}
		// update_kth_column (lu.rs:379): divide by the pivot, 1 where it
		// is 0.
		pivot := a[k*n+k]
		if pivot == 0 {
			pivot = 1
		}
		for i := k + 1; i < n; i++ {
			a[i*n+k] = r(a[i*n+k] / pivot)
		}
		// update_trailing_submatrix (lu.rs:398): minus the outer product.
		for i := k + 1; i < n; i++ {
			for j := k + 1; j < n; j++ {
				a[i*n+j] = sub(a[i*n+j], mul(a[i*n+k], a[k*n+j]))
			}
		}
	}
	// det.rs:134-172: the sign of the row swaps, the product of U's
	// diagonal in order, and 0 when a diagonal element is within
	// max|diag| * sqrt(n) * epsilon of zero.
	product, largest := 1.0, 0.0
	for i := range n {
		d := a[i*n+i]
		product = mul(product, d)
		largest = math.Max(largest, math.Abs(d))
	}
	eps := math.Pow(2, -23)
	if work == F64 {
		eps = math.Pow(2, -52)
	}
	threshold := mul(mul(largest, r(math.Sqrt(float64(n)))), eps)
	for i := range n {
		if math.Abs(a[i*n+i]) <= threshold {
			product = 0
			break
		}
	}
	sign := 1.0
	if swaps%2 == 1 {
		sign = -1
	}
	return mul(sign, product)
}

package tensor

import "math"

// DefaultBudget is how many tensor elements one run may hold values for:
// a million elements, 8 MB of float64 storage plus the autodiff tape's
// copies, small enough for a browser tab and a pooled wasm instance.
const DefaultBudget = 1_000_000

// DefaultWork is how many multiply-adds one run's matmuls, convolutions
// and the like (and their gradients) may do: 2*10^6, a few milliseconds
// natively and about 12 ms in wazero's compiler on the reference machine,
// so that a re-check as the user types (a check and a run) fits a
// browser's frame or two. Every test of Burn's backend suite fits it (a
// 100x100 matmul is 10^6); the element budget alone would let three
// 577x577 matrices cost 2*10^8 each, and the guide's model on a batch of
// 64 would compute 4.5*10^7 in its second convolution.
const DefaultWork = 2_000_000

// Budget counts the elements a run has computed values for, and the
// multiply-adds its matmuls did. The caller asks it before each operation;
// once an operation would exceed it, that tensor and everything computed
// from it carry shapes only, so a 10^12-element tensor in a snippet costs
// nothing, and the run stays deterministic: the same snippet is cut at
// the same place natively, in wazero and in a browser. Nothing is given
// back: the model does not see Rust drop a tensor, so the count is the
// run's total, an upper bound on what is alive at once.
type Budget struct {
	limit, used         int64
	workLimit, workUsed int64
	elided              bool
}

// NewBudget returns a budget of elements tensor elements and work
// multiply-adds.
func NewBudget(elements, work int64) *Budget {
	return &Budget{limit: elements, workLimit: work}
}

// Take reserves n elements. It returns false, reserving nothing and
// marking the run as elided, when fewer than n remain.
func (b *Budget) Take(n int64) bool {
	if n < 0 || n > b.limit-b.used {
		b.elided = true
		return false
	}
	b.used += n
	return true
}

// TakeShape reserves the element count of shape, which may be far larger
// than memory (dims as dispatch holds them, int64).
func (b *Budget) TakeShape(shape []int64) bool {
	n, ok := ShapeElements(shape)
	if !ok {
		b.elided = true
		return false
	}
	return b.Take(n)
}

// TakeWork reserves n multiply-adds (see MatmulWork), on the same terms
// as Take.
func (b *Budget) TakeWork(n int64) bool {
	if n < 0 || n > b.workLimit-b.workUsed {
		b.elided = true
		return false
	}
	b.workUsed += n
	return true
}

// Used is how many elements the run holds values for.
func (b *Budget) Used() int64 { return b.used }

// WorkUsed is how many multiply-adds the run's matmuls did.
func (b *Budget) WorkUsed() int64 { return b.workUsed }

// Elided reports whether some tensor of the run was refused values, which
// the output should say.
func (b *Budget) Elided() bool { return b.elided }

// ElidedNote is the note the playground prints when a run's values were
// partly elided.
func (b *Budget) ElidedNote() string {
	return "values of tensors beyond the playground's budget of " + groupThousands(b.limit) +
		" elements per run were not computed; those tensors carry shapes only"
}

// MatmulWork is the multiply-adds of matmul on operands of these shapes
// (same rank >= 2, batch dims broadcasting): batch * m * k * n. ok is
// false when the shapes do not multiply or the count overflows.
func MatmulWork(a, b []int64) (int64, bool) {
	rank := len(a)
	if rank < 2 || len(b) != rank || a[rank-1] != b[rank-2] {
		return 0, false
	}
	dims := []int64{a[rank-2], a[rank-1], b[rank-1]}
	for d := range rank - 2 {
		dims = append(dims, max(a[d], b[d]))
	}
	return ShapeElements(dims)
}

// ShapeElements is the product of dims, false when it overflows int64 or a
// dim is negative.
func ShapeElements(shape []int64) (int64, bool) {
	for _, d := range shape {
		if d < 0 {
			return 0, false
		}
		if d == 0 {
			return 0, true
		}
	}
	n := int64(1)
	for _, d := range shape {
		if n > math.MaxInt64/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

func groupThousands(n int64) string {
	s := []byte(itoa(n))
	var out []byte
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

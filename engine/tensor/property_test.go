package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomShape is a shape of rank 1..4 with dims 1..4.
func randomShape(r *rand.Rand) []int {
	shape := make([]int, 1+r.IntN(4))
	for i := range shape {
		shape[i] = 1 + r.IntN(4)
	}
	return shape
}

// collapse sets some dims of shape to 1, so it broadcasts against shape.
func collapse(r *rand.Rand, shape []int) []int {
	out := append([]int(nil), shape...)
	for i := range out {
		if r.IntN(3) == 0 {
			out[i] = 1
		}
	}
	return out
}

func randomValues(r *rand.Rand, n int) []float64 {
	values := make([]float64, n)
	for i := range values {
		values[i] = r.Float64()*4 - 2
	}
	return values
}

// naiveAt reads element coords of a tensor of shape, a broadcast dim
// reading its only element: the definition of broadcasting, written
// without index maps.
func naiveAt(values []float64, shape, coords []int) float64 {
	pos := 0
	for d, n := range shape {
		c := coords[d]
		if n == 1 {
			c = 0
		}
		pos = pos*n + c
	}
	return values[pos]
}

func decode(flat int, shape []int) []int {
	coords := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		coords[d] = flat % shape[d]
		flat /= shape[d]
	}
	return coords
}

func TestBroadcastingAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ops := map[string]func(a, b float64) float64{
		"add": func(a, b float64) float64 { return a + b },
		"sub": func(a, b float64) float64 { return a - b },
		"mul": func(a, b float64) float64 { return a * b },
		"div": func(a, b float64) float64 { return a / b },
	}
	for trial := range 200 {
		full := randomShape(r)
		sa, sb := collapse(r, full), collapse(r, full)
		a := mustFloats(t, randomValues(r, numel(sa)), sa, F64)
		b := mustFloats(t, randomValues(r, numel(sb)), sb, F64)
		want := make([]int, len(full))
		for d := range full {
			want[d] = max(sa[d], sb[d])
		}
		for name, f := range ops {
			got, err := Binary(name, a, b)
			if err != nil {
				t.Fatalf("trial %d: %s of %v and %v: %v", trial, name, sa, sb, err)
			}
			if !sameShape(got.Shape, want) {
				t.Fatalf("trial %d: %s of %v and %v has shape %v, want %v", trial, name, sa, sb, got.Shape, want)
			}
			for i := range got.F {
				c := decode(i, want)
				if e := f(naiveAt(a.F, sa, c), naiveAt(b.F, sb, c)); got.F[i] != e {
					t.Fatalf("trial %d: %s at %v = %v, want %v", trial, name, c, got.F[i], e)
				}
			}
		}
		mask, err := Compare("greater", a, b, BoolNative)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range mask.B {
			c := decode(i, want)
			if v != (naiveAt(a.F, sa, c) > naiveAt(b.F, sb, c)) {
				t.Fatalf("trial %d: greater at %v", trial, c)
			}
		}
	}
	bad := mustFloats(t, []float64{1, 2}, []int{2}, F64)
	other := mustFloats(t, []float64{1, 2, 3}, []int{3}, F64)
	if _, err := Binary("add", bad, other); err == nil {
		t.Error("dims 2 and 3 do not broadcast")
	}
	if _, err := Binary("add", bad, mustFloats(t, []float64{1, 2}, []int{1, 2}, F64)); err == nil {
		t.Error("Burn broadcasts only between tensors of one rank")
	}
}

func TestMatmulAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		rank := 2 + r.IntN(3)
		batch := make([]int, rank-2)
		for i := range batch {
			batch[i] = 1 + r.IntN(3)
		}
		m, k, n := 1+r.IntN(5), 1+r.IntN(5), 1+r.IntN(5)
		sa := append(collapse(r, batch), m, k)
		sb := append(collapse(r, batch), k, n)
		a := mustFloats(t, randomValues(r, numel(sa)), sa, F64)
		b := mustFloats(t, randomValues(r, numel(sb)), sb, F64)
		got, err := Matmul(a, b)
		if err != nil {
			t.Fatalf("trial %d: %v x %v: %v", trial, sa, sb, err)
		}
		outBatch := make([]int, rank-2)
		for d := range outBatch {
			outBatch[d] = max(sa[d], sb[d])
		}
		want := append(append([]int(nil), outBatch...), m, n)
		if !sameShape(got.Shape, want) {
			t.Fatalf("trial %d: shape %v, want %v", trial, got.Shape, want)
		}
		for flat := range got.F {
			c := decode(flat, want)
			sum := 0.0
			for l := range k {
				ca := append(append([]int(nil), c[:rank-2]...), c[rank-2], l)
				cb := append(append([]int(nil), c[:rank-2]...), l, c[rank-1])
				sum += naiveAt(a.F, sa, ca) * naiveAt(b.F, sb, cb)
			}
			if math.Abs(got.F[flat]-sum) > 1e-12 {
				t.Fatalf("trial %d: at %v got %v, want %v", trial, c, got.F[flat], sum)
			}
		}
	}
	ints, err := Matmul(mustInts(t, []int64{1, 2, 3, 4}, []int{2, 2}, I32), mustInts(t, []int64{5, 6, 7, 8}, []int{2, 2}, I32))
	if err != nil || ints.I[0] != 19 || ints.I[1] != 22 || ints.I[2] != 43 || ints.I[3] != 50 {
		t.Errorf("int matmul: %v %v", ints, err)
	}
	if _, err := Matmul(mustFloats(t, make([]float64, 6), []int{2, 3}, F32), mustFloats(t, make([]float64, 6), []int{2, 3}, F32)); err == nil {
		t.Error("inner dims 3 and 2 do not match")
	}
}

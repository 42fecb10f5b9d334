package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LU on a matrix worked by hand, and P L U against the input on random
// square, tall and wide matrices, with L unit lower and U upper.
func TestLU(t *testing.T) {
	x := mustFloats(t, []float64{1, 2, 3, 4}, []int{2, 2}, F32)
	p, l, u, err := LU(x)
	if err != nil {
		t.Fatal(err)
	}
	// The pivot of column 0 is row 1 (|3| > |1|): P swaps the rows,
	// L = [[1, 0], [1/3, 1]], U = [[3, 4], [0, 2 - 4/3]].
	third := float64(float32(1.0 / 3))
	wantU := float64(float32(2 - float32(third)*4))
	if p.F[0] != 0 || p.F[1] != 1 || p.F[2] != 1 || p.F[3] != 0 ||
		l.F[0] != 1 || l.F[1] != 0 || l.F[2] != third || l.F[3] != 1 ||
		u.F[0] != 3 || u.F[1] != 4 || u.F[2] != 0 || u.F[3] != wantU {
		t.Fatalf("lu of [[1, 2], [3, 4]]: P %v L %v U %v", p.F, l.F, u.F)
	}
	r := rand.New(rand.NewPCG(3, 3))
	for trial := range 60 {
		m, n := 1+r.IntN(5), 1+r.IntN(5)
		vals := make([]float64, m*n)
		for i := range vals {
			vals[i] = float64(r.IntN(19) - 9)
		}
		a := mustFloats(t, vals, []int{m, n}, F64)
		p, l, u, err := LU(a)
		if err != nil {
			t.Fatal(err)
		}
		k := min(m, n)
		pl, _ := Matmul(p, l)
		plu, _ := Matmul(pl, u)
		for i := range vals {
			if math.Abs(plu.F[i]-vals[i]) > 1e-9 {
				t.Fatalf("trial %d: P L U of %v (%dx%d) = %v", trial, vals, m, n, plu.F)
			}
		}
		for i := range m {
			for j := range k {
				if (j == i && l.F[i*k+j] != 1) || (j > i && l.F[i*k+j] != 0) {
					t.Fatalf("trial %d: L is not unit lower: %v", trial, l.F)
				}
			}
		}
		for i := range k {
			for j := range i {
				if u.F[i*n+j] != 0 {
					t.Fatalf("trial %d: U is not upper: %v", trial, u.F)
				}
			}
		}
	}
	tracked, _ := x.RequireGrad()
	if _, _, _, err := LU(tracked); err == nil {
		t.Error("lu of a tracked tensor gave values")
	}
}

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The values of Burn's det tests
// (crates/burn-backend-tests/tests/tensor/float/linalg/det.rs).
func TestDetValues(t *testing.T) {
	cases := []struct {
		name   string
		values []float64
		shape  []int
		want   []float64
		tol    float64
	}{
		{"1x1", []float64{5}, []int{1, 1, 1}, []float64{5}, 0},
		{"2x2", []float64{4, 3, 6, 3}, []int{1, 2, 2}, []float64{-6}, 0},
		{"3x3", []float64{4, 7, 3, 6, 1, 3, 8, 3, 7}, []int{1, 3, 3}, []float64{-104}, 0},
		{"4x4 by LU", []float64{
			0.7713, 0.0208, 0.6336, 0.7488, 0.4985, 0.2248, 0.1981, 0.7605,
			0.1691, 0.0883, 0.6854, 0.9534, 0.0039, 0.5122, 0.8126, 0.6125,
			0.2922, 0.0077, 0.5508, 0.5940, 0.4512, 0.3444, 0.3599, 0.6226,
			0.8929, 0.8856, 0.1539, 0.8586, 0.7683, 0.8819, 0.9567, 0.1534,
		}, []int{2, 4, 4}, []float64{-0.1527, 0.0307}, 1e-4},
		{"singular by LU", []float64{1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 1, 5, 5, 5, 1}, []int{1, 4, 4}, []float64{0}, 0},
	}
	for _, c := range cases {
		x := mustFloats(t, c.values, c.shape, F32)
		out, err := Det(x, []int{c.shape[0]})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, w := range c.want {
			if math.Abs(out.F[i]-w) > c.tol {
				t.Errorf("%s: det %v, want %v", c.name, out.F, c.want)
			}
			if out.F[i] != float64(float32(out.F[i])) {
				t.Errorf("%s: %v is not an f32", c.name, out.F[i])
			}
		}
	}
	tracked, _ := mustFloats(t, []float64{1, 2, 3, 4}, []int{1, 2, 2}, F32).RequireGrad()
	if _, err := Det(tracked, []int{1}); err == nil {
		t.Error("det of a tracked tensor has values without a gradient")
	}
}

// TestDetAgainstCofactors compares the LU determinant of random small
// integer matrices, whose determinants f32 holds exactly, with a cofactor
// expansion.
func TestDetAgainstCofactors(t *testing.T) {
	var cofactor func(a []float64, n int) float64
	cofactor = func(a []float64, n int) float64 {
		if n == 1 {
			return a[0]
		}
		det := 0.0
		for j := range n {
			minor := make([]float64, 0, (n-1)*(n-1))
			for i := 1; i < n; i++ {
				for c := range n {
					if c != j {
						minor = append(minor, a[i*n+c])
					}
				}
			}
			det += math.Pow(-1, float64(j)) * a[j] * cofactor(minor, n-1)
		}
		return det
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 300 {
		n := 1 + r.IntN(5)
		a := make([]float64, n*n)
		for i := range a {
			a[i] = float64(r.IntN(7) - 3)
		}
		out, err := Det(mustFloats(t, a, []int{n, n}, F64), []int{1})
		if err != nil {
			t.Fatal(err)
		}
		if want := cofactor(a, n); math.Abs(out.F[0]-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("det of %v (%dx%d) = %v, want %v", a, n, n, out.F[0], want)
		}
	}
}

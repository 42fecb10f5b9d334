package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The values of Burn's cumulative tests
// (crates/burn-backend-tests/tests/tensor/float/ops/cumulative.rs and
// int/ops/cumulative.rs) and the gradients of autodiff/cummin.rs,
// cummax.rs and cumprod.rs.
func TestCumulativeValues(t *testing.T) {
	x := mustFloats(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32)
	cases := []struct {
		method string
		in     *Tensor
		dim    int
		want   []float64
	}{
		{"cumprod", x, 0, []float64{1, 2, 3, 4, 10, 18}},
		{"cumprod", x, 1, []float64{1, 2, 6, 4, 20, 120}},
		{"cummin", mustFloats(t, []float64{3, 5, 2, 4, 1, 6}, []int{2, 3}, F32), 0, []float64{3, 5, 2, 3, 1, 2}},
		{"cummin", mustFloats(t, []float64{3, 5, 2, 4, 1, 6}, []int{2, 3}, F32), 1, []float64{3, 3, 2, 4, 1, 1}},
		{"cummax", mustFloats(t, []float64{3, 1, 2, 4, 5, 2}, []int{2, 3}, F32), 1, []float64{3, 3, 3, 4, 5, 5}},
		{"cumsum", x, 1, []float64{1, 3, 6, 4, 9, 15}},
	}
	for _, c := range cases {
		got, err := Cumulative(c.method, c.in, c.dim)
		if err != nil {
			t.Fatalf("%s(%d): %v", c.method, c.dim, err)
		}
		if !slices.Equal(got.F, c.want) {
			t.Errorf("%s(%d) = %v, want %v", c.method, c.dim, got.F, c.want)
		}
	}
	// A NaN, once met, stays the running min and max.
	nan := math.NaN()
	withNaN := mustFloats(t, []float64{nan, 1, 2}, []int{3}, F32)
	for _, m := range []string{"cummin", "cummax"} {
		got, _ := Cumulative(m, withNaN, 0)
		for i, v := range got.F {
			if !math.IsNaN(v) {
				t.Errorf("%s with a leading NaN: element %d is %v", m, i, v)
			}
		}
	}
	mid := mustFloats(t, []float64{3, nan, 1}, []int{3}, F32)
	if got, _ := Cumulative("cummin", mid, 0); got.F[0] != 3 || !math.IsNaN(got.F[1]) || !math.IsNaN(got.F[2]) {
		t.Errorf("cummin with a NaN in the middle: %v", got.F)
	}
	// Ints: i32 wraps its products, u8 compares unsigned.
	ints := mustInts(t, []int64{65536, 65536, 2}, []int{3}, I32)
	if got, _ := Cumulative("cumprod", ints, 0); !slices.Equal(got.I, []int64{65536, 0, 0}) {
		t.Errorf("i32 cumprod %v", got.I)
	}
	small := mustInts(t, []int64{3, 1, 4, 1, 5}, []int{5}, I64)
	if got, _ := Cumulative("cummax", small, 0); !slices.Equal(got.I, []int64{3, 3, 4, 4, 5}) {
		t.Errorf("int cummax %v", got.I)
	}
	if got, _ := Cumulative("cummin", small, 0); !slices.Equal(got.I, []int64{3, 1, 1, 1, 1}) {
		t.Errorf("int cummin %v", got.I)
	}
	if _, err := Cumulative("cumprod", x, 2); err == nil {
		t.Error("dim 2 of a rank-2 tensor")
	}
	b, _ := FromBools([]bool{true}, []int{1}, BoolNative)
	if _, err := Cumulative("cummax", b, 0); err == nil {
		t.Error("cummax of a bool tensor")
	}
}

func TestCumulativeGradients(t *testing.T) {
	cases := []struct {
		method string
		in     []float64
		want   []float64
	}{
		// autodiff/cummin.rs: should_diff_cummin, _duplicate_values.
		{"cummin", []float64{3, 2, 4}, []float64{1, 2, 0}},
		{"cummin", []float64{3, 2, 2, 4}, []float64{1, 1, 2, 0}},
		{"cummin", []float64{1, 1, 1}, []float64{1, 1, 1}},
		// autodiff/cummax.rs.
		{"cummax", []float64{1, 3, 2}, []float64{1, 2, 0}},
		{"cummax", []float64{1, 3, 3, 2}, []float64{1, 1, 2, 0}},
		// cumprod of [2, 3, 4]: outputs 2, 6, 24; d/dx0 = 1 + 3 + 12.
		{"cumprod", []float64{2, 3, 4}, []float64{16, 10, 6}},
		// A zero: before it the classic form, at it the omitted products,
		// after it zero (autodiff/cumprod.rs's zero cases).
		{"cumprod", []float64{2, 0, 4}, []float64{1, 10, 0}},
		{"cumprod", []float64{0, 3, 4}, []float64{16, 0, 0}},
		{"cumprod", []float64{2, 0, 0, 5}, []float64{1, 2, 0, 0}},
	}
	for _, c := range cases {
		_, g := gradOf(t, c.in, F32, func(x *Tensor) *Tensor {
			y, err := Cumulative(c.method, x, 0)
			if err != nil {
				t.Fatal(err)
			}
			return y
		})
		if !slices.Equal(g.F, c.want) {
			t.Errorf("%s gradient of %v = %v, want %v", c.method, c.in, g.F, c.want)
		}
	}
}

// TestCumulativeAgainstNaiveLoops checks the scans along a random dim of
// random shapes against loops over coordinates, and the gradients of
// cumprod (zeros included) and cummin/cummax against their definitions:
// d out[j] / d in[i] is prod_{k<=j, k!=i} in[k] for j >= i, and the
// extreme's gradient goes to the latest input equal to it.
func TestCumulativeAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 150 {
		shape := randomShape(r)
		dim := r.IntN(len(shape))
		values := randomValues(r, numel(shape))
		for i := range values {
			// Small integers make ties and zeros common.
			values[i] = float64(r.IntN(5) - 2)
		}
		for _, m := range []string{"cumprod", "cummin", "cummax"} {
			x, err := mustFloats(t, values, shape, F64).RequireGrad()
			if err != nil {
				t.Fatal(err)
			}
			got, err := Cumulative(m, x, dim)
			if err != nil {
				t.Fatal(err)
			}
			loss, _ := Reduce("sum", got, BoolNative)
			grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
			if err != nil {
				t.Fatal(err)
			}
			g, _ := grads.Get(x)
			for p := range values {
				c := decode(p, shape)
				// The naive value: a scan from the lane's start.
				want := 0.0
				for k := 0; k <= c[dim]; k++ {
					cc := append([]int(nil), c...)
					cc[dim] = k
					v := naiveAt(values, shape, cc)
					switch {
					case k == 0:
						want = v
					case m == "cumprod":
						want *= v
					case m == "cummin":
						want = min(want, v)
					default:
						want = max(want, v)
					}
				}
				if got.F[p] != want {
					t.Fatalf("trial %d: %s(%d) of %v at %v = %v, want %v", trial, m, dim, shape, c, got.F[p], want)
				}
				// The naive gradient of element p: the sum over later
				// outputs j of d out[j] / d in[p].
				grad := 0.0
				for j := c[dim]; j < shape[dim]; j++ {
					if m == "cumprod" {
						prod := 1.0
						for k := 0; k <= j; k++ {
							if k == c[dim] {
								continue
							}
							cc := append([]int(nil), c...)
							cc[dim] = k
							prod *= naiveAt(values, shape, cc)
						}
						grad += prod
						continue
					}
					// out[j]'s source: the latest k <= j with in[k] == out[j]
					// where out[k] == in[k].
					cc := append([]int(nil), c...)
					cc[dim] = j
					src := 0
					for k := 0; k <= j; k++ {
						cc[dim] = k
						if naiveAt(values, shape, cc) == got.F[flatOf(cc, shape)] {
							src = k
						}
					}
					if src == c[dim] {
						grad++
					}
				}
				if math.Abs(g.F[p]-grad) > 1e-9 {
					t.Fatalf("trial %d: %s(%d) gradient of %v at %v = %v, want %v (values %v)", trial, m, dim, shape, c, g.F[p], grad, values)
				}
			}
		}
	}
}

func flatOf(coords, shape []int) int {
	p := 0
	for d, n := range shape {
		p = p*n + coords[d]
	}
	return p
}

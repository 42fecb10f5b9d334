package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestUnfold4dByHand(t *testing.T) {
	// [[1, 2, 3], [4, 5, 6]] with 2x2 windows: two blocks; row i*kw+j holds
	// tap (i, j) of each block.
	x := mustFloats(t, []float64{1, 2, 3, 4, 5, 6}, []int{1, 1, 2, 3}, F32)
	got, err := Unfold4d(x, [2]int{2, 2}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 2, 2, 3, 4, 5, 5, 6}; !slices.Equal(got.Shape, []int{1, 4, 2}) || !closeTo(got.F, want, 0) {
		t.Errorf("unfold4d: %v %v, want [1 4 2] %v", got.Shape, got.F, want)
	}
	// Padding 1, 1x1 kernel, stride 2: rows -1 and 1, columns -1, 1 and 3
	// of the input, 0 outside it.
	got, _ = Unfold4d(x, [2]int{1, 1}, [2]int{2, 2}, [2]int{1, 1}, [2]int{1, 1})
	if want := []float64{0, 0, 0, 0, 5, 0}; !slices.Equal(got.Shape, []int{1, 1, 6}) || !closeTo(got.F, want, 0) {
		t.Errorf("padded unfold4d: %v %v, want %v", got.Shape, got.F, want)
	}
	// fold4d of those 2x2 blocks back to 2x3 counts overlaps: the middle
	// column appears in both blocks.
	cols, _ := Unfold4d(x, [2]int{2, 2}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1})
	back, err := Fold4d(cols, [2]int{2, 3}, [2]int{2, 2}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 4, 3, 4, 10, 6}; !slices.Equal(back.Shape, []int{1, 1, 2, 3}) || !closeTo(back.F, want, 0) {
		t.Errorf("fold4d: %v %v, want %v", back.Shape, back.F, want)
	}
}

// TestUnfoldFoldAdjoint checks fold4d as unfold4d's adjoint,
// <unfold(x), y> = <x, fold(y)>, that the selection path and the one-hot
// convolution agree, and that unfold4d's gradient is fold4d.
func TestUnfoldFoldAdjoint(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 22))
	for trial := range 200 {
		xs := []int{1 + r.IntN(2), 1 + r.IntN(3), 1 + r.IntN(5), 1 + r.IntN(5)}
		k := [2]int{1 + r.IntN(3), 1 + r.IntN(3)}
		s := [2]int{1 + r.IntN(2), 1 + r.IntN(2)}
		p := [2]int{r.IntN(2), r.IntN(2)}
		d := [2]int{1 + r.IntN(2), 1 + r.IntN(2)}
		if UnfoldWindows(int64(xs[2]), int64(k[0]), int64(s[0]), int64(p[0]), int64(d[0])) < 1 ||
			UnfoldWindows(int64(xs[3]), int64(k[1]), int64(s[1]), int64(p[1]), int64(d[1])) < 1 {
			continue
		}
		xv := randomValues(r, numel(xs))
		x, _ := mustFloats(t, xv, xs, F64).RequireGrad()
		u, err := Unfold4d(x, k, s, p, d)
		if err != nil {
			t.Fatal(err)
		}
		yv := randomValues(r, len(u.F))
		y := mustFloats(t, yv, u.Shape, F64)
		f, err := Fold4d(y, [2]int{xs[2], xs[3]}, k, s, p, d)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		lhs, rhs := 0.0, 0.0
		for i := range yv {
			lhs += u.F[i] * yv[i]
		}
		for i := range xv {
			rhs += xv[i] * f.F[i]
		}
		if math.Abs(lhs-rhs) > 1e-9 {
			t.Fatalf("trial %d %v k%v s%v p%v d%v: <unfold x, y> = %v, <x, fold y> = %v", trial, xs, k, s, p, d, lhs, rhs)
		}
		prod, _ := Binary("mul", u, y)
		loss, _ := Reduce("sum", prod, BoolNative)
		grads, _ := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		g, _ := grads.Get(x)
		if !closeTo(g.F, f.F, 1e-9) {
			t.Fatalf("trial %d: unfold4d gradient %v, fold4d %v", trial, g.F, f.F)
		}
		if p == [2]int{0, 0} && d == [2]int{1, 1} {
			conv, _ := Convolution(mustFloats(t, xv, xs, F64), unfoldingWeight(xs[1], k[0], k[1], F64), nil,
				Conv{Stride: s[:], Padding: p[:], Dilation: d[:], Groups: 1})
			if !closeTo(u.F, conv.F, 0) {
				t.Fatalf("trial %d: selection %v, one-hot convolution %v", trial, u.F, conv.F)
			}
		}
	}
}

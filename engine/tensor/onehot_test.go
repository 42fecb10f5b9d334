package tensor

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestOneHotFill(t *testing.T) {
	x := mustInts(t, []int64{0, 2, -1}, []int{3}, I64)
	got, err := OneHotFill(x, 3, 5, -1, 1, F32)
	if err != nil || !slices.Equal(got.F, []float64{5, -1, -1, -1, -1, 5, -1, -1, 5}) {
		t.Fatalf("one_hot_fill(3, 5, -1, 1) = %v, %v", got, err)
	}
	// Axis 0: the class dim first.
	got, _ = OneHotFill(x, 3, 1, 0, 0, I32)
	if !slices.Equal(got.I, []int64{1, 0, 0, 0, 0, 0, 0, 1, 1}) {
		t.Errorf("one_hot_fill along axis 0 = %v", got.I)
	}
	if _, err := OneHotFill(mustInts(t, []int64{3}, []int{1}, I64), 3, 1, 0, 1, F32); err == nil {
		t.Error("class 3 of 3")
	}
}

// TestOneHotFillAgainstNaiveLoops checks random index tensors and axes:
// the output at coords c is on exactly where c's class coordinate is the
// class of the input element at c without it.
func TestOneHotFillAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for trial := range 100 {
		shape := randomShape(r)
		shape = shape[:min(len(shape), 1+r.IntN(2))]
		classes := 1 + r.IntN(4)
		vals := make([]int64, numel(shape))
		for i := range vals {
			vals[i] = int64(r.IntN(2*classes) - classes)
		}
		axis := r.IntN(len(shape) + 1)
		x := mustInts(t, vals, shape, I64)
		out, err := OneHotFill(x, classes, 2, 7, axis, F32)
		if err != nil {
			t.Fatal(err)
		}
		for p := range out.F {
			c := decode(p, out.Shape)
			src := append(append([]int(nil), c[:axis]...), c[axis+1:]...)
			class := vals[flatOf(src, shape)]
			if class < 0 {
				class += int64(classes)
			}
			want := 7.0
			if int64(c[axis]) == class {
				want = 2
			}
			if out.F[p] != want {
				t.Fatalf("trial %d: one_hot_fill of %v along %d at %v = %v, want %v", trial, vals, axis, c, out.F[p], want)
			}
		}
	}
}

package tensor

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The values of Burn's gather_nd and scatter_nd tests
// (crates/burn-backend-tests/tests/tensor/float/ops/gather_scatter_nd.rs,
// int/ops/gather_scatter_nd.rs) and the gradients of
// autodiff/gather_scatter_nd.rs.
func TestGatherNdValues(t *testing.T) {
	data := mustFloats(t, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}, []int{3, 3}, F32)
	out, err := GatherNd(data, mustInts(t, []int64{0, 1, 1, 2, 2, 0}, []int{3, 2}, I64))
	if err != nil || !slices.Equal(out.Shape, []int{3}) || !slices.Equal(out.F, []float64{1, 5, 6}) {
		t.Fatalf("gather_nd k = d: %v %v (%v)", out.Shape, out.F, err)
	}
	rows, err := GatherNd(data, mustInts(t, []int64{2, 0}, []int{2, 1}, I64))
	if err != nil || !slices.Equal(rows.Shape, []int{2, 3}) || !slices.Equal(rows.F, []float64{6, 7, 8, 0, 1, 2}) {
		t.Fatalf("gather_nd of rows: %v %v (%v)", rows.Shape, rows.F, err)
	}
	if _, err := GatherNd(data, mustInts(t, []int64{3, 0}, []int{1, 2}, I64)); err == nil {
		t.Error("an index past its dim has values")
	}
}

func TestScatterNdValues(t *testing.T) {
	data := func() *Tensor { return mustFloats(t, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{3, 3}, F32) }
	idx := mustInts(t, []int64{1}, []int{1, 1}, I64)
	values := mustFloats(t, []float64{1, 5, 10}, []int{1, 3}, F32)
	cases := []struct {
		update string
		want   []float64
	}{
		{"assign", []float64{1, 2, 3, 1, 5, 10, 7, 8, 9}},
		{"add", []float64{1, 2, 3, 5, 10, 16, 7, 8, 9}},
		{"mul", []float64{1, 2, 3, 4, 25, 60, 7, 8, 9}},
		{"min", []float64{1, 2, 3, 1, 5, 6, 7, 8, 9}},
		{"max", []float64{1, 2, 3, 4, 5, 10, 7, 8, 9}},
	}
	for _, c := range cases {
		out, err := ScatterNd(data(), idx, values, c.update)
		if err != nil || !slices.Equal(out.F, c.want) {
			t.Errorf("scatter_nd %s = %v (%v), want %v", c.update, out.F, err, c.want)
		}
	}
	// Int data wraps in its width; the last of repeated tuples wins assign.
	ints := mustInts(t, []int64{100, 2, 3}, []int{3}, I8)
	out, err := ScatterNd(ints, mustInts(t, []int64{0, 2, 2}, []int{3, 1}, I64), mustInts(t, []int64{3, 7, 9}, []int{3}, I8), "mul")
	if err != nil || !slices.Equal(out.I, []int64{44, 2, 189 - 256}) {
		t.Errorf("i8 scatter_nd mul = %v (%v)", out.I, err)
	}
	if _, err := ScatterNd(data(), idx, mustFloats(t, []float64{1, 2}, []int{1, 2}, F32), "add"); err == nil {
		t.Error("values of the wrong size were scattered")
	}
}

// TestScatterNdGradients: autodiff/gather_scatter_nd.rs's expectations.
func TestScatterNdGradients(t *testing.T) {
	idx := mustInts(t, []int64{1}, []int{1, 1}, I64)
	cases := []struct {
		update             string
		values             []float64
		gradData, gradVals []float64
	}{
		{"max", []float64{1, 5, 10}, []float64{1, 1, 1, 1, 1, 0, 1, 1, 1}, []float64{0, 1, 1}},
		{"min", []float64{1, 5, 10}, []float64{1, 1, 1, 0, 1, 1, 1, 1, 1}, []float64{1, 1, 0}},
		{"mul", []float64{2, 3, 4}, []float64{1, 1, 1, 2, 3, 4, 1, 1, 1}, []float64{4, 5, 6}},
		{"assign", []float64{2, 3, 4}, []float64{1, 1, 1, 0, 0, 0, 1, 1, 1}, []float64{1, 1, 1}},
		{"add", []float64{2, 3, 4}, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}, []float64{1, 1, 1}},
	}
	for _, c := range cases {
		data, _ := mustFloats(t, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{3, 3}, F32).RequireGrad()
		values, _ := mustFloats(t, c.values, []int{1, 3}, F32).RequireGrad()
		out, err := ScatterNd(data, idx, values, c.update)
		if err != nil {
			t.Fatal(err)
		}
		loss, _ := Reduce("sum", out, BoolNative)
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		gd, _ := grads.Get(data)
		gv, _ := grads.Get(values)
		if gd == nil || gv == nil || !slices.Equal(gd.F, c.gradData) || !slices.Equal(gv.F, c.gradVals) {
			t.Errorf("scatter_nd %s: grads %v and %v, want %v and %v", c.update, gd, gv, c.gradData, c.gradVals)
		}
	}
	// gather_nd's gradient adds back at every gathered position.
	x, g := sumGrad(t, []float64{1, 2, 3, 4}, []int{2, 2}, func(x *Tensor) (*Tensor, error) {
		return GatherNd(x, mustInts(t, []int64{1, 1, 1, 1, 0, 0}, []int{3, 2}, I64))
	})
	if !slices.Equal(x.F, []float64{4, 4, 1}) || !slices.Equal(g.F, []float64{1, 0, 0, 2}) {
		t.Errorf("gather_nd: %v, grad %v", x.F, g.F)
	}
}

// TestGatherNdAgainstNaive compares gather_nd with a reference written
// from the definition, on random shapes.
func TestGatherNdAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 200 {
		rank := 1 + r.IntN(3)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = 1 + r.IntN(4)
		}
		k := 1 + r.IntN(rank)
		n := 1 + r.IntN(4)
		vals := make([]float64, numel(shape))
		for i := range vals {
			vals[i] = float64(r.IntN(100))
		}
		idx := make([]int64, n*k)
		for i := range idx {
			idx[i] = int64(r.IntN(shape[i%k]))
		}
		got, err := GatherNd(mustFloats(t, vals, shape, F32), mustInts(t, idx, []int{n, k}, I64))
		if err != nil {
			t.Fatal(err)
		}
		strides := contiguousStrides(shape)
		slice := numel(shape[k:])
		var want []float64
		for j := range n {
			base := 0
			for d := range k {
				base += int(idx[j*k+d]) * strides[d]
			}
			want = append(want, vals[base:base+slice]...)
		}
		if !slices.Equal(got.F, want) {
			t.Fatalf("gather_nd of %v by %v = %v, want %v", shape, idx, got.F, want)
		}
	}
}

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDeformConv2dByHand(t *testing.T) {
	// x = [[1, 2], [3, 4]], one 1x1 tap of weight 1: the output samples x
	// at each position plus the offset.
	x := mustFloats(t, []float64{1, 2, 3, 4}, []int{1, 1, 2, 2}, F32)
	w := mustFloats(t, []float64{1}, []int{1, 1, 1, 1}, F32)
	o := DeformConv{Stride: [2]int{1, 1}, Dilation: [2]int{1, 1}, WeightGroups: 1, OffsetGroups: 1}
	cases := []struct {
		name   string
		dh, dw []float64 // offsets per output position
		mask   []float64
		want   []float64
	}{
		{"no offset", []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, nil, []float64{1, 2, 3, 4}},
		// Half a pixel down: the mean of the column, and half of the
		// bottom row against the zero outside.
		{"half a row down", []float64{0.5, 0.5, 0.5, 0.5}, []float64{0, 0, 0, 0}, nil, []float64{2, 3, 1.5, 2}},
		// A whole pixel outside reads 0.
		{"outside", []float64{-1, -1, 5, 5}, []float64{0, 0, 0, 0}, nil, []float64{0, 0, 0, 0}},
		{"masked", []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}, []float64{1, 0, 0.5, 2}, []float64{1, 0, 1.5, 8}},
	}
	for _, c := range cases {
		off := mustFloats(t, append(append([]float64(nil), c.dh...), c.dw...), []int{1, 2, 2, 2}, F32)
		var m *Tensor
		if c.mask != nil {
			m = mustFloats(t, c.mask, []int{1, 1, 2, 2}, F32)
		}
		y, err := DeformConv2d(x, off, w, m, nil, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !closeTo(y.F, c.want, 1e-6) {
			t.Errorf("%s: got %v, want %v", c.name, y.F, c.want)
		}
	}
}

// TestDeformConv2dAgainstConvolution checks that zero offsets and a mask
// of ones give the plain convolution, with groups of both kinds, and the
// gradients of every input against central differences at fractional
// offsets.
func TestDeformConv2dAgainstConvolution(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 60))
	for trial := range 80 {
		wg, og := 1+r.IntN(2), 1+r.IntN(2)
		cin := wg * og * (1 + r.IntN(2))
		cout := wg * (1 + r.IntN(2))
		kh, kw := 1+r.IntN(3), 1+r.IntN(2)
		xs := []int{1 + r.IntN(2), cin, 2 + r.IntN(3), 2 + r.IntN(3)}
		ws := []int{cout, cin / wg, kh, kw}
		o := DeformConv{Stride: [2]int{1 + r.IntN(2), 1 + r.IntN(2)}, Padding: [2]int{r.IntN(2), r.IntN(2)},
			Dilation: [2]int{1 + r.IntN(2), 1}, WeightGroups: wg, OffsetGroups: og}
		oh := int(ConvOutputSize(int64(xs[2]), int64(kh), int64(o.Stride[0]), int64(o.Padding[0]), int64(o.Dilation[0]), 0, false))
		ow := int(ConvOutputSize(int64(xs[3]), int64(kw), int64(o.Stride[1]), int64(o.Padding[1]), int64(o.Dilation[1]), 0, false))
		if oh == 0 || ow == 0 {
			continue
		}
		xv, wv, bv := randomValues(r, numel(xs)), randomValues(r, numel(ws)), randomValues(r, cout)
		offShape := []int{xs[0], 2 * og * kh * kw, oh, ow}
		maskShape := []int{xs[0], og * kh * kw, oh, ow}
		ones := make([]float64, numel(maskShape))
		for i := range ones {
			ones[i] = 1
		}
		x, wt, b := mustFloats(t, xv, xs, F64), mustFloats(t, wv, ws, F64), mustFloats(t, bv, []int{cout}, F64)
		got, err := DeformConv2d(x, Zeros(offShape, F64), wt, mustFloats(t, ones, maskShape, F64), b, o)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Convolution(x, wt, b, Conv{Stride: o.Stride[:], Padding: o.Padding[:], Dilation: o.Dilation[:], Groups: wg})
		if !closeTo(got.F, want.F, 1e-9) {
			t.Fatalf("trial %d: deform %v, conv %v", trial, got.F, want.F)
		}
		// Gradients at random fractional offsets and masks.
		offv := make([]float64, numel(offShape))
		for i := range offv {
			offv[i] = math.Floor(r.Float64()*4-2) + 0.1 + 0.8*r.Float64()
		}
		maskv := randomValues(r, numel(maskShape))
		inputs := [][]float64{xv, offv, wv, maskv, bv}
		shapes := [][]int{xs, offShape, ws, maskShape, {cout}}
		eval := func(vals [][]float64, track bool) (*Tensor, []*Tensor) {
			ts := make([]*Tensor, 5)
			for i := range ts {
				ts[i] = mustFloats(t, vals[i], shapes[i], F64)
				if track {
					ts[i], _ = ts[i].RequireGrad()
				}
			}
			y, err := DeformConv2d(ts[0], ts[1], ts[2], ts[3], ts[4], o)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := Reduce("sum", y, BoolNative)
			return s, ts
		}
		loss, leaves := eval(inputs, true)
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		for k, leaf := range leaves {
			g, _ := grads.Get(leaf)
			for i := range inputs[k] {
				const eps = 1e-6
				up := append([][]float64(nil), inputs...)
				up[k] = append([]float64(nil), inputs[k]...)
				up[k][i] += eps
				down := append([][]float64(nil), inputs...)
				down[k] = append([]float64(nil), inputs[k]...)
				down[k][i] -= eps
				hi, _ := eval(up, false)
				lo, _ := eval(down, false)
				fd := (hi.F[0] - lo.F[0]) / (2 * eps)
				if math.Abs(g.F[i]-fd) > 1e-5*(1+math.Abs(fd)) {
					t.Fatalf("trial %d: gradient of input %d at %d = %v, finite difference %v", trial, k, i, g.F[i], fd)
				}
			}
		}
	}
}

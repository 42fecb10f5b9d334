package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestConvolutionByHand(t *testing.T) {
	x := []float64{1, 2, 3, 4} // [1, 1, 4]
	cases := []struct {
		name      string
		x         []float64
		xShape    []int
		w         []float64
		wShape    []int
		bias      []float64
		o         Conv
		want      []float64
		wantShape []int
	}{
		{"conv1d k2", x, []int{1, 1, 4}, []float64{1, -1}, []int{1, 1, 2}, []float64{10},
			Conv{Stride: []int{1}, Padding: []int{0}, Dilation: []int{1}, Groups: 1}, []float64{9, 9, 9}, []int{1, 1, 3}},
		{"conv1d padded, strided", x, []int{1, 1, 4}, []float64{1, 1, 1}, []int{1, 1, 3}, nil,
			Conv{Stride: []int{2}, Padding: []int{1}, Dilation: []int{1}, Groups: 1}, []float64{3, 9}, []int{1, 1, 2}},
		{"conv1d dilated", x, []int{1, 1, 4}, []float64{1, 1}, []int{1, 1, 2}, nil,
			Conv{Stride: []int{1}, Padding: []int{0}, Dilation: []int{2}, Groups: 1}, []float64{4, 6}, []int{1, 1, 2}},
		// Two groups of one channel each: each output sees its own input.
		{"conv1d groups", []float64{1, 2, 10, 20}, []int{1, 2, 2}, []float64{1, 1, 2, 0}, []int{2, 1, 2}, nil,
			Conv{Stride: []int{1}, Padding: []int{0}, Dilation: []int{1}, Groups: 2}, []float64{3, 20}, []int{1, 2, 1}},
		{"conv2d 2x2 of ones", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{1, 1, 3, 3}, []float64{1, 1, 1, 1}, []int{1, 1, 2, 2}, nil,
			Conv{Stride: []int{1, 1}, Padding: []int{0, 0}, Dilation: []int{1, 1}, Groups: 1}, []float64{12, 16, 24, 28}, []int{1, 1, 2, 2}},
		// Transposed, stride 2: each input stamps the kernel at 2i.
		{"conv_transpose1d stride 2", []float64{1, 2}, []int{1, 1, 2}, []float64{1, 10, 100}, []int{1, 1, 3}, nil,
			Conv{Stride: []int{2}, Padding: []int{0}, Dilation: []int{1}, PaddingOut: []int{0}, Groups: 1, Transpose: true},
			[]float64{1, 10, 102, 20, 200}, []int{1, 1, 5}},
		{"conv_transpose1d padding, padding_out", []float64{1, 2}, []int{1, 1, 2}, []float64{1, 10, 100}, []int{1, 1, 3}, []float64{1},
			Conv{Stride: []int{2}, Padding: []int{1}, Dilation: []int{1}, PaddingOut: []int{1}, Groups: 1, Transpose: true},
			[]float64{11, 103, 21, 201}, []int{1, 1, 4}},
	}
	for _, c := range cases {
		var b *Tensor
		if c.bias != nil {
			b = mustFloats(t, c.bias, []int{len(c.bias)}, F32)
		}
		y, err := Convolution(mustFloats(t, c.x, c.xShape, F32), mustFloats(t, c.w, c.wShape, F32), b, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(y.Shape, c.wantShape) || !closeTo(y.F, c.want, 1e-6) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, y.Shape, y.F, c.wantShape, c.want)
		}
	}
}

// naiveConv is the definition of both convolutions, one output element at
// a time, over 1-D to 3-D spatial dims.
func naiveConv(x []float64, xs []int, w []float64, ws []int, bias []float64, o Conv) ([]float64, []int) {
	spatial := len(xs) - 2
	cin, groups := xs[1], o.Groups
	cout := ws[0]
	if o.Transpose {
		cout = ws[1] * groups
	}
	outShape := []int{xs[0], cout}
	for i := range spatial {
		po := 0
		if o.Transpose {
			po = o.PaddingOut[i]
		}
		outShape = append(outShape, int(ConvOutputSize(int64(xs[2+i]), int64(ws[2+i]), int64(o.Stride[i]), int64(o.Padding[i]), int64(o.Dilation[i]), int64(po), o.Transpose)))
	}
	out := make([]float64, numel(outShape))
	kshape := ws[2:]
	for flat := range out {
		oc := decode(flat, outShape)
		n, y := oc[0], oc[1]
		grp := y / (cout / groups)
		sum := 0.0
		if bias != nil {
			sum = bias[y]
		}
		for ic := range cin / groups {
			xc := grp*(cin/groups) + ic
			for tap := range numel(kshape) {
				k := decode(tap, kshape)
				var wi int
				if o.Transpose {
					wi = (xc*ws[1]+y%(cout/groups))*numel(kshape) + tap
				} else {
					wi = (y*ws[1]+ic)*numel(kshape) + tap
				}
				if o.Transpose {
					// every input position i with i*s + k*d - p == out
					for ipos := range numel(xs[2:]) {
						ic2 := decode(ipos, xs[2:])
						hit := true
						for d := range spatial {
							if ic2[d]*o.Stride[d]+k[d]*o.Dilation[d]-o.Padding[d] != oc[2+d] {
								hit = false
							}
						}
						if hit {
							sum += x[(n*cin+xc)*numel(xs[2:])+ipos] * w[wi]
						}
					}
					continue
				}
				pos, inside := 0, true
				for d := range spatial {
					c := oc[2+d]*o.Stride[d] + k[d]*o.Dilation[d] - o.Padding[d]
					if c < 0 || c >= xs[2+d] {
						inside = false
					}
					pos = pos*xs[2+d] + c
				}
				if inside {
					sum += x[(n*cin+xc)*numel(xs[2:])+pos] * w[wi]
				}
			}
		}
		out[flat] = sum
	}
	return out, outShape
}

// TestConvolutionAgainstNaive compares both convolutions with the
// definition, and checks the gradients as the adjoints of the bilinear
// map: <conv(x, w), u> = <x, dx> = <w, dw>, and the bias's as the sum of
// u over its channel.
func TestConvolutionAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 44))
	for trial := range 300 {
		spatial := 1 + r.IntN(3)
		groups := 1 + r.IntN(2)
		transpose := r.IntN(2) == 0
		cin, coutPerGroup := groups*(1+r.IntN(2)), 1+r.IntN(2)
		xs := []int{1 + r.IntN(2), cin}
		var ws []int
		if transpose {
			ws = []int{cin, coutPerGroup}
		} else {
			ws = []int{groups * coutPerGroup, cin / groups}
		}
		o := Conv{Groups: groups, Transpose: transpose}
		for range spatial {
			xs = append(xs, 1+r.IntN(4))
			ws = append(ws, 1+r.IntN(3))
			o.Stride = append(o.Stride, 1+r.IntN(2))
			o.Padding = append(o.Padding, r.IntN(2))
			o.Dilation = append(o.Dilation, 1+r.IntN(2))
			o.PaddingOut = append(o.PaddingOut, r.IntN(2))
		}
		cout := ws[0]
		if transpose {
			cout = ws[1] * groups
		}
		xv, wv, bv := randomValues(r, numel(xs)), randomValues(r, numel(ws)), randomValues(r, cout)
		want, wantShape := naiveConv(xv, xs, wv, ws, bv, o)
		if numel(wantShape) == 0 {
			continue
		}
		x, _ := mustFloats(t, xv, xs, F64).RequireGrad()
		w, _ := mustFloats(t, wv, ws, F64).RequireGrad()
		b, _ := mustFloats(t, bv, []int{cout}, F64).RequireGrad()
		y, err := Convolution(x, w, b, o)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !slices.Equal(y.Shape, wantShape) || !closeTo(y.F, want, 1e-9) {
			t.Fatalf("trial %d %v %v %+v:\n got %v %v\nwant %v %v", trial, xs, ws, o, y.Shape, y.F, wantShape, want)
		}
		u := randomValues(r, len(y.F))
		prod, _ := Binary("mul", y, mustFloats(t, u, y.Shape, F64))
		loss, _ := Reduce("sum", prod, BoolNative)
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		gx, _ := grads.Get(x)
		gw, _ := grads.Get(w)
		gb, _ := grads.Get(b)
		noBias, _ := naiveConv(xv, xs, wv, ws, nil, o)
		lhs := 0.0
		for i := range u {
			lhs += noBias[i] * u[i]
		}
		dot := func(a, b []float64) float64 {
			s := 0.0
			for i := range a {
				s += a[i] * b[i]
			}
			return s
		}
		if math.Abs(lhs-dot(xv, gx.F)) > 1e-9 || math.Abs(lhs-dot(wv, gw.F)) > 1e-9 {
			t.Fatalf("trial %d: <conv, u> = %v, <x, dx> = %v, <w, dw> = %v", trial, lhs, dot(xv, gx.F), dot(wv, gw.F))
		}
		wantBias := make([]float64, cout)
		sout := len(u) / (y.Shape[0] * cout)
		for i, v := range u {
			wantBias[i/sout%cout] += v
		}
		if !closeTo(gb.F, wantBias, 1e-9) {
			t.Fatalf("trial %d: bias gradient %v, want %v", trial, gb.F, wantBias)
		}
	}
}

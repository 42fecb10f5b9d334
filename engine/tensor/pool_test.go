package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sumGrad returns the gradient of sum(f(x)) for a tracked x of shape.
func sumGrad(t *testing.T, values []float64, shape []int, f func(x *Tensor) (*Tensor, error)) (*Tensor, *Tensor) {
	t.Helper()
	x, err := mustFloats(t, values, shape, F32).RequireGrad()
	if err != nil {
		t.Fatal(err)
	}
	y, err := f(x)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := Reduce("sum", y, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := grads.Get(x)
	if !ok {
		t.Fatal("no gradient")
	}
	return y, g
}

func closeTo(got, want []float64, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			return false
		}
	}
	return true
}

func TestPoolOutputSize(t *testing.T) {
	cases := []struct {
		in, k, p, s, d int64
		ceil           bool
		want           int64
	}{
		{6, 3, 1, 1, 1, false, 6},
		{5, 2, 0, 2, 1, false, 2},
		{5, 2, 0, 2, 1, true, 3},
		{4, 3, 0, 1, 2, false, 0}, // dilated kernel of 5 is longer than 4
		{4, 3, 0, 1, 2, true, 1},
		{7, 3, 1, 2, 2, false, 3},
	}
	for _, c := range cases {
		if got := PoolOutputSize(c.in, c.k, c.p, c.s, c.d, c.ceil); got != c.want {
			t.Errorf("PoolOutputSize(%d, k=%d, p=%d, s=%d, d=%d, ceil=%v) = %d, want %d", c.in, c.k, c.p, c.s, c.d, c.ceil, got, c.want)
		}
	}
}

// Hand-computed pools of x = [1, 5, 2, 4, 3] (shape [1, 1, 5]).
func TestPool1dByHand(t *testing.T) {
	x := []float64{1, 5, 2, 4, 3}
	shape := []int{1, 1, 5}
	cases := []struct {
		name      string
		f         func(x *Tensor) (*Tensor, error)
		want      []float64
		wantGrad  []float64
		wantShape []int
	}{
		{"max k2 s1", func(x *Tensor) (*Tensor, error) {
			o, _, err := MaxPool(x, Pool{Kernel: []int{2}, Stride: []int{1}, Padding: []int{0}, Dilation: []int{1}}, I64)
			return o, err
		}, []float64{5, 5, 4, 4}, []float64{0, 2, 0, 2, 0}, []int{1, 1, 4}},
		{"max k2 s2 ceil pads the last window", func(x *Tensor) (*Tensor, error) {
			o, _, err := MaxPool(x, Pool{Kernel: []int{2}, Stride: []int{2}, Padding: []int{0}, Dilation: []int{1}, CeilMode: true}, I64)
			return o, err
		}, []float64{5, 4, 3}, []float64{0, 1, 0, 1, 1}, []int{1, 1, 3}},
		{"max k2 dilation 2", func(x *Tensor) (*Tensor, error) {
			o, _, err := MaxPool(x, Pool{Kernel: []int{2}, Stride: []int{1}, Padding: []int{0}, Dilation: []int{2}}, I64)
			return o, err
		}, []float64{2, 5, 3}, []float64{0, 1, 1, 0, 1}, []int{1, 1, 3}},
		{"avg k3 p1 without pad", func(x *Tensor) (*Tensor, error) {
			return AvgPool(x, Pool{Kernel: []int{3}, Stride: []int{2}, Padding: []int{1}})
		}, []float64{3, 11.0 / 3, 3.5}, []float64{0.5, 0.5 + 1.0/3, 1.0 / 3, 1.0/3 + 0.5, 0.5}, []int{1, 1, 3}},
		{"avg k3 p1 counting pad", func(x *Tensor) (*Tensor, error) {
			return AvgPool(x, Pool{Kernel: []int{3}, Stride: []int{2}, Padding: []int{1}, CountIncludePad: true})
		}, []float64{2, 11.0 / 3, 7.0 / 3}, []float64{1.0 / 3, 2.0 / 3, 1.0 / 3, 2.0 / 3, 1.0 / 3}, []int{1, 1, 3}},
		{"adaptive 5 into 3", func(x *Tensor) (*Tensor, error) {
			return AdaptiveAvgPool(x, []int{3})
		}, []float64{3, 11.0 / 3, 3.5}, []float64{0.5, 0.5 + 1.0/3, 1.0 / 3, 1.0/3 + 0.5, 0.5}, []int{1, 1, 3}},
	}
	for _, c := range cases {
		y, g := sumGrad(t, x, shape, c.f)
		if !slices.Equal(y.Shape, c.wantShape) || !closeTo(y.F, c.want, 1e-6) {
			t.Errorf("%s: got %v %v, want %v %v", c.name, y.Shape, y.F, c.wantShape, c.want)
		}
		if !closeTo(g.F, c.wantGrad, 1e-6) {
			t.Errorf("%s: gradient %v, want %v", c.name, g.F, c.wantGrad)
		}
	}
}

func TestMaxPool2dIndicesByHand(t *testing.T) {
	// [[1, 2, 3],
	//  [4, 9, 6],
	//  [7, 8, 9]]: windows of 2x2 stride 1; the first of equal maxima wins.
	x := mustFloats(t, []float64{1, 2, 3, 4, 9, 6, 7, 8, 9}, []int{1, 1, 3, 3}, F32)
	out, idx, err := MaxPool(x, Pool{Kernel: []int{2, 2}, Stride: []int{1, 1}, Padding: []int{0, 0}, Dilation: []int{1, 1}}, I32)
	if err != nil {
		t.Fatal(err)
	}
	if !closeTo(out.F, []float64{9, 9, 9, 9}, 0) || !slices.Equal(idx.I, []int64{4, 4, 4, 4}) || idx.DType != I32 {
		t.Errorf("got %v %v %v", out.F, idx.I, idx.DType)
	}
	// Padding 1 with kernel 2: the top-left window sees one element, the
	// bottom-right one the first 9 again.
	out, idx, _ = MaxPool(x, Pool{Kernel: []int{2, 2}, Stride: []int{2, 2}, Padding: []int{1, 1}, Dilation: []int{1, 1}}, I64)
	if !closeTo(out.F, []float64{1, 3, 7, 9}, 0) || !slices.Equal(idx.I, []int64{0, 2, 6, 4}) {
		t.Errorf("padded: got %v %v", out.F, idx.I)
	}
}

// naivePool is the definition of a pool over one [n, c, d, h, w] sample
// layout (rank 3 to 5): every kernel tap is visited and checked against
// the bounds, with no range arithmetic.
func naivePool(x []float64, shape []int, o Pool, kind string) (out, grad []float64, outShape []int) {
	spatial := len(shape) - 2
	outShape = append([]int(nil), shape[:2]...)
	for i := range spatial {
		d := 1
		if o.Dilation != nil {
			d = o.Dilation[i]
		}
		outShape = append(outShape, int(PoolOutputSize(int64(shape[2+i]), int64(o.Kernel[i]), int64(o.Padding[i]), int64(o.Stride[i]), int64(d), o.CeilMode)))
	}
	out = make([]float64, numel(outShape))
	grad = make([]float64, len(x))
	sin := numel(shape[2:])
	volume := numel(o.Kernel)
	for flat := range out {
		oc := decode(flat, outShape)
		base := (oc[0]*shape[1] + oc[1]) * sin
		best, at, sum, count, padded := math.Inf(-1), -1, 0.0, 0, 0
		var taps []int
		for tap := range volume {
			kc := decode(tap, o.Kernel)
			pos, inside, inPad := 0, true, true
			for i := range spatial {
				d := 1
				if o.Dilation != nil {
					d = o.Dilation[i]
				}
				c := oc[2+i]*o.Stride[i] + kc[i]*d - o.Padding[i]
				if c < 0 || c >= shape[2+i] {
					inside = false
				}
				if c < -o.Padding[i] || c >= shape[2+i]+o.Padding[i] {
					inPad = false
				}
				pos = pos*shape[2+i] + c
			}
			if inPad {
				padded++
			}
			if !inside {
				continue
			}
			v := x[base+pos]
			if at < 0 || v > best {
				best, at = v, base+pos
			}
			sum += v
			count++
			taps = append(taps, base+pos)
		}
		switch kind {
		case "max":
			out[flat] = best
			if at >= 0 {
				grad[at]++
			}
		case "avg":
			div, gdiv := max(count, 1), max(count, 1)
			if o.CountIncludePad {
				div, gdiv = max(padded, 1), volume
			}
			out[flat] = sum / float64(div)
			for _, i := range taps {
				grad[i] += 1 / float64(gdiv)
			}
		}
	}
	return out, grad, outShape
}

func TestPoolsAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		spatial := 1 + r.IntN(3)
		shape := []int{1 + r.IntN(2), 1 + r.IntN(2)}
		var o Pool
		for range spatial {
			k := 1 + r.IntN(3)
			shape = append(shape, 1+r.IntN(6))
			o.Kernel = append(o.Kernel, k)
			o.Stride = append(o.Stride, 1+r.IntN(3))
			o.Padding = append(o.Padding, r.IntN(k/2+1))
			o.Dilation = append(o.Dilation, 1+r.IntN(2))
		}
		o.CeilMode = r.IntN(2) == 0
		o.CountIncludePad = r.IntN(2) == 0
		x := randomValues(r, numel(shape))
		for _, kind := range []string{"max", "avg"} {
			po := o
			if kind == "avg" {
				po.Dilation = nil
			}
			want, wantGrad, wantShape := naivePool(x, shape, po, kind)
			y, g := sumGrad(t, x, shape, func(t *Tensor) (*Tensor, error) {
				if kind == "max" {
					out, _, err := MaxPool(t, po, I64)
					return out, err
				}
				return AvgPool(t, po)
			})
			if !slices.Equal(y.Shape, wantShape) {
				t.Fatalf("trial %d %s %v %+v: shape %v, want %v", trial, kind, shape, po, y.Shape, wantShape)
			}
			for i := range want {
				if math.IsInf(want[i], -1) && math.IsInf(y.F[i], -1) {
					want[i], y.F[i] = 0, 0
				}
			}
			if !closeTo(y.F, roundAll(want), 1e-5) || !closeTo(g.F, roundAll(wantGrad), 1e-5) {
				t.Fatalf("trial %d %s %v %+v:\n got %v grad %v\nwant %v grad %v", trial, kind, shape, po, y.F, g.F, want, wantGrad)
			}
		}
	}
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = F32.roundFloat(x)
	}
	return out
}

// TestAdaptiveAgainstNaiveLoops checks adaptive pooling against windows
// written as the real-valued interval [o*in/out, (o+1)*in/out) rounded
// outwards.
func TestAdaptiveAgainstNaiveLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 200 {
		spatial := 1 + r.IntN(3)
		shape := []int{1 + r.IntN(2), 1 + r.IntN(2)}
		var size []int
		for range spatial {
			shape = append(shape, 1+r.IntN(7))
			size = append(size, 1+r.IntN(7))
		}
		x := randomValues(r, numel(shape))
		outShape := append(append([]int(nil), shape[:2]...), size...)
		want := make([]float64, numel(outShape))
		wantGrad := make([]float64, len(x))
		sin := numel(shape[2:])
		for flat := range want {
			oc := decode(flat, outShape)
			var members []int
			for p := range sin {
				ic := decode(p, shape[2:])
				in := true
				for i := range spatial {
					lo := math.Floor(float64(oc[2+i]*shape[2+i]) / float64(size[i]))
					hi := math.Ceil(float64((oc[2+i]+1)*shape[2+i]) / float64(size[i]))
					if float64(ic[i]) < lo || float64(ic[i]) >= hi {
						in = false
					}
				}
				if in {
					members = append(members, (oc[0]*shape[1]+oc[1])*sin+p)
				}
			}
			for _, m := range members {
				want[flat] += x[m] / float64(len(members))
				wantGrad[m] += 1 / float64(len(members))
			}
		}
		y, g := sumGrad(t, x, shape, func(t *Tensor) (*Tensor, error) { return AdaptiveAvgPool(t, size) })
		if !slices.Equal(y.Shape, outShape) || !closeTo(y.F, want, 1e-5) || !closeTo(g.F, wantGrad, 1e-5) {
			t.Fatalf("trial %d %v -> %v:\n got %v grad %v\nwant %v grad %v", trial, shape, size, y.F, g.F, want, wantGrad)
		}
	}
}

package tensor

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestInterpolateByHand(t *testing.T) {
	square := []float64{1, 2, 3, 4} // [[1, 2], [3, 4]]
	cases := []struct {
		name         string
		in           []float64
		shape        []int
		h, w         int
		mode         string
		alignCorners bool
		want         []float64
	}{
		{"bilinear 2x2 to 3x3, corners aligned", square, []int{1, 1, 2, 2}, 3, 3, "Bilinear", true,
			[]float64{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}},
		// Half-pixel: output 0 maps to -0.25, clamped to row 0 with weight 0.
		{"bilinear 1x2 to 1x4, half pixel", []float64{1, 2}, []int{1, 1, 1, 2}, 1, 4, "Bilinear", false,
			[]float64{1, 1.25, 1.75, 2}},
		{"nearest 2x2 to 3x4 floors o*in/out", square, []int{1, 1, 2, 2}, 3, 4, "Nearest", true,
			[]float64{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4}},
		{"nearest downsample 1x4 to 1x2", []float64{5, 6, 7, 8}, []int{1, 1, 1, 4}, 1, 2, "Nearest", false,
			[]float64{5, 7}},
		// Output 1 of 5 sits at 0.5 between 1 and 2; Keys weights
		// -0.09375, 0.59375, 0.59375, -0.09375 over inputs 1 (clamped), 1, 2, 4.
		{"bicubic 1x3 to 1x5", []float64{1, 2, 4}, []int{1, 1, 1, 3}, 1, 5, "Bicubic", true,
			[]float64{1, 1.3125, 2, 3.09375, 4}},
		{"lanczos3 keeps a constant", []float64{3, 3, 3, 3, 3, 3}, []int{1, 1, 2, 3}, 3, 5, "Lanczos3", false,
			[]float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
	}
	for _, c := range cases {
		x := mustFloats(t, c.in, c.shape, F32)
		y, err := Interpolate(x, c.h, c.w, c.mode, c.alignCorners)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !closeTo(y.F, c.want, 1e-5) {
			t.Errorf("%s: got %v, want %v", c.name, y.F, c.want)
		}
	}
	// 3.09375 above: coord 1.5, base 1, taps 1, 2, 4, 4 (clamped).
	if got := cubicWeight(1.5, -0.75); math.Abs(got+0.09375) > 1e-12 {
		t.Errorf("cubicWeight(1.5) = %v", got)
	}
}

func TestInterpolateGradients(t *testing.T) {
	// Nearest 1x2 -> 1x4: each input feeds two outputs.
	_, g := sumGrad(t, []float64{1, 2}, []int{1, 1, 1, 2}, func(x *Tensor) (*Tensor, error) {
		return Interpolate(x, 1, 4, "Nearest", true)
	})
	if !closeTo(g.F, []float64{2, 2}, 0) {
		t.Errorf("nearest gradient %v", g.F)
	}
	// Bilinear 1x2 -> 1x3 with corners: weights (1,0), (.5,.5), (0,1).
	_, g = sumGrad(t, []float64{1, 2}, []int{1, 1, 1, 2}, func(x *Tensor) (*Tensor, error) {
		return Interpolate(x, 1, 3, "Bilinear", true)
	})
	if !closeTo(g.F, []float64{1.5, 1.5}, 1e-6) {
		t.Errorf("bilinear gradient %v", g.F)
	}
	// burn-flex has no Lanczos3 backward: a tracked input gets no values.
	x, _ := mustFloats(t, []float64{1, 2}, []int{1, 1, 1, 2}, F32).RequireGrad()
	if _, err := Interpolate(x, 1, 3, "Lanczos3", true); !errors.Is(err, ErrUnknownOp) {
		t.Errorf("tracked Lanczos3: %v", err)
	}
}

// naiveInterpolate evaluates one output pixel from the 2-D definition of
// each mode, without precomputed taps.
func naiveInterpolate(x []float64, inH, inW, outH, outW int, mode string, align bool, oh, ow int) float64 {
	at := func(r, c int) float64 {
		r, c = min(max(r, 0), inH-1), min(max(c, 0), inW-1)
		return x[r*inW+c]
	}
	src := func(o, in, out int) float64 {
		if align {
			if out <= 1 {
				return 0
			}
			return float64(o) * float64(in-1) / float64(out-1)
		}
		return (float64(o)+0.5)*float64(in)/float64(out) - 0.5
	}
	switch mode {
	case "Nearest":
		return at(int(float64(oh)*(float64(inH)/float64(outH))), int(float64(ow)*(float64(inW)/float64(outW))))
	case "Bilinear":
		y, xx := math.Max(src(oh, inH, outH), 0), math.Max(src(ow, inW, outW), 0)
		y0, x0 := math.Floor(y), math.Floor(xx)
		fy, fx := y-y0, xx-x0
		r, c := int(y0), int(x0)
		return at(r, c)*(1-fx)*(1-fy) + at(r, c+1)*fx*(1-fy) + at(r+1, c)*(1-fx)*fy + at(r+1, c+1)*fx*fy
	case "Bicubic":
		y, xx := src(oh, inH, outH), src(ow, inW, outW)
		y0, x0 := math.Floor(y), math.Floor(xx)
		sum := 0.0
		for dy := -1.0; dy <= 2; dy++ {
			for dx := -1.0; dx <= 2; dx++ {
				sum += at(int(y0+dy), int(x0+dx)) * cubicWeight(y-y0-dy, -0.75) * cubicWeight(xx-x0-dx, -0.75)
			}
		}
		return sum
	case "Lanczos3":
		y, xx := src(oh, inH, outH), src(ow, inW, outW)
		y0, x0 := math.Floor(y), math.Floor(xx)
		sum, weights := 0.0, 0.0
		for dy := -2.0; dy <= 3; dy++ {
			for dx := -2.0; dx <= 3; dx++ {
				r, c := int(y0+dy), int(x0+dx)
				if r < 0 || r >= inH || c < 0 || c >= inW {
					continue
				}
				wgt := lanczos3Weight(y-y0-dy) * lanczos3Weight(xx-x0-dx)
				sum += x[r*inW+c] * wgt
				weights += wgt
			}
		}
		if weights != 0 {
			sum /= weights
		}
		return sum
	}
	return math.NaN()
}

// TestInterpolateAgainstNaive checks every mode against the 2-D
// definition and its gradient as the adjoint of the (linear) forward:
// <interpolate(v), u> = <v, backward(u)>.
func TestInterpolateAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for trial := range 200 {
		n, c := 1+r.IntN(2), 1+r.IntN(2)
		inH, inW, outH, outW := 1+r.IntN(5), 1+r.IntN(5), 1+r.IntN(7), 1+r.IntN(7)
		align := r.IntN(2) == 0
		shape := []int{n, c, inH, inW}
		v := randomValues(r, numel(shape))
		for _, mode := range []string{"Nearest", "Bilinear", "Bicubic", "Lanczos3"} {
			y, err := Interpolate(mustFloats(t, v, shape, F64), outH, outW, mode, align)
			if err != nil {
				t.Fatal(err)
			}
			for p := range n * c {
				for oh := range outH {
					for ow := range outW {
						want := naiveInterpolate(v[p*inH*inW:(p+1)*inH*inW], inH, inW, outH, outW, mode, align, oh, ow)
						if got := y.F[p*outH*outW+oh*outW+ow]; math.Abs(got-want) > 1e-9 {
							t.Fatalf("trial %d %s align=%v %v -> [%d %d] at (%d,%d): %v, want %v", trial, mode, align, shape, outH, outW, oh, ow, got, want)
						}
					}
				}
			}
			if mode == "Lanczos3" {
				continue
			}
			u := randomValues(r, n*c*outH*outW)
			weights := mustFloats(t, u, []int{n, c, outH, outW}, F64)
			x, _ := mustFloats(t, v, shape, F64).RequireGrad()
			y, _ = Interpolate(x, outH, outW, mode, align)
			prod, _ := Binary("mul", y, weights)
			loss, _ := Reduce("sum", prod, BoolNative)
			grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
			if err != nil {
				t.Fatal(err)
			}
			g, _ := grads.Get(x)
			lhs, rhs := 0.0, 0.0
			for i := range y.F {
				lhs += y.F[i] * u[i]
			}
			for i := range v {
				rhs += v[i] * g.F[i]
			}
			if math.Abs(lhs-rhs) > 1e-9*(1+math.Abs(lhs)) {
				t.Fatalf("trial %d %s: <Av,u> = %v, <v,A^T u> = %v", trial, mode, lhs, rhs)
			}
		}
	}
}

package tensor

import "math"

// Interpolation as burn-flex computes it (crates/burn-flex/src/ops/interpolate.rs
// at 2c06be35). Every mode is separable: each output row and column reads
// a few input rows and columns (taps) with weights, and the output is the
// sum over row taps and column taps of both weights times the input. The
// gradient sends the output's gradient back along the same taps, which is
// what burn-flex's backward kernels do for Nearest, Bilinear and Bicubic;
// Lanczos3 has no backward in burn-flex (module.rs:711-716), so a tracked
// Lanczos3 input is refused here and the caller carries a shape only.

// tap is one input index an output coordinate reads, and its weight.
type tap struct {
	index  int
	weight float64
}

// coordRatio and mapCoord are interpolate.rs:173-190.
func coordRatio(in, out int, alignCorners bool) float64 {
	if alignCorners {
		return (float64(in) - 1) / float64(max(max(out, 1)-1, 1))
	}
	return float64(in) / float64(out)
}

func mapCoord(o int, ratio float64, alignCorners bool) float64 {
	if alignCorners {
		return float64(o) * ratio
	}
	return (float64(o)+0.5)*ratio - 0.5
}

// cubicWeight is the Keys kernel with a = -0.75 (interpolate.rs:631-641).
func cubicWeight(t, a float64) float64 {
	t = math.Abs(t)
	switch {
	case t < 1:
		return ((a+2)*t-(a+3))*t*t + 1
	case t < 2:
		return ((a*t-5*a)*t+8*a)*t - 4*a
	}
	return 0
}

// lanczos3Weight is interpolate.rs:645-657.
func lanczos3Weight(x float64) float64 {
	if x == 0 {
		return 1
	}
	if math.Abs(x) >= 3 {
		return 0
	}
	px := math.Pi * x
	return math.Sin(px) * math.Sin(px/3) / (px * (px / 3))
}

// axisTaps lists, for each of out output coordinates, the taps of mode
// along an axis of in input elements. Bilinear weights are rounded to the
// dtype, as burn-flex computes them in T.
func axisTaps(mode string, in, out int, alignCorners bool, dtype DType) ([][]tap, bool) {
	taps := make([][]tap, out)
	ratio := coordRatio(in, out, alignCorners)
	for o := range out {
		switch mode {
		case "Nearest":
			// nearest_index_map (interpolate.rs:193-200) ignores align_corners.
			r := float64(in) / float64(out)
			taps[o] = []tap{{min(int(math.Floor(float64(o)*r)), in-1), 1}}
		case "Bilinear":
			c := mapCoord(o, ratio, alignCorners)
			low := int(math.Max(math.Floor(c), 0))
			high := min(low+1, in-1)
			w := dtype.roundFloat(math.Max(c-float64(low), 0))
			taps[o] = []tap{{low, dtype.roundFloat(1 - w)}, {high, w}}
		case "Bicubic":
			c := mapCoord(o, ratio, alignCorners)
			base := int(math.Floor(c))
			for off := -1; off <= 2; off++ {
				idx := min(max(base+off, 0), in-1)
				taps[o] = append(taps[o], tap{idx, cubicWeight(c-float64(base)-float64(off), -0.75)})
			}
		case "Lanczos3":
			// Out-of-range taps are skipped and the weights renormalized
			// (interpolate.rs:660-697, 733-760); the 2-D weight sum is the
			// product of the axis sums, so each axis renormalizes alone.
			c := mapCoord(o, ratio, alignCorners)
			base := math.Floor(c)
			sum := 0.0
			for off := -2; off <= 3; off++ {
				idx := int(base) + off
				if idx < 0 || idx >= in {
					continue
				}
				w := lanczos3Weight(c - (base + float64(off)))
				taps[o] = append(taps[o], tap{idx, w})
				sum += w
			}
			if sum != 0 {
				for i := range taps[o] {
					taps[o][i].weight /= sum
				}
			}
		default:
			return nil, false
		}
	}
	return taps, true
}

// InterpolateWork is the multiply-adds interpolating to out of shape does
// (at most 36 taps per output, Lanczos3's).
func InterpolateWork(out []int64) (int64, bool) {
	return ShapeElements(append(append([]int64(nil), out...), 36))
}

// Interpolate is interpolate(x, [h, w], InterpolateOptions { mode,
// align_corners }) on x of shape [n, c, h_in, w_in]; mode is "Nearest",
// "Bilinear", "Bicubic" or "Lanczos3".
func Interpolate(x *Tensor, outH, outW int, mode string, alignCorners bool) (*Tensor, error) {
	if !x.DType.IsFloat() || len(x.Shape) != 4 {
		return nil, kindError("interpolate of a %s tensor of rank %d", x.DType.Kind(), len(x.Shape))
	}
	if mode == "Lanczos3" && x.Tracked() {
		return nil, ErrUnknownOp
	}
	n, c, inH, inW := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	if inH <= 0 || inW <= 0 || outH < 0 || outW < 0 {
		return nil, shapeError("interpolate of %v to [%d, %d]", x.Shape, outH, outW)
	}
	rows, ok := axisTaps(mode, inH, outH, alignCorners, x.DType)
	if !ok {
		return nil, ErrUnknownOp
	}
	cols, _ := axisTaps(mode, inW, outW, alignCorners, x.DType)
	out := newData(x.DType, []int{n, c, outH, outW})
	inPlane, outPlane := inH*inW, outH*outW
	for p := range n * c {
		in := x.F[p*inPlane : (p+1)*inPlane]
		for oh, rt := range rows {
			for ow, ct := range cols {
				sum := 0.0
				for _, r := range rt {
					for _, k := range ct {
						sum += in[r.index*inW+k.index] * r.weight * k.weight
					}
				}
				out.F[p*outPlane+oh*outW+ow] = x.DType.roundFloat(sum)
			}
		}
	}
	result := track(out, []*Tensor{x}, func(grad *Data, _ []bool) []*Data {
		acc := make([]float64, len(x.F))
		for p := range n * c {
			g := acc[p*inPlane : (p+1)*inPlane]
			for oh, rt := range rows {
				for ow, ct := range cols {
					v := grad.F[p*outPlane+oh*outW+ow]
					for _, r := range rt {
						for _, k := range ct {
							g[r.index*inW+k.index] += v * r.weight * k.weight
						}
					}
				}
			}
		}
		return []*Data{roundedData(acc, x.Shape, x.DType)}
	})
	if result.node != nil {
		result.node.work = int64(len(out.F)) * 36
	}
	return result, nil
}

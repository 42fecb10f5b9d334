package tensor

import "math"

// Deformable 2-D convolution as burn-flex computes it
// (crates/burn-flex/src/ops/deform_conv.rs at 2c06be35): each kernel tap
// of each output position samples the input bilinearly at the tap's
// position plus its learned offset, zero outside the input, scaled by the
// optional mask, then the weights combine the samples as a convolution's
// do. Gradients are burn-flex's deform_conv2d_backward (deform_conv.rs:449-761),
// which burn-autodiff calls for every tracked input.

// DeformConv is burn-std's DeformConvOptions<2>.
type DeformConv struct {
	Stride, Padding, Dilation  [2]int
	WeightGroups, OffsetGroups int
}

// DeformWork is the multiply-adds of deform_conv2d: every output element
// sums weight[1] * kh * kw bilinear samples of four reads each.
func DeformWork(out, weight []int64) (int64, bool) {
	return ShapeElements(append(append([]int64(nil), out...), weight[1], weight[2], weight[3], 4))
}

// bilinearSample is deform_conv.rs's bilinear_interpolate: the four
// corners around (h, w) and their weights, corners outside the input
// reading 0, and nothing at all once (h, w) is a whole pixel outside.
type bilinearSample struct {
	idx    [4]int // -1: outside
	weight [4]float64
	lh, lw float64
	inside bool
}

func sampleAt(h, w float64, height, width int) bilinearSample {
	var s bilinearSample
	if h <= -1 || h >= float64(height) || w <= -1 || w >= float64(width) {
		return s
	}
	s.inside = true
	hl, wl := math.Floor(h), math.Floor(w)
	s.lh, s.lw = h-hl, w-wl
	hh, hw := 1-s.lh, 1-s.lw
	r0, c0 := int(hl), int(wl)
	corners := [4][2]int{{r0, c0}, {r0, c0 + 1}, {r0 + 1, c0}, {r0 + 1, c0 + 1}}
	s.weight = [4]float64{hh * hw, hh * s.lw, s.lh * hw, s.lh * s.lw}
	for i, c := range corners {
		s.idx[i] = -1
		if c[0] >= 0 && c[0] < height && c[1] >= 0 && c[1] < width {
			s.idx[i] = c[0]*width + c[1]
		}
	}
	return s
}

func (s *bilinearSample) value(plane []float64) (v float64, corner [4]float64) {
	if !s.inside {
		return 0, corner
	}
	for i, at := range s.idx {
		if at >= 0 {
			corner[i] = plane[at]
			v += s.weight[i] * corner[i]
		}
	}
	return v, corner
}

// DeformConv2d is deform_conv2d(x [b, c_in, h, w], offset [b, 2*og*kh*kw,
// oh, ow], weight [c_out, c_in/wg, kh, kw], mask [b, og*kh*kw, oh, ow] or
// nil, bias [c_out] or nil): the output [b, c_out, oh, ow] takes its
// spatial size from the offset, as burn-flex does.
func DeformConv2d(x, offset, weight, mask, bias *Tensor, o DeformConv) (*Tensor, error) {
	for _, t := range []*Tensor{x, offset, weight, mask, bias} {
		if t != nil && !t.DType.IsFloat() {
			return nil, kindError("deform_conv2d of a %s tensor", t.DType.Kind())
		}
	}
	if len(x.Shape) != 4 || len(offset.Shape) != 4 || len(weight.Shape) != 4 || o.WeightGroups < 1 || o.OffsetGroups < 1 {
		return nil, shapeError("deform_conv2d of shapes %v, %v, %v", x.Shape, offset.Shape, weight.Shape)
	}
	B, cin, inH, inW := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	cout, cpw, kh, kw := weight.Shape[0], weight.Shape[1], weight.Shape[2], weight.Shape[3]
	outH, outW := offset.Shape[2], offset.Shape[3]
	og := o.OffsetGroups
	kk := kh * kw
	if cin%og != 0 || cout%o.WeightGroups != 0 || cpw*o.WeightGroups != cin || offset.Shape[0] != B ||
		offset.Shape[1] != 2*og*kk || (mask != nil && (len(mask.Shape) != 4 || mask.Shape[0] != B || mask.Shape[1] != og*kk ||
		mask.Shape[2] != outH || mask.Shape[3] != outW)) || (bias != nil && (len(bias.Shape) != 1 || bias.Shape[0] != cout)) {
		return nil, shapeError("deform_conv2d of shapes %v, %v, %v", x.Shape, offset.Shape, weight.Shape)
	}
	cpo := cin / og
	copw := cout / o.WeightGroups
	sout := outH * outW
	// each visits every (output, input channel, tap) term.
	each := func(f func(oi, xplane, wi, oh, ow, offH, offW, mi int, s *bilinearSample)) {
		for b := range B {
			for oc := range cout {
				icStart := oc / copw * cpw
				for oh := range outH {
					for ow := range outW {
						oi := (b*cout+oc)*sout + oh*outW + ow
						for ic := icStart; ic < icStart+cpw; ic++ {
							grp := ic / cpo
							for r := range kh {
								for c := range kw {
									k := r*kw + c
									offH := (b*2*og*kk+grp*kk*2+k*2)*sout + oh*outW + ow
									offW := offH + sout
									mi := -1
									if mask != nil {
										mi = (b*og*kk+grp*kk+k)*sout + oh*outW + ow
									}
									baseH := float64(oh*o.Stride[0]+r*o.Dilation[0]) - float64(o.Padding[0])
									baseW := float64(ow*o.Stride[1]+c*o.Dilation[1]) - float64(o.Padding[1])
									s := sampleAt(baseH+offset.F[offH], baseW+offset.F[offW], inH, inW)
									wi := ((oc*cpw+ic-icStart)*kh+r)*kw + c
									f(oi, (b*cin+ic)*inH*inW, wi, oh, ow, offH, offW, mi, &s)
								}
							}
						}
					}
				}
			}
		}
	}
	plane := inH * inW
	acc := make([]float64, B*cout*sout)
	each(func(oi, xp, wi, _, _, _, _, mi int, s *bilinearSample) {
		v, _ := s.value(x.F[xp : xp+plane])
		if mi >= 0 {
			v *= mask.F[mi]
		}
		acc[oi] += weight.F[wi] * v
	})
	if bias != nil {
		for i := range acc {
			acc[i] += bias.F[i/sout%cout]
		}
	}
	out := roundedData(acc, []int{B, cout, outH, outW}, x.DType)
	result := track(out, []*Tensor{x, offset, weight, mask, bias}, func(grad *Data, need []bool) []*Data {
		gx, goff, gw := make([]float64, len(x.F)), make([]float64, len(offset.F)), make([]float64, len(weight.F))
		var gm []float64
		if mask != nil {
			gm = make([]float64, len(mask.F))
		}
		each(func(oi, xp, wi, _, _, offH, offW, mi int, s *bilinearSample) {
			g := grad.F[oi]
			m := 1.0
			if mi >= 0 {
				m = mask.F[mi]
			}
			v, corner := s.value(x.F[xp : xp+plane])
			gw[wi] += g * m * v
			if mi >= 0 {
				gm[mi] += g * weight.F[wi] * v
			}
			if !s.inside {
				return
			}
			gv := g * m * weight.F[wi]
			for i, at := range s.idx {
				if at >= 0 {
					gx[xp+at] += s.weight[i] * gv
				}
			}
			// d/dh and d/dw of the bilinear sample (deform_conv.rs:753-758).
			gradH := (1-s.lw)*(corner[2]-corner[0]) + s.lw*(corner[3]-corner[1])
			gradW := (1-s.lh)*(corner[1]-corner[0]) + s.lh*(corner[3]-corner[2])
			goff[offH] += gv * gradH
			goff[offW] += gv * gradW
		})
		grads := []*Data{roundedData(gx, x.Shape, x.DType), roundedData(goff, offset.Shape, offset.DType),
			roundedData(gw, weight.Shape, weight.DType), nil, nil}
		if mask != nil {
			grads[3] = roundedData(gm, mask.Shape, mask.DType)
		}
		if bias != nil {
			gb := make([]float64, cout)
			for i, v := range grad.F {
				gb[i/sout%cout] += v
			}
			grads[4] = roundedData(gb, bias.Shape, bias.DType)
		}
		return grads
	})
	if result.node != nil {
		result.node.work = int64(len(acc)) * int64(cpw*kk) * 8
	}
	return result, nil
}

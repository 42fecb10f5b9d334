package tensor

// Convolutions and transposed convolutions of 1 to 3 spatial dims, as
// ModuleOps defines them (crates/burn-backend/src/backend/ops/modules/
// conv.rs at 2c06be35). Both are bilinear in the input and the weight:
// every output element is a sum of input x weight products, and the
// products are enumerated once (convTerms) for the forward pass and for
// the gradients burn-autodiff asks the backend for (conv*_x_backward,
// conv*_weight_backward, conv*_bias_backward; crates/burn-autodiff/src/
// ops/module.rs): the input's gradient sums grad x weight over the same
// terms, the weight's grad x input, and the bias's the output gradient of
// its channel.

// Conv is ConvOptions<N> (Transpose false) or ConvTransposeOptions<N>,
// one entry per spatial dim.
type Conv struct {
	Stride, Padding, Dilation, PaddingOut []int
	Groups                                int
	Transpose                             bool
}

// ConvOutputSize is one spatial dim of a convolution's output: floor
// division for a convolution (conv.rs calculate_conv_output_size), and
// (in-1)*stride - 2*padding + dilation*(kernel-1) + padding_out + 1 for a
// transposed one (calculate_conv_transpose_output_size), never below 0.
func ConvOutputSize(in, kernel, stride, padding, dilation, paddingOut int64, transpose bool) int64 {
	var size int64
	if transpose {
		size = (in-1)*stride - 2*padding + dilation*(kernel-1) + paddingOut + 1
	} else {
		n := in + 2*padding - dilation*(kernel-1) - 1
		if n < 0 {
			return 0
		}
		size = n/max(stride, 1) + 1
	}
	return max(size, 0)
}

// ConvWork is the multiply-adds of a convolution with output out and
// weight w: each output element sums weight[1] * kernel volume products
// (a transposed one: each input element scatters as many).
func ConvWork(x, w, out []int64, transpose bool) (int64, bool) {
	dims := append([]int64(nil), out...)
	if transpose {
		dims = append([]int64(nil), x...)
	}
	return ShapeElements(append(dims, w[1:]...))
}

// convGeometry is a convolution padded to three spatial dims.
type convGeometry struct {
	n, cin, cout, groups, wc int // wc: weight dim 1
	in, out, k, s, p, d      [3]int
}

func convSetup(x, w *Tensor, o *Conv) (*convGeometry, []int, error) {
	spatial := len(x.Shape) - 2
	if spatial < 1 || spatial > 3 || len(w.Shape) != len(x.Shape) || len(o.Stride) != spatial ||
		len(o.Padding) != spatial || len(o.Dilation) != spatial || o.Groups < 1 {
		return nil, nil, shapeError("convolution of shapes %v and %v", x.Shape, w.Shape)
	}
	g := &convGeometry{n: x.Shape[0], cin: x.Shape[1], groups: o.Groups, wc: w.Shape[1]}
	if o.Transpose {
		if w.Shape[0] != g.cin || g.cin%o.Groups != 0 {
			return nil, nil, shapeError("transposed convolution of shapes %v and %v", x.Shape, w.Shape)
		}
		g.cout = w.Shape[1] * o.Groups
	} else {
		if g.cin != w.Shape[1]*o.Groups || w.Shape[0]%o.Groups != 0 {
			return nil, nil, shapeError("convolution of shapes %v and %v", x.Shape, w.Shape)
		}
		g.cout = w.Shape[0]
	}
	out := []int{g.n, g.cout}
	lead := 3 - spatial
	for i := range 3 {
		g.in[i], g.out[i], g.k[i], g.s[i], g.d[i] = 1, 1, 1, 1, 1
	}
	for i := range spatial {
		j := lead + i
		g.in[j], g.k[j], g.s[j], g.p[j], g.d[j] = x.Shape[2+i], w.Shape[2+i], o.Stride[i], o.Padding[i], o.Dilation[i]
		if g.s[j] < 1 || g.d[j] < 1 || g.p[j] < 0 {
			return nil, nil, shapeError("convolution stride %v dilation %v", o.Stride, o.Dilation)
		}
		po := 0
		if o.Transpose && i < len(o.PaddingOut) {
			po = o.PaddingOut[i]
		}
		g.out[j] = int(ConvOutputSize(int64(g.in[j]), int64(g.k[j]), int64(g.s[j]), int64(g.p[j]), int64(g.d[j]), int64(po), o.Transpose))
		out = append(out, g.out[j])
	}
	return g, out, nil
}

// convTerms calls f(out, x, w) for every product x[x] * w[w] that output
// element out sums, as flat indices.
func (g *convGeometry) convTerms(transpose bool, f func(o, xi, wi int)) {
	sin := g.in[0] * g.in[1] * g.in[2]
	sout := g.out[0] * g.out[1] * g.out[2]
	kvol := g.k[0] * g.k[1] * g.k[2]
	cig := g.cin / g.groups  // input channels per group
	cog := g.cout / g.groups // output channels per group
	for n := range g.n {
		for grp := range g.groups {
			for ic := range cig {
				xc := grp*cig + ic
				for oc := range cog {
					yc := grp*cog + oc
					var wbase int
					if transpose {
						wbase = (xc*g.wc + oc) * kvol
					} else {
						wbase = (yc*g.wc + ic) * kvol
					}
					xbase, ybase := (n*g.cin+xc)*sin, (n*g.cout+yc)*sout
					for kd := range g.k[0] {
						for kh := range g.k[1] {
							for kw := range g.k[2] {
								wi := wbase + (kd*g.k[1]+kh)*g.k[2] + kw
								g.spatialTerms(transpose, kd, kh, kw, func(o, i int) { f(ybase+o, xbase+i, wi) })
							}
						}
					}
				}
			}
		}
	}
}

// spatialTerms pairs the output and input positions one kernel tap
// connects: a convolution reads i = o*stride + k*dilation - padding, a
// transposed one writes o = i*stride + k*dilation - padding.
func (g *convGeometry) spatialTerms(transpose bool, kd, kh, kw int, f func(o, i int)) {
	k := [3]int{kd, kh, kw}
	var from, to [3]int // positions of the iterated side, and their count
	if transpose {
		from = g.in
		to = g.out
	} else {
		from = g.out
		to = g.in
	}
	for a := range from[0] {
		b0 := a*g.s[0] + k[0]*g.d[0] - g.p[0]
		if b0 < 0 || b0 >= to[0] {
			continue
		}
		for b := range from[1] {
			b1 := b*g.s[1] + k[1]*g.d[1] - g.p[1]
			if b1 < 0 || b1 >= to[1] {
				continue
			}
			for c := range from[2] {
				b2 := c*g.s[2] + k[2]*g.d[2] - g.p[2]
				if b2 < 0 || b2 >= to[2] {
					continue
				}
				src := (a*from[1]+b)*from[2] + c
				dst := (b0*to[1]+b1)*to[2] + b2
				if transpose {
					f(dst, src)
				} else {
					f(src, dst)
				}
			}
		}
	}
}

// Convolution is conv1d/2d/3d or conv_transpose1d/2d/3d of x
// [n, c_in, spatial...] with weight ([c_out, c_in/groups, kernel...], or
// [c_in, c_out/groups, kernel...] transposed) and an optional bias
// [c_out]. Products accumulate in float64 and round once per element.
func Convolution(x, weight, bias *Tensor, o Conv) (*Tensor, error) {
	if !x.DType.IsFloat() || !weight.DType.IsFloat() || (bias != nil && !bias.DType.IsFloat()) {
		return nil, kindError("convolution of %s tensors", x.DType.Kind())
	}
	g, shape, err := convSetup(x, weight, &o)
	if err != nil {
		return nil, err
	}
	if bias != nil && (len(bias.Shape) != 1 || bias.Shape[0] != g.cout) {
		return nil, shapeError("convolution bias of shape %v for %d channels", bias.Shape, g.cout)
	}
	acc := make([]float64, numel(shape))
	var terms int64
	g.convTerms(o.Transpose, func(oi, xi, wi int) {
		acc[oi] += x.F[xi] * weight.F[wi]
		terms++
	})
	sout := g.out[0] * g.out[1] * g.out[2]
	if bias != nil {
		for i := range acc {
			acc[i] += bias.F[i/sout%g.cout]
		}
	}
	out := roundedData(acc, shape, x.DType)
	result := track(out, []*Tensor{x, weight, bias}, func(grad *Data, need []bool) []*Data {
		grads := make([]*Data, 3)
		var gx, gw []float64
		if need[0] {
			gx = make([]float64, len(x.F))
		}
		if need[1] {
			gw = make([]float64, len(weight.F))
		}
		if gx != nil || gw != nil {
			g.convTerms(o.Transpose, func(oi, xi, wi int) {
				if gx != nil {
					gx[xi] += grad.F[oi] * weight.F[wi]
				}
				if gw != nil {
					gw[wi] += grad.F[oi] * x.F[xi]
				}
			})
		}
		if gx != nil {
			grads[0] = roundedData(gx, x.Shape, x.DType)
		}
		if gw != nil {
			grads[1] = roundedData(gw, weight.Shape, weight.DType)
		}
		if need[2] {
			gb := make([]float64, g.cout)
			for i, v := range grad.F {
				gb[i/sout%g.cout] += v
			}
			grads[2] = roundedData(gb, bias.Shape, bias.DType)
		}
		return grads
	})
	if result.node != nil {
		result.node.work = 2 * terms
	}
	return result, nil
}

package tensor

// Pooling as burn-flex computes it (crates/burn-flex/src/ops/pool.rs at
// 2c06be35): every pool is a 3-D pool over [batch, channels, d, h, w], a
// 1-D or 2-D input having leading spatial dims of one. Gradients are
// burn-flex's backward kernels, which burn-autodiff calls
// (crates/burn-autodiff/src/ops/module.rs:1333-1880).

// Pool is the geometry of a max or average pool, one entry per spatial
// dim (1, 2 or 3 of them).
type Pool struct {
	Kernel, Stride, Padding, Dilation []int
	CeilMode                          bool
	// CountIncludePad: an average divides by the window inside the padded
	// input rather than by the elements it covers.
	CountIncludePad bool
}

// PoolOutputSize is burn-flex's pool_output_size (pool.rs:136-157): the
// output length of one spatial dim, 0 (or 1 in ceil mode) when the padded
// input is shorter than the dilated kernel. Kernel and stride are > 0.
func PoolOutputSize(input, kernel, padding, stride, dilation int64, ceil bool) int64 {
	effective := dilation*(kernel-1) + 1
	padded := input + 2*padding
	if padded < effective {
		if ceil {
			return 1
		}
		return 0
	}
	n := padded - effective
	if ceil {
		return (n+stride-1)/stride + 1
	}
	return n/stride + 1
}

// PoolWork is the element reads a pool over x of this shape and kernel
// does: the output elements times the kernel's volume, the figure the
// caller pays from the budget's work.
func PoolWork(out []int64, kernel []int64) (int64, bool) {
	return ShapeElements(append(append([]int64(nil), out...), kernel...))
}

// geometry3 is a pool's geometry over exactly three spatial dims.
type geometry3 struct {
	n, c                 int
	in, out, k, s, p, dl [3]int
}

func (g *geometry3) spatialIn() int  { return g.in[0] * g.in[1] * g.in[2] }
func (g *geometry3) spatialOut() int { return g.out[0] * g.out[1] * g.out[2] }

// poolGeometry reads x's shape [n, c, spatial...] and the pool's options,
// padding both to three spatial dims.
func poolGeometry(shape []int, o *Pool, out []int) (*geometry3, error) {
	spatial := len(shape) - 2
	if spatial < 1 || spatial > 3 {
		return nil, shapeError("pool of a rank-%d tensor", len(shape))
	}
	g := &geometry3{n: shape[0], c: shape[1]}
	for i := range 3 {
		g.in[i], g.out[i], g.k[i], g.s[i], g.dl[i] = 1, 1, 1, 1, 1
	}
	lead := 3 - spatial
	for i := range spatial {
		d := lead + i
		g.in[d] = shape[2+i]
		if o != nil {
			if len(o.Kernel) != spatial || len(o.Stride) != spatial || len(o.Padding) != spatial {
				return nil, shapeError("pool options of %d dims for a %d-d pool", len(o.Kernel), spatial)
			}
			g.k[d], g.s[d], g.p[d] = o.Kernel[i], o.Stride[i], o.Padding[i]
			if len(o.Dilation) == spatial {
				g.dl[d] = o.Dilation[i]
			}
			if g.k[d] <= 0 || g.s[d] <= 0 || g.dl[d] <= 0 || g.p[d] < 0 {
				return nil, shapeError("pool kernel %v stride %v dilation %v", o.Kernel, o.Stride, o.Dilation)
			}
			g.out[d] = int(PoolOutputSize(int64(g.in[d]), int64(g.k[d]), int64(g.p[d]), int64(g.s[d]), int64(g.dl[d]), o.CeilMode))
		} else {
			if len(out) != spatial || out[i] < 0 {
				return nil, shapeError("adaptive pool to %v of shape %v", out, shape)
			}
			g.out[d] = out[i]
		}
	}
	return g, nil
}

func (g *geometry3) outShape(shape []int) []int {
	out := append([]int(nil), shape...)
	spatial := len(shape) - 2
	for i := range spatial {
		out[2+i] = g.out[3-spatial+i]
	}
	return out
}

// maxRange is burn-flex's valid_range_maxpool (pool.rs:197-222): the
// kernel taps of output o that land inside the input.
func maxRange(o, kernel, stride, pad, dilation, input int) (int, int) {
	p := pad - o*stride
	start := 0
	if p > 0 {
		start = (p-1)/dilation + 1
	}
	start = min(max(start, 0), kernel)
	c := input + pad - o*stride
	end := 0
	if c > 0 {
		end = (c-1)/dilation + 1
	}
	end = max(min(max(end, 0), kernel), start)
	return start, end
}

// MaxPool is max_pool1d/2d/3d_with_indices: the maximum of each window
// and its flat position within the sample's spatial dims (burn-flex
// keeps the first of equal maxima and, for an empty window, -inf and
// index -1). indexDType is the device's int dtype. The output's gradient
// goes to the input element each index names, summed where windows
// share a maximum (max_pool3d_backward_impl, pool.rs:1192-1240).
func MaxPool(x *Tensor, o Pool, indexDType DType) (*Tensor, *Tensor, error) {
	if !x.DType.IsFloat() || !indexDType.IsInt() {
		return nil, nil, kindError("max_pool of a %s tensor", x.DType.Kind())
	}
	g, err := poolGeometry(x.Shape, &o, nil)
	if err != nil {
		return nil, nil, err
	}
	shape := g.outShape(x.Shape)
	out := newData(x.DType, shape)
	idx := newData(indexDType, shape)
	sin, sout := g.spatialIn(), g.spatialOut()
	for bc := range g.n * g.c {
		xoff, ooff := bc*sin, bc*sout
		pos := ooff
		for od := range g.out[0] {
			d0, d1 := maxRange(od, g.k[0], g.s[0], g.p[0], g.dl[0], g.in[0])
			for oh := range g.out[1] {
				h0, h1 := maxRange(oh, g.k[1], g.s[1], g.p[1], g.dl[1], g.in[1])
				for ow := range g.out[2] {
					w0, w1 := maxRange(ow, g.k[2], g.s[2], g.p[2], g.dl[2], g.in[2])
					best, at := negInf, int64(-1)
					for kd := d0; kd < d1; kd++ {
						id := od*g.s[0] + kd*g.dl[0] - g.p[0]
						for kh := h0; kh < h1; kh++ {
							ih := oh*g.s[1] + kh*g.dl[1] - g.p[1]
							for kw := w0; kw < w1; kw++ {
								iw := ow*g.s[2] + kw*g.dl[2] - g.p[2]
								i := (id*g.in[1]+ih)*g.in[2] + iw
								if v := x.F[xoff+i]; at < 0 || v > best {
									best, at = v, int64(i)
								}
							}
						}
					}
					out.F[pos], idx.I[pos] = best, at
					pos++
				}
			}
		}
	}
	indices := &Tensor{Data: *idx}
	result := track(out, []*Tensor{x}, func(grad *Data, _ []bool) []*Data {
		gx := newData(x.DType, x.Shape)
		for bc := range g.n * g.c {
			for i := range sout {
				if at := idx.I[bc*sout+i]; at >= 0 {
					j := bc*sin + int(at)
					gx.F[j] = x.DType.roundFloat(gx.F[j] + grad.F[bc*sout+i])
				}
			}
		}
		return []*Data{gx}
	})
	if result.node != nil {
		result.node.work = int64(len(out.F))
	}
	return result, indices, nil
}

var negInf = func() float64 { var z float64; return -1 / z }()

// avgRange is burn-flex's valid_range_avgpool and padded_len_avgpool
// (pool.rs:630-662): the taps of output o inside the input, and how many
// lie inside the padded input.
func avgRange(o, kernel, stride, pad, input int) (start, end, padded int) {
	start = min(max(pad-o*stride, 0), kernel)
	end = max(min(max(input+pad-o*stride, 0), kernel), start)
	padded = max(min(max(input+2*pad-o*stride, 0), kernel), 0)
	return start, end, padded
}

// AvgPool is avg_pool1d/2d: the mean of each window, dividing by the
// taps inside the input, or with CountIncludePad by the taps inside the
// padded input (at least one; avg_pool3d_impl, pool.rs:669-780). Its
// gradient spreads each output's gradient over the window's input
// elements, divided by the taps inside the input or, with
// CountIncludePad, by the whole kernel's volume (avg_pool3d_backward_impl,
// pool.rs:1365-1470), as burn-flex's backward does even where the forward
// divided by fewer.
func AvgPool(x *Tensor, o Pool) (*Tensor, error) {
	if !x.DType.IsFloat() {
		return nil, kindError("avg_pool of a %s tensor", x.DType.Kind())
	}
	o.Dilation = nil
	g, err := poolGeometry(x.Shape, &o, nil)
	if err != nil {
		return nil, err
	}
	out := newData(x.DType, g.outShape(x.Shape))
	sin, sout := g.spatialIn(), g.spatialOut()
	for bc := range g.n * g.c {
		xoff := bc * sin
		pos := bc * sout
		for od := range g.out[0] {
			d0, d1, dp := avgRange(od, g.k[0], g.s[0], g.p[0], g.in[0])
			for oh := range g.out[1] {
				h0, h1, hp := avgRange(oh, g.k[1], g.s[1], g.p[1], g.in[1])
				for ow := range g.out[2] {
					w0, w1, wp := avgRange(ow, g.k[2], g.s[2], g.p[2], g.in[2])
					sum := 0.0
					for kd := d0; kd < d1; kd++ {
						id := od*g.s[0] + kd - g.p[0]
						for kh := h0; kh < h1; kh++ {
							ih := oh*g.s[1] + kh - g.p[1]
							for kw := w0; kw < w1; kw++ {
								iw := ow*g.s[2] + kw - g.p[2]
								sum += x.F[xoff+(id*g.in[1]+ih)*g.in[2]+iw]
							}
						}
					}
					count := (d1 - d0) * (h1 - h0) * (w1 - w0)
					if o.CountIncludePad {
						count = dp * hp * wp
					}
					out.F[pos] = x.DType.roundFloat(sum / float64(max(count, 1)))
					pos++
				}
			}
		}
	}
	volume := g.k[0] * g.k[1] * g.k[2]
	result := track(out, []*Tensor{x}, func(grad *Data, _ []bool) []*Data {
		acc := make([]float64, len(x.F))
		for bc := range g.n * g.c {
			xoff := bc * sin
			pos := bc * sout
			for od := range g.out[0] {
				d0, d1, _ := avgRange(od, g.k[0], g.s[0], g.p[0], g.in[0])
				for oh := range g.out[1] {
					h0, h1, _ := avgRange(oh, g.k[1], g.s[1], g.p[1], g.in[1])
					for ow := range g.out[2] {
						w0, w1, _ := avgRange(ow, g.k[2], g.s[2], g.p[2], g.in[2])
						count := (d1 - d0) * (h1 - h0) * (w1 - w0)
						if o.CountIncludePad {
							count = volume
						}
						share := x.DType.roundFloat(grad.F[pos] / float64(max(count, 1)))
						pos++
						for kd := d0; kd < d1; kd++ {
							id := od*g.s[0] + kd - g.p[0]
							for kh := h0; kh < h1; kh++ {
								ih := oh*g.s[1] + kh - g.p[1]
								for kw := w0; kw < w1; kw++ {
									iw := ow*g.s[2] + kw - g.p[2]
									acc[xoff+(id*g.in[1]+ih)*g.in[2]+iw] += share
								}
							}
						}
					}
				}
			}
		}
		return []*Data{roundedData(acc, x.Shape, x.DType)}
	})
	if result.node != nil {
		result.node.work = int64(len(out.F)) * int64(volume)
	}
	return result, nil
}

// roundedData wraps float64 accumulators as Data of dtype, each rounded.
func roundedData(acc []float64, shape []int, dtype DType) *Data {
	d := &Data{DType: dtype, Shape: append([]int(nil), shape...), F: acc}
	for i, v := range acc {
		acc[i] = dtype.roundFloat(v)
	}
	return d
}

// adaptiveRange is the input window of output o when in elements pool
// into out: floor(o*in/out) up to ceil((o+1)*in/out) (pool.rs:1003-1012).
func adaptiveRange(o, in, out int) (int, int) {
	return o * in / out, ((o+1)*in + out - 1) / out
}

// AdaptiveAvgPool is adaptive_avg_pool1d/2d/3d: output size out (one
// entry per spatial dim), each output the mean of its window
// (adaptive_avg_pool3d_impl, pool.rs:970-1060). Its gradient spreads each
// output's gradient evenly over its window.
func AdaptiveAvgPool(x *Tensor, size []int) (*Tensor, error) {
	if !x.DType.IsFloat() {
		return nil, kindError("adaptive_avg_pool of a %s tensor", x.DType.Kind())
	}
	g, err := poolGeometry(x.Shape, nil, size)
	if err != nil {
		return nil, err
	}
	out := newData(x.DType, g.outShape(x.Shape))
	sin, sout := g.spatialIn(), g.spatialOut()
	visit := func(f func(pos, count int, each func(func(i int)))) {
		for bc := range g.n * g.c {
			xoff, pos := bc*sin, bc*sout
			for od := range g.out[0] {
				d0, d1 := adaptiveRange(od, g.in[0], g.out[0])
				for oh := range g.out[1] {
					h0, h1 := adaptiveRange(oh, g.in[1], g.out[1])
					for ow := range g.out[2] {
						w0, w1 := adaptiveRange(ow, g.in[2], g.out[2])
						count := (d1 - d0) * (h1 - h0) * (w1 - w0)
						f(pos, count, func(body func(i int)) {
							for id := d0; id < d1; id++ {
								for ih := h0; ih < h1; ih++ {
									for iw := w0; iw < w1; iw++ {
										body(xoff + (id*g.in[1]+ih)*g.in[2] + iw)
									}
								}
							}
						})
						pos++
					}
				}
			}
		}
	}
	work := int64(0)
	visit(func(pos, count int, each func(func(int))) {
		sum := 0.0
		each(func(i int) { sum += x.F[i] })
		out.F[pos] = x.DType.roundFloat(sum / float64(max(count, 1)))
		work += int64(count)
	})
	result := track(out, []*Tensor{x}, func(grad *Data, _ []bool) []*Data {
		acc := make([]float64, len(x.F))
		visit(func(pos, count int, each func(func(int))) {
			share := x.DType.roundFloat(grad.F[pos] / float64(max(count, 1)))
			each(func(i int) { acc[i] += share })
		})
		return []*Data{roundedData(acc, x.Shape, x.DType)}
	})
	if result.node != nil {
		result.node.work = work
	}
	return result, nil
}

// AdaptiveWork is the element reads adaptive pooling of in into out
// does: each output reads a window of about ceil(in/out)+1 per dim.
func AdaptiveWork(shape []int64, out []int64) (int64, bool) {
	dims := append([]int64(nil), shape[:2]...)
	for i, o := range out {
		in := shape[2+i]
		dims = append(dims, o)
		if o > 0 {
			dims = append(dims, in/o+2)
		}
	}
	return ShapeElements(dims)
}

// VJP is the vector-Jacobian product of f at x with v: the gradient of
// sum(f(x) * v) with respect to x, which is what the backends' *_backward
// module ops return for the op f (avg_pool2d_backward, conv2d_weight_backward,
// ...). f must keep x's graph; v has f(x)'s shape.
func VJP(f func(x *Tensor) (*Tensor, error), x, v *Tensor, budget *Budget) (*Tensor, error) {
	leaf, err := x.Detach().RequireGrad()
	if err != nil {
		return nil, err
	}
	y, err := f(leaf)
	if err != nil {
		return nil, err
	}
	prod, err := Binary("mul", y, v.Detach())
	if err != nil {
		return nil, err
	}
	loss, err := Reduce("sum", prod, BoolNative)
	if err != nil {
		return nil, err
	}
	grads, err := Backward(loss, budget)
	if err != nil {
		return nil, err
	}
	g, ok := grads.Get(leaf)
	if !ok {
		return Zeros(x.Shape, x.DType), nil
	}
	return g, nil
}

// MaxPoolBackward is max_pool2d_with_indices_backward: output_grad added
// into a zero input-shaped gradient at the flat spatial position each
// index names (pool.rs:1192-1240); an index outside the sample is the
// backend's problem (ErrIndex).
func MaxPoolBackward(x, grad, indices *Tensor) (*Tensor, error) {
	if len(x.Shape) < 3 || len(grad.Shape) != len(x.Shape) || !slicesEqual(grad.Shape, indices.Shape) ||
		grad.Shape[0] != x.Shape[0] || grad.Shape[1] != x.Shape[1] {
		return nil, shapeError("max pool backward of %v with a gradient of %v", x.Shape, grad.Shape)
	}
	sin, sout := numel(x.Shape[2:]), numel(grad.Shape[2:])
	acc := make([]float64, len(x.F))
	for i, g := range grad.F {
		at := indices.Data.Int(i)
		if at < 0 {
			continue
		}
		if at >= int64(sin) {
			return nil, ErrIndex
		}
		acc[i/sout*sin+int(at)] += g
	}
	return &Tensor{Data: *roundedData(acc, x.Shape, x.DType)}, nil
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package tensor

// module::unfold4d and fold4d as ModuleOps' default implementations
// compute them (crates/burn-backend/src/backend/ops/modules/base.rs:477-582,
// unfold.rs): without padding or dilation unfold4d slides windows with
// float_unfold and reorders them; otherwise it convolves with a one-hot
// weight (create_unfolding_weight, unfold.rs:15-52), as fold4d does with a
// transposed convolution. The one-hot products keep Burn's arithmetic: a
// NaN or infinity in the input reaches every column its channel's
// convolution sums, as in Burn.

// UnfoldWindows is the number of blocks along one dim.
func UnfoldWindows(in, kernel, stride, padding, dilation int64) int64 {
	return ConvOutputSize(in, kernel, stride, padding, dilation, 0, false)
}

// unfoldingWeight is create_unfolding_weight: [c*kh*kw, c, kh, kw], one
// at (k*kh*kw + i*kw + j, k, i, j).
func unfoldingWeight(c, kh, kw int, dtype DType) *Tensor {
	w := newData(dtype, []int{c * kh * kw, c, kh, kw})
	for k := range c {
		for i := range kh {
			for j := range kw {
				oc := k*kh*kw + i*kw + j
				w.F[((oc*c+k)*kh+i)*kw+j] = 1
			}
		}
	}
	return &Tensor{Data: *w}
}

// Unfold4d is unfold4d(x [b, c, h, w], [kh, kw], UnfoldOptions):
// [b, c*kh*kw, blocks].
func Unfold4d(x *Tensor, kernel, stride, padding, dilation [2]int) (*Tensor, error) {
	if !x.DType.IsFloat() || len(x.Shape) != 4 {
		return nil, kindError("unfold4d of a %s tensor of rank %d", x.DType.Kind(), len(x.Shape))
	}
	b, c := x.Shape[0], x.Shape[1]
	if padding == [2]int{0, 0} && dilation == [2]int{1, 1} {
		// float_unfold twice, permute, reshape: a selection.
		bh := int(UnfoldWindows(int64(x.Shape[2]), int64(kernel[0]), int64(stride[0]), 0, 1))
		bw := int(UnfoldWindows(int64(x.Shape[3]), int64(kernel[1]), int64(stride[1]), 0, 1))
		rows, cols := kernel[0]*kernel[1], bh*bw
		src := make([]int, b*c*rows*cols)
		for n := range b {
			for ch := range c {
				for i := range kernel[0] {
					for j := range kernel[1] {
						for p := range bh {
							for q := range bw {
								dst := ((n*c+ch)*rows+i*kernel[1]+j)*cols + p*bw + q
								src[dst] = ((n*c+ch)*x.Shape[2]+p*stride[0]+i)*x.Shape[3] + q*stride[1] + j
							}
						}
					}
				}
			}
		}
		return gatherFlat(x, src, []int{b, c * rows, cols}), nil
	}
	out, err := Convolution(x, unfoldingWeight(c, kernel[0], kernel[1], x.DType), nil,
		Conv{Stride: stride[:], Padding: padding[:], Dilation: dilation[:], Groups: 1})
	if err != nil {
		return nil, err
	}
	return Reshape(out, []int{b, out.Shape[1], out.Shape[2] * out.Shape[3]})
}

// Fold4d is fold4d(x [b, c*kh*kw, blocks], [h, w], [kh, kw], options):
// the transposed convolution with the one-hot weight, after x is reshaped
// to the grid of blocks. The caller has checked the block count.
func Fold4d(x *Tensor, size, kernel, stride, padding, dilation [2]int) (*Tensor, error) {
	if !x.DType.IsFloat() || len(x.Shape) != 3 {
		return nil, kindError("fold4d of a %s tensor of rank %d", x.DType.Kind(), len(x.Shape))
	}
	kk := kernel[0] * kernel[1]
	if kk == 0 || x.Shape[1]%kk != 0 {
		return nil, shapeError("fold4d of %v with kernel %v", x.Shape, kernel)
	}
	var grid, paddingOut [2]int
	for i := range 2 {
		n := size[i] + 2*padding[i] - dilation[i]*(kernel[i]-1) - 1
		if n < 0 || stride[i] < 1 {
			return nil, shapeError("fold4d to %v with kernel %v", size, kernel)
		}
		grid[i], paddingOut[i] = n/stride[i]+1, n%stride[i]
	}
	if grid[0]*grid[1] != x.Shape[2] {
		return nil, shapeError("fold4d of %d blocks to a %v grid", x.Shape[2], grid)
	}
	blocks, err := Reshape(x, []int{x.Shape[0], x.Shape[1], grid[0], grid[1]})
	if err != nil {
		return nil, err
	}
	return Convolution(blocks, unfoldingWeight(x.Shape[1]/kk, kernel[0], kernel[1], x.DType), nil,
		Conv{Stride: stride[:], Padding: padding[:], Dilation: dilation[:], PaddingOut: paddingOut[:], Groups: 1, Transpose: true})
}

// gatherFlat is out[i] = x[src[i]] in shape, its gradient summed back.
func gatherFlat(x *Tensor, src []int, shape []int) *Tensor {
	out := newData(x.DType, shape)
	for i, s := range src {
		out.F[i] = x.F[s]
	}
	return track(out, []*Tensor{x}, func(grad *Data, _ []bool) []*Data {
		acc := make([]float64, len(x.F))
		for i, s := range src {
			acc[s] += grad.F[i]
		}
		return []*Data{roundedData(acc, x.Shape, x.DType)}
	})
}

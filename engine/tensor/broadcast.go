package tensor

// Broadcasting as burn-tensor allows it: both operands have the same rank
// (Tensor<D> fixes it) and each dim pair is equal or has a 1
// (TensorCheck::binary_ops_ew_shape).

// broadcastShape is the shape of an element-wise result.
func broadcastShape(shapes ...[]int) ([]int, error) {
	out := append([]int(nil), shapes[0]...)
	for _, s := range shapes[1:] {
		if len(s) != len(out) {
			return nil, shapeError("ranks %d and %d differ", len(out), len(s))
		}
		for d := range s {
			switch {
			case s[d] == out[d] || s[d] == 1:
			case out[d] == 1:
				out[d] = s[d]
			default:
				return nil, shapeError("dims %v and %v do not broadcast", shapes[0], s)
			}
		}
	}
	return out, nil
}

// contiguousStrides are the row-major strides of a shape.
func contiguousStrides(shape []int) []int {
	strides := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = s
		s *= shape[d]
	}
	return strides
}

// stridedIndex lists, for each element of outShape in row-major order, the
// flat position offset + sum(coord[d] * strides[d]) in a source buffer.
// Broadcasting (stride 0), permutations, slices with steps and flips are
// all such views.
func stridedIndex(outShape, strides []int, offset int) []int {
	n := numel(outShape)
	index := make([]int, n)
	if n == 0 {
		return index
	}
	rank := len(outShape)
	counter := make([]int, rank)
	pos := offset
	for i := range n {
		index[i] = pos
		for d := rank - 1; d >= 0; d-- {
			counter[d]++
			pos += strides[d]
			if counter[d] < outShape[d] {
				break
			}
			pos -= strides[d] * counter[d]
			counter[d] = 0
		}
	}
	return index
}

// broadcastIndex maps each element of out to the element of an operand of
// shape in that it reads; nil when the shapes are equal and the map is the
// identity. in may have fewer dims than out: they align to the right, as
// expand allows.
func broadcastIndex(in, out []int) []int {
	if sameShape(in, out) {
		return nil
	}
	lead := len(out) - len(in)
	inStrides := contiguousStrides(in)
	strides := make([]int, len(out))
	for d := range in {
		if in[d] != 1 {
			strides[lead+d] = inStrides[d]
		}
	}
	return stridedIndex(out, strides, 0)
}

// at reads an index map; a nil map is the identity.
func at(index []int, i int) int {
	if index == nil {
		return i
	}
	return index[i]
}

// sumInto adds the output-shaped gradient g (already multiplied by the
// local derivative) into the operand's shape through its index map, then
// rounds to dtype: the reduction over broadcast dims that burn-autodiff's
// broadcast_shape does.
func sumInto(g []float64, index []int, inShape []int, dtype DType) *Data {
	out := newData(dtype, inShape)
	if index == nil {
		for i, v := range g {
			out.F[i] = dtype.roundFloat(v)
		}
		return out
	}
	for i, v := range g {
		out.F[index[i]] += v
	}
	for i, v := range out.F {
		out.F[i] = dtype.roundFloat(v)
	}
	return out
}

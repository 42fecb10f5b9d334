package tensor

import "fmt"

// gather_nd and scatter_nd: indexing by n-dimensional index tuples, as
// burn-flex computes them (crates/burn-flex/src/ops/gather_scatter.rs:883
// scatter_nd, :962 gather_nd) with burn-autodiff's gradients
// (crates/burn-autodiff/src/ops/tensor.rs:1129 float_scatter_nd, :1431
// float_gather_nd). The index tensor has shape [.., K]: each of its
// leading positions names, by K coordinates, a slice of the data over the
// data's dims K and after.

// ndSlices resolves the index tuples: the offset in data of the slice each
// tuple names, and the size of one slice. An index out of its dim is an
// error (burn-flex reads the tuple unchecked and its slice then panics).
func ndSlices(data, indices *Tensor) (offsets []int, slice int, err error) {
	if !indices.DType.IsInt() {
		return nil, 0, kindError("indices of kind %s", indices.DType.Kind())
	}
	m := len(indices.Shape)
	if m == 0 || indices.Shape[m-1] > len(data.Shape) {
		return nil, 0, shapeError("indices of shape %v for data of shape %v", indices.Shape, data.Shape)
	}
	k := indices.Shape[m-1]
	n := numel(indices.Shape[:m-1])
	slice = numel(data.Shape[k:])
	strides := contiguousStrides(data.Shape)
	offsets = make([]int, n)
	for i := range n {
		for j := range k {
			v, err := indexAt(indices, i*k+j, data.Shape[j])
			if err != nil {
				return nil, 0, err
			}
			offsets[i] += v * strides[j]
		}
	}
	return offsets, slice, nil
}

// ndPositions lists, for each element of the gathered (or scattered)
// slices in order, its position in data.
func ndPositions(offsets []int, slice int) []int {
	pos := make([]int, 0, len(offsets)*slice)
	for _, o := range offsets {
		for s := range slice {
			pos = append(pos, o+s)
		}
	}
	return pos
}

// GatherNd is gather_nd(indices): the slices the index tuples name, shaped
// indices.shape[..m-1] ++ data.shape[K..]. Its gradient scatters (adds)
// the output's gradient back into zeros of the data's shape.
func GatherNd(data, indices *Tensor) (*Tensor, error) {
	offsets, slice, err := ndSlices(data, indices)
	if err != nil {
		return nil, err
	}
	m := len(indices.Shape)
	shape := append(append([]int(nil), indices.Shape[:m-1]...), data.Shape[indices.Shape[m-1]:]...)
	return remap(data, shape, ndPositions(offsets, slice)), nil
}

// ScatterNd is scatter_nd(indices, values, update): data with each named
// slice updated by the matching slice of values, tuples applied in order
// ("assign": the last write wins; "add", "mul", "min", "max" combine with
// what is there, min and max keeping data's element unless the value is
// strictly below or above it, so NaN never replaces and is never
// replaced). values has shape indices.shape[..m-1] ++ data.shape[K..].
func ScatterNd(data, indices, values *Tensor, update string) (*Tensor, error) {
	if values.DType != data.DType {
		return nil, kindError("scatter_nd of %s values into %s data", values.DType, data.DType)
	}
	offsets, slice, err := ndSlices(data, indices)
	if err != nil {
		return nil, err
	}
	target := ndPositions(offsets, slice)
	if len(target) != values.NumElements() {
		return nil, shapeError("scatter_nd of values %v by indices %v into %v", values.Shape, indices.Shape, data.Shape)
	}
	if data.DType.IsBool() {
		return nil, kindError("scatter_nd of Bool tensors")
	}
	if update == "add" {
		return scatterAdd(data, values, target), nil
	}
	combine, ok := ndCombine(update, data.DType)
	if !ok {
		return nil, fmt.Errorf("%w: scatter_nd update %s", ErrUnknownOp, update)
	}
	out := newData(data.DType, data.Shape)
	if data.DType.IsInt() {
		copy(out.I, data.I)
		for i, p := range target {
			out.I[p] = combine.ints(out.I[p], values.I[i])
		}
		return &Tensor{Data: *out}, nil
	}
	copy(out.F, data.F)
	for i, p := range target {
		out.F[p] = combine.floats(out.F[p], values.F[i])
	}
	return track(out, []*Tensor{data, values}, func(g *Data, need []bool) []*Data {
		return scatterNdBackward(update, data, values, target, g, need)
	}), nil
}

// ndUpdate combines the element data holds with a value.
type ndUpdate struct {
	floats func(cur, v float64) float64
	ints   func(cur, v int64) int64
}

func ndCombine(update string, dt DType) (ndUpdate, bool) {
	switch update {
	case "assign":
		return ndUpdate{func(_, v float64) float64 { return v }, func(_, v int64) int64 { return v }}, true
	case "mul":
		return ndUpdate{
			func(cur, v float64) float64 { return dt.roundFloat(cur * v) },
			func(cur, v int64) int64 { return dt.wrapInt(cur * v) },
		}, true
	case "min":
		return ndUpdate{
			func(cur, v float64) float64 { return pick(v < cur, v, cur) },
			func(cur, v int64) int64 { return min(cur, v) },
		}, true
	case "max":
		return ndUpdate{
			func(cur, v float64) float64 { return pick(v > cur, v, cur) },
			func(cur, v int64) int64 { return max(cur, v) },
		}, true
	}
	return ndUpdate{}, false
}

// scatterNdBackward is burn-autodiff's backward of float_scatter_nd for
// assign, mul, min and max (tensor.rs:1185, 1229, 1325): the data's
// gradient is the output's, zeroed (assign), scaled by the values (mul)
// or kept where data won (min, max) at the scattered positions; the
// values' gradient is the output's gathered at them, times the data there
// (mul) or where the value won (min, max). Ties count for both sides, as
// Burn's >= and <= comparisons do.
func scatterNdBackward(update string, data, values *Tensor, target []int, g *Data, need []bool) []*Data {
	r := data.DType.roundFloat
	grads := make([]*Data, 2)
	if need[0] {
		mask := make([]float64, data.NumElements())
		for i := range mask {
			mask[i] = 1
		}
		for i, p := range target {
			switch update {
			case "assign":
				mask[p] = 0
			case "mul":
				mask[p] = values.F[i]
			case "min":
				mask[p] = pick(data.F[p] <= values.F[i], 1.0, 0.0)
			case "max":
				mask[p] = pick(data.F[p] >= values.F[i], 1.0, 0.0)
			}
		}
		gd := make([]float64, len(mask))
		for i, m := range mask {
			gd[i] = r(g.F[i] * m)
		}
		grads[0] = sumInto(gd, nil, data.Shape, data.DType)
	}
	if need[1] {
		gv := make([]float64, len(target))
		for i, p := range target {
			var f float64
			switch update {
			case "assign":
				f = 1
			case "mul":
				f = data.F[p]
			case "min":
				f = pick(values.F[i] <= data.F[p], 1.0, 0.0)
			case "max":
				f = pick(values.F[i] >= data.F[p], 1.0, 0.0)
			}
			gv[i] = r(g.F[p] * f)
		}
		grads[1] = sumInto(gv, nil, values.Shape, values.DType)
	}
	return grads
}

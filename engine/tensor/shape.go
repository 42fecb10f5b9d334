package tensor

import (
	"fmt"
	"math"
	"slices"
)

// Operations that move elements without computing new ones. Each builds
// an index map (for every output element, the input element it copies);
// the gradient adds the output's gradient back through the same map, so
// an element read twice (expand, repeat_dim, select with a repeated
// index) collects both.

// remap copies t through index into a tensor of shape.
func remap(t *Tensor, shape []int, index []int) *Tensor {
	out := newData(t.DType, shape)
	switch {
	case t.DType.IsFloat():
		for i, p := range index {
			out.F[i] = t.F[p]
		}
	case t.DType.IsInt():
		for i, p := range index {
			out.I[i] = t.I[p]
		}
	default:
		for i, p := range index {
			out.B[i] = t.B[p]
		}
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		return []*Data{sumInto(g.F, index, t.Shape, t.DType)}
	})
}

// Reshape is reshape with the target dims resolved (burncheck.Reshape
// resolves Burn's 0 and -1); squeeze, unsqueeze, unsqueeze_dim and flatten
// are reshapes too. The values are shared, not copied.
func Reshape(t *Tensor, shape []int) (*Tensor, error) {
	if numel(shape) != t.NumElements() {
		return nil, shapeError("reshape of %v into %v", t.Shape, shape)
	}
	out := t.Data
	out.Shape = append([]int(nil), shape...)
	from := t.Shape
	return track(&out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		back := *g
		back.Shape = from
		return []*Data{&back}
	}), nil
}

// Permute is permute(axes): output dim k is input dim axes[k].
func Permute(t *Tensor, axes []int) (*Tensor, error) {
	rank := len(t.Shape)
	if len(axes) != rank {
		return nil, shapeError("permute of rank %d by %v", rank, axes)
	}
	seen := make([]bool, rank)
	strides := contiguousStrides(t.Shape)
	shape := make([]int, rank)
	outStrides := make([]int, rank)
	for k, d := range axes {
		if d < 0 || d >= rank || seen[d] {
			return nil, shapeError("permute of rank %d by %v", rank, axes)
		}
		seen[d] = true
		shape[k] = t.Shape[d]
		outStrides[k] = strides[d]
	}
	return remap(t, shape, stridedIndex(shape, outStrides, 0)), nil
}

// SwapDims is swap_dims(dim1, dim2).
func SwapDims(t *Tensor, dim1, dim2 int) (*Tensor, error) {
	rank := len(t.Shape)
	if dim1 < 0 || dim1 >= rank || dim2 < 0 || dim2 >= rank {
		return nil, shapeError("swap_dims(%d, %d) of rank %d", dim1, dim2, rank)
	}
	axes := make([]int, rank)
	for i := range axes {
		axes[i] = i
	}
	axes[dim1], axes[dim2] = dim2, dim1
	return Permute(t, axes)
}

// Transpose is transpose() and t(): the last two dims swapped. A rank-1
// tensor is its own transpose.
func Transpose(t *Tensor) (*Tensor, error) {
	rank := len(t.Shape)
	if rank < 2 {
		return t, nil
	}
	return SwapDims(t, rank-2, rank-1)
}

// Flip is flip(axes): the listed dims reversed.
func Flip(t *Tensor, axes []int) (*Tensor, error) {
	strides := contiguousStrides(t.Shape)
	offset := 0
	for _, d := range axes {
		if d < 0 || d >= len(t.Shape) {
			return nil, shapeError("flip of dim %d of rank %d", d, len(t.Shape))
		}
		if t.Shape[d] > 0 {
			offset += (t.Shape[d] - 1) * strides[d]
		}
		strides[d] = -strides[d]
	}
	return remap(t, t.Shape, stridedIndex(t.Shape, strides, offset)), nil
}

// Range is one dim of a slice after Burn clamped it (burncheck's
// TensorSlice): 0 <= Start, End <= size, Step non-zero. A negative step
// walks the same elements from End-1 down, as s![2..8;-2] selects 7, 5, 3.
type Range struct{ Start, End, Step int }

// FullRange is `..` over a dim of size n.
func FullRange(n int) Range { return Range{Start: 0, End: n, Step: 1} }

func (r Range) length() int {
	if r.Start >= r.End {
		return 0
	}
	step := max(r.Step, -r.Step)
	return (r.End - r.Start + step - 1) / step
}

// Slice is slice(ranges), one range per dim.
func Slice(t *Tensor, ranges []Range) (*Tensor, error) {
	shape, index, err := sliceIndex(t, ranges)
	if err != nil {
		return nil, err
	}
	return remap(t, shape, index), nil
}

// Narrow is narrow(dim, start, length).
func Narrow(t *Tensor, dim, start, length int) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	ranges := make([]Range, len(t.Shape))
	for d, n := range t.Shape {
		ranges[d] = FullRange(n)
	}
	ranges[dim] = Range{Start: start, End: start + length, Step: 1}
	return Slice(t, ranges)
}

// Expand is expand(shape) with the target resolved: dims of size 1 (and
// new leading dims) repeat.
func Expand(t *Tensor, shape []int) (*Tensor, error) {
	lead := len(shape) - len(t.Shape)
	if lead < 0 {
		return nil, shapeError("expand of %v to %v", t.Shape, shape)
	}
	for d, n := range t.Shape {
		if n != 1 && n != shape[lead+d] {
			return nil, shapeError("expand of %v to %v", t.Shape, shape)
		}
	}
	index := broadcastIndex(t.Shape, shape)
	if index == nil {
		return t, nil
	}
	return remap(t, shape, index), nil
}

// RepeatDim is repeat_dim(dim, times): the whole dim tiled times times.
func RepeatDim(t *Tensor, dim, times int) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	a := splitAt(t.Shape, dim)
	shape := append([]int(nil), t.Shape...)
	shape[dim] *= times
	b := axis{outer: a.outer, size: shape[dim], inner: a.inner}
	index := make([]int, numel(shape))
	for o := range b.outer {
		for k := range b.size {
			for i := range b.inner {
				index[b.pos(o, k, i)] = a.pos(o, k%a.size, i)
			}
		}
	}
	return remap(t, shape, index), nil
}

// choose builds each output element from one of several inputs (or the
// fill value, where from is -1): out[i] = inputs[from[i]][index[i]]. The
// gradient of each input collects the output gradient of the elements it
// supplied.
func choose(inputs []*Tensor, shape []int, from []int32, index []int, fill Scalar) *Tensor {
	dtype := inputs[0].DType
	out := newData(dtype, shape)
	switch {
	case dtype.IsFloat():
		v := fill.asFloat(dtype)
		for i, k := range from {
			out.F[i] = pick(k < 0, v, inputs[max(k, 0)].F[index[i]])
		}
	case dtype.IsInt():
		v := fill.asInt(dtype)
		for i, k := range from {
			out.I[i] = pick(k < 0, v, inputs[max(k, 0)].I[index[i]])
		}
	default:
		v := fill.F != 0 || fill.I != 0
		for i, k := range from {
			out.B[i] = pick(k < 0, v, inputs[max(k, 0)].B[index[i]])
		}
	}
	return track(out, inputs, func(g *Data, need []bool) []*Data {
		grads := make([]*Data, len(inputs))
		for k, in := range inputs {
			if !need[k] {
				continue
			}
			gin := make([]float64, in.NumElements())
			for i, src := range from {
				if int(src) == k {
					gin[index[i]] += g.F[i]
				}
			}
			grads[k] = sumInto(gin, nil, in.Shape, in.DType)
		}
		return grads
	})
}

// Cat is Tensor::cat(tensors, dim).
func Cat(tensors []*Tensor, dim int) (*Tensor, error) {
	if len(tensors) == 0 {
		return nil, shapeError("cat of no tensors")
	}
	first := tensors[0]
	if err := checkDim(first, dim); err != nil {
		return nil, err
	}
	shape := append([]int(nil), first.Shape...)
	shape[dim] = 0
	for _, t := range tensors {
		if t.DType != first.DType || len(t.Shape) != len(shape) {
			return nil, shapeError("cat of %v (%s) and %v (%s)", first.Shape, first.DType, t.Shape, t.DType)
		}
		for d := range shape {
			if d != dim && t.Shape[d] != first.Shape[d] {
				return nil, shapeError("cat of %v and %v along %d", first.Shape, t.Shape, dim)
			}
		}
		shape[dim] += t.Shape[dim]
	}
	out := splitAt(shape, dim)
	from := make([]int32, numel(shape))
	index := make([]int, len(from))
	base := 0
	for k, t := range tensors {
		a := splitAt(t.Shape, dim)
		for o := range a.outer {
			for j := range a.size {
				for i := range a.inner {
					p := out.pos(o, base+j, i)
					from[p] = int32(k)
					index[p] = a.pos(o, j, i)
				}
			}
		}
		base += a.size
	}
	return choose(tensors, shape, from, index, Scalar{}), nil
}

// Stack is Tensor::stack(tensors, dim): each tensor gains a dim of size 1
// at dim, then they are concatenated along it.
func Stack(tensors []*Tensor, dim int) (*Tensor, error) {
	expanded := make([]*Tensor, len(tensors))
	for k, t := range tensors {
		if dim < 0 || dim > len(t.Shape) {
			return nil, shapeError("stack along %d of rank %d", dim, len(t.Shape))
		}
		shape := append(append(append([]int(nil), t.Shape[:dim]...), 1), t.Shape[dim:]...)
		r, err := Reshape(t, shape)
		if err != nil {
			return nil, err
		}
		expanded[k] = r
	}
	return Cat(expanded, dim)
}

// indexAt reads an index tensor's element and checks it against size.
func indexAt(indices *Tensor, i, size int) (int, error) {
	v := indices.I[i]
	if v < 0 || v >= int64(size) {
		return 0, fmt.Errorf("%w: index %d for a dim of size %d", ErrIndex, v, size)
	}
	return int(v), nil
}

func checkIndices(indices *Tensor) error {
	if !indices.DType.IsInt() {
		return kindError("indices of kind %s", indices.DType.Kind())
	}
	return nil
}

// Select is select(dim, indices): the slices at the 1-D indices along dim.
func Select(t *Tensor, dim int, indices *Tensor) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if err := checkIndices(indices); err != nil {
		return nil, err
	}
	if len(indices.Shape) != 1 {
		return nil, shapeError("select by indices of shape %v", indices.Shape)
	}
	a := splitAt(t.Shape, dim)
	shape := append([]int(nil), t.Shape...)
	shape[dim] = indices.Shape[0]
	b := axis{outer: a.outer, size: shape[dim], inner: a.inner}
	index := make([]int, numel(shape))
	for k := range b.size {
		src, err := indexAt(indices, k, a.size)
		if err != nil {
			return nil, err
		}
		for o := range b.outer {
			for i := range b.inner {
				index[b.pos(o, k, i)] = a.pos(o, src, i)
			}
		}
	}
	return remap(t, shape, index), nil
}

// indexedPositions maps each element of an index tensor (same rank as t)
// to the position in t it names along dim: the element's own coordinates
// elsewhere, its value along dim.
func indexedPositions(t *Tensor, dim int, indices *Tensor) ([]int, error) {
	if len(indices.Shape) != len(t.Shape) {
		return nil, shapeError("indices of shape %v for a tensor of shape %v", indices.Shape, t.Shape)
	}
	for d, n := range indices.Shape {
		if d != dim && n > t.Shape[d] {
			return nil, shapeError("indices of shape %v for a tensor of shape %v", indices.Shape, t.Shape)
		}
	}
	strides := contiguousStrides(t.Shape)
	along := strides[dim]
	strides[dim] = 0
	base := stridedIndex(indices.Shape, strides, 0)
	for i := range base {
		v, err := indexAt(indices, i, t.Shape[dim])
		if err != nil {
			return nil, err
		}
		base[i] += v * along
	}
	return base, nil
}

// Gather is gather(dim, indices): out[.., i, ..] = t[.., indices[.., i, ..], ..]
// along dim, the output shaped like indices.
func Gather(t *Tensor, dim int, indices *Tensor) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if err := checkIndices(indices); err != nil {
		return nil, err
	}
	index, err := indexedPositions(t, dim, indices)
	if err != nil {
		return nil, err
	}
	return remap(t, indices.Shape, index), nil
}

// Scatter is scatter(dim, indices, values, update) for the update ops every
// backend supports: "add" (IndexingUpdateOp::Add, values added at the
// indexed positions, repeated positions accumulating) and "assign"
// (Assign, the last value written wins). The gradient of values is the
// output gradient gathered at the indexed positions; with assign, t's
// gradient is zero where it was overwritten.
func Scatter(t *Tensor, dim int, indices, values *Tensor, update string) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if err := checkIndices(indices); err != nil {
		return nil, err
	}
	if values.DType.Kind() != t.DType.Kind() || !sameShape(values.Shape, indices.Shape) {
		return nil, shapeError("scatter of values %v (%s) by indices %v", values.Shape, values.DType.Kind(), indices.Shape)
	}
	target, err := indexedPositions(t, dim, indices)
	if err != nil {
		return nil, err
	}
	switch update {
	case "assign":
		n := t.NumElements()
		from := make([]int32, n)
		index := make([]int, n)
		for p := range index {
			index[p] = p
		}
		for i, p := range target {
			from[p], index[p] = 1, i
		}
		return choose([]*Tensor{t, values}, t.Shape, from, index, Scalar{}), nil
	case "add":
		if t.DType.IsBool() {
			// A bool tensor's Add is an or: bool_scatter_or and
			// bool_select_or (crates/burn-tensor/src/bridge/ops/bool.rs:101-155).
			out := newData(t.DType, t.Shape)
			copy(out.B, t.B)
			for i, p := range target {
				out.B[p] = out.B[p] || values.B[i]
			}
			return &Tensor{Data: *out}, nil
		}
		return scatterAdd(t, values, target), nil
	}
	return nil, fmt.Errorf("%w: scatter update %s", ErrUnknownOp, update)
}

func scatterAdd(t, values *Tensor, target []int) *Tensor {
	out := newData(t.DType, t.Shape)
	if t.DType.IsInt() {
		copy(out.I, t.I)
		for i, p := range target {
			out.I[p] = t.DType.wrapInt(out.I[p] + values.I[i])
		}
		return &Tensor{Data: *out}
	}
	acc := append([]float64(nil), t.F...)
	for i, p := range target {
		acc[p] += values.F[i]
	}
	for i, v := range acc {
		out.F[i] = t.DType.roundFloat(v)
	}
	return track(out, []*Tensor{t, values}, func(g *Data, need []bool) []*Data {
		grads := make([]*Data, 2)
		if need[0] {
			grads[0] = g
		}
		if need[1] {
			gv := make([]float64, len(target))
			for i, p := range target {
				gv[i] = g.F[p]
			}
			grads[1] = sumInto(gv, nil, values.Shape, values.DType)
		}
		return grads
	})
}

// MaskWhere is mask_where(mask, value): value where the mask is true, t
// elsewhere, mask and value broadcast to t's shape.
func MaskWhere(t, mask, value *Tensor) (*Tensor, error) {
	if !mask.DType.IsBool() || value.DType.Kind() != t.DType.Kind() {
		return nil, kindError("mask_where with a %s mask and a %s value", mask.DType.Kind(), value.DType.Kind())
	}
	shape, err := broadcastShape(t.Shape, mask.Shape, value.Shape)
	if err != nil {
		return nil, err
	}
	it, im, iv := broadcastIndex(t.Shape, shape), broadcastIndex(mask.Shape, shape), broadcastIndex(value.Shape, shape)
	n := numel(shape)
	from := make([]int32, n)
	index := make([]int, n)
	for i := range from {
		if mask.B[at(im, i)] {
			from[i], index[i] = 1, at(iv, i)
		} else {
			index[i] = at(it, i)
		}
	}
	return choose([]*Tensor{t, value}, shape, from, index, Scalar{}), nil
}

// MaskFill is mask_fill(mask, value): the scalar where the mask is true.
func MaskFill(t, mask *Tensor, value Scalar) (*Tensor, error) {
	if !mask.DType.IsBool() {
		return nil, kindError("mask_fill with a %s mask", mask.DType.Kind())
	}
	shape, err := broadcastShape(t.Shape, mask.Shape)
	if err != nil {
		return nil, err
	}
	it, im := broadcastIndex(t.Shape, shape), broadcastIndex(mask.Shape, shape)
	n := numel(shape)
	from := make([]int32, n)
	index := make([]int, n)
	for i := range from {
		if mask.B[at(im, i)] {
			from[i] = -1
		} else {
			index[i] = at(it, i)
		}
	}
	return choose([]*Tensor{t}, shape, from, index, value), nil
}

// OneHot is one_hot(num_classes) on a rank-D tensor: a rank-(D+1) tensor
// of dtype with a trailing dim of num_classes, 1 at each value's class, 0
// elsewhere. A negative value counts from the end, as one_hot_fill's
// adjustment does; the result is a fresh tensor outside any graph, since
// Burn builds it from full() and scatter.
func OneHot(t *Tensor, numClasses int, dtype DType) (*Tensor, error) {
	if t.DType.IsBool() {
		return nil, kindError("one_hot of a Bool tensor")
	}
	shape := append(append([]int(nil), t.Shape...), numClasses)
	out := Zeros(shape, dtype)
	for i := range t.NumElements() {
		class := t.Int(i)
		if class < 0 {
			class += int64(numClasses)
		}
		if class < 0 || class >= int64(numClasses) {
			return nil, fmt.Errorf("%w: class %d of %d", ErrIndex, t.Int(i), numClasses)
		}
		p := i*numClasses + int(class)
		switch {
		case dtype.IsFloat():
			out.F[p] = 1
		case dtype.IsInt():
			out.I[p] = 1
		default:
			out.B[p] = true
		}
	}
	return out, nil
}

// sliceIndex is the index map of a slice: for each element of the slice,
// its position in t.
func sliceIndex(t *Tensor, ranges []Range) ([]int, []int, error) {
	if len(ranges) != len(t.Shape) {
		return nil, nil, shapeError("%d ranges for rank %d", len(ranges), len(t.Shape))
	}
	strides := contiguousStrides(t.Shape)
	shape := make([]int, len(ranges))
	outStrides := make([]int, len(ranges))
	offset := 0
	for d, r := range ranges {
		if r.Step == 0 || r.Start < 0 || r.End > t.Shape[d] {
			return nil, nil, shapeError("range %d..%d;%d of a dim of size %d", r.Start, r.End, r.Step, t.Shape[d])
		}
		shape[d] = r.length()
		outStrides[d] = r.Step * strides[d]
		if shape[d] == 0 {
			continue
		}
		first := r.Start
		if r.Step < 0 {
			first = r.End - 1
		}
		offset += first * strides[d]
	}
	return shape, stridedIndex(shape, outStrides, offset), nil
}

// SliceAssign is slice_assign(ranges, values): t with the sliced region
// replaced by values, which has the slice's shape. The region's gradient
// goes to values, the rest to t.
func SliceAssign(t *Tensor, ranges []Range, values *Tensor) (*Tensor, error) {
	shape, region, err := sliceIndex(t, ranges)
	if err != nil {
		return nil, err
	}
	if !sameShape(shape, values.Shape) || values.DType.Kind() != t.DType.Kind() {
		return nil, shapeError("slice_assign of %v (%s) into a slice of shape %v", values.Shape, values.DType.Kind(), shape)
	}
	n := t.NumElements()
	from := make([]int32, n)
	index := make([]int, n)
	for p := range index {
		index[p] = p
	}
	for i, p := range region {
		from[p], index[p] = 1, i
	}
	return choose([]*Tensor{t, values}, t.Shape, from, index, Scalar{}), nil
}

// SliceFill is slice_fill(ranges, value): the sliced region set to the
// scalar.
func SliceFill(t *Tensor, ranges []Range, value Scalar) (*Tensor, error) {
	_, region, err := sliceIndex(t, ranges)
	if err != nil {
		return nil, err
	}
	n := t.NumElements()
	from := make([]int32, n)
	index := make([]int, n)
	for p := range index {
		index[p] = p
	}
	for _, p := range region {
		from[p] = -1
	}
	return choose([]*Tensor{t}, t.Shape, from, index, value), nil
}

// SelectAssign is select_assign(dim, indices, values, update): the slices
// of values written at the 1-D indices along dim, added ("add") or
// replacing what is there ("assign"). values has t's shape with dim
// resized to the number of indices.
func SelectAssign(t *Tensor, dim int, indices, values *Tensor, update string) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if err := checkIndices(indices); err != nil {
		return nil, err
	}
	if len(indices.Shape) != 1 {
		return nil, shapeError("select_assign by indices of shape %v", indices.Shape)
	}
	want := append([]int(nil), t.Shape...)
	want[dim] = indices.Shape[0]
	if !sameShape(values.Shape, want) || values.DType.Kind() != t.DType.Kind() {
		return nil, shapeError("select_assign of values %v, want %v", values.Shape, want)
	}
	// As a scatter: each element of values goes to its row's index.
	a := splitAt(values.Shape, dim)
	expanded := make([]int64, values.NumElements())
	for o := range a.outer {
		for k := range a.size {
			for i := range a.inner {
				expanded[a.pos(o, k, i)] = indices.I[k]
			}
		}
	}
	idx := &Tensor{Data: Data{DType: I64, Shape: values.Shape, I: expanded}}
	return Scatter(t, dim, idx, values, update)
}

// Sort is sort(dim) and sort_descending(dim): each lane ordered, equal
// values keeping their order. The gradient follows each value to where it
// came from.
func Sort(t *Tensor, dim int, descending bool) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if t.DType.IsBool() {
		return nil, kindError("sort of a Bool tensor")
	}
	a := splitAt(t.Shape, dim)
	index := make([]int, t.NumElements())
	lane := make([]int, a.size)
	for o := range a.outer {
		for i := range a.inner {
			for k := range lane {
				lane[k] = a.pos(o, k, i)
			}
			slices.SortStableFunc(lane, func(p, q int) int {
				c := orderOf(t, p, q)
				return pick(descending, -c, c)
			})
			for k, p := range lane {
				index[a.pos(o, k, i)] = p
			}
		}
	}
	return remap(t, t.Shape, index), nil
}

// orderOf compares two elements for sorting; NaN sorts above everything.
func orderOf(t *Tensor, p, q int) int {
	if t.DType.IsInt() {
		return compareInt(t.DType, t.I[p], t.I[q])
	}
	x, y := t.F[p], t.F[q]
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return 0
	case math.IsNaN(x):
		return 1
	case math.IsNaN(y):
		return -1
	}
	return compareFloat(x, y)
}

// TopK is topk(k, dim): the k largest values of each lane, largest first,
// as burn-backend's default sorts descending and keeps the first k.
func TopK(t *Tensor, k, dim int) (*Tensor, error) {
	sorted, err := Sort(t, dim, true)
	if err != nil {
		return nil, err
	}
	if k < 0 || k > t.Shape[dim] {
		return nil, shapeError("topk %d of a dim of size %d", k, t.Shape[dim])
	}
	return Narrow(sorted, dim, 0, k)
}

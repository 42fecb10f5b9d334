package dispatch

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// Tensor methods whose arguments or outputs do not fit one row of
// ops.tsv: n-dimensional indexing, assignments with an update op, moves
// of dims, and the methods that return a Vec of tensors.

const (
	locBridgeBool = "crates/burn-tensor/src/bridge/ops/bool.rs"
	locBridgeInt  = "crates/burn-tensor/src/bridge/ops/int.rs"
)

// moreTensorMethods are the methods handled here.
var moreTensorMethods = map[string]bool{
	"cross": true, "gather_nd": true, "scatter_nd": true, "select_assign": true, "movedim": true,
	"unsqueeze_dims": true, "squeeze_dims": true, "unfold": true, "take": true, "split": true,
	"split_with_sizes": true, "chunk": true, "tril": true, "triu": true, "slice_assign": true,
	"mask_select": true, "into_scalar_async": true, "quantize_dynamic": true, "dequantize": true,
}

func (w *World) moreTensorMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	t, c, p := w.qMorePrelude(t, c)
	if p != nil {
		return nil, nil, p
	}
	a := argList{c: c, method: true}
	want := map[string]int{"cross": 2, "gather_nd": 1, "scatter_nd": 3, "select_assign": 4, "movedim": 2,
		"unsqueeze_dims": 1, "squeeze_dims": 1, "unfold": 3, "take": 2, "split": 2, "split_with_sizes": 2,
		"chunk": 2, "tril": 1, "triu": 1, "slice_assign": 2, "mask_select": 1, "into_scalar_async": 0,
		"quantize_dynamic": 1, "dequantize": 0}[c.Method]
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	name := "Tensor::" + c.Method
	rank := t.Rank()
	rank2 := genericRankAt(c.Generics, 0)
	if rank2 < 0 {
		if tt := parseTensorType(nil, c.Expect); tt.rank >= 0 {
			rank2 = tt.rank
		}
	}
	op := t.kind.opPrefix() + "_" + c.Method
	switch c.Method {
	case "cross":
		if t.kind != KindFloat {
			return nil, errTraitBounds(c.Method, t), nil
		}
		o, ue := sameTensorArg(a, 0, t)
		if ue != nil {
			return nil, ue, nil
		}
		dim, ue := a.int(1)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorCross(operand(t), operand(o), dim)); p != nil {
			withMoveFixes(p, 1)
			return nil, nil, p
		}
		pl, p := w.routeBinaryFloat(t, o)
		v, ue, p := w.finish("float_cross", t, pl, p, KindFloat, broadcastShape(t.shape, o.shape), t.dtype)
		return w.computed(v, ue, p, []*Tensor{t, o}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.Cross(t.vals(), o.vals(), normDim(dim, rank))
		})
	case "gather_nd":
		idx, ue := intTensorArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		var shape []int64
		if m := idx.Rank(); m > 0 {
			k := min(int(max(idx.shape[m-1], 0)), rank)
			shape = append(append([]int64{}, idx.shape[:m-1]...), t.shape[k:]...)
		}
		outRank := genericRankAt(c.Generics, 1)
		if outRank < 0 {
			outRank = len(shape)
		}
		if p := checkFailed(burncheck.TensorGatherNd(t.shape, idx.shape, outRank)); p != nil {
			return nil, nil, p
		}
		if t.kind == KindBool {
			return nil, nil, newPanic("bt-bridge-bool-gather-nd", at(locBridgeBool, 167), "gather_nd is not supported for bool tensors").on(0)
		}
		pl, p := w.routeIndexed(t, idx)
		v, ue, p := w.finish(op, t, pl, p, t.kind, shape, t.dtype)
		return w.computed(v, ue, p, []*Tensor{t, idx}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.GatherNd(t.vals(), idx.vals())
		})
	case "scatter_nd":
		idx, ue := intTensorArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		values, ok := a.get(1).(*Tensor)
		if !ok || values.kind != t.kind {
			return nil, errArgType(2, strings.Replace(t.TypeName(), fmt.Sprint(rank), "DV", 1), c.Args[1]), nil
		}
		update, ue := updateArg(a, 2)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorScatterNd(t.shape, idx.shape, values.shape)); p != nil {
			return nil, nil, p
		}
		if t.kind == KindBool {
			return nil, nil, newPanic("bt-bridge-bool-scatter-nd", at(locBridgeBool, 163), "scatter_nd is not supported for bool tensors").on(0)
		}
		pl, p := routeMulti([]namedInput{{name: "data", t: t}, {name: "indices", t: idx, arg: 1}, {name: "values", t: values, arg: 2}})
		v, ue, p := w.finish(op, t, pl, p, t.kind, t.shape, t.dtype)
		return w.computed(v, ue, p, []*Tensor{t, idx, values}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.ScatterNd(t.vals(), idx.vals(), values.vals(), strings.ToLower(update))
		})
	case "select_assign":
		dim, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		idx, ue := intTensorArg(a, 1)
		if ue != nil || idx.Rank() != 1 {
			return nil, errArgType(2, "Tensor<1, Int>", c.Args[1]), nil
		}
		values, ue := sameTensorArg(a, 2, t)
		if ue != nil {
			return nil, ue, nil
		}
		update, ue := updateArg(a, 3)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorSelectAssign(t.shape, dim, idx.shape, values.shape)); p != nil {
			return nil, nil, p
		}
		if t.kind == KindBool {
			if update != "Add" {
				return nil, nil, newPanic("bt-bridge-bool-select-assign", at(locBridgeBool, 115), unimplementedMsg("")).on(4)
			}
			op = "bool_select_or"
		}
		pl, p := routeMulti([]namedInput{{name: "tensor", t: t}, {name: "indices", t: idx, arg: 2}, {name: "value", t: values, arg: 3}})
		if p == nil && pl.autodiff && update != "Add" && update != "Assign" {
			p = newPanic("ad-select-assign-update", at(locAutodiffOps, 1714),
				unimplementedMsg(fmt.Sprintf("float_select_assign with %s update is not implemented", update))).on(4)
		}
		v, ue, p := w.finish(op, t, pl, p, t.kind, t.shape, t.dtype)
		return w.computed(v, ue, p, []*Tensor{t, idx, values}, func(*Tensor) (*tensor.Tensor, error) {
			how, ok := valueUpdate(update)
			if !ok {
				return nil, tensor.ErrUnknownOp
			}
			return tensor.SelectAssign(t.vals(), normDim(dim, rank), idx.vals(), values.vals(), how)
		})
	case "movedim":
		src, ue := movedimArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		dst, ue := movedimArg(a, 1)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorMovedim(rank, src, dst)); p != nil {
			return nil, nil, p
		}
		v, ue, p := w.unaryResult(t, t.kind.opPrefix()+"_permute", movedShape(t.shape, src.Dims, dst.Dims))
		return w.computed(v, ue, p, []*Tensor{t}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.Permute(t.vals(), movedAxes(rank, src.Dims, dst.Dims))
		})
	case "unsqueeze_dims":
		axes, ue := intsArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		if rank2 < 0 {
			rank2 = rank + len(axes)
		}
		if p := checkFailed(burncheck.TensorUnsqueezeDims(t.shape, rank2, axes)); p != nil {
			return nil, nil, p
		}
		v, ue, p := w.unaryResult(t, t.kind.opPrefix()+"_reshape", unsqueezedShape(t.shape, rank2, axes))
		return w.computed(v, ue, p, []*Tensor{t}, func(out *Tensor) (*tensor.Tensor, error) {
			return tensor.Reshape(t.vals(), intDims(out.shape))
		})
	case "squeeze_dims":
		dims, ue := intsArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		shape := squeezedShape(t.shape, dims)
		if rank2 < 0 {
			rank2 = len(shape)
		}
		if p := checkFailed(burncheck.TensorSqueezeDims(t.shape, rank2, dims)); p != nil {
			return nil, nil, p
		}
		v, ue, p := w.unaryResult(t, t.kind.opPrefix()+"_reshape", shape)
		return w.computed(v, ue, p, []*Tensor{t}, func(out *Tensor) (*tensor.Tensor, error) {
			return tensor.Reshape(t.vals(), intDims(out.shape))
		})
	case "unfold":
		dim, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		size, ue := a.int(1)
		if ue != nil {
			return nil, ue, nil
		}
		step, ue := a.int(2)
		if ue != nil {
			return nil, ue, nil
		}
		if rank2 < 0 {
			rank2 = rank + 1
		}
		if p := checkFailed(burncheck.TensorUnfold(rank, rank2, dim)); p != nil {
			return nil, nil, p
		}
		d := normDim(dim, rank)
		shape := append(t.Shape(), size)
		shape[d] = 0
		if step > 0 && t.shape[d] >= size {
			shape[d] = (t.shape[d]-size)/step + 1
		}
		v, ue, p := w.unaryResult(t, op, shape)
		return w.computed(v, ue, p, []*Tensor{t}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.Unfold(t.vals(), d, int(size), int(step))
		})
	case "take":
		dim, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		idx, ue := intTensorArg(a, 1)
		if ue != nil {
			return nil, ue, nil
		}
		d := normDim(dim, rank)
		outRank := genericRankAt(c.Generics, 1)
		if outRank < 0 {
			outRank = rank - 1 + idx.Rank()
		}
		if p := checkFailed(burncheck.TensorTake(rank, idx.Rank(), outRank, dim)); p != nil {
			return nil, nil, p
		}
		shape := append(append(append([]int64{}, t.shape[:d]...), idx.shape...), t.shape[d+1:]...)
		pl, p := w.routeIndexed(t, idx)
		v, ue, p := w.finish(t.kind.opPrefix()+"_select", t, pl, p, t.kind, shape, t.dtype)
		// take is select with the indices flattened, reshaped after.
		return w.computed(v, ue, p, []*Tensor{t, idx}, func(out *Tensor) (*tensor.Tensor, error) {
			flat, err := tensor.Reshape(idx.vals(), []int{idx.vals().NumElements()})
			if err != nil {
				return nil, err
			}
			selected, err := tensor.Select(t.vals(), d, flat)
			if err != nil {
				return nil, err
			}
			return tensor.Reshape(selected, intDims(out.shape))
		})
	case "split", "split_with_sizes", "chunk":
		return w.split(t, c.Method, a)
	case "slice_assign":
		slices, ue := parseSlices(a.get(0))
		if ue != nil {
			ue.Arg = 1
			return nil, ue, nil
		}
		values, ue := sameTensorArg(a, 1, t)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorSliceAssign(t.shape, values.shape, slices)); p != nil {
			return nil, nil, p
		}
		var pl placement
		var p *Panic
		if t.kind == KindFloat {
			pl, p = w.routeBinaryFloat(t, values)
		} else {
			pl, p = w.routeBinaryOp(t, values)
		}
		v, ue, p := w.finish(op, t, pl, p, t.kind, t.shape, t.dtype)
		return w.computed(v, ue, p, []*Tensor{t, values}, func(*Tensor) (*tensor.Tensor, error) {
			ranges, ok := valueRanges(t.shape, slices)
			if !ok {
				return nil, tensor.ErrShape
			}
			return tensor.SliceAssign(t.vals(), ranges, values.vals())
		})
	case "mask_select":
		mask, ok := a.get(0).(*Tensor)
		if !ok || mask.kind != KindBool || mask.Rank() != rank {
			return nil, errArgType(1, fmt.Sprintf("Tensor<%d, Bool>", rank), c.Args[0]), nil
		}
		if p := checkFailed(burncheck.TensorMaskSelect(t.shape, mask.shape)); p != nil {
			return nil, nil, p
		}
		pl, p := w.routeIndexed(t, mask)
		n, _ := numElements(t.shape)
		known := mask.hasVals() && mask.vals().NumElements() == int(n)
		if known {
			// The mask's values are known, so is the result's length.
			n = int64(tensor.CountTrue(mask.vals()))
		}
		out, ue, p := w.finish(op, t, pl, p, t.kind, []int64{n}, t.dtype)
		if p == nil && ue == nil && w.wasm() && asyncRead(t.on) {
			// The selected length is read back before the result exists
			// (base.rs:1785-1788).
			return nil, nil, panicMaskSelectSync().label("in a wasm32 build the read on %s cannot block: try_read_sync polls it once and finds it pending", t.on.Inner().Debug())
		}
		if out != nil && !known {
			w.trace[len(w.trace)-1].Note = "the length is the number of true values in the mask; the shape shows its upper bound"
		}
		return w.computed(out, ue, p, []*Tensor{t, mask}, func(*Tensor) (*tensor.Tensor, error) {
			return tensor.MaskSelect(t.vals(), mask.vals())
		})
	case "quantize_dynamic":
		return w.quantizeDynamic(t, a)
	case "dequantize":
		return w.dequantizeMethod(t, a)
	case "into_scalar_async":
		if p := checkFailed(burncheck.TensorIntoScalarAsync(t.shape)); p != nil {
			return nil, nil, p
		}
		if t.on.backend == Capture && captureReadError(t) != "" {
			// into_data_async's error reaches the caller as Err.
			reason := strings.TrimPrefix(captureReadError(t), "An error happened during execution\nCaused by:\n  ")
			err := &Enum{Type: "ExecutionError", Variant: "WithContext", Named: map[string]Value{"reason": Str(reason)}}
			return &Enum{Type: "Result", Variant: "Err", Fields: []Value{err}}, nil, nil
		}
		if p := w.readData(t, readFailures["into_data"]); p != nil {
			return nil, nil, p
		}
		if t.kind == KindQFloat {
			// _unpack_scalar's conversion of quantized data fails, and
			// into_scalar_async panics with its Display (base.rs:2976-2981).
			return nil, nil, newPanic("bt-into-scalar-convert", at(locTensorBase, 2980),
				fmt.Sprintf("Failed to convert tensor data to a scalar: Unsupported data conversion from %s to %s", t.dtype, elementDType(t, c))).on(0)
		}
		return Unknown{}, nil, nil
	case "tril", "triu":
		if t.kind == KindBool {
			return nil, errTraitBounds(c.Method, t), nil
		}
		diagonal, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		if p := checkFailed(burncheck.TensorTri(name, rank)); p != nil {
			return nil, nil, p
		}
		// The mask is built on the tensor's device, then mask_fill keeps
		// one triangle.
		out, ue, p := w.unaryResult(t, t.kind.opPrefix()+"_mask_fill", t.shape)
		if out != nil {
			w.trace[len(w.trace)-1].Note = c.Method + ": a triangular bool mask made on the same device"
		}
		return w.computed(out, ue, p, []*Tensor{t}, func(*Tensor) (*tensor.Tensor, error) {
			mask, err := triangleMask(intDims(t.shape), diagonal, c.Method == "tril")
			if err != nil {
				return nil, err
			}
			return tensor.MaskFill(t.vals(), mask, tensor.IntScalar(0))
		})
	}
	return nil, errUnknownMethod(tensorStruct, c.Method), nil
}

// routeIndexed routes an op of a tensor and an int tensor of indices.
func (w *World) routeIndexed(t, idx *Tensor) (placement, *Panic) {
	if t.kind == KindFloat {
		return w.routeFloatAny(t, idx)
	}
	return w.routeBinaryOp(t, idx)
}

// finish records a routed op's output, or its panic.
func (w *World) finish(op string, t *Tensor, pl placement, p *Panic, kind Kind, shape []int64, dtype DType) (Value, *UsageError, *Panic) {
	if p != nil {
		return nil, nil, w.failOp(op, t, p)
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	out := w.output(pl, kind, shape, dtype)
	w.recordOp(op, pl, out)
	return out, nil, nil
}

func (w *World) unaryResult(t *Tensor, op string, shape []int64) (Value, *UsageError, *Panic) {
	out, p := w.unaryOp(t, op, t.kind, shape, t.dtype)
	if p != nil {
		return nil, nil, p
	}
	return out, nil, nil
}

// split is split(size, dim), split_with_sizes(sizes, dim) and
// chunk(chunks, dim): each part is a slice of the tensor along dim.
func (w *World) split(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	dim, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	var sizes []int64
	var f *burncheck.Failure
	switch method {
	case "split":
		size, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		if f = burncheck.TensorSplit(t.shape, size, dim); f == nil {
			sizes = partSizes(t.shape[normDim(dim, t.Rank())], size)
		}
	case "split_with_sizes":
		if sizes, ue = intsArg(a, 0); ue != nil {
			return nil, ue, nil
		}
		f = burncheck.TensorSplitWithSizes(t.shape, sizes, dim)
	case "chunk":
		chunks, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		var d int
		if d, f = burncheck.TensorDim("Tensor::chunk", dim, t.Rank()); f == nil && chunks > 0 {
			n := t.shape[d]
			sizes = partSizes(n, (n+chunks-1)/max(chunks, 1))
		}
	}
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	d := normDim(dim, t.Rank())
	parts := make([]Value, 0, len(sizes))
	start := 0
	for _, s := range sizes {
		if s == 0 && method == "split_with_sizes" {
			// A zero length yields no part (base.rs:2780-2784).
			continue
		}
		shape := t.Shape()
		shape[d] = s
		out, p := w.unaryOp(t, t.kind.opPrefix()+"_slice", t.kind, shape, t.dtype)
		if p != nil {
			return nil, nil, p
		}
		from := start
		w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) { return tensor.Narrow(t.vals(), d, from, int(s)) })
		start += int(s)
		parts = append(parts, out)
	}
	return &Array{Elems: parts, Vec: true}, nil, nil
}

// partSizes cuts n into parts of size (the last one shorter).
func partSizes(n, size int64) []int64 {
	if size <= 0 {
		return nil
	}
	var out []int64
	for left := n; left > 0; left -= size {
		out = append(out, min(size, left))
	}
	return out
}

func movedShape(shape, src, dst []int64) []int64 {
	rank := len(shape)
	out := make([]int64, rank)
	used := make([]bool, rank)
	placed := make([]bool, rank)
	for i := range src {
		s, d := normDim(src[i], rank), normDim(dst[i], rank)
		out[d], used[s], placed[d] = shape[s], true, true
	}
	next := 0
	for i := range out {
		if placed[i] {
			continue
		}
		for used[next] {
			next++
		}
		out[i] = shape[next]
		used[next] = true
	}
	return out
}

// unsqueezedShape lays out unsqueeze_dims the way Burn does: negative
// axes count from the end of the output, duplicates move right.
func unsqueezedShape(shape []int64, rank2 int, axes []int64) []int64 {
	neg := int64(rank2)
	idx := make([]int64, len(axes))
	for i, ax := range axes {
		if ax < 0 {
			neg--
			ax += neg + 1
		}
		idx[i] = ax
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	for i := 1; i < len(idx); i++ {
		if idx[i] <= idx[i-1] {
			idx[i] = idx[i-1] + 1
		}
	}
	out := make([]int64, rank2)
	next, old := 0, 0
	for i := range out {
		if next < len(idx) && int64(i) == idx[next] {
			out[i] = 1
			next++
			continue
		}
		if old < len(shape) {
			out[i] = shape[old]
			old++
		} else {
			out[i] = 1
		}
	}
	return out
}

// squeezedShape drops the given dims, or every size-1 dim when none is
// given.
func squeezedShape(shape, dims []int64) []int64 {
	drop := map[int]bool{}
	for _, d := range dims {
		drop[normDim(d, len(shape))] = true
	}
	var out []int64
	for i, s := range shape {
		if (len(dims) == 0 && s == 1) || drop[i] {
			continue
		}
		out = append(out, s)
	}
	return out
}

func errTraitBounds(method string, t *Tensor) *UsageError {
	return &UsageError{Code: "unknown-method", Arg: -1,
		Message: fmt.Sprintf("the method `%s` exists for struct `%s`, but its trait bounds were not satisfied", method, t.TypeName())}
}

func sameTensorArg(a argList, i int, t *Tensor) (*Tensor, *UsageError) {
	o, ok := a.get(i).(*Tensor)
	if !ok || o.TypeName() != t.TypeName() {
		return nil, errArgType(i+1, t.TypeName(), a.c.Args[i])
	}
	return o, nil
}

func intTensorArg(a argList, i int) (*Tensor, *UsageError) {
	o, ok := a.get(i).(*Tensor)
	if !ok || o.kind != KindInt {
		return nil, errArgType(i+1, "Tensor<M, Int>", a.c.Args[i])
	}
	return o, nil
}

func updateArg(a argList, i int) (string, *UsageError) {
	e, ok := a.get(i).(*Enum)
	if !ok || e.Type != "IndexingUpdateOp" || !indexingUpdateOps[e.Variant] {
		return "", errArgType(i+1, "IndexingUpdateOp", a.c.Args[i])
	}
	return e.Variant, nil
}

// intsArg reads `&[impl AsIndex]` or a Vec of integers.
func intsArg(a argList, i int) ([]int64, *UsageError) {
	arr, ok := a.get(i).(*Array)
	if !ok {
		return nil, errArgType(i+1, "&[isize]", a.c.Args[i])
	}
	out := make([]int64, len(arr.Elems))
	for j, e := range arr.Elems {
		n, ok := Deref(e).(Int)
		if !ok {
			return nil, errArgType(i+1, "&[isize]", a.c.Args[i])
		}
		out[j] = n.V
	}
	return out, nil
}

// movedimArg reads MovedimArgs: an integer or a Vec of them.
func movedimArg(a argList, i int) (burncheck.MovedimArg, *UsageError) {
	if n, ok := a.get(i).(Int); ok {
		return burncheck.MovedimArg{Dims: []int64{n.V}}, nil
	}
	dims, ue := intsArg(a, i)
	if ue != nil {
		return burncheck.MovedimArg{}, ue
	}
	return burncheck.MovedimArg{Dims: dims, Vec: true}, nil
}

// genericRankAt is the const generic at position i of a method turbofish,
// or -1.
func genericRankAt(generics [][]string, i int) int {
	if len(generics) == 0 || len(generics[0]) <= i {
		return -1
	}
	return genericRank([][]string{generics[0][i:]})
}

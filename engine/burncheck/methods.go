package burncheck

import "slices"

// The Tensor* (and Activation*, Module*, Linalg*, Signal*) validators run
// everything one public Burn function validates before it dispatches, in
// Burn's order, and stop at the first panic with the location Rust reports
// for it. Dims are as the user wrote them (negative dims count from the
// end); ranks are the tensors' const generics. The site table (Sites) says
// which check runs where.

const (
	apiBase       = "crates/burn-tensor/src/tensor/api/base.rs"
	signalFFTFile = "crates/burn-tensor/src/tensor/signal/fft.rs"
)

// place gives a check-level failure the location of its site.
func place(method, check, arg string, f *Failure) *Failure {
	if f == nil {
		return nil
	}
	s, _ := site(method, check, arg)
	return f.At(s)
}

// dimAt resolves a dim argument at a method's unwrap_dim_index site.
func dimAt(method, arg string, dim int64, rank int) (int, *Failure) {
	s, _ := site(method, "unwrap_dim_index", arg)
	d, f := DimIndex(s.Op, dim, rank)
	return d, f.At(s)
}

// TensorDim validates the dim argument of a method whose only check is
// resolving it: Tensor::sum_dim, mean_dim, prod_dim, cumsum, cumprod, var*,
// median*, cov, sort*, argsort*, argmax, argmin, argtopk, max_dim*,
// min_dim*, max_abs_dim, cummin, cummax, select, repeat_dim, iter_dim,
// chunk, any_dim, all_dim, roll_dim, roll (once per dim), slice_dim's dim,
// activation::softmax, softmin, quiet_softmax, log_softmax, glu,
// linalg::vector_norm and the other norms, outer_dim, cosine_similarity,
// signal::irfft and cfft. It returns the resolved dim.
func TensorDim(method string, dim int64, rank int) (int, *Failure) {
	for _, s := range SitesOf(method) {
		if s.Check == "unwrap_dim_index" {
			d, f := DimIndex(s.Op, dim, rank)
			return d, f.At(s)
		}
	}
	d, f := DimIndex("", dim, rank)
	return d, f
}

// TensorCreate validates a creation: Tensor::empty, zeros, ones, full,
// from_data (rank D, dims of the shape or data given), and the
// signal::*_window functions.
func TensorCreate(method string, rank int, dims []int64) *Failure {
	s, _ := site(method, "creation_ops", "-")
	return CreationOps(s.Op, rank, dims).At(s)
}

// TensorElementwise validates Tensor::add, sub, mul, div (and their
// operators), equal, not_equal, greater, greater_equal, lower and
// lower_equal.
func TensorElementwise(method string, lhs, rhs Operand) *Failure {
	s, _ := site(method, "binary_ops_ew", "-")
	return BinaryOpsEW(s.Op, lhs, rhs).At(s)
}

// TensorMatmul validates Tensor::matmul.
func TensorMatmul(lhs, rhs Operand) *Failure {
	return place("Tensor::matmul", "matmul", "-", Matmul(lhs, rhs))
}

// TensorCross validates Tensor::cross along dim.
func TensorCross(lhs, rhs Operand, dim int64) *Failure {
	d, f := dimAt("Tensor::cross", "dim", dim, len(lhs.Shape))
	if f != nil {
		return f
	}
	return place("Tensor::cross", "cross", "-", Cross(lhs, rhs, d))
}

// TensorSwapDims validates Tensor::swap_dims and returns both resolved dims.
func TensorSwapDims(rank int, dim1, dim2 int64) (int, int, *Failure) {
	d1, f := dimAt("Tensor::swap_dims", "dim1", dim1, rank)
	if f != nil {
		return 0, 0, f
	}
	d2, f := dimAt("Tensor::swap_dims", "dim2", dim2, rank)
	if f != nil {
		return 0, 0, f
	}
	return d1, d2, nil
}

// TensorPermute validates Tensor::permute on a tensor of rank len(axes) and
// returns the resolved axes. Burn checks uniqueness only when the axes are
// not the identity.
func TensorPermute(axes []int64) ([]int, *Failure) {
	resolved := make([]int, len(axes))
	identity := true
	for i, axis := range axes {
		d, f := dimAt("Tensor::permute", "axes", axis, len(axes))
		if f != nil {
			return nil, f
		}
		resolved[i] = d
		identity = identity && d == i
	}
	if identity {
		return resolved, nil
	}
	wide := make([]int64, len(resolved))
	for i, d := range resolved {
		wide[i] = int64(d)
	}
	return resolved, place("Tensor::permute", "permute", "-", Permute(wide))
}

// MovedimArg is one argument of Tensor::movedim: a Vec of dims, or a single
// integer (Vec false, one entry in Dims).
type MovedimArg struct {
	Dims []int64
	Vec  bool
}

// TensorMovedim validates Tensor::movedim(src, dst) on a rank-`rank`
// tensor.
func TensorMovedim(rank int, src, dst MovedimArg) *Failure {
	source, f := movedimDims(rank, src)
	if f != nil {
		return f
	}
	destination, f := movedimDims(rank, dst)
	if f != nil {
		return f
	}
	return place("Tensor::movedim", "movedim_args_length", "-", MovedimArgsLength(source, destination))
}

func movedimDims(rank int, arg MovedimArg) ([]int64, *Failure) {
	if !arg.Vec {
		if len(arg.Dims) == 0 {
			return nil, nil
		}
		d, f := dimAt("Tensor::movedim", "scalar", arg.Dims[0], rank)
		return []int64{int64(d)}, f
	}
	set := make([]int64, len(arg.Dims))
	for i, dim := range arg.Dims {
		d, f := dimAt("Tensor::movedim", "Vec", dim, rank)
		if f != nil {
			return nil, f
		}
		set[i] = int64(d)
	}
	return set, place("Tensor::movedim", "movedim_args_vec", "Vec", MovedimArgsVec(rank, set))
}

// TensorFlip validates Tensor::flip.
func TensorFlip(rank int, axes []int64) *Failure {
	resolved := make([]int64, len(axes))
	for i, axis := range axes {
		d, f := dimAt("Tensor::flip", "axes", axis, rank)
		if f != nil {
			return f
		}
		resolved[i] = int64(d)
	}
	return place("Tensor::flip", "flip", "-", Flip(rank, resolved))
}

// TensorFlatten validates Tensor::flatten::<D2>(start_dim, end_dim) on a
// rank-`rank` tensor.
func TensorFlatten(rank, rank2 int, startDim, endDim int64) *Failure {
	start, f := dimAt("Tensor::flatten", "start_dim", startDim, rank)
	if f != nil {
		return f
	}
	end, f := dimAt("Tensor::flatten", "end_dim", endDim, rank)
	if f != nil {
		return f
	}
	return place("Tensor::flatten", "flatten", "-", Flatten(rank, rank2, int64(start), int64(end)))
}

// TensorSqueeze validates Tensor::squeeze::<D2>(), which drops every size-1
// dim.
func TensorSqueeze(shape []int64, rank2 int) *Failure {
	kept := 0
	for _, d := range shape {
		if d != 1 {
			kept++
		}
	}
	return place("Tensor::squeeze", "squeeze_dims_len", "-", SqueezeDimsLen(rank2, kept))
}

// TensorSqueezeDim validates Tensor::squeeze_dim::<D2>(dim). Its last check
// cannot fail; a D2 other than D-1 fails first, when Burn copies the kept
// dims into an array of D2 entries.
func TensorSqueezeDim(shape []int64, rank2 int, dim int64) *Failure {
	d, f := dimAt("Tensor::squeeze_dim", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	if f := place("Tensor::squeeze_dim", "squeeze", "-", Squeeze(d, shape)); f != nil {
		return f
	}
	if d > rank2 {
		return rustPanic(IDRangeEndOutOfRange,
			"range end index "+itoa(d)+" out of range for slice of length "+itoa(rank2), at(apiBase, 783))
	}
	if source, destination := len(shape)-d-1, rank2-d; source != destination {
		return copyFromSliceFailure(source, destination, at(apiBase, 784))
	}
	return place("Tensor::squeeze_dim", "squeeze_dims_len", "-", SqueezeDimsLen(rank2, rank2))
}

func copyFromSliceFailure(source, destination int, location string) *Failure {
	return rustPanic(IDCopyFromSliceLength,
		"copy_from_slice: source slice length ("+itoa(source)+") does not match destination slice length ("+itoa(destination)+")",
		location)
}

// TensorSqueezeDims validates Tensor::squeeze_dims::<D2>(dims); empty dims
// squeeze every size-1 dim.
func TensorSqueezeDims(shape []int64, rank2 int, dims []int64) *Failure {
	var indices []int
	if len(dims) == 0 {
		for i, d := range shape {
			if d == 1 {
				indices = append(indices, i)
			}
		}
	} else {
		for _, dim := range dims {
			d, f := dimAt("Tensor::squeeze_dims", "dims", dim, len(shape))
			if f != nil {
				return f
			}
			indices = append(indices, d)
		}
	}
	slices.Sort(indices)
	indices = slices.Compact(indices)
	wide := make([]int64, len(indices))
	for i, d := range indices {
		wide[i] = int64(d)
	}
	if f := place("Tensor::squeeze_dims", "squeeze_dims_input", "-", SqueezeDimsInput(wide, shape)); f != nil {
		return f
	}
	kept := 0
	for i := range shape {
		if slices.Contains(indices, i) {
			if f := place("Tensor::squeeze_dims", "squeeze", "-", Squeeze(i, shape)); f != nil {
				return f
			}
			continue
		}
		kept++
	}
	return place("Tensor::squeeze_dims", "squeeze_dims_len", "-", SqueezeDimsLen(rank2, kept))
}

// TensorUnsqueeze validates Tensor::unsqueeze::<D2>().
func TensorUnsqueeze(rank, rank2 int) *Failure {
	return place("Tensor::unsqueeze", "unsqueeze", "-", Unsqueeze(rank, rank2))
}

// TensorUnsqueezeDim validates Tensor::unsqueeze_dim::<D2>(dim), whose dim
// is resolved against D+1.
func TensorUnsqueezeDim(rank, rank2 int, dim int64) *Failure {
	d, f := dimAt("Tensor::unsqueeze_dim", "dim", dim, rank+1)
	if f != nil {
		return f
	}
	return place("Tensor::unsqueeze_dim", "unsqueeze_dim", "-", UnsqueezeDim(rank, rank2, int64(d)))
}

// TensorUnsqueezeDims validates Tensor::unsqueeze_dims::<D2>(axes): each
// axis must lie in -D2..D2, before and after Burn resolves negative axes
// (each further negative axis one place to the left) and moves duplicates
// to the next free position. A D2 that does not fit the axes then fails
// while Burn lays out the new shape, or in the final reshape.
func TensorUnsqueezeDims(shape []int64, rank2 int, axes []int64) *Failure {
	const method = "Tensor::unsqueeze_dims"
	negOffset := int64(rank2)
	indices := make([]int64, len(axes))
	for i, axis := range axes {
		if f := place(method, "unsqueeze_dims", "axes", UnsqueezeDims(rank2, axis)); f != nil {
			return f
		}
		if axis < 0 {
			negOffset--
			axis += negOffset + 1
		}
		indices[i] = axis
	}
	slices.Sort(indices)
	for i := 1; i < len(indices); i++ {
		if indices[i] <= indices[i-1] {
			indices[i] = indices[i-1] + 1
		}
	}
	for _, index := range indices {
		if f := place(method, "unsqueeze_dims", "normalized", UnsqueezeDims(rank2, index)); f != nil {
			return f
		}
	}
	newDims := make([]int64, rank2)
	for i := range newDims {
		newDims[i] = 1
	}
	next, old := 0, 0
	for i := 0; i < rank2; i++ {
		if next == len(indices) {
			// `new_dims[i..].copy_from_slice(&old_dims[old..])` (base.rs:1018).
			if source, destination := len(shape)-old, rank2-i; source != destination {
				return copyFromSliceFailure(source, destination, at(apiBase, 1018))
			}
			copy(newDims[i:], shape[old:])
			break
		}
		if int64(i) == indices[next] {
			next++
			continue
		}
		if old >= len(shape) {
			// `old_dims[old_dims_curr_idx]` (base.rs:1025) indexes a Shape:
			// core::ops::Index::index is #[track_caller] in the trait, so
			// Shape's and smallvec's impls inherit it and Rust reports
			// Burn's line.
			return indexOutOfBounds(len(shape), old, at(apiBase, 1025))
		}
		newDims[i] = shape[old]
		old++
	}
	_, f := Reshape(shape, newDims)
	return f
}

// TensorSlice validates Tensor::slice and returns the slices Burn uses:
// padded to the rank and clamped to each dimension. Clamping happens before
// TensorCheck runs, so an oversized range is never an error; too many
// slices or a zero step fail burn-std's asserts instead.
func TensorSlice(shape []int64, slices []Slice) ([]Slice, *Failure) {
	clamped, f := intoSlices(shape, slices)
	if f != nil {
		return nil, f
	}
	return clamped, place("Tensor::slice", "slice", "-", SliceArgs(shape, clamped))
}

// TensorSliceAssign validates Tensor::slice_assign(slices, values). An
// assignment that selects nothing returns before the check.
func TensorSliceAssign(shape, valueShape []int64, slices []Slice) *Failure {
	clamped, f := intoSlices(shape, slices)
	if f != nil {
		return f
	}
	for i, s := range clamped {
		if s.outputSize(shape[i]) == 0 {
			return nil
		}
	}
	return place("Tensor::slice_assign", "slice_assign", "-", SliceAssign(shape, valueShape, clamped))
}

// TensorSliceFill validates Tensor::slice_fill(slices, value).
func TensorSliceFill(shape []int64, slices []Slice) *Failure {
	clamped, f := intoSlices(shape, slices)
	if f != nil {
		return f
	}
	return place("Tensor::slice_fill", "slice", "-", SliceArgs(shape, clamped))
}

// TensorSliceDim validates Tensor::slice_dim(dim, slice) and returns the
// slices it hands to Tensor::slice.
func TensorSliceDim(shape []int64, dim int64, s Slice) ([]Slice, *Failure) {
	d, f := dimAt("Tensor::slice_dim", "dim", dim, len(shape))
	if f != nil {
		return nil, f
	}
	all := make([]Slice, len(shape))
	for i := range all {
		all[i] = FullSlice()
	}
	all[d] = s
	return TensorSlice(shape, all)
}

// TensorSelectAssign validates Tensor::select_assign(dim, indices, values).
func TensorSelectAssign(shape []int64, dim int64, indicesShape, valueShape []int64) *Failure {
	d, f := dimAt("Tensor::select_assign", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::select_assign", "select_assign", "-", SelectAssign(d, indicesShape, valueShape))
}

// TensorMaskSelect validates Tensor::mask_select and mask_select_async.
func TensorMaskSelect(shape, maskShape []int64) *Failure {
	return place("Tensor::mask_select", "mask_select", "-", MaskSelect(shape, maskShape))
}

// TensorGather validates Tensor::gather(dim, indices).
func TensorGather(shape []int64, dim int64, indicesShape []int64) *Failure {
	d, f := dimAt("Tensor::gather", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::gather", "gather", "-", Gather(d, shape, indicesShape))
}

// TensorScatter validates Tensor::scatter(dim, indices, values, update).
func TensorScatter(shape []int64, dim int64, indicesShape, valueShape []int64) *Failure {
	d, f := dimAt("Tensor::scatter", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::scatter", "scatter", "-", Scatter(d, shape, indicesShape, valueShape))
}

// TensorScatterNd validates Tensor::scatter_nd(indices, values, update).
func TensorScatterNd(shape, indicesShape, valuesShape []int64) *Failure {
	return place("Tensor::scatter_nd", "scatter_nd", "-", ScatterNd(shape, indicesShape, valuesShape))
}

// TensorGatherNd validates Tensor::gather_nd::<M, DV>(indices).
func TensorGatherNd(shape, indicesShape []int64, outRank int) *Failure {
	return place("Tensor::gather_nd", "gather_nd", "-", GatherNd(len(shape), indicesShape, outRank))
}

// TensorCat validates Tensor::cat(tensors, dim) for tensors of rank
// `rank`, and returns the resolved dim. Burn has no device check here.
func TensorCat(rank int, shapes [][]int64, dim int64) (int, *Failure) {
	d, f := dimAt("Tensor::cat", "dim", dim, rank)
	if f != nil {
		return 0, f
	}
	return d, place("Tensor::cat", "cat", "-", Cat(shapes, d))
}

// TensorStack validates Tensor::stack::<D2>(tensors, dim) for tensors of
// rank `rank`: the dim is resolved against D+1, then stack's own check,
// then each tensor is unsqueezed to rank D2 at dim (where a D2 below D
// fails) and concatenated.
func TensorStack(rank, rank2 int, shapes [][]int64, dim int64) *Failure {
	d, f := dimAt("Tensor::stack", "dim", dim, rank+1)
	if f != nil {
		return f
	}
	if f := place("Tensor::stack", "stack", "-", Stack(rank, rank2, shapes, int64(d))); f != nil {
		return f
	}
	return place("Tensor::unsqueeze_dim", "unsqueeze_dim", "-", UnsqueezeDim(rank, rank2, int64(d)))
}

// TensorNarrow validates Tensor::narrow(dim, start, length).
func TensorNarrow(shape []int64, dim int64, start, length int64) *Failure {
	d, f := dimAt("Tensor::narrow", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::narrow", "narrow", "-", Narrow(shape, d, start, length))
}

// TensorSplit validates Tensor::split(split_size, dim).
func TensorSplit(shape []int64, splitSize, dim int64) *Failure {
	d, f := dimAt("Tensor::split", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::split", "split", "-", Split(shape, splitSize, d))
}

// TensorSplitWithSizes validates Tensor::split_with_sizes(split_sizes, dim).
func TensorSplitWithSizes(shape, splitSizes []int64, dim int64) *Failure {
	d, f := dimAt("Tensor::split_with_sizes", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return place("Tensor::split_with_sizes", "split_with_sizes", "-", SplitWithSizes(shape, splitSizes, d))
}

// TensorIntoScalarAsync validates Tensor::into_scalar_async. The
// synchronous into_scalar runs no check.
func TensorIntoScalarAsync(shape []int64) *Failure {
	return place("Tensor::into_scalar_async", "into_scalar", "-", IntoScalar(shape))
}

// TensorExpand validates Tensor::expand::<D2>(shape) and returns the target
// shape. A target given as an array ([E; D2]) goes through BroadcastArgs,
// where -1 keeps a dim and which panics on its own; a target given as a
// Shape (asShape) is taken as is.
func TensorExpand(shape, target []int64, asShape bool) ([]int64, *Failure) {
	to := target
	if !asShape {
		var f *Failure
		if to, f = broadcastArgs(shape, target); f != nil {
			return nil, f
		}
	}
	return to, place("Tensor::expand", "expand", "-", Expand("Expand", shape, to))
}

// broadcastArgs is BroadcastArgs::into_shape for [E; D2].
func broadcastArgs(shape, target []int64) ([]int64, *Failure) {
	if len(target) < len(shape) {
		return nil, rustPanic("bt-broadcast-too-few",
			"Broadcast arguments must be greater than the number of dimensions! got "+itoa(len(target))+", need at least "+itoa(len(shape)),
			at(apiBase, 3340))
	}
	out := make([]int64, len(target))
	for i := len(target) - 1; i >= 0; i-- {
		x := target[i]
		if x < -1 || x == 0 {
			return nil, rustPanic("bt-broadcast-negative", "Broadcast arguments must be positive or -1! Got "+i64toa(x), at(apiBase, 3354))
		}
		fromRight := len(target) - 1 - i
		original := int64(0)
		if fromRight < len(shape) {
			original = shape[len(shape)-1-fromRight]
		}
		if x == -1 {
			x = original
		}
		out[i] = x
	}
	if slices.Contains(out, 0) {
		return nil, rustPanic("bt-broadcast-missing-dim", "Cannot substitute -1 for a non-existing dimension! Got "+debugList(out), at(apiBase, 3369))
	}
	return out, nil
}

// TensorUnfold validates Tensor::unfold::<D2>(dim, size, step).
func TensorUnfold(rank, rank2 int, dim int64) *Failure {
	if _, f := dimAt("Tensor::unfold", "dim", dim, rank); f != nil {
		return f
	}
	return place("Tensor::unfold", "unfold", "-", Unfold("Unfold", rank, rank2))
}

// TensorTri validates Tensor::triu or Tensor::tril.
func TensorTri(method string, rank int) *Failure {
	return place(method, "tri", "-", Tri(rank))
}

// TensorTopk validates Tensor::topk or Tensor::topk_with_indices (k, dim).
func TensorTopk(method string, shape []int64, k, dim int64) *Failure {
	s, _ := site(method, "topk", "-")
	d, f := dimAt(method, "dim", dim, len(shape))
	if f != nil {
		return f
	}
	return Topk(s.Op, k, d, shape).At(s)
}

// TensorOneHot validates Tensor::one_hot::<D2>(num_classes) on an index
// tensor of the given bridge kind and values (see OneHotTensor), then
// one_hot_fill's rank check.
func TensorOneHot(bridgeKind string, values []float64, rank, rank2 int, numClasses int64) *Failure {
	if f := place("Tensor::one_hot", "one_hot_tensor", "-", OneHotTensor(bridgeKind, values, numClasses)); f != nil {
		return f
	}
	return place("Tensor::one_hot", "one_hot_tensor_rank", "-", OneHotTensorRank(rank, rank2))
}

// TensorOneHotFill validates Tensor::one_hot_fill::<D2>(.., axis), whose
// axis is resolved against D+1.
func TensorOneHotFill(rank, rank2 int, axis int64) *Failure {
	if f := place("Tensor::one_hot_fill", "one_hot_tensor_rank", "-", OneHotTensorRank(rank, rank2)); f != nil {
		return f
	}
	_, f := dimAt("Tensor::one_hot_fill", "axis", axis, rank+1)
	return f
}

// TensorTake validates Tensor::take::<DI, DO>(dim, indices) on a
// rank-`rank` tensor.
func TensorTake(rank, indicesRank, outRank int, dim int64) *Failure {
	if _, f := dimAt("Tensor::take", "dim", dim, rank); f != nil {
		return f
	}
	return place("Tensor::take", "take", "-", Take(rank, indicesRank, outRank))
}

// ActivationPrelu validates activation::prelu(tensor, alpha).
func ActivationPrelu(shape, weightShape []int64) *Failure {
	return place("activation::prelu", "check_prelu_shape", "-", CheckPreluShape(shape, weightShape))
}

// ModuleConv validates module::conv1d, conv2d, conv3d (groups from the
// options) or deform_conv2d (weight_groups).
func ModuleConv(method string, x, weight []int64, groups int64) *Failure {
	s, _ := site(method, "conv", "-")
	return Conv(s.Op, x, weight, groups).At(s)
}

// ModuleConvTranspose validates module::conv_transpose1d, 2d or 3d.
func ModuleConvTranspose(method string, x, weight []int64) *Failure {
	s, _ := site(method, "conv_transpose", "-")
	return ConvTranspose(s.Op, x, weight).At(s)
}

// LinalgDet validates linalg::det::<D, D1, D2>.
func LinalgDet(dims []int64, rank1, rank2 int, quantized bool) *Failure {
	return place("linalg::det", "det", "-", Det(dims, rank1, rank2, quantized))
}

// LinalgDiag validates linalg::diag::<D, DO>.
func LinalgDiag(rank, outRank int) *Failure {
	return place("linalg::diag", "diag", "-", Diag(rank, outRank))
}

// LinalgLu validates linalg::lu::<D, D1>.
func LinalgLu(dims []int64, rank1 int, quantized bool) *Failure {
	if f := place("linalg::lu", "lu_generic_param", "-", LuGenericParam("linalg::lu", len(dims), rank1)); f != nil {
		return f
	}
	return place("linalg::lu", "lu_input_tensor", "-", LuInputTensor("linalg::lu", dims, quantized))
}

// LinalgQr validates linalg::qr.
func LinalgQr(dims []int64, quantized bool) *Failure {
	return place("linalg::qr", "qr_input_tensor", "-", QrInputTensor("linalg::qr", dims, quantized))
}

// SignalRfft validates signal::rfft(signal, dim, n); hasN false is None,
// where the signal's length along dim must be a power of two. A given n
// must be a positive power of two (asserts in fft.rs, which panics.tsv does
// not list).
func SignalRfft(shape []int64, dim int64, n int64, hasN bool) *Failure {
	d, f := dimAt("signal::rfft", "dim", dim, len(shape))
	if f != nil {
		return f
	}
	if !hasN {
		return place("signal::rfft", "check_is_power_of_two", "-", CheckIsPowerOfTwo(shape, d))
	}
	length := uint64(n)
	if length < 1 {
		return rustPanic("bt-rfft-n-positive", "rfft: n must be >= 1, got 0", at(signalFFTFile, 68))
	}
	if length&(length-1) != 0 {
		return rustPanic("bt-rfft-n-power-of-two",
			"rfft: n must be a power of two, got "+usize(n)+". True non-power-of-two DFT support is tracked as a follow-up (Bluestein's algorithm).",
			at(signalFFTFile, 69))
	}
	return nil
}

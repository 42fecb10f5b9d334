package burncheck

// The functions in this file are TensorCheck's functions in check.rs, one
// for one, in the file's order. They return nil when the check passes.
//
// Arguments follow Burn's: shapes are []int64 (a tensor's rank is the
// length of its shape), const generic ranks (D, D1, D2, ...) are ints, and
// dims are already resolved indices (the Tensor methods resolve negative
// dims with DimIndex before calling these). Values Burn holds as usize must
// not be negative: a negative literal where Rust expects usize does not
// compile; if one arrives anyway it is treated as Rust's `as usize` would.
//
// A condition that indexes a shape before testing it (Burn's
// `tensor_dims[dim]`) reports Rust's index panic when the index is out of
// range, as Burn would, instead of the condition behind it.

// Operand is what a binary check knows of one tensor: its shape and device.
type Operand struct {
	Shape []int64
	// Device is the Debug form of the tensor's burn_tensor::Device, as
	// Burn prints it in the message: "Device<Flex(Cpu)>".
	Device string
	// DeviceKey decides whether two devices are equal; empty means Device.
	// Device equality ignores autodiff and checkpointing (spec.md §2.5), so
	// a tracked and an untracked tensor on the same device pass the device
	// check although their Debug forms differ: give both the same key.
	DeviceKey string
}

func (o Operand) deviceKey() string {
	if o.DeviceKey != "" {
		return o.DeviceKey
	}
	return o.Device
}

// BinaryOpsEW is TensorCheck::binary_ops_ew: the device check, then the
// broadcast shape check. Op is the operation name the caller passes ("Add",
// "Sub", "Div", "Mul", "Equal", "NotEqual", "Greater", "Greater_equal",
// "Lower", "Lower_equal").
func BinaryOpsEW(op string, lhs, rhs Operand) *Failure {
	var c tensorCheck
	c.binaryOpsDevice(op, lhs, rhs)
	c.binaryOpsEWShape(op, lhs.Shape, rhs.Shape)
	return c.failure()
}

// IntoScalar is TensorCheck::into_scalar.
func IntoScalar(shape []int64) *Failure {
	n := numElements(shape)
	if n == 1 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Into Scalar", "bt-check-into-scalar",
		"Only tensors with 1 element can be converted into scalar.",
		"Current tensor has "+usize(n)+" elements")
	return c.failure()
}

// CreationOps is TensorCheck::creation_ops for a tensor of rank `rank`
// created with the given dims. Op is "Empty", "Zeros", "Ones", "Full",
// "From Data", "BlackmanWindow", "HammingWindow" or "HannWindow".
func CreationOps(op string, rank int, dims []int64) *Failure {
	var c tensorCheck
	details := "Tensor rank: '" + itoa(rank) + "', given dimensions: '" + debugList(dims) + "'."
	if rank == 0 {
		c.registerDetailed(op, "bt-check-creation-0dim", "Tried to create a 0-dim tensor, which is invalid.", details)
	}
	if len(dims) != rank {
		c.registerDetailed(op, "bt-check-creation-rank", "Given dimensions differ from the tensor rank.", details)
	}
	return c.failure()
}

// Narrow is TensorCheck::narrow on a tensor of the given shape.
func Narrow(shape []int64, dim int, start, length int64) *Failure {
	if dim < 0 || dim >= len(shape) {
		return indexOutOfBounds(len(shape), dim, at(checkFile, 108))
	}
	var c tensorCheck
	size := uint64(shape[dim])
	if length == 0 {
		c.register("Narrow", "bt-check-narrow-len0",
			"Can't narrow at dimension "+itoa(dim)+", length must be greater than 0")
	}
	if uint64(start) >= size {
		c.register("Narrow", "bt-check-narrow-start",
			"Can't narrow at dimension "+itoa(dim)+", start exceeds the size of the tensor along this dimension (Size="+usize(shape[dim])+")")
	}
	if uint64(start)+uint64(length) > size {
		c.register("Narrow", "bt-check-narrow-end",
			"Can't narrow at dimension "+itoa(dim)+", start + length exceeds the size of the tensor along this dimension (Size="+usize(shape[dim])+")")
	}
	return c.failure()
}

// MovedimArgsVec is TensorCheck::movedim_args_vec: dims of a rank-`rank`
// tensor must be in bounds and distinct. Every duplicated pair is reported.
func MovedimArgsVec(rank int, dims []int64) *Failure {
	var c tensorCheck
	for _, d := range dims {
		if uint64(d) >= uint64(rank) {
			c.registerDetailed("Movedim", "bt-check-movedim-oob", "The given dimensions are out of bounds.",
				"Current tensor has "+itoa(rank)+" dimensions, but the given dimensions are "+debugList(dims)+".")
			break
		}
	}
	for i, di := range dims {
		for _, dj := range dims[i+1:] {
			if di == dj {
				c.registerDetailed("Movedim", "bt-check-movedim-dup", "The given dimensions contain duplicates.",
					"The dimension "+usize(di)+" is duplicated in the given dimensions "+debugList(dims)+".")
			}
		}
	}
	return c.failure()
}

// MovedimArgsLength is TensorCheck::movedim_args_length.
func MovedimArgsLength(source, destination []int64) *Failure {
	if len(source) == len(destination) {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Movedim", "bt-check-movedim-len",
		"The number of dimensions in source and destination must be equal.",
		"Source dimensions: "+debugList(source)+", Destination dimensions: "+debugList(destination)+".")
	return c.failure()
}

// Flatten is TensorCheck::flatten::<D1, D2>: flattening dims start..=end of
// a rank-D1 tensor into a rank-D2 one.
func Flatten(rank, rank2 int, startDim, endDim int64) *Failure {
	var c tensorCheck
	start, end := uint64(startDim), uint64(endDim)
	if start > end {
		c.register("Flatten", "bt-check-flatten-order",
			"The start dim ("+usize(startDim)+") must be smaller than or equal to the end dim ("+usize(endDim)+")")
	}
	if rank2 > rank {
		c.register("Flatten", "bt-check-flatten-rank",
			"Result dim ("+itoa(rank2)+") must be smaller than or equal to ("+itoa(rank)+")")
	}
	if uint64(rank) < end+1 {
		c.register("Flatten", "bt-check-flatten-end",
			"The end dim ("+usize(endDim)+") must be smaller than the tensor dim ("+itoa(rank)+")")
	}
	// Burn compares in i32 here, so an end before the start widens the bound.
	if int32(rank2) < int32(rank)-(int32(endDim)-int32(startDim)) {
		c.register("Flatten", "bt-check-flatten-dest",
			"The destination dimension ("+itoa(rank2)+") must be large enough to accommodate the flattening operation.")
	}
	return c.failure()
}

// Tri is TensorCheck::tri::<D>, run by triu and tril.
func Tri(rank int) *Failure {
	if rank >= 2 {
		return nil
	}
	return single("Tri", "bt-check-tri", "The input tensor must have at least 2 dimensions, got "+itoa(rank))
}

// Squeeze is TensorCheck::squeeze::<D2>. Burn reads tensor_dims[dim] before
// it tests dim against the rank, so the out-of-bounds condition
// (bt-check-squeeze-oob) can never be reported: a dim past the rank panics
// with Rust's index error first. Every Burn caller passes an in-range dim.
func Squeeze(dim int, tensorDims []int64) *Failure {
	if dim < 0 || dim >= len(tensorDims) {
		return indexOutOfBounds(len(tensorDims), dim, at(checkFile, 251))
	}
	if tensorDims[dim] == 1 {
		return nil
	}
	return single("Squeeze", "bt-check-squeeze-size", "Can't squeeze dimension "+itoa(dim)+" because its size is not 1")
}

// SqueezeDimsInput is TensorCheck::squeeze_dims_input::<D2>: squeezing must
// leave at least one dimension.
func SqueezeDimsInput(dimIndices, currentDims []int64) *Failure {
	if len(dimIndices) < len(currentDims) {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Squeeze", "bt-check-squeeze-too-many", "Attempted to squeeze too many dimensions!",
		"Got "+itoa(len(dimIndices))+" dims, tensor has "+itoa(len(currentDims)))
	return c.failure()
}

// SqueezeDimsLen is TensorCheck::squeeze_dims_len::<D2>: the squeezed rank
// must be positive and equal D2. A rank of 0 fails both conditions.
func SqueezeDimsLen(rank2, newDimsLen int) *Failure {
	var c tensorCheck
	if newDimsLen == 0 {
		c.register("Squeeze", "bt-check-squeeze-zero",
			"Resulting dimensions cannot be zero. To remove specific singleton dimensions while preserving at least one, use `squeeze_dims` instead.")
	}
	if newDimsLen != rank2 {
		c.register("Squeeze", "bt-check-squeeze-d2",
			"Resulting dimensions "+itoa(newDimsLen)+" do not match the required D2 size "+itoa(rank2)+".")
	}
	return c.failure()
}

// Unsqueeze is TensorCheck::unsqueeze::<D1, D2>.
func Unsqueeze(rank, rank2 int) *Failure {
	if rank2 >= rank {
		return nil
	}
	return single("Unsqueeze", "bt-check-unsqueeze-smaller",
		"Can't unsqueeze smaller tensor, got dim "+itoa(rank2)+", expected > "+itoa(rank))
}

// UnsqueezeDim is TensorCheck::unsqueeze_dim::<D1, D2>.
func UnsqueezeDim(rank, rank2 int, dim int64) *Failure {
	var c tensorCheck
	if rank2 <= rank {
		c.register("Unsqueeze", "bt-check-unsqueeze-dim-rank",
			"The unsqueezed rank must be greater than the input rank (D="+itoa(rank)+"; D2="+itoa(rank2)+")")
	}
	if uint64(dim) > uint64(rank) {
		c.register("Unsqueeze", "bt-check-unsqueeze-dim-in",
			"Can't unsqueeze at dimension "+usize(dim)+", exceeds tensor dimensions (D="+itoa(rank)+")")
	}
	if uint64(dim) >= uint64(rank2) {
		c.register("Unsqueeze", "bt-check-unsqueeze-dim-out",
			"Can't unsqueeze at dimension "+usize(dim)+", exceeds output tensor dimensions (D2="+itoa(rank2)+")")
	}
	return c.failure()
}

// UnsqueezeDims is TensorCheck::unsqueeze_dims::<D2> for one axis, which may
// be negative: it must lie in -D2..D2.
func UnsqueezeDims(rank2 int, dim int64) *Failure {
	outputRank := int64(rank2)
	if dim >= -outputRank && dim < outputRank {
		return nil
	}
	return single("Unsqueeze", "bt-check-unsqueeze-dims",
		"unsqueeze arg "+i64toa(dim)+" is out of range for the output tensor of rank "+i64toa(outputRank))
}

// TensorDebug is the {:?} form of a Tensor, which Burn prints in the one-hot
// message. Tensor derives Debug; its primitive prints only its bridge kind
// ("Float", "Int", "Bool" or "QFloat") and the kind marker prints its type
// path, so the text depends on nothing but the kind: no data, device or
// shape.
func TensorDebug(bridgeKind string) string {
	marker := bridgeKind
	if bridgeKind == "QFloat" {
		marker = "Float"
	}
	return "Tensor { primitive: BridgeTensor { kind: " + bridgeKind + " }, _kind: PhantomData<burn_tensor::bridge::kind::" + marker + "> }"
}

// OneHotTensor is TensorCheck::one_hot_tensor on an index tensor of the
// given bridge kind ("Int", "Float" or "QFloat") holding values. Burn
// compares the values with num_classes cast to i32.
func OneHotTensor(bridgeKind string, values []float64, numClasses int64) *Failure {
	limit := float64(int32(numClasses))
	for _, v := range values {
		if v >= limit {
			return single("One Hot", "bt-check-one-hot-range",
				"Can't create a one hot tensor from ("+TensorDebug(bridgeKind)+") containing indexes greater or equal to the number of classes ("+usize(numClasses)+")")
		}
	}
	if uint64(numClasses) <= 1 {
		return single("One Hot", "bt-check-one-hot-classes", "Can't create a one hot tensor with less than 2 classes")
	}
	return nil
}

// OneHotTensorRank is TensorCheck::one_hot_tensor_rank::<D, D2>.
func OneHotTensorRank(rank, rank2 int) *Failure {
	if rank+1 == rank2 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("One Hot", "bt-check-one-hot-rank",
		"The one-hot tensor rank must correspond to the rank of the tensor + 1",
		"Expected D2="+itoa(rank+1)+", got "+itoa(rank2))
	return c.failure()
}

// Permute is TensorCheck::permute::<D> with D = len(axes). It stops at the
// first failed condition.
func Permute(axes []int64) *Failure {
	rank := len(axes)
	var c tensorCheck
	for _, axis := range axes {
		if uint64(axis) >= uint64(rank) {
			c.registerDetailed("Permute", "bt-check-permute-oob", "The axes must be smaller than the tensor dimension.",
				"The '"+usize(axis)+"' axis is greater than "+itoa(rank)+" dimensions.")
			return c.failure()
		}
	}
	seen := make([]bool, rank)
	for _, axis := range axes {
		seen[axis] = true
	}
	for _, s := range seen {
		if !s {
			c.registerDetailed("Permute", "bt-check-permute-unique", "The axes must be unique.",
				"The axes '"+debugList(axes)+"' are not unique.")
			return c.failure()
		}
	}
	return nil
}

// Flip is TensorCheck::flip. Its operation name is lower-case "flip" in
// Burn, unlike the "Flip" of the dim-index check before it.
func Flip(rank int, axes []int64) *Failure {
	var c tensorCheck
	for _, axis := range axes {
		if uint64(axis) >= uint64(rank) {
			c.registerDetailed("flip", "bt-check-flip-oob", "The axes must be smaller than the tensor dimension.",
				"The '"+usize(axis)+"' axis is greater than "+itoa(rank)+" dimensions.")
			return c.failure()
		}
	}
	seen := make(map[int64]bool, len(axes))
	for _, axis := range axes {
		if seen[axis] {
			c.registerDetailed("flip", "bt-check-flip-unique", "The axes must be unique.",
				"The axes '"+debugList(axes)+"' are not unique.")
			return c.failure()
		}
		seen[axis] = true
	}
	return nil
}

// Matmul is TensorCheck::matmul: the device check, then, for rank >= 2,
// the inner dimensions.
func Matmul(lhs, rhs Operand) *Failure {
	var c tensorCheck
	c.binaryOpsDevice("Matmul", lhs, rhs)
	rank := len(lhs.Shape)
	if rank >= 2 && len(rhs.Shape) == rank {
		dimLHS, dimRHS := lhs.Shape[rank-1], rhs.Shape[rank-2]
		if dimLHS != dimRHS {
			c.registerDetailed("Matmul", "bt-check-matmul-inner",
				"The inner dimension of matmul should be the same, but got "+usize(dimLHS)+" and "+usize(dimRHS)+".",
				"Lhs shape "+debugShape(lhs.Shape)+", rhs shape "+debugShape(rhs.Shape)+".")
		}
	}
	return c.failure()
}

// Cross is TensorCheck::cross: the device check, size 3 along dim, and
// broadcastable sizes along every other dim.
func Cross(lhs, rhs Operand, dim int) *Failure {
	var c tensorCheck
	c.binaryOpsDevice("Cross", lhs, rhs)
	rank := min(len(lhs.Shape), len(rhs.Shape))
	if dim < 0 || dim >= rank {
		return indexOutOfBounds(rank, dim, at(checkFile, 521))
	}
	sizeLHS, sizeRHS := lhs.Shape[dim], rhs.Shape[dim]
	if sizeLHS != 3 || sizeRHS != 3 {
		c.register("Cross", "bt-check-cross-size",
			"Cross product requires dimension "+itoa(dim)+" to have size 3, but got "+usize(sizeLHS)+" and "+usize(sizeRHS)+".")
	}
	for i := 0; i < rank; i++ {
		if i == dim {
			continue
		}
		l, r := lhs.Shape[i], rhs.Shape[i]
		if l != r && l != 1 && r != 1 {
			c.register("Cross", "bt-check-cross-broadcast",
				"Tensors are not broadcastable along dimension "+itoa(i)+": "+usize(l)+" and "+usize(r)+".")
		}
	}
	return c.failure()
}

// Stack is TensorCheck::stack::<D1, _, D2> on tensors of rank D1 with the
// given shapes. The empty-list and shape conditions end the check.
func Stack(rank, rank2 int, shapes [][]int64, dim int64) *Failure {
	var c tensorCheck
	if rank == rank2 {
		c.register("Stack", "bt-check-stack-same-rank",
			"Can't stack tensors on existing dimension "+usize(dim)+", the input and output ranks are the same (D="+itoa(rank)+"; D2="+itoa(rank2)+").If you want to concatenate the tensors along the specified dimension ("+usize(dim)+"), use `Tensor::cat` instead.")
	}
	if len(shapes) == 0 {
		c.register("Stack", "bt-check-stack-empty", "Can't stack an empty list of tensors.")
		return c.failure()
	}
	for _, s := range shapes {
		if !equalDims(shapes[0], s) {
			c.registerDetailed("Stack", "bt-check-stack-shapes", "Can't stack tensors with different shapes",
				"Provided dimension ("+usize(dim)+"), tensors shapes: "+debugShapes(shapes))
			return c.failure()
		}
	}
	return c.failure()
}

// Cat is TensorCheck::cat: a non-empty list of tensors whose shapes agree
// everywhere but along dim.
func Cat(shapes [][]int64, dim int) *Failure {
	var c tensorCheck
	if len(shapes) == 0 {
		c.register("Cat", "bt-check-cat-empty", "Can't concatenate an empty list of tensors.")
		return c.failure()
	}
	if dim < 0 || dim >= len(shapes[0]) {
		return indexOutOfBounds(len(shapes[0]), dim, at(checkFile, 605))
	}
	for _, s := range shapes {
		if !equalExcept(shapes[0], s, dim) {
			c.registerDetailed("Cat", "bt-check-cat-shapes",
				"Can't concatenate tensors with different shapes, except for the provided dimension",
				"Provided dimension ("+itoa(dim)+"), tensors shapes: "+debugShapes(shapes))
			return c.failure()
		}
	}
	return nil
}

func equalExcept(a, b []int64, dim int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if i != dim && a[i] != b[i] {
			return false
		}
	}
	return true
}

// SliceArgs is TensorCheck::slice::<R> with R = len(shape), on the slices
// as given. Tensor::slice never hands it unclamped slices (see
// TensorSlice), so through the Tensor API none of its conditions can fail;
// they fail here only for raw slices.
func SliceArgs(shape []int64, slices []Slice) *Failure {
	var c tensorCheck
	rank := len(shape)
	if rank < len(slices) {
		c.registerDetailed("Slice", "bt-check-slice-rank",
			"The provided slices array has a higher number of dimensions than the current tensor.",
			"The slices array must be smaller or equal to the tensor number of dimensions. Tensor number of dimensions: "+itoa(rank)+", slices array length "+itoa(len(slices))+".")
	}
	for i, s := range slices {
		if i >= rank {
			break
		}
		size := shape[i]
		if s.HasEnd && s.End > 0 && s.End > size {
			c.registerDetailed("Slice", "bt-check-slice-range",
				"The provided slice has a range that exceeds the current tensor size.",
				"The slice end index "+i64toa(s.End)+" exceeds the size of the tensor ("+usize(size)+") at dimension "+itoa(i)+". Tensor shape "+debugShape(shape)+".")
		}
		if s.Step == 0 {
			c.registerDetailed("Slice", "bt-check-slice-step0", "The provided slice has a step of 0.",
				"The slice at dimension '"+itoa(i)+"' has a step of 0. Step must be non-zero.")
		}
	}
	return c.failure()
}

// SliceAssign is TensorCheck::slice_assign::<R> with R = len(shape). Its
// range condition ('Range Assign', bt-check-range-assign) compares a range
// that Slice::to_range has already clamped to the dimension, so it never
// fails; the element-count condition catches oversized ranges instead.
func SliceAssign(shape, valueShape []int64, slices []Slice) *Failure {
	var c tensorCheck
	rank := len(shape)
	if rank < len(slices) {
		c.registerDetailed("Slice Assign", "bt-check-slice-assign-rank",
			"The provided slices array has a higher number of dimensions than the current tensor.",
			"The slices array must be smaller or equal to the tensor number of dimensions. Tensor number of dimensions: "+itoa(rank)+", slices array length "+itoa(len(slices))+".")
	}
	for i := 0; i < min(rank, len(slices)); i++ {
		if i >= len(valueShape) {
			return indexOutOfBounds(len(valueShape), i, at(checkFile, 713))
		}
		s, size, valueSize := slices[i], shape[i], valueShape[i]
		start, end := s.toRange(size)
		if end > size {
			c.registerDetailed("Range Assign", "bt-check-range-assign",
				"The provided slice has a range that exceeds the current tensor size.",
				"The range ("+usize(start)+".."+usize(end)+") exceeds the size of the tensor ("+usize(size)+") at dimension "+itoa(i)+". Current tensor shape "+debugShape(shape)+", value tensor shape "+debugShape(valueShape)+".")
		}
		selected := s.outputSize(size)
		if selected != valueSize {
			c.registerDetailed("Slice Assign", "bt-check-slice-assign-count",
				"The value tensor must match the amount of elements selected with the slices array",
				"The slice with range ("+usize(start)+".."+usize(end)+") and step "+i64toa(s.Step)+" selects "+usize(selected)+" elements but the value tensor has "+usize(valueSize)+" elements at dimension "+itoa(i)+". Current tensor shape "+debugShape(shape)+", value tensor shape "+debugShape(valueShape)+".")
		}
	}
	return c.failure()
}

// CheckIsPowerOfTwo is TensorCheck::check_is_power_of_two::<D>, which rfft
// runs when no length is given. Zero is not a power of two.
func CheckIsPowerOfTwo(shape []int64, dim int) *Failure {
	if dim < 0 || dim >= len(shape) {
		return indexOutOfBounds(len(shape), dim, at(checkFile, 766))
	}
	size := uint64(shape[dim])
	if size != 0 && size&(size-1) == 0 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Check Is Power of two", "bt-check-pow2", "The provided dimension size must be a power of two.",
		"The length of dimension "+itoa(dim)+" is "+usize(shape[dim])+".")
	return c.failure()
}

// Gather is TensorCheck::gather::<D>: the index tensor has the tensor's
// shape except along dim.
func Gather(dim int, shape, indicesShape []int64) *Failure {
	var c tensorCheck
	if f := c.gatherScatterIndices("Gather", dim, shape, indicesShape); f != nil {
		return f
	}
	return c.failure()
}

// Scatter is TensorCheck::scatter::<D>: Gather's condition, then the value
// tensor must have the index tensor's shape.
func Scatter(dim int, shape, indicesShape, valueShape []int64) *Failure {
	var c tensorCheck
	if f := c.gatherScatterIndices("Scatter", dim, shape, indicesShape); f != nil {
		return f
	}
	if !equalDims(indicesShape, valueShape) {
		c.registerDetailed("Scatter", "bt-check-scatter-value",
			"Indices tensor shape should be the same as the value tensor shape.",
			"The shape differs: "+debugShape(indicesShape)+" != "+debugShape(valueShape))
	}
	return c.failure()
}

// ScatterNd is TensorCheck::scatter_nd::<D, M, DV> where D, M and DV are the
// ranks of the data, indices and values tensors.
func ScatterNd(dataShape, indicesShape, valuesShape []int64) *Failure {
	const op = "ScatterNd"
	d, m, dv := len(dataShape), len(indicesShape), len(valuesShape)
	var c tensorCheck
	k, stop := c.ndIndices(op, "bt-check-scatter-nd", d, indicesShape)
	if stop {
		return c.failure()
	}
	expected := m - 1 + d - k
	if dv != expected {
		c.register(op, "bt-check-scatter-nd-dv",
			"Values rank DV="+itoa(dv)+" does not match expected M-1+D-K = "+itoa(expected))
	}
	for i := 0; i < m-1; i++ {
		if i >= dv {
			return indexOutOfBounds(dv, i, at(checkFile, 855))
		}
		if valuesShape[i] != indicesShape[i] {
			c.register(op, "bt-check-scatter-nd-batch",
				"Batch dimension "+itoa(i)+" mismatch: values="+usize(valuesShape[i])+" vs indices="+usize(indicesShape[i]))
		}
	}
	for i := 0; i < d-k; i++ {
		valIdx, dataIdx := m-1+i, k+i
		if valIdx < dv && dataIdx < d && valuesShape[valIdx] != dataShape[dataIdx] {
			c.register(op, "bt-check-scatter-nd-slice",
				"Slice dimension mismatch at values["+itoa(valIdx)+"]="+usize(valuesShape[valIdx])+" vs data["+itoa(dataIdx)+"]="+usize(dataShape[dataIdx]))
		}
	}
	return c.failure()
}

// GatherNd is TensorCheck::gather_nd::<D, M, DV> for data of rank D,
// indices of the given shape (rank M) and a requested output rank DV.
func GatherNd(rank int, indicesShape []int64, outRank int) *Failure {
	const op = "GatherNd"
	var c tensorCheck
	k, stop := c.ndIndices(op, "bt-check-gather-nd", rank, indicesShape)
	if stop {
		return c.failure()
	}
	expected := len(indicesShape) - 1 + rank - k
	if outRank != expected {
		c.register(op, "bt-check-gather-nd-dv",
			"Output rank DV="+itoa(outRank)+" does not match expected M-1+D-K = "+itoa(expected))
	}
	return c.failure()
}

// ndIndices holds the conditions scatter_nd and gather_nd share on the
// indices tensor. It returns K, the length of the index tuples, and whether
// a failed condition ended the check.
func (c *tensorCheck) ndIndices(op, idPrefix string, rank int, indicesShape []int64) (int, bool) {
	if len(indicesShape) == 0 {
		c.register(op, idPrefix+"-rank", "Indices tensor must have rank >= 1")
		return 0, true
	}
	if numElements(indicesShape) == 0 {
		c.register(op, idPrefix+"-empty", "Indices tensor must not be empty")
		return 0, true
	}
	k := indicesShape[len(indicesShape)-1]
	if k > int64(rank) {
		c.register(op, idPrefix+"-k", "Last dimension of indices (K="+usize(k)+") must be <= data rank (D="+itoa(rank)+")")
		return 0, true
	}
	return int(k), false
}

// MaskSelect is TensorCheck::mask_select.
func MaskSelect(shape, maskShape []int64) *Failure {
	if equalDims(shape, maskShape) {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Mask Select", "bt-check-mask-select", "The mask must have the same shape as the tensor.",
		"Tensor shape "+debugShape(shape)+", mask shape "+debugShape(maskShape)+".")
	return c.failure()
}

// Take is TensorCheck::take::<D, DI, DO>: the output rank is D + DI - 1.
func Take(rank, indicesRank, outRank int) *Failure {
	expected := rank + indicesRank - 1
	if outRank == expected {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Take", "bt-check-take-rank", "Output dimension mismatch",
		"Expected output dimension "+itoa(expected)+" (D="+itoa(rank)+" + DI="+itoa(indicesRank)+" - 1) but got DO="+itoa(outRank))
	return c.failure()
}

// Diag is TensorCheck::diag::<D, DO>. Two of its strings span source lines
// in Burn, so they hold a newline and the next line's indentation.
func Diag(rank, outRank int) *Failure {
	var c tensorCheck
	if rank < 2 {
		c.registerDetailed("Diag", "bt-check-diag-rank",
			"Diagonal operations require\n                tensors with at least 2 dimensions.",
			"Got tensor with "+itoa(rank)+" dimensions,\n                expected at least 2")
	}
	if outRank != rank-1 {
		c.registerDetailed("Diag", "bt-check-diag-out", "Output rank must be input rank minus 1 for diagonal",
			"Expected output rank "+itoa(rank-1)+", got "+itoa(outRank))
	}
	return c.failure()
}

// SelectAssign is TensorCheck::select_assign::<D>: as many indices as the
// value tensor has entries along dim.
func SelectAssign(dim int, indicesShape, valueShape []int64) *Failure {
	if dim < 0 || dim >= len(valueShape) {
		return indexOutOfBounds(len(valueShape), dim, at(checkFile, 997))
	}
	if len(indicesShape) == 0 {
		return indexOutOfBounds(0, 0, at(checkFile, 997))
	}
	if valueShape[dim] == indicesShape[0] {
		return nil
	}
	return single("Select Assign", "bt-check-select-assign",
		"Number of indices ("+usize(indicesShape[0])+") should be equal to value tensor dimensions "+debugShape(valueShape)+" on axis (dim="+itoa(dim)+")")
}

// gatherScatterIndices is check_gather_scatter_indices: every dim but dim
// must agree between the tensor and its index tensor. It returns a failure
// only when Rust would panic on an index instead.
func (c *tensorCheck) gatherScatterIndices(op string, dim int, shape, indicesShape []int64) *Failure {
	for i := range shape {
		if i == dim {
			continue
		}
		if i >= len(indicesShape) {
			return indexOutOfBounds(len(indicesShape), i, at(checkFile, 1026))
		}
		if shape[i] != indicesShape[i] {
			c.registerDetailed(op, "bt-check-gather-scatter-shape",
				"The tensor shape should be the same as the index tensor shape.",
				"The shape differs at dimension "+itoa(i)+": "+usize(shape[i])+" != "+usize(indicesShape[i]))
		}
	}
	return nil
}

// CheckPreluShape is TensorCheck::check_prelu_shape::<D> with D =
// len(shape): one weight, or one weight per channel (dim 1). Its
// description has a double space, as in Burn.
func CheckPreluShape(shape, weightShape []int64) *Failure {
	if len(weightShape) == 0 {
		return indexOutOfBounds(0, 0, at(checkFile, 1050))
	}
	const description = "Number of channels in input tensor and  number of weights must be equal"
	weights := weightShape[0]
	var c tensorCheck
	switch {
	case weights == 1:
		return nil
	case len(shape) >= 2:
		if shape[1] != weights {
			c.registerDetailed("PReLu", "bt-check-prelu", description,
				"Got no. of channels: "+usize(shape[1])+", no. of weights: "+usize(weights))
		}
	default:
		c.registerDetailed("PReLu", "bt-check-prelu-1d", description,
			"Got no. of channels: 1, no. of weights: "+usize(weights))
	}
	return c.failure()
}

// Split is TensorCheck::split::<D>.
func Split(tensorDims []int64, splitSize int64, dim int) *Failure {
	if dim < 0 || dim >= len(tensorDims) {
		return indexOutOfBounds(len(tensorDims), dim, at(checkFile, 1091))
	}
	size := tensorDims[dim]
	if splitSize != 0 || size == 0 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Split", "bt-check-split",
		"split_size must be greater than 0 unless the tensor size along the dimension is 0.",
		"split_size: '"+usize(splitSize)+"', tensor size along dim '"+itoa(dim)+"': '"+usize(size)+"'.")
	return c.failure()
}

// SplitWithSizes is TensorCheck::split_with_sizes::<D>.
func SplitWithSizes(tensorDims []int64, splitSizes []int64, dim int) *Failure {
	if dim < 0 || dim >= len(tensorDims) {
		return indexOutOfBounds(len(tensorDims), dim, at(checkFile, 1112))
	}
	size := tensorDims[dim]
	var total int64
	for _, s := range splitSizes {
		total += s
	}
	if total == size {
		return nil
	}
	var c tensorCheck
	c.registerDetailed("Split With Sizes", "bt-check-split-sizes",
		"The sum of split_sizes must equal the tensor size along the specified dimension.",
		"Sum of split_sizes: '"+usize(total)+"', tensor size along dim '"+itoa(dim)+"': '"+usize(size)+"'.")
	return c.failure()
}

// BinaryOpsEWShape is TensorCheck::binary_ops_ew_shape: every dim must be
// equal or 1 on one side. Each incompatible dim is reported.
func BinaryOpsEWShape(op string, lhs, rhs []int64) *Failure {
	var c tensorCheck
	c.binaryOpsEWShape(op, lhs, rhs)
	return c.failure()
}

func (c *tensorCheck) binaryOpsEWShape(op string, lhs, rhs []int64) {
	for i := 0; i < min(len(lhs), len(rhs)); i++ {
		l, r := lhs[i], rhs[i]
		if l == r || l == 1 || r == 1 {
			continue
		}
		c.registerDetailed(op, "bt-check-ew-shape", "The provided tensors have incompatible shapes.",
			"Incompatible size at dimension '"+itoa(i)+"' => '"+usize(l)+" != "+usize(r)+"', which can't be broadcasted. Lhs tensor shape "+debugShape(lhs)+", Rhs tensor shape "+debugShape(rhs)+".")
	}
}

func (c *tensorCheck) binaryOpsDevice(op string, lhs, rhs Operand) {
	if lhs.deviceKey() == rhs.deviceKey() {
		return
	}
	c.registerDetailed(op, "bt-check-device", "The provided tensors are not on the same device.",
		"Lhs tensor device "+lhs.Device+", Rhs tensor device "+rhs.Device+".")
}

// Expand is TensorCheck::expand::<D1, D2>: shapes aligned from the right,
// missing dims counting as 1; it reports the first incompatible dim only,
// numbered from the right.
func Expand(op string, shape, to []int64) *Failure {
	d1, d2 := len(shape), len(to)
	maxDims := max(d1, d2)
	startShape, startTo := maxDims-d1, maxDims-d2
	for i := 0; i < maxDims; i++ {
		dShape, dTo := int64(1), int64(1)
		if i >= startShape {
			dShape = shape[i-startShape]
		}
		if i >= startTo {
			dTo = to[i-startTo]
		}
		if dShape != dTo && dShape != 1 && dTo != 1 {
			var c tensorCheck
			c.registerDetailed(op, "bt-check-expand", "The provided tensor can't be broadcasted to the target shape.",
				"Incompatible size at dimension '"+itoa(maxDims-i-1)+"' => '"+usize(dShape)+" != "+usize(dTo)+"', which can't be broadcasted. Tensor shape "+debugShape(shape)+", Target shape "+debugShape(to)+".")
			return c.failure()
		}
	}
	return nil
}

// Unfold is TensorCheck::unfold::<D1, D2>: the output rank is D1 + 1. Burn
// ignores the shape, dim, size and step it is given. Its details print D1
// where they announce "the input rank + 1".
func Unfold(op string, rank, rank2 int) *Failure {
	if rank2 == rank+1 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed(op, "bt-check-unfold", "The unfold rank is incompatible with the input tensor rank.",
		"The output rank '"+itoa(rank2)+"' != the input rank + 1 '"+itoa(rank)+"'.")
	return c.failure()
}

// Conv is TensorCheck::conv: the input's channels (dim 1) equal the
// weight's input channels (dim 1) times the groups. Op is "conv1d",
// "conv2d", "conv3d" or "deform_conv2d".
func Conv(op string, x, weight []int64, groups int64) *Failure {
	if len(x) < 2 || len(weight) < 2 {
		return indexOutOfBounds(min(len(x), len(weight)), 1, at(checkFile, 1278))
	}
	channels, expected := x[1], weight[1]*groups
	if channels == expected {
		return nil
	}
	var c tensorCheck
	c.registerDetailed(op, "bt-check-conv-channels",
		"Number of channels in input tensor and input channels of convolution must be equal.",
		"got: "+usize(channels)+", expected: "+usize(expected))
	return c.failure()
}

// ConvTranspose is TensorCheck::conv_transpose: the input's channels equal
// the weight's dim 0, whatever the groups. Op is "conv_transpose1d",
// "conv_transpose2d" or "conv_transpose3d".
func ConvTranspose(op string, x, weight []int64) *Failure {
	if len(x) < 2 || len(weight) < 1 {
		return indexOutOfBounds(len(x), 1, at(checkFile, 1297))
	}
	channels, expected := x[1], weight[0]
	if channels == expected {
		return nil
	}
	var c tensorCheck
	c.registerDetailed(op, "bt-check-conv-transpose-channels",
		"Number of channels in input tensor and input channels of convolution must be equal.",
		"got: "+usize(channels)+", expected: "+usize(expected))
	return c.failure()
}

// LuGenericParam is TensorCheck::lu_generic_param::<D, D1>.
func LuGenericParam(op string, rank, rank1 int) *Failure {
	if rank-1 == rank1 {
		return nil
	}
	var c tensorCheck
	c.registerDetailed(op, "bt-check-lu-generic",
		"D - 1 = D1 must hold for the generic parameters of LU decomposition.",
		"Got generic parameters D = "+itoa(rank)+" and D1 = "+itoa(rank1))
	return c.failure()
}

// LuInputTensor is TensorCheck::lu_input_tensor::<D>: a real (not
// quantized) float tensor of rank >= 2.
func LuInputTensor(op string, dims []int64, quantized bool) *Failure {
	var c tensorCheck
	if quantized {
		c.registerDetailed(op, "bt-check-lu-dtype", "The input tensor must have a real float dtype",
			"Got an input tensor with a quantized float dtype")
	}
	if len(dims) < 2 {
		c.registerDetailed(op, "bt-check-lu-rank",
			"The input tensor for LU decomposition must have at least two dimensions.",
			"Got input tensor with "+itoa(len(dims))+" dimensions")
	}
	return c.failure()
}

// QrInputTensor is TensorCheck::qr_input_tensor::<D>, which is
// LuInputTensor, LU wording included.
func QrInputTensor(op string, dims []int64, quantized bool) *Failure {
	return LuInputTensor(op, dims, quantized)
}

// Det is TensorCheck::det::<D, D1, D2> with D = len(dims). For D < 2 Burn's
// `D - 2` underflows before the rank condition can be registered, which a
// debug build reports as Rust's overflow panic.
func Det(dims []int64, rank1, rank2 int, quantized bool) *Failure {
	rank := len(dims)
	var c tensorCheck
	if quantized {
		c.registerDetailed("det", "bt-check-det-dtype", "The input tensor must have a real float dtype.",
			"Got an input tensor with a quantized float dtype")
	}
	if rank == 0 {
		return rustPanic(IDSubtractOverflow, "attempt to subtract with overflow", at(checkFile, 1370))
	}
	if rank1 != rank-1 {
		c.registerDetailed("det", "bt-check-det-d1",
			"D - 1 = D1 must hold for the generic parameters of the linalg::det function.",
			"Got generic parameters D = "+itoa(rank)+" and D1 = "+itoa(rank1))
	}
	if rank < 2 {
		return rustPanic(IDSubtractOverflow, "attempt to subtract with overflow", at(checkFile, 1380))
	}
	if rank2 != rank-2 {
		c.registerDetailed("det", "bt-check-det-d2", "The output tensor rank must be less than input tensor rank by 2",
			"Got input tensor rank "+itoa(rank)+" and output tensor rank "+itoa(rank2))
	}
	if rank < 3 {
		c.register("det", "bt-check-det-rank", "The input tensor must have at least 3 dimensions, got "+itoa(rank))
	}
	if dims[rank-1] != dims[rank-2] {
		c.registerDetailed("det", "bt-check-det-square", "The last two dimensions of the input tensor must be equal",
			"Got input tensor with shape "+debugList(dims))
	}
	return c.failure()
}

// Topk is TensorCheck::topk: k may not exceed the size along dim. Op is
// "Top K" or "Top K With Indices".
func Topk(op string, k int64, dim int, shape []int64) *Failure {
	if dim < 0 || dim >= len(shape) {
		return indexOutOfBounds(len(shape), dim, at(checkFile, 1413))
	}
	if uint64(k) <= uint64(shape[dim]) {
		return nil
	}
	var c tensorCheck
	c.registerDetailed(op, "bt-check-topk", "The selected index k is out of range.",
		"Got k="+usize(k)+" for dimension "+itoa(dim)+" with input shape "+debugList(shape)+".")
	return c.failure()
}

package burncheck

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	base      = "crates/burn-tensor/src/tensor/api/base.rs:"
	numeric   = "crates/burn-tensor/src/tensor/api/numeric.rs:"
	orderable = "crates/burn-tensor/src/tensor/api/orderable.rs:"
)

func envelope(op string, items ...string) string {
	msg := "=== Tensor Operation Error ===\n  Operation: '" + op + "'\n  Reason:"
	for i, item := range items {
		msg += "\n    " + itoa(i+1) + ". " + item + " "
	}
	return msg + "\n"
}

func TestValidators(t *testing.T) {
	for _, c := range []struct {
		name     string
		run      func() *Failure
		id       string
		location string
		message  string
	}{
		{"add across devices", func() *Failure {
			return TensorElementwise("Tensor::add", dev([]int64{2}, flex), dev([]int64{2}, cuda))
		}, "bt-check-device", numeric + "38",
			envelope("Add", "The provided tensors are not on the same device. Lhs tensor device Device<Flex(Cpu)>, Rhs tensor device Device<Cuda(0)>.")},
		{"greater_equal shapes", func() *Failure {
			return TensorElementwise("Tensor::greater_equal", dev([]int64{2, 3}, flex), dev([]int64{2, 4}, flex))
		}, "bt-check-ew-shape", orderable + "396",
			envelope("Greater_equal", "The provided tensors have incompatible shapes. Incompatible size at dimension '1' => '3 != 4', which can't be broadcasted. Lhs tensor shape Shape { dims: [2, 3] }, Rhs tensor shape Shape { dims: [2, 4] }.")},
		{"matmul inner", func() *Failure { return TensorMatmul(dev([]int64{2, 3}, flex), dev([]int64{4, 5}, flex)) },
			"bt-check-matmul-inner", numeric + "818",
			envelope("Matmul", "The inner dimension of matmul should be the same, but got 3 and 4. Lhs shape Shape { dims: [2, 3] }, rhs shape Shape { dims: [4, 5] }.")},
		{"sum_dim past the rank", func() *Failure { _, f := TensorDim("Tensor::sum_dim", 5, 2); return f },
			"bt-check-dim-index", numeric + "400", envelope("Sum Dim", "BoundsError: dimension 5 out of bounds: 0..2")},
		{"softmax negative dim", func() *Failure { _, f := TensorDim("activation::softmax", -3, 2); return f },
			"bt-check-dim-index", "crates/burn-tensor/src/tensor/activation/base.rs:189",
			envelope("Softmax", "BoundsError: dimension -3 out of bounds: 0..2")},
		{"roll dims", func() *Failure { _, f := TensorDim("Tensor::roll", 4, 3); return f },
			"bt-check-dim-index", base + "1139", envelope("Roll", "BoundsError: dimension 4 out of bounds: 0..3")},
		{"from_data rank", func() *Failure { return TensorCreate("Tensor::from_data", 2, []int64{6}) },
			"bt-check-creation-rank", base + "2257",
			envelope("From Data", "Given dimensions differ from the tensor rank. Tensor rank: '2', given dimensions: '[6]'.")},
		{"swap_dims second dim", func() *Failure { _, _, f := TensorSwapDims(2, 0, 2); return f },
			"bt-check-dim-index", base + "469", envelope("Swap Dims", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"flip past the rank fails resolving the axis", func() *Failure { return TensorFlip(2, []int64{2}) },
			"bt-check-dim-index", base + "642", envelope("Flip", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"flip duplicate after resolving", func() *Failure { return TensorFlip(2, []int64{0, -2}) },
			"bt-check-flip-unique", base + "646", envelope("flip", "The axes must be unique. The axes '[0, 0]' are not unique.")},
		{"permute duplicate after resolving", func() *Failure { _, f := TensorPermute([]int64{1, -1}); return f },
			"bt-check-permute-unique", base + "522", envelope("Permute", "The axes must be unique. The axes '[1, 1]' are not unique.")},
		{"permute past the rank", func() *Failure { _, f := TensorPermute([]int64{0, 2}); return f },
			"bt-check-dim-index", base + "514", envelope("Permute", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"movedim duplicates", func() *Failure {
			return TensorMovedim(3, MovedimArg{Dims: []int64{0, 0}, Vec: true}, MovedimArg{Dims: []int64{1, 2}, Vec: true})
		}, "bt-check-movedim-dup", base + "3286",
			envelope("Movedim", "The given dimensions contain duplicates. The dimension 0 is duplicated in the given dimensions [0, 0].")},
		{"movedim scalar past the rank", func() *Failure {
			return TensorMovedim(3, MovedimArg{Dims: []int64{3}}, MovedimArg{Dims: []int64{0}})
		}, "bt-check-dim-index", base + "3304", envelope("Movedim", "BoundsError: dimension 3 out of bounds: 0..3")},
		{"movedim lengths", func() *Failure {
			return TensorMovedim(3, MovedimArg{Dims: []int64{0, 1}, Vec: true}, MovedimArg{Dims: []int64{-1}})
		}, "bt-check-movedim-len", base + "574",
			envelope("Movedim", "The number of dimensions in source and destination must be equal. Source dimensions: [0, 1], Destination dimensions: [2].")},
		{"flatten end dim", func() *Failure { return TensorFlatten(3, 2, 0, 5) },
			"bt-check-dim-index", base + "692", envelope("Flatten", "BoundsError: dimension 5 out of bounds: 0..3")},
		{"flatten reversed", func() *Failure { return TensorFlatten(3, 2, -1, 0) },
			"bt-check-flatten-order", base + "693", envelope("Flatten",
				"The start dim (2) must be smaller than or equal to the end dim (0)",
				"The destination dimension (2) must be large enough to accommodate the flattening operation.")},
		{"squeeze all ones", func() *Failure { return TensorSqueeze([]int64{1, 1}, 1) },
			"bt-check-squeeze-zero", base + "734", envelope("Squeeze",
				"Resulting dimensions cannot be zero. To remove specific singleton dimensions while preserving at least one, use `squeeze_dims` instead.",
				"Resulting dimensions 0 do not match the required D2 size 1.")},
		{"squeeze_dim of a dim not 1", func() *Failure { return TensorSqueezeDim([]int64{2, 3}, 1, 0) },
			"bt-check-squeeze-size", base + "778", envelope("Squeeze", "Can't squeeze dimension 0 because its size is not 1")},
		{"squeeze_dim to the wrong rank", func() *Failure { return TensorSqueezeDim([]int64{2, 1, 3}, 1, 1) },
			IDCopyFromSliceLength, base + "784", "copy_from_slice: source slice length (1) does not match destination slice length (0)"},
		{"squeeze_dim past the output rank", func() *Failure { return TensorSqueezeDim([]int64{2, 3, 1}, 1, 2) },
			IDRangeEndOutOfRange, base + "783", "range end index 2 out of range for slice of length 1"},
		{"squeeze_dims every dim", func() *Failure { return TensorSqueezeDims([]int64{1, 1}, 1, nil) },
			"bt-check-squeeze-too-many", base + "847", envelope("Squeeze", "Attempted to squeeze too many dimensions! Got 2 dims, tensor has 2")},
		{"squeeze_dims a dim not 1", func() *Failure { return TensorSqueezeDims([]int64{1, 2, 3}, 1, []int64{0, -1}) },
			"bt-check-squeeze-size", base + "857", envelope("Squeeze", "Can't squeeze dimension 2 because its size is not 1")},
		{"squeeze_dims wrong rank", func() *Failure { return TensorSqueezeDims([]int64{1, 2, 1}, 1, []int64{0}) },
			"bt-check-squeeze-d2", base + "864", envelope("Squeeze", "Resulting dimensions 2 do not match the required D2 size 1.")},
		{"unsqueeze_dim past D+1", func() *Failure { return TensorUnsqueezeDim(2, 3, 3) },
			"bt-check-dim-index", base + "927", envelope("Unsqueeze", "BoundsError: dimension 3 out of bounds: 0..3")},
		{"unsqueeze_dim same rank", func() *Failure { return TensorUnsqueezeDim(3, 3, 2) },
			"bt-check-unsqueeze-dim-rank", base + "928", envelope("Unsqueeze", "The unsqueezed rank must be greater than the input rank (D=3; D2=3)")},
		{"unsqueeze_dims axis", func() *Failure { return TensorUnsqueezeDims([]int64{2, 3}, 3, []int64{5}) },
			"bt-check-unsqueeze-dims", base + "975", envelope("Unsqueeze", "unsqueeze arg 5 is out of range for the output tensor of rank 3")},
		{"unsqueeze_dims duplicate bumped out", func() *Failure { return TensorUnsqueezeDims([]int64{2, 3}, 3, []int64{2, 2}) },
			"bt-check-unsqueeze-dims", base + "1005", envelope("Unsqueeze", "unsqueeze arg 3 is out of range for the output tensor of rank 3")},
		{"unsqueeze_dims too few axes", func() *Failure { return TensorUnsqueezeDims([]int64{2, 3}, 4, []int64{0}) },
			IDCopyFromSliceLength, base + "1018", "copy_from_slice: source slice length (2) does not match destination slice length (3)"},
		{"unsqueeze_dims too many leading axes", func() *Failure { return TensorUnsqueezeDims([]int64{2, 3}, 3, []int64{0, 1}) },
			IDCopyFromSliceLength, base + "1018", "copy_from_slice: source slice length (2) does not match destination slice length (1)"},
		{"unsqueeze_dims too many trailing axes", func() *Failure { return TensorUnsqueezeDims([]int64{2, 3}, 3, []int64{1, 2}) },
			"bt-check-reshape", "crates/burn-tensor/src/tensor/api/check.rs:1497", envelope("Reshape",
				"The given shape doesn't have the same number of elements as the current shape. Current shape: [2, 3], target shape: [2, 1, 1].")},
		{"unsqueeze_dims running out of dims", func() *Failure { return TensorUnsqueezeDims([]int64{2}, 4, []int64{3}) },
			// `old_dims[old_dims_curr_idx]` on a Shape (base.rs:1025).
			IDIndexOutOfBounds, base + "1025", "index out of bounds: the len is 1 but the index is 1"},
		{"unsqueeze smaller", func() *Failure { return TensorUnsqueeze(3, 2) },
			"bt-check-unsqueeze-smaller", base + "897", envelope("Unsqueeze", "Can't unsqueeze smaller tensor, got dim 2, expected > 3")},
		{"slice too many slices", func() *Failure {
			_, f := TensorSlice([]int64{3, 5}, []Slice{RangeSlice(0, 1), RangeSlice(0, 1), RangeSlice(0, 1)})
			return f
		}, IDTooManySlices, "crates/burn-std/src/tensor/slice.rs:23", "Too many slices provided for shape, got 3 but expected at most 2"},
		{"slice zero step", func() *Failure {
			_, f := TensorSlice([]int64{3}, []Slice{{Start: 0, End: 3, HasEnd: true, Step: 0}})
			return f
		}, IDSliceStepZero, "crates/burn-std/src/tensor/slice.rs:396", "Step cannot be zero"},
		{"s! with a zero step", func() *Failure { _, f := SteppedSlice(RangeSlice(0, 3), 0); return f },
			IDSliceStepZero, "crates/burn-std/src/tensor/slice.rs:468", "Step cannot be zero"},
		{"slice_assign oversized range", func() *Failure {
			return TensorSliceAssign([]int64{3}, []int64{5}, []Slice{RangeSlice(0, 5)})
		}, "bt-check-slice-assign-count", base + "1406", envelope("Slice Assign",
			"The value tensor must match the amount of elements selected with the slices array The slice with range (0..3) and step 1 selects 3 elements but the value tensor has 5 elements at dimension 0. Current tensor shape Shape { dims: [3] }, value tensor shape Shape { dims: [5] }.")},
		{"slice_dim dim", func() *Failure { _, f := TensorSliceDim([]int64{3}, 1, RangeSlice(0, 1)); return f },
			"bt-check-dim-index", base + "1543", envelope("Slice", "BoundsError: dimension 1 out of bounds: 0..1")},
		{"select_assign", func() *Failure { return TensorSelectAssign([]int64{3, 4}, -2, []int64{2}, []int64{3, 4}) },
			"bt-check-select-assign", base + "1683", envelope("Select Assign",
				"Number of indices (2) should be equal to value tensor dimensions Shape { dims: [3, 4] } on axis (dim=0)")},
		{"mask_select", func() *Failure { return TensorMaskSelect([]int64{2, 3}, []int64{3, 2}) },
			"bt-check-mask-select", base + "1802", envelope("Mask Select",
				"The mask must have the same shape as the tensor. Tensor shape Shape { dims: [2, 3] }, mask shape Shape { dims: [3, 2] }.")},
		{"gather", func() *Failure { return TensorGather([]int64{2, 3}, 1, []int64{3, 3}) },
			"bt-check-gather-scatter-shape", base + "1825", envelope("Gather",
				"The tensor shape should be the same as the index tensor shape. The shape differs at dimension 0: 2 != 3")},
		{"scatter dim", func() *Failure { return TensorScatter([]int64{2, 3}, 2, []int64{2, 3}, []int64{2, 3}) },
			"bt-check-dim-index", base + "1887", envelope("Scatter", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"scatter_nd", func() *Failure { return TensorScatterNd([]int64{4, 5}, []int64{3, 1}, []int64{2, 5}) },
			"bt-check-scatter-nd-batch", base + "1936", envelope("ScatterNd", "Batch dimension 0 mismatch: values=2 vs indices=3")},
		{"gather_nd", func() *Failure { return TensorGatherNd([]int64{4, 5}, []int64{3, 1}, 1) },
			"bt-check-gather-nd-dv", base + "1964", envelope("GatherNd", "Output rank DV=1 does not match expected M-1+D-K = 2")},
		{"cat shapes", func() *Failure { _, f := TensorCat(2, [][]int64{{2, 3}, {2, 4}}, 0); return f },
			"bt-check-cat-shapes", base + "2486", envelope("Cat",
				"Can't concatenate tensors with different shapes, except for the provided dimension Provided dimension (0), tensors shapes: [Shape { dims: [2, 3] }, Shape { dims: [2, 4] }]")},
		{"cat dim", func() *Failure { _, f := TensorCat(2, [][]int64{{2, 3}}, -3); return f },
			"bt-check-dim-index", base + "2485", envelope("Cat", "BoundsError: dimension -3 out of bounds: 0..2")},
		{"stack same rank", func() *Failure { return TensorStack(1, 1, [][]int64{{2}, {2}}, 0) },
			"bt-check-stack-same-rank", base + "2539", envelope("Stack",
				"Can't stack tensors on existing dimension 0, the input and output ranks are the same (D=1; D2=1).If you want to concatenate the tensors along the specified dimension (0), use `Tensor::cat` instead.")},
		{"stack to a lower rank", func() *Failure { return TensorStack(2, 1, [][]int64{{2, 3}, {2, 3}}, 0) },
			"bt-check-unsqueeze-dim-rank", base + "928", envelope("Unsqueeze", "The unsqueezed rank must be greater than the input rank (D=2; D2=1)")},
		{"stack dim past D+1", func() *Failure { return TensorStack(1, 2, [][]int64{{2}}, 2) },
			"bt-check-dim-index", base + "2538", envelope("Stack", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"narrow negative dim", func() *Failure { return TensorNarrow([]int64{4}, -1, 2, 3) },
			"bt-check-narrow-end", base + "2610", envelope("Narrow",
				"Can't narrow at dimension 0, start + length exceeds the size of the tensor along this dimension (Size=4)")},
		{"split", func() *Failure { return TensorSplit([]int64{4}, 0, 0) },
			"bt-check-split", base + "2728", envelope("Split",
				"split_size must be greater than 0 unless the tensor size along the dimension is 0. split_size: '0', tensor size along dim '0': '4'.")},
		{"split_with_sizes", func() *Failure { return TensorSplitWithSizes([]int64{4}, []int64{1, 2}, 0) },
			"bt-check-split-sizes", base + "2773", envelope("Split With Sizes",
				"The sum of split_sizes must equal the tensor size along the specified dimension. Sum of split_sizes: '3', tensor size along dim '0': '4'.")},
		{"into_scalar_async", func() *Failure { return TensorIntoScalarAsync([]int64{2}) },
			"bt-check-into-scalar", base + "2977", envelope("Into Scalar", "Only tensors with 1 element can be converted into scalar. Current tensor has 2 elements")},
		{"expand incompatible", func() *Failure { _, f := TensorExpand([]int64{3}, []int64{2, 4}, false); return f },
			"bt-check-expand", base + "3050", envelope("Expand",
				"The provided tensor can't be broadcasted to the target shape. Incompatible size at dimension '0' => '3 != 4', which can't be broadcasted. Tensor shape Shape { dims: [3] }, Target shape Shape { dims: [2, 4] }.")},
		{"expand -1 without a dim", func() *Failure { _, f := TensorExpand([]int64{3}, []int64{-1, 3}, false); return f },
			"bt-broadcast-missing-dim", base + "3369", "Cannot substitute -1 for a non-existing dimension! Got [0, 3]"},
		{"expand negative", func() *Failure { _, f := TensorExpand([]int64{3}, []int64{2, -2}, false); return f },
			"bt-broadcast-negative", base + "3354", "Broadcast arguments must be positive or -1! Got -2"},
		{"expand to fewer dims", func() *Failure { _, f := TensorExpand([]int64{2, 3}, []int64{3}, false); return f },
			"bt-broadcast-too-few", base + "3340", "Broadcast arguments must be greater than the number of dimensions! got 1, need at least 2"},
		{"unfold", func() *Failure { return TensorUnfold(2, 2, 0) },
			"bt-check-unfold", base + "3091", envelope("Unfold", "The unfold rank is incompatible with the input tensor rank. The output rank '2' != the input rank + 1 '2'.")},
		{"triu", func() *Failure { return TensorTri("Tensor::triu", 1) },
			"bt-check-tri", numeric + "644", envelope("Tri", "The input tensor must have at least 2 dimensions, got 1")},
		{"cross", func() *Failure { return TensorCross(dev([]int64{2, 2}, flex), dev([]int64{2, 2}, flex), -1) },
			"bt-check-cross-size", "crates/burn-tensor/src/tensor/api/float.rs:681", envelope("Cross",
				"Cross product requires dimension 1 to have size 3, but got 2 and 2.")},
		{"topk_with_indices", func() *Failure { return TensorTopk("Tensor::topk_with_indices", []int64{3}, 5, 0) },
			"bt-check-topk", orderable + "254", envelope("Top K With Indices", "The selected index k is out of range. Got k=5 for dimension 0 with input shape [3].")},
		{"one_hot range", func() *Failure { return TensorOneHot("Int", []float64{0, 3}, 1, 2, 3) },
			"bt-check-one-hot-range", orderable + "280", envelope("One Hot",
				"Can't create a one hot tensor from (Tensor { primitive: BridgeTensor { kind: Int }, _kind: PhantomData<burn_tensor::bridge::kind::Int> }) containing indexes greater or equal to the number of classes (3)")},
		{"one_hot rank", func() *Failure { return TensorOneHot("Int", []float64{0, 1}, 1, 3, 2) },
			"bt-check-one-hot-rank", orderable + "318", envelope("One Hot",
				"The one-hot tensor rank must correspond to the rank of the tensor + 1 Expected D2=2, got 3")},
		{"one_hot_fill axis", func() *Failure { return TensorOneHotFill(1, 2, 2) },
			"bt-check-dim-index", orderable + "319", envelope("One Hot", "BoundsError: dimension 2 out of bounds: 0..2")},
		{"take", func() *Failure { return TensorTake(2, 1, 1, 0) },
			"bt-check-take-rank", "crates/burn-tensor/src/tensor/api/take.rs:47", envelope("Take",
				"Output dimension mismatch Expected output dimension 2 (D=2 + DI=1 - 1) but got DO=1")},
		{"prelu", func() *Failure { return ActivationPrelu([]int64{1, 3, 4}, []int64{2}) },
			"bt-check-prelu", "crates/burn-tensor/src/tensor/activation/base.rs:149", envelope("PReLu",
				"Number of channels in input tensor and  number of weights must be equal Got no. of channels: 3, no. of weights: 2")},
		{"conv2d groups", func() *Failure { return ModuleConv("module::conv2d", []int64{1, 3, 8, 8}, []int64{4, 1, 3, 3}, 2) },
			"bt-check-conv-channels", "crates/burn-tensor/src/tensor/module.rs:145", envelope("conv2d",
				"Number of channels in input tensor and input channels of convolution must be equal. got: 3, expected: 2")},
		{"conv_transpose1d", func() *Failure {
			return ModuleConvTranspose("module::conv_transpose1d", []int64{1, 3, 8}, []int64{4, 2, 3})
		},
			"bt-check-conv-transpose-channels", "crates/burn-tensor/src/tensor/module.rs:243", envelope("conv_transpose1d",
				"Number of channels in input tensor and input channels of convolution must be equal. got: 3, expected: 4")},
		{"det of a vector", func() *Failure { return LinalgDet([]int64{3}, 0, 0, false) },
			IDSubtractOverflow, "crates/burn-tensor/src/tensor/api/check.rs:1380", "attempt to subtract with overflow"},
		{"det rank", func() *Failure { return LinalgDet([]int64{2, 2}, 1, 0, false) },
			"bt-check-det-rank", "crates/burn-tensor/src/tensor/linalg/det.rs:81", envelope("det", "The input tensor must have at least 3 dimensions, got 2")},
		{"diag", func() *Failure { return LinalgDiag(2, 2) },
			"bt-check-diag-out", "crates/burn-tensor/src/tensor/linalg/diag.rs:23", envelope("Diag", "Output rank must be input rank minus 1 for diagonal Expected output rank 1, got 2")},
		{"lu generics first", func() *Failure { return LinalgLu([]int64{3}, 1, true) },
			"bt-check-lu-generic", "crates/burn-tensor/src/tensor/linalg/lu.rs:72", envelope("linalg::lu",
				"D - 1 = D1 must hold for the generic parameters of LU decomposition. Got generic parameters D = 1 and D1 = 1")},
		{"lu input", func() *Failure { return LinalgLu([]int64{3}, 0, true) },
			"bt-check-lu-dtype", "crates/burn-tensor/src/tensor/linalg/lu.rs:73", envelope("linalg::lu",
				"The input tensor must have a real float dtype Got an input tensor with a quantized float dtype",
				"The input tensor for LU decomposition must have at least two dimensions. Got input tensor with 1 dimensions")},
		{"qr uses LU wording", func() *Failure { return LinalgQr([]int64{3}, false) },
			"bt-check-lu-rank", "crates/burn-tensor/src/tensor/linalg/qr.rs:54", envelope("linalg::qr",
				"The input tensor for LU decomposition must have at least two dimensions. Got input tensor with 1 dimensions")},
		{"rfft length", func() *Failure { return SignalRfft([]int64{6}, 0, 0, false) },
			"bt-check-pow2", "crates/burn-tensor/src/tensor/signal/fft.rs:63", envelope("Check Is Power of two",
				"The provided dimension size must be a power of two. The length of dimension 0 is 6.")},
		{"rfft n", func() *Failure { return SignalRfft([]int64{6}, 0, 6, true) },
			"bt-rfft-n-power-of-two", "crates/burn-tensor/src/tensor/signal/fft.rs:69",
			"rfft: n must be a power of two, got 6. True non-power-of-two DFT support is tracked as a follow-up (Bluestein's algorithm)."},
		{"rfft dim", func() *Failure { return SignalRfft([]int64{6}, 1, 0, false) },
			"bt-check-dim-index", "crates/burn-tensor/src/tensor/signal/fft.rs:60", envelope("RFFT", "BoundsError: dimension 1 out of bounds: 0..1")},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.run()
			if f == nil {
				t.Fatal("passed")
			}
			if f.ID != c.id || f.Location != c.location || f.Message != c.message {
				t.Errorf("got  %s at %s:\n%q\nwant %s at %s:\n%q", f.ID, f.Location, f.Message, c.id, c.location, c.message)
			}
		})
	}
}

func TestValidatorsThatPass(t *testing.T) {
	for name, f := range map[string]*Failure{
		"add broadcasting":          TensorElementwise("Tensor::add", dev([]int64{3, 1}, flex), dev([]int64{1, 4}, flex)),
		"identity permute":          second(TensorPermute([]int64{0, 1, 2})),
		"movedim":                   TensorMovedim(3, MovedimArg{Dims: []int64{0, -1}, Vec: true}, MovedimArg{Dims: []int64{1, 0}, Vec: true}),
		"squeeze_dim":               TensorSqueezeDim([]int64{2, 1, 3}, 2, -2),
		"squeeze_dims":              TensorSqueezeDims([]int64{1, 2, 1}, 1, nil),
		"unsqueeze_dims negative":   TensorUnsqueezeDims([]int64{2, 3}, 4, []int64{-1, -1}),
		"unsqueeze_dims duplicates": TensorUnsqueezeDims([]int64{2, 3}, 4, []int64{0, 0}),
		"unsqueeze_dim at the end":  TensorUnsqueezeDim(2, 3, -1),
		"slice_assign selecting nothing": TensorSliceAssign([]int64{3}, []int64{7},
			[]Slice{RangeSlice(2, 1)}),
		"slice_fill oversized":   TensorSliceFill([]int64{3}, []Slice{RangeSlice(0, 9)}),
		"stack":                  TensorStack(2, 3, [][]int64{{2, 3}, {2, 3}}, -1),
		"stack to a higher rank": TensorStack(1, 3, [][]int64{{2}}, 0),
		"expand with -1":         second(TensorExpand([]int64{3, 1}, []int64{2, -1, 4}, false)),
		"one_hot":                TensorOneHot("Float", []float64{0, 2}, 1, 2, 3),
		"det":                    LinalgDet([]int64{5, 3, 3}, 2, 1, false),
		"rfft n":                 SignalRfft([]int64{6}, -1, 8, true),
		"hann window":            TensorCreate("signal::hann_window", 1, []int64{16}),
	} {
		if f != nil {
			t.Errorf("%s failed:\n%s", name, f.Message)
		}
	}
	clamped, f := TensorSlice([]int64{3, 5}, []Slice{RangeSlice(0, 8)})
	if f != nil || len(clamped) != 2 || clamped[0] != RangeSlice(0, 3) || clamped[1] != RangeSlice(0, 5) {
		t.Errorf("slice clamping: %+v, %v", clamped, f)
	}
	to, f := TensorExpand([]int64{3, 1}, []int64{2, -1, 4}, false)
	if f != nil || !slices.Equal(to, []int64{2, 3, 4}) {
		t.Errorf("expand target %v, %v", to, f)
	}
	axes, f := TensorPermute([]int64{-1, 0})
	if f != nil || !slices.Equal(axes, []int{1, 0}) {
		t.Errorf("permute axes %v, %v", axes, f)
	}
}

// TestSiteTable checks the table's shape and that every site the
// validators look up exists, so no failure leaves without a location.
func TestSiteTable(t *testing.T) {
	sites := Sites()
	if len(sites) < 150 {
		t.Fatalf("%d sites", len(sites))
	}
	location := regexp.MustCompile(`^crates/burn-tensor/src/tensor/[a-z_/]+\.rs:[0-9]+$`)
	seen := map[string]bool{}
	for _, s := range sites {
		key := s.Method + " " + s.Check + " " + s.Arg
		if seen[key] {
			t.Errorf("duplicate site %s", key)
		}
		seen[key] = true
		if s.Method == "" || s.Check == "" || s.Arg == "" || s.Op == "" || !location.MatchString(s.Location) {
			t.Errorf("malformed site %+v", s)
		}
		if s.Check != "unwrap_dim_index" && s.Arg != "-" && s.Check != "movedim_args_vec" && s.Check != "unsqueeze_dims" {
			t.Errorf("site %s names an argument for a check that takes none", key)
		}
	}
	source, err := os.ReadFile("methods.go")
	if err != nil {
		t.Fatal(err)
	}
	lookups := regexp.MustCompile(`(place|site)\("([^"]+)", "([^"]+)", "([^"]+)"`).FindAllStringSubmatch(string(source), -1)
	dims := regexp.MustCompile(`dimAt\("([^"]+)", "([^"]+)"`).FindAllStringSubmatch(string(source), -1)
	if len(lookups) < 40 || len(dims) < 20 {
		t.Fatalf("found %d lookups and %d dim lookups in methods.go", len(lookups), len(dims))
	}
	for _, m := range lookups {
		if _, ok := site(m[2], m[3], m[4]); !ok {
			t.Errorf("methods.go looks up a missing site %s %s %s", m[2], m[3], m[4])
		}
	}
	for _, m := range dims {
		if _, ok := site(m[1], "unwrap_dim_index", m[2]); !ok {
			t.Errorf("methods.go resolves a dim at a missing site %s %s", m[1], m[2])
		}
	}
	for _, method := range []string{"Tensor::sum_dim", "Tensor::argmax", "Tensor::select", "activation::glu", "linalg::l2_norm", "signal::cfft", "Tensor::chunk"} {
		if _, f := TensorDim(method, 9, 2); f == nil || f.Location == "" || strings.Contains(f.Message, "''") {
			t.Errorf("%s: %+v", method, f)
		}
	}
}

func TestSitesOfKeepsSourceOrder(t *testing.T) {
	var checks []string
	for _, s := range SitesOf("Tensor::squeeze_dims") {
		checks = append(checks, s.Check)
	}
	want := []string{"unwrap_dim_index", "squeeze_dims_input", "squeeze", "squeeze_dims_len"}
	if !slices.Equal(checks, want) {
		t.Errorf("got %v, want %v", checks, want)
	}
	all := Sites()
	all[0].Method = "changed"
	if Sites()[0].Method == "changed" {
		t.Error("Sites shares the table with its caller")
	}
}

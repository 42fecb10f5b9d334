package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::unfold4d and module::fold4d (crates/burn-tensor/src/tensor/module.rs:297-336)
// with burn-std's UnfoldOptions (crates/burn-std/src/ops.rs:181-205).
// Dispatch::unfold4d is a multi_op! on x (crates/burn-dispatch/src/ops/module.rs:544-550);
// burn-dispatch has no fold4d, so ModuleOps' default runs on Dispatch
// itself (crates/burn-backend/src/backend/ops/modules/base.rs:517-582):
// its asserts, the one-hot weight's from_data, a reshape and
// conv_transpose2d, each traced.

const locModuleOpsBase = "crates/burn-backend/src/backend/ops/modules/base.rs"

// UnfoldOptions is burn-std's UnfoldOptions.
type UnfoldOptions struct {
	stride, padding, dilation []int64
}

func (o *UnfoldOptions) TypeName() string { return "UnfoldOptions" }

func (w *World) unfoldOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" {
		return nil, errUnknownFunction("struct `UnfoldOptions`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	arrays := make([][]int64, 3)
	for i := range arrays {
		v, ue := intsArg(a, i)
		if ue == nil && len(v) != 2 {
			ue = errArgType(i+1, "[usize; 2]", c.Args[i])
		}
		if ue != nil {
			return nil, ue, nil
		}
		arrays[i] = v
	}
	if p := nonZeroOptions(arrays[0], arrays[2], 1, ""); p != nil {
		return nil, nil, p
	}
	return &UnfoldOptions{stride: arrays[0], padding: arrays[1], dilation: arrays[2]}, nil, nil
}

func usizePair(v []int64) [2]int { return [2]int{int(v[0]), int(v[1])} }

// unfold4d is module::unfold4d(x, kernel_size, options) and, when fold,
// module::fold4d(x, output_size, kernel_size, options).
func (w *World) unfold4d(c Call, fold bool) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	want, rank := 3, 4
	if fold {
		want, rank = 4, 3
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	if x.kind != KindFloat || x.Rank() != rank {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", rank), c.Args[0]), nil
	}
	arrays := make([][]int64, want-2)
	for i := range arrays {
		v, ue := intsArg(a, 1+i)
		if ue == nil && len(v) != 2 {
			ue = errArgType(2+i, "[usize; 2]", c.Args[1+i])
		}
		if ue != nil {
			return nil, ue, nil
		}
		arrays[i] = v
	}
	opts, ok := a.get(want - 1).(*UnfoldOptions)
	if !ok {
		return nil, errArgType(want, "UnfoldOptions", c.Args[want-1]), nil
	}
	kernel := arrays[len(arrays)-1]
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}})
	if !fold {
		blocks := int64(1)
		for i := range 2 {
			blocks *= tensor.UnfoldWindows(x.shape[2+i], kernel[i], opts.stride[i], opts.padding[i], opts.dilation[i])
		}
		shape := []int64{x.shape[0], x.shape[1] * kernel[0] * kernel[1], blocks}
		v, ue, p := w.finish("unfold4d", x, pl, p, KindFloat, shape, x.dtype)
		return w.computed(v, ue, p, []*Tensor{x}, func(*Tensor) (*tensor.Tensor, error) {
			work, ok := tensor.ConvWork(x.shape, []int64{shape[1], x.shape[1], kernel[0], kernel[1]}, append(shape[:2:2], blocks), false)
			if !ok || !w.budget.TakeWork(work) {
				return nil, tensor.ErrBudget
			}
			return tensor.Unfold4d(x.vals(), usizePair(kernel), usizePair(opts.stride), usizePair(opts.padding), usizePair(opts.dilation))
		})
	}
	if p != nil {
		return nil, nil, w.failOp("fold4d", x, p)
	}
	size := arrays[0]
	channels, blocks := x.shape[1], x.shape[2]
	kk := kernel[0] * kernel[1]
	if kk == 0 {
		// `channels_col % kernel_elems` with a kernel dim of 0 (base.rs:532),
		// before the assert can compare it.
		return nil, nil, newPanic("rust-fold4d-remainder-by-zero", at(locModuleOpsBase, 532),
			"attempt to calculate the remainder with a divisor of zero")
	}
	if channels%kk != 0 {
		return nil, nil, newPanic("fold4d-channels", at(locModuleOpsBase, 531),
			fmt.Sprintf("assertion `left == right` failed: fold4d: input channels (%d) must be divisible by the kernel size product (%d)\n  left: %d\n right: 0", channels, kk, channels%kk))
	}
	var grid [2]int64
	for i := range 2 {
		// `output + 2 * padding - dilation * (kernel - 1) - 1` in usize
		// (base.rs:540 for the height, 544 for the width): a debug build
		// panics at either subtraction once the dilated kernel is larger
		// than the padded output.
		if opts.dilation[i]*(kernel[i]-1)+1 > size[i]+2*opts.padding[i] {
			return nil, nil, newPanic("rust-fold4d-sub-overflow", at(locModuleOpsBase, 540+4*i),
				"attempt to subtract with overflow")
		}
		grid[i] = (size[i]+2*opts.padding[i]-opts.dilation[i]*(kernel[i]-1)-1)/opts.stride[i] + 1
	}
	if blocks != grid[0]*grid[1] {
		return nil, nil, newPanic("fold4d-blocks", at(locModuleOpsBase, 547),
			fmt.Sprintf("assertion `left == right` failed: fold4d: number of blocks (%d) does not match the expected grid (%d x %d) for the given output size and options\n  left: %d\n right: %d",
				blocks, grid[0], grid[1], blocks, grid[0]*grid[1]))
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	c0 := channels / kk
	w.recordOp("float_from_data", pl, w.newTensor(KindFloat, []int64{channels, c0, kernel[0], kernel[1]}, x.dtype, pl.on))
	w.recordOp("float_reshape", pl, w.output(pl, KindFloat, []int64{x.shape[0], channels, grid[0], grid[1]}, x.dtype))
	shape := []int64{x.shape[0], c0, size[0], size[1]}
	v, ue, p := w.finish("conv_transpose2d", x, pl, nil, KindFloat, shape, x.dtype)
	return w.computed(v, ue, p, []*Tensor{x}, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.ConvWork([]int64{x.shape[0], channels, grid[0], grid[1]}, []int64{channels, c0, kernel[0], kernel[1]}, shape, true)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		return tensor.Fold4d(x.vals(), usizePair(size), usizePair(kernel), usizePair(opts.stride), usizePair(opts.padding), usizePair(opts.dilation))
	})
}

// embedding is module::embedding(weights [n, d], indices [b, s]): the rows
// indices name, [b, s, d] (crates/burn-tensor/src/tensor/module.rs:80-86),
// a multi_op! on both (crates/burn-dispatch/src/ops/module.rs:271-277).
// burn-flex gathers the rows, and its embedding_backward adds each row's
// gradient back to the row it came from, as Select's gradient does.
func (w *World) embedding(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	weights, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	indices, ue := a.tensor(1)
	if ue != nil {
		return nil, ue, nil
	}
	if weights.kind != KindFloat || weights.Rank() != 2 {
		return nil, errArgType(1, "Tensor<2>", c.Args[0]), nil
	}
	if indices.kind != KindInt || indices.Rank() != 2 {
		return nil, errArgType(2, "Tensor<2, Int>", c.Args[1]), nil
	}
	pl, p := routeMulti([]namedInput{{name: "weights", t: weights, arg: 1}, {name: "indices", t: indices, arg: 2}})
	shape := []int64{indices.shape[0], indices.shape[1], weights.shape[1]}
	v, ue, p := w.finish("embedding", weights, pl, p, KindFloat, shape, weights.dtype)
	return w.computed(v, ue, p, []*Tensor{weights, indices}, func(*Tensor) (*tensor.Tensor, error) {
		flat, err := tensor.Reshape(indices.vals(), []int{int(indices.shape[0] * indices.shape[1])})
		if err != nil {
			return nil, err
		}
		rows, err := tensor.Select(weights.vals(), 0, flat)
		if err != nil {
			return nil, err
		}
		return tensor.Reshape(rows, intDims(shape))
	})
}

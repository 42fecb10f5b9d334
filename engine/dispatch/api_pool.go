package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// burn::tensor::module's pools (crates/burn-tensor/src/tensor/module.rs:338-488).
// Each is one multi_op! module op of burn-dispatch on x alone
// (crates/burn-dispatch/src/ops/module.rs:122-646), so the trace names the
// ModuleOps function; values are burn-flex's (package tensor, pool.go).

const locFlexPool = "crates/burn-flex/src/ops/pool.rs"

// poolFunctions are the module pools and the rank of their input.
var poolFunctions = map[string]int{
	"max_pool1d": 3, "max_pool2d": 4, "max_pool1d_with_indices": 3, "max_pool2d_with_indices": 4,
	"avg_pool1d": 3, "avg_pool2d": 4,
	"adaptive_avg_pool1d": 3, "adaptive_avg_pool2d": 4, "adaptive_avg_pool3d": 5,
}

// pool is module::max_pool*, avg_pool* and adaptive_avg_pool*.
func (w *World) pool(name string, c Call) (Value, *UsageError, *Panic) {
	rank := poolFunctions[name]
	spatial := rank - 2
	a := argList{c: c}
	adaptive := len(name) > 9 && name[:9] == "adaptive_"
	isMax := name[:3] == "max"
	want := 6
	if adaptive {
		want = 2
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
	// spatialArg reads a usize (1-D) or an array of spatial usizes.
	spatialArg := func(i int) ([]int64, *UsageError) {
		if spatial == 1 {
			n, ue := a.int(i)
			return []int64{n}, ue
		}
		v, ue := intsArg(a, i)
		if ue == nil && len(v) != spatial {
			ue = errArgType(i+1, fmt.Sprintf("[usize; %d]", spatial), c.Args[i])
		}
		return v, ue
	}
	if adaptive {
		size, ue := spatialArg(1)
		if ue != nil {
			return nil, ue, nil
		}
		shape := append(append([]int64{}, x.shape[:2]...), size...)
		v, ue, p := w.poolOp(name, x, shape)
		return w.computed(v, ue, p, []*Tensor{x}, func(out *Tensor) (*tensor.Tensor, error) {
			work, ok := tensor.AdaptiveWork(x.shape, size)
			if !ok || !w.budget.TakeWork(work) {
				return nil, tensor.ErrBudget
			}
			return tensor.AdaptiveAvgPool(x.vals(), intDims(size))
		})
	}
	var geo [4][]int64 // kernel, stride, padding, dilation
	for i := range 3 {
		v, ue := spatialArg(1 + i)
		if ue != nil {
			return nil, ue, nil
		}
		geo[i] = v
	}
	geo[3] = []int64{1, 1}[:spatial]
	if isMax {
		v, ue := spatialArg(4)
		if ue != nil {
			return nil, ue, nil
		}
		geo[3] = v
	}
	var countPad bool
	if !isMax {
		if countPad, ue = a.boolean(4); ue != nil {
			return nil, ue, nil
		}
	}
	ceil, ue := a.boolean(5)
	if ue != nil {
		return nil, ue, nil
	}
	for i := range spatial {
		// burn-flex's pool_output_size asserts (pool.rs:144-145).
		if geo[0][i] <= 0 {
			return nil, nil, newPanic("flex-pool-kernel", at(locFlexPool, 144), "pool: kernel size must be > 0")
		}
		if geo[1][i] <= 0 {
			return nil, nil, newPanic("flex-pool-stride", at(locFlexPool, 145), "pool: stride must be > 0")
		}
	}
	shape := append([]int64{}, x.shape[:2]...)
	for i := range spatial {
		shape = append(shape, tensor.PoolOutputSize(x.shape[2+i], geo[0][i], geo[2][i], geo[1][i], geo[3][i], ceil))
	}
	opts := tensor.Pool{Kernel: intDims(geo[0]), Stride: intDims(geo[1]), Padding: intDims(geo[2]),
		Dilation: intDims(geo[3]), CeilMode: ceil, CountIncludePad: countPad}
	payWork := func() bool {
		work, ok := tensor.PoolWork(shape, geo[0])
		return ok && w.budget.TakeWork(work)
	}
	if !isMax {
		v, ue, p := w.poolOp(name, x, shape)
		return w.computed(v, ue, p, []*Tensor{x}, func(*Tensor) (*tensor.Tensor, error) {
			if !payWork() {
				return nil, tensor.ErrBudget
			}
			return tensor.AvgPool(x.vals(), opts)
		})
	}
	withIndices := len(name) > 13
	v, ue, p := w.poolOp(name, x, shape)
	if ue != nil || p != nil {
		return v, ue, p
	}
	out := v.(*Tensor)
	var indices *tensor.Tensor
	indexDType := w.defaultsFor(x.on).int
	w.compute(out, []*Tensor{x}, func() (*tensor.Tensor, error) {
		if !payWork() {
			return nil, tensor.ErrBudget
		}
		dt, ok := valueDType(indexDType)
		if !ok {
			return nil, tensor.ErrKind
		}
		o, idx, err := tensor.MaxPool(x.vals(), opts, dt)
		indices = idx
		return o, err
	})
	if !withIndices {
		return out, nil, nil
	}
	idx := w.newTensor(KindInt, shape, indexDType, out.on)
	if indices != nil && out.hasVals() && w.budget.TakeShape(shape) {
		idx.val = indices
	}
	return Tuple{out, idx}, nil, nil
}

// poolOp routes a pool's single input and records its output.
func (w *World) poolOp(name string, x *Tensor, shape []int64) (Value, *UsageError, *Panic) {
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}})
	return w.finish(name, x, pl, p, KindFloat, shape, x.dtype)
}

// moduleBackward is module::avg_pool2d_backward,
// max_pool2d_with_indices_backward and conv2d_weight_backward
// (crates/burn-tensor/src/tensor/module.rs:649-710): multi_op!s on all
// their tensors (crates/burn-dispatch/src/ops/module.rs:136-150, 225-244,
// 356-368). burn-autodiff cannot differentiate the two pool backwards
// and panics (crates/burn-autodiff/src/ops/module.rs:1498, 1749);
// conv2d_weight_backward keeps ModuleOps' default there.
func (w *World) moduleBackward(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	want := map[string]int{"avg_pool2d_backward": 7, "max_pool2d_with_indices_backward": 8, "conv2d_weight_backward": 4}[name]
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	tensorAt := func(i int, kind Kind) (*Tensor, *UsageError) {
		t, ue := a.tensor(i)
		if ue == nil && (t.kind != kind || t.Rank() != 4) {
			typ := "Tensor<4>"
			if kind == KindInt {
				typ = "Tensor<4, Int>"
			}
			ue = errArgType(i+1, typ, c.Args[i])
		}
		return t, ue
	}
	pairAt := func(i int) ([]int64, *UsageError) {
		v, ue := intsArg(a, i)
		if ue == nil && len(v) != 2 {
			ue = errArgType(i+1, "[usize; 2]", c.Args[i])
		}
		return v, ue
	}
	x, ue := tensorAt(0, KindFloat)
	if ue != nil {
		return nil, ue, nil
	}
	switch name {
	case "conv2d_weight_backward":
		weight, ue := tensorAt(1, KindFloat)
		if ue != nil {
			return nil, ue, nil
		}
		grad, ue := tensorAt(2, KindFloat)
		if ue != nil {
			return nil, ue, nil
		}
		opts, ok := a.get(3).(*ConvOptions)
		if !ok || opts.transpose || opts.padded || len(opts.stride) != 2 {
			return nil, errArgType(4, "ConvOptions<2>", c.Args[3]), nil
		}
		pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}, {name: "weight", t: weight, arg: 2}, {name: "output_grad", t: grad, arg: 3}})
		v, ue, p := w.finish(name, x, pl, p, KindFloat, weight.shape, weight.dtype)
		return w.computed(v, ue, p, []*Tensor{x, weight, grad}, func(*Tensor) (*tensor.Tensor, error) {
			work, ok := tensor.ConvWork(x.shape, weight.shape, grad.shape, false)
			if !ok || !w.budget.TakeWork(2*work) {
				return nil, tensor.ErrBudget
			}
			conv := tensor.Conv{Stride: intDims(opts.stride), Padding: intDims(opts.padding), Dilation: intDims(opts.dilation), Groups: int(opts.groups)}
			return tensor.VJP(func(wt *tensor.Tensor) (*tensor.Tensor, error) {
				return tensor.Convolution(x.vals().Detach(), wt, nil, conv)
			}, weight.vals(), grad.vals(), w.budget)
		})
	}
	geo := make([][]int64, 3)
	if name == "avg_pool2d_backward" {
		grad, ue := tensorAt(1, KindFloat)
		if ue != nil {
			return nil, ue, nil
		}
		for i := range 3 {
			v, ue := pairAt(2 + i)
			if ue != nil {
				return nil, ue, nil
			}
			geo[i] = v
		}
		countPad, ue := a.boolean(5)
		if ue != nil {
			return nil, ue, nil
		}
		ceil, ue := a.boolean(6)
		if ue != nil {
			return nil, ue, nil
		}
		pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}, {name: "grad", t: grad, arg: 2}})
		if p == nil && pl.autodiff {
			return nil, nil, w.failOp(name, x, newPanic("ad-avg-pool-backward", at("crates/burn-autodiff/src/ops/module.rs", 1498),
				"Can't differentiate avg pool 2d backward."))
		}
		v, ue, p := w.finish(name, x, pl, p, KindFloat, x.shape, x.dtype)
		return w.computed(v, ue, p, []*Tensor{x, grad}, func(*Tensor) (*tensor.Tensor, error) {
			work, ok := tensor.PoolWork(grad.shape, geo[0])
			if !ok || !w.budget.TakeWork(2*work) {
				return nil, tensor.ErrBudget
			}
			o := tensor.Pool{Kernel: intDims(geo[0]), Stride: intDims(geo[1]), Padding: intDims(geo[2]), CeilMode: ceil, CountIncludePad: countPad}
			return tensor.VJP(func(t *tensor.Tensor) (*tensor.Tensor, error) { return tensor.AvgPool(t, o) }, x.vals(), grad.vals(), w.budget)
		})
	}
	// max_pool2d_with_indices_backward(x, kernel, stride, padding, dilation, ceil_mode, output_grad, indices):
	// the geometry is checked for its types; the indices say where each
	// gradient goes.
	for i := 1; i <= 4; i++ {
		if _, ue := pairAt(i); ue != nil {
			return nil, ue, nil
		}
	}
	if _, ue := a.boolean(5); ue != nil {
		return nil, ue, nil
	}
	grad, ue := tensorAt(6, KindFloat)
	if ue != nil {
		return nil, ue, nil
	}
	indices, ue := tensorAt(7, KindInt)
	if ue != nil {
		return nil, ue, nil
	}
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}, {name: "output_grad", t: grad, arg: 7}, {name: "indices", t: indices, arg: 8}})
	if p == nil && pl.autodiff {
		return nil, nil, w.failOp(name, x, newPanic("ad-max-pool-backward", at("crates/burn-autodiff/src/ops/module.rs", 1749),
			"Can't differentiate max pool2d with indices backward."))
	}
	v, ue, p := w.finish(name, x, pl, p, KindFloat, x.shape, x.dtype)
	return w.computed(v, ue, p, []*Tensor{x, grad, indices}, func(*Tensor) (*tensor.Tensor, error) {
		return tensor.MaxPoolBackward(x.vals(), grad.vals(), indices.vals())
	})
}

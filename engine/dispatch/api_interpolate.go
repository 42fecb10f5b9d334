package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::interpolate (crates/burn-tensor/src/tensor/module.rs:490-501)
// and burn-std's InterpolateOptions (crates/burn-std/src/ops.rs:206-253).
// Dispatch::interpolate is a multi_op! on x alone
// (crates/burn-dispatch/src/ops/module.rs:246-256); burn-flex computes it
// (package tensor, interpolate.rs) and panics on a mode it has no kernel
// for (crates/burn-flex/src/ops/module.rs:601).

const locFlexModule = "crates/burn-flex/src/ops/module.rs"

// interpolateModes are burn-std's InterpolateMode variants.
var interpolateModes = map[string]bool{"Nearest": true, "NearestExact": true, "Bilinear": true, "Bicubic": true, "Lanczos3": true}

// InterpolateOptions is burn-std's InterpolateOptions.
type InterpolateOptions struct {
	mode         string
	alignCorners bool
}

func (o *InterpolateOptions) TypeName() string { return "InterpolateOptions" }

// interpolateOptionsFunction is InterpolateOptions::new(mode), whose
// align_corners defaults to true (ops.rs:241-246).
func (w *World) interpolateOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" {
		return nil, errUnknownFunction("struct `InterpolateOptions`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	mode, ok := a.get(0).(*Enum)
	if !ok || mode.Type != "InterpolateMode" || !interpolateModes[mode.Variant] || len(mode.Fields) != 0 {
		return nil, errArgType(1, "InterpolateMode", c.Args[0]), nil
	}
	return &InterpolateOptions{mode: mode.Variant, alignCorners: true}, nil, nil
}

// interpolateOptionsMethod is with_align_corners (ops.rs:249-252).
func (w *World) interpolateOptionsMethod(o *InterpolateOptions, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "with_align_corners":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		b, ue := a.boolean(0)
		if ue != nil {
			return nil, ue, nil
		}
		return &InterpolateOptions{mode: o.mode, alignCorners: b}, nil, nil
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		cp := *o
		return &cp, nil, nil
	}
	return nil, errUnknownMethod("struct `InterpolateOptions`", c.Method), nil
}

// interpolateOptionsOf reads InterpolateOptions::new(..) or a struct
// literal `InterpolateOptions { mode, align_corners }` (both fields are
// public and have no default).
func interpolateOptionsOf(v Value) (*InterpolateOptions, bool) {
	switch o := v.(type) {
	case *InterpolateOptions:
		return o, true
	case *Enum:
		if o.Variant != "InterpolateOptions" || len(o.Named) != 2 {
			return nil, false
		}
		mode, ok := Deref(o.Named["mode"]).(*Enum)
		align, isBool := Deref(o.Named["align_corners"]).(Bool)
		if !ok || !isBool || mode.Type != "InterpolateMode" || !interpolateModes[mode.Variant] {
			return nil, false
		}
		return &InterpolateOptions{mode: mode.Variant, alignCorners: bool(align)}, true
	}
	return nil, false
}

// interpolate is module::interpolate(x, output_size, options).
func (w *World) interpolate(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	if x.kind != KindFloat || x.Rank() != 4 {
		return nil, errArgType(1, "Tensor<4>", c.Args[0]), nil
	}
	size, ue := intsArg(a, 1)
	if ue == nil && len(size) != 2 {
		ue = errArgType(2, "[usize; 2]", c.Args[1])
	}
	if ue != nil {
		return nil, ue, nil
	}
	opts, ok := interpolateOptionsOf(a.get(2))
	if !ok {
		return nil, errArgType(3, "InterpolateOptions", c.Args[2]), nil
	}
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}})
	if p == nil {
		if kp := interpolateKernelPanic(pl, x, opts.mode); kp != nil {
			if p := w.prepare(pl.on); p != nil {
				return nil, nil, p
			}
			return nil, nil, kp
		}
	}
	shape := []int64{x.shape[0], x.shape[1], size[0], size[1]}
	v, ue, p := w.finish("interpolate", x, pl, p, KindFloat, shape, x.dtype)
	return w.computed(v, ue, p, []*Tensor{x}, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.InterpolateWork(shape)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		return tensor.Interpolate(x.vals(), int(size[0]), int(size[1]), opts.mode, opts.alignCorners)
	})
}

// interpolateKernelPanic is the panic of the backend's interpolate before
// it computes anything, nil when its kernel runs. Each backend has its own:
//   - burn-flex panics on a mode it has no kernel for
//     (crates/burn-flex/src/ops/module.rs:601) and asserts a non-empty
//     input in each kernel (crates/burn-flex/src/ops/interpolate.rs:219,
//     332, 505, 716);
//   - burn-ndarray panics on NearestExact
//     (crates/burn-ndarray/src/ops/module.rs:309) and has no empty-input
//     check (its kernels index or subtract past an empty axis, in rayon's
//     threads; the engine carries that result as a shape only);
//   - burn-tch panics on NearestExact and Lanczos3
//     (crates/burn-tch/src/ops/module.rs:421, 430);
//   - burn-cubecl has a kernel for every mode
//     (crates/burn-cubecl/src/kernel/interpolate/base.rs:158).
//
// The engine's values are burn-flex's kernels; package tensor refuses an
// empty input and NearestExact, so those results carry no values.
func interpolateKernelPanic(pl placement, x *Tensor, mode string) *Panic {
	switch pl.on.Inner().backend {
	case Flex:
		if mode == "NearestExact" {
			dt := x.dtype
			if dt == "Flex32" {
				dt = F32
			}
			return newPanic("flex-interpolate-mode", at(locFlexModule, 601),
				fmt.Sprintf("interpolate: unsupported mode %s / dtype %s", mode, dt))
		}
		if x.shape[2] == 0 || x.shape[3] == 0 {
			return newPanic("flex-interpolate-empty", at("crates/burn-flex/src/ops/interpolate.rs", interpolateAssertLine[mode]),
				"interpolate: input spatial dimensions must be > 0")
		}
	case NdArray:
		if mode == "NearestExact" {
			return newPanic("ndarray-interpolate-nearest-exact", at("crates/burn-ndarray/src/ops/module.rs", 309),
				"nearest exact interpolation is not supported for ndarray backend")
		}
	case LibTorch:
		switch mode {
		case "NearestExact":
			return newPanic("tch-interpolate-nearest-exact", at("crates/burn-tch/src/ops/module.rs", 421),
				"nearest exact interpolation is not supported by PyTorch/tch backend")
		case "Lanczos3":
			return newPanic("tch-interpolate-lanczos3", at("crates/burn-tch/src/ops/module.rs", 430),
				"lanczos3 interpolation is not supported by PyTorch/tch backend")
		}
	}
	return nil
}

// interpolateAssertLine is where each burn-flex kernel asserts a
// non-empty input (interpolate.rs).
var interpolateAssertLine = map[string]int{"Nearest": 219, "Bilinear": 332, "Bicubic": 505, "Lanczos3": 716}

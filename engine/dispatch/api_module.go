package dispatch

import (
	"errors"
	"fmt"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// burn::tensor::module's convolutions and activation::prelu. The
// convolutions are multi_op! module ops: x chooses the backend, weight
// must agree, and the optional bias has its own messages
// (crates/burn-dispatch/src/ops/module.rs, macros.rs:1109-1230).

// ConvOptions is burn's ConvOptions<N> or ConvTransposeOptions<N>.
type ConvOptions struct {
	stride, padding, dilation, paddingOut []int64
	groups                                int64
	transpose                             bool
	// padded: a PaddedConvOptions (crates/burn-std/src/ops.rs:53-101),
	// whose paddingEnd is nil when both ends are equal.
	padded     bool
	paddingEnd []int64
}

func (o *ConvOptions) TypeName() string {
	switch {
	case o.transpose:
		return "ConvTransposeOptions"
	case o.padded:
		return "PaddedConvOptions"
	}
	return "ConvOptions"
}

// paddedConvOptionsFunction is PaddedConvOptions::asymmetric(stride,
// padding_start, padding_end, dilation, groups) (ops.rs:67-89).
func (w *World) paddedConvOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "asymmetric" {
		return nil, errUnknownFunction("struct `PaddedConvOptions`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(5); ue != nil {
		return nil, ue, nil
	}
	arrays := make([][]int64, 4)
	for i := range arrays {
		v, ue := intsArg(a, i)
		if ue == nil && i > 0 && len(v) != len(arrays[0]) {
			ue = errArgType(i+1, fmt.Sprintf("[usize; %d]", len(arrays[0])), c.Args[i])
		}
		if ue != nil {
			return nil, ue, nil
		}
		arrays[i] = v
	}
	groups, ue := a.int(4)
	if ue != nil {
		return nil, ue, nil
	}
	if p := nonZeroOptions(arrays[0], arrays[3], groups, "groups must be non-zero"); p != nil {
		return nil, nil, p
	}
	o := &ConvOptions{stride: arrays[0], padding: arrays[1], dilation: arrays[3], groups: groups, padded: true}
	for i := range arrays[1] {
		if arrays[1][i] != arrays[2][i] {
			o.paddingEnd = arrays[2]
			break
		}
	}
	return o, nil, nil
}

func (w *World) convOptionsFunction(typ, name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" {
		return nil, errUnknownFunction("struct `"+typ+"`", name), nil
	}
	a := argList{c: c}
	transpose := typ == "ConvTransposeOptions"
	want := 4
	if transpose {
		want = 5
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	arrays := make([][]int64, want-1)
	for i := range arrays {
		v, ue := intsArg(a, i)
		if ue != nil {
			return nil, ue, nil
		}
		arrays[i] = v
	}
	groups, ue := a.int(want - 1)
	if ue != nil {
		return nil, ue, nil
	}
	o := &ConvOptions{stride: arrays[0], padding: arrays[1], groups: groups, transpose: transpose}
	if transpose {
		o.paddingOut, o.dilation = arrays[2], arrays[3]
	} else {
		o.dilation = arrays[2]
	}
	if p := nonZeroOptions(o.stride, o.dilation, groups, "groups must be non-zero"); p != nil {
		return nil, nil, p
	}
	return o, nil, nil
}

// nonZeroOptions is the constructors' check_nonzero (crates/burn-std/src/ops.rs:8-11,
// an Option::expect): stride first, then dilation, then the groups.
func nonZeroOptions(stride, dilation []int64, groups int64, groupsMsg string) *Panic {
	for _, check := range []struct {
		v   []int64
		msg string
	}{{stride, "stride must be non-zero"}, {dilation, "dilation must be non-zero"}, {[]int64{groups}, groupsMsg}} {
		for _, n := range check.v {
			if n == 0 {
				return newPanic("std-nonzero-option", "crates/burn-std/src/ops.rs:9", check.msg)
			}
		}
	}
	return nil
}

// convFunctions are the module convolutions and their spatial rank.
var convFunctions = map[string]int{
	"conv1d": 1, "conv2d": 2, "conv3d": 3, "conv_transpose1d": 1, "conv_transpose2d": 2, "conv_transpose3d": 3,
}

func (w *World) conv(name string, c Call) (Value, *UsageError, *Panic) {
	spatial := convFunctions[name]
	transpose := spatial > 0 && len(name) > len("conv_transpose") && name[:14] == "conv_transpose"
	a := argList{c: c}
	if ue := a.want(4); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	weight, ue := a.tensor(1)
	if ue != nil {
		return nil, ue, nil
	}
	rank := spatial + 2
	if x.kind != KindFloat || x.Rank() != rank || weight.kind != KindFloat || weight.Rank() != rank {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", rank), c.Args[0]), nil
	}
	var bias *Tensor
	switch b := a.get(2).(type) {
	case *Enum:
		if b.Type == "Option" && b.Variant == "Some" && len(b.Fields) == 1 {
			bias, _ = Deref(b.Fields[0]).(*Tensor)
		}
	case *Tensor:
		bias = b
	}
	opts, ok := a.get(3).(*ConvOptions)
	if !ok || opts.transpose != transpose || len(opts.stride) != spatial {
		return nil, errArgType(4, map[bool]string{false: "ConvOptions", true: "ConvTransposeOptions"}[transpose], c.Args[3]), nil
	}
	var f *burncheck.Failure
	if transpose {
		f = burncheck.ModuleConvTranspose("module::"+name, x.shape, weight.shape)
	} else {
		f = burncheck.ModuleConv("module::"+name, x.shape, weight.shape, opts.groups)
	}
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	if opts.paddingEnd != nil {
		// module.rs:105-125, 150-172, 199-201: conv3d refuses, conv1d and
		// conv2d pad x with zeros and convolve without padding.
		if spatial == 3 {
			return nil, nil, newPanic("conv3d-asymmetric", "crates/burn-tensor/src/tensor/module.rs:200",
				"Asymmetric padding is not yet supported for conv3d")
		}
		pads := Tuple{Int{V: opts.padding[0]}, Int{V: opts.paddingEnd[0]}, Int{V: 0}, Int{V: 0}}
		if spatial == 2 {
			pads = Tuple{Int{V: opts.padding[1]}, Int{V: opts.paddingEnd[1]}, Int{V: opts.padding[0]}, Int{V: opts.paddingEnd[0]}}
		}
		padded, ue, p := w.pad(x, argList{c: Call{Recv: x, Method: "pad",
			Args: []Value{pads, &Enum{Type: "PadMode", Variant: "Constant", Fields: []Value{Float{V: 0}}}}}, method: true})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		x = padded.(*Tensor)
		zero := *opts
		zero.padding, zero.paddingEnd = make([]int64, spatial), nil
		opts = &zero
	}
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}, {name: "weight", t: weight, arg: 2}, {name: "bias", t: bias, optional: true, arg: 3}})
	shape := convShape(x.shape, weight.shape, opts)
	v, ue, p := w.finish(name, x, pl, p, KindFloat, shape, x.dtype)
	inputs := []*Tensor{x, weight}
	if bias != nil {
		inputs = append(inputs, bias)
	}
	return w.computed(v, ue, p, inputs, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.ConvWork(x.shape, weight.shape, shape, transpose)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		var b *tensor.Tensor
		if bias != nil {
			b = bias.vals()
		}
		return tensor.Convolution(x.vals(), weight.vals(), b, tensor.Conv{Stride: intDims(opts.stride), Padding: intDims(opts.padding),
			Dilation: intDims(opts.dilation), PaddingOut: intDims(opts.paddingOut), Groups: int(opts.groups), Transpose: transpose})
	})
}

// convShape is the output shape of a convolution, floor division as the
// backends compute it.
func convShape(x, weight []int64, o *ConvOptions) []int64 {
	out := []int64{x[0], weight[0]}
	if o.transpose {
		out[1] = weight[1] * max(o.groups, 1)
	}
	for i := range o.stride {
		in, k := x[i+2], weight[i+2]
		s, p, d := elemOr(o.stride, i, 1), elemOr(o.padding, i, 0), elemOr(o.dilation, i, 1)
		var size int64
		if o.transpose {
			size = (in-1)*s - 2*p + d*(k-1) + elemOr(o.paddingOut, i, 0) + 1
		} else {
			size = (in+2*p-d*(k-1)-1)/max(s, 1) + 1
		}
		out = append(out, max(size, 0))
	}
	return out
}

func elemOr(v []int64, i int, def int64) int64 {
	if i < len(v) {
		return v[i]
	}
	return def
}

// prelu is activation::prelu(tensor, alpha): the shape check, then
// Dispatch::prelu, routed by binary_float! (crates/burn-dispatch/src/ops/activation.rs:22-24).
func (w *World) prelu(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	x, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	alpha, ue := a.tensor(1)
	if ue != nil {
		return nil, ue, nil
	}
	if x.kind != KindFloat || alpha.kind != KindFloat {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", x.Rank()), c.Args[0]), nil
	}
	if p := checkFailed(burncheck.ActivationPrelu(x.shape, alpha.shape)); p != nil {
		return nil, nil, p
	}
	// The weights are reshaped to broadcast over dim 1, or everywhere for
	// one weight (activation/base.rs:154-165).
	dims := make([]Value, x.Rank())
	for i := range dims {
		dims[i] = Int{V: 1}
	}
	if len(alpha.shape) == 1 && alpha.shape[0] != 1 && len(dims) > 1 {
		dims[1] = Int{V: alpha.shape[0]}
	}
	weight := alpha
	if x.Rank() > 0 {
		v, err := w.Call(Call{Recv: alpha, Method: "reshape", Args: []Value{&Array{Elems: dims}}})
		if err != nil {
			var p *Panic
			if errors.As(err, &p) {
				return nil, nil, p
			}
			return nil, &UsageError{Code: "playground-internal-error", Arg: -1, Message: err.Error()}, nil
		}
		weight = v.(*Tensor)
	}
	pl, p := w.routeBinaryFloat(x, weight)
	v, ue, p := w.finish("prelu", x, pl, p, KindFloat, x.shape, x.dtype)
	if out, ok := v.(*Tensor); ok {
		w.compute(out, []*Tensor{x, weight}, func() (*tensor.Tensor, error) { return tensor.Binary("prelu", x.vals(), weight.vals()) })
	}
	return v, ue, p
}

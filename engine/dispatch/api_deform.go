package dispatch

import (
	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::deform_conv2d (crates/burn-tensor/src/tensor/module.rs:212-235)
// and burn-std's DeformConvOptions (crates/burn-std/src/ops.rs:105-141).
// Dispatch::deform_conv2d is a multi_op! on x, offset and weight, mask and
// bias optional (crates/burn-dispatch/src/ops/module.rs:42-56); burn-flex
// computes it (package tensor, deform.go).

// DeformConvOptions is DeformConvOptions<2>.
type DeformConvOptions struct {
	stride, padding, dilation  []int64
	weightGroups, offsetGroups int64
}

func (o *DeformConvOptions) TypeName() string { return "DeformConvOptions" }

// deformConvOptionsFunction is DeformConvOptions::new(stride, padding,
// dilation, weight_groups, offset_groups) with its non-zero checks.
func (w *World) deformConvOptionsFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" {
		return nil, errUnknownFunction("struct `DeformConvOptions`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(5); ue != nil {
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
	wg, ue := a.int(3)
	if ue != nil {
		return nil, ue, nil
	}
	og, ue := a.int(4)
	if ue != nil {
		return nil, ue, nil
	}
	if p := nonZeroOptions(arrays[0], arrays[2], wg, "weight groups must be non-zero"); p != nil {
		return nil, nil, p
	}
	if og == 0 {
		return nil, nil, newPanic("std-nonzero-option", "crates/burn-std/src/ops.rs:9", "offset groups must be non-zero")
	}
	return &DeformConvOptions{stride: arrays[0], padding: arrays[1], dilation: arrays[2], weightGroups: wg, offsetGroups: og}, nil, nil
}

// deformConv2d is module::deform_conv2d(x, offset, weight, mask, bias, options).
func (w *World) deformConv2d(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(6); ue != nil {
		return nil, ue, nil
	}
	ts := make([]*Tensor, 3)
	for i := range ts {
		t, ue := a.tensor(i)
		if ue != nil {
			return nil, ue, nil
		}
		if t.kind != KindFloat || t.Rank() != 4 {
			return nil, errArgType(i+1, "Tensor<4>", c.Args[i]), nil
		}
		ts[i] = t
	}
	mask, ok := optionalTensor(a, 3, KindFloat)
	if !ok {
		return nil, errArgType(4, "Option<Tensor<4>>", c.Args[3]), nil
	}
	var bias *Tensor
	switch b := a.get(4).(type) {
	case *Enum:
		if b.Type == "Option" && b.Variant == "Some" && len(b.Fields) == 1 {
			bias, ok = Deref(b.Fields[0]).(*Tensor)
			if !ok || bias.kind != KindFloat || bias.Rank() != 1 {
				return nil, errArgType(5, "Option<Tensor<1>>", c.Args[4]), nil
			}
		} else if b.Type != "Option" || b.Variant != "None" {
			return nil, errArgType(5, "Option<Tensor<1>>", c.Args[4]), nil
		}
	default:
		return nil, errArgType(5, "Option<Tensor<1>>", c.Args[4]), nil
	}
	opts, ok := a.get(5).(*DeformConvOptions)
	if !ok {
		return nil, errArgType(6, "DeformConvOptions<2>", c.Args[5]), nil
	}
	x, offset, weight := ts[0], ts[1], ts[2]
	if p := checkFailed(burncheck.ModuleConv("module::deform_conv2d", x.shape, weight.shape, opts.weightGroups)); p != nil {
		return nil, nil, p
	}
	pl, p := routeMulti([]namedInput{{name: "x", t: x, arg: 1}, {name: "offset", t: offset, arg: 2}, {name: "weight", t: weight, arg: 3},
		{name: "mask", t: mask, optional: true, arg: 4}, {name: "bias", t: bias, optional: true, arg: 5}})
	shape := []int64{x.shape[0], weight.shape[0], offset.shape[2], offset.shape[3]}
	v, ue, p := w.finish("deform_conv2d", x, pl, p, KindFloat, shape, x.dtype)
	inputs := []*Tensor{x, offset, weight}
	for _, t := range []*Tensor{mask, bias} {
		if t != nil {
			inputs = append(inputs, t)
		}
	}
	return w.computed(v, ue, p, inputs, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.DeformWork(shape, weight.shape)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		var mv, bv *tensor.Tensor
		if mask != nil {
			mv = mask.vals()
		}
		if bias != nil {
			bv = bias.vals()
		}
		o := tensor.DeformConv{WeightGroups: int(opts.weightGroups), OffsetGroups: int(opts.offsetGroups)}
		for i := range 2 {
			o.Stride[i], o.Padding[i], o.Dilation[i] = int(opts.stride[i]), int(opts.padding[i]), int(opts.dilation[i])
		}
		return tensor.DeformConv2d(x.vals(), offset.vals(), weight.vals(), mv, bv, o)
	})
}

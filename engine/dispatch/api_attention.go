package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// module::attention and module::attention_fallback
// (crates/burn-tensor/src/tensor/module.rs:610-647) with burn-std's
// AttentionModuleOptions (crates/burn-std/src/ops.rs:373-392).
// Dispatch::attention is one multi_op! on query, key and value, mask and
// bias optional (crates/burn-dispatch/src/ops/module.rs:649-663); on an
// autodiff device burn-autodiff runs the fallback, on burn-flex its own
// kernel. attention_fallback runs burn-backend's fallback on Dispatch
// itself, so its trace is the fallback's tensor ops.

const (
	locFlexAttention     = "crates/burn-flex/src/ops/attention.rs"
	locFallbackAttention = "crates/burn-backend/src/backend/ops/modules/attention.rs"
)

// attentionOptions reads AttentionModuleOptions: Default::default(),
// AttentionModuleOptions::default() or a struct literal, whose missing
// fields came from `..Default::default()`.
func attentionOptions(a argList, i int) (tensor.AttentionOptions, *UsageError) {
	var o tensor.AttentionOptions
	v := a.get(i)
	if isDefaultMarker(v) {
		return o, nil
	}
	e, ok := v.(*Enum)
	// A struct literal of an imported path is typed by its last segment.
	if !ok || (e.Type != "AttentionModuleOptions" && e.Variant != "AttentionModuleOptions") {
		return o, errArgType(i+1, "AttentionModuleOptions", a.c.Args[i])
	}
	optional := func(name string) (*float64, bool) {
		f, set := e.Named[name]
		if !set {
			return nil, true
		}
		opt, ok := Deref(f).(*Enum)
		if !ok || opt.Type != "Option" {
			return nil, false
		}
		if opt.Variant == "None" {
			return nil, true
		}
		if opt.Variant != "Some" || len(opt.Fields) != 1 {
			return nil, false
		}
		switch x := Deref(opt.Fields[0]).(type) {
		case Float:
			return &x.V, true
		case Int:
			f := float64(x.V)
			return &f, true
		}
		return nil, false
	}
	var good bool
	if o.Scale, good = optional("scale"); !good {
		return o, errArgType(i+1, "AttentionModuleOptions", a.c.Args[i])
	}
	if o.Softcap, good = optional("softcap"); !good {
		return o, errArgType(i+1, "AttentionModuleOptions", a.c.Args[i])
	}
	if c, set := e.Named["is_causal"]; set {
		b, ok := Deref(c).(Bool)
		if !ok {
			return o, errArgType(i+1, "AttentionModuleOptions", a.c.Args[i])
		}
		o.Causal = bool(b)
	}
	return o, nil
}

// optionalTensor reads an Option<Tensor> argument: (nil, true) for None.
func optionalTensor(a argList, i int, kind Kind) (*Tensor, bool) {
	switch v := a.get(i).(type) {
	case *Enum:
		if v.Type == "Option" && v.Variant == "None" && len(v.Fields) == 0 {
			return nil, true
		}
		if v.Type == "Option" && v.Variant == "Some" && len(v.Fields) == 1 {
			t, ok := Deref(v.Fields[0]).(*Tensor)
			return t, ok && t.kind == kind && t.Rank() == 4
		}
	}
	return nil, false
}

// attention is module::attention, or attention_fallback when fallback.
func (w *World) attention(c Call, fallback bool) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(6); ue != nil {
		return nil, ue, nil
	}
	qkv := make([]*Tensor, 3)
	for i := range qkv {
		t, ue := a.tensor(i)
		if ue != nil {
			return nil, ue, nil
		}
		if t.kind != KindFloat || t.Rank() != 4 {
			return nil, errArgType(i+1, "Tensor<4>", c.Args[i]), nil
		}
		qkv[i] = t
	}
	mask, ok := optionalTensor(a, 3, KindBool)
	if !ok {
		return nil, errArgType(4, "Option<Tensor<4, Bool>>", c.Args[3]), nil
	}
	bias, ok := optionalTensor(a, 4, KindFloat)
	if !ok {
		return nil, errArgType(5, "Option<Tensor<4>>", c.Args[4]), nil
	}
	opts, ue := attentionOptions(a, 5)
	if ue != nil {
		return nil, ue, nil
	}
	q, k, v := qkv[0], qkv[1], qkv[2]
	scores := []int64{q.shape[0], q.shape[1], q.shape[2], k.shape[2]}
	outShape := []int64{q.shape[0], q.shape[1], q.shape[2], v.shape[3]}
	pl, p := routeMulti([]namedInput{{name: "query", t: q, arg: 1}, {name: "key", t: k, arg: 2}, {name: "value", t: v, arg: 3},
		{name: "mask", t: mask, optional: true, arg: 4}, {name: "attn_bias", t: bias, optional: true, arg: 5}})
	if p == nil {
		if p := w.attentionPanic(pl, fallback, scores, mask, bias, opts); p != nil {
			if p2 := w.prepare(pl.on); p2 != nil {
				return nil, nil, p2
			}
			return nil, nil, p
		}
	}
	op := "attention"
	if fallback {
		op = "float_matmul"
		if p == nil {
			if p := w.prepare(pl.on); p != nil {
				return nil, nil, p
			}
			w.recordFallback(pl, q, scores, mask != nil, bias != nil, opts)
		}
	}
	out, ue, p := w.finish(op, q, pl, p, KindFloat, outShape, q.dtype)
	if ue != nil || p != nil {
		return out, ue, p
	}
	inputs := []*Tensor{q, k, v}
	if mask != nil {
		inputs = append(inputs, mask)
	}
	if bias != nil {
		inputs = append(inputs, bias)
	}
	return w.computed(out, nil, nil, inputs, func(*Tensor) (*tensor.Tensor, error) {
		work, ok := tensor.AttentionWork(q.shape, k.shape, v.shape)
		// The scores and the softmax's intermediates: about six tensors of
		// the scores' shape.
		if !ok || !w.budget.TakeWork(work) || !w.budget.TakeShape(append([]int64{6}, scores...)) {
			return nil, tensor.ErrBudget
		}
		var mv, bv *tensor.Tensor
		if mask != nil {
			mv = mask.values
		}
		if bias != nil {
			bv = bias.values
		}
		return tensor.Attention(q.values, k.values, v.values, mv, bv, opts)
	})
}

// attentionPanic is the softcap assert of the fallback
// (attention.rs:24) or of burn-flex's kernels, and burn-flex's check that
// a mask or bias broadcasts to the scores (attention.rs:152).
func (w *World) attentionPanic(pl placement, fallback bool, scores []int64, mask, bias *Tensor, o tensor.AttentionOptions) *Panic {
	flex := !fallback && !pl.autodiff && pl.on.Inner().backend == Flex
	if o.Softcap != nil && !(*o.Softcap > 0) {
		msg := "softcap must be positive, got " + floatDisplay(Float{V: *o.Softcap})
		switch {
		case !flex:
			return newPanic("attention-softcap", at(locFallbackAttention, 24), msg)
		case scores[2]*scores[3] <= 256*1024:
			return newPanic("attention-softcap", at(locFlexAttention, 701), msg)
		default:
			return newPanic("attention-softcap", at(locFlexAttention, 255), msg)
		}
	}
	if !flex {
		return nil
	}
	for _, in := range []struct {
		name string
		t    *Tensor
	}{{"mask", mask}, {"bias", bias}} {
		if in.t == nil {
			continue
		}
		for d := range 4 {
			if got := in.t.shape[d]; got != scores[d] && got != 1 {
				return newPanic("flex-attention-broadcast", at(locFlexAttention, 152),
					fmt.Sprintf("attention: %s dim %d must be %d or 1, got %d", in.name, d, scores[d], got))
			}
		}
	}
	return nil
}

// recordFallback traces the tensor ops attention_fallback runs before its
// last matmul (attention.rs:27-90), which finish records.
func (w *World) recordFallback(pl placement, q *Tensor, scores []int64, mask, bias bool, o tensor.AttentionOptions) {
	reduced := append(append([]int64{}, scores[:3]...), 1)
	kt := []int64{q.shape[0], q.shape[1], q.shape[3], scores[3]}
	type step struct {
		op    string
		kind  Kind
		shape []int64
	}
	steps := []step{{"float_swap_dims", KindFloat, kt}, {"float_matmul", KindFloat, scores}, {"float_mul_scalar", KindFloat, scores}}
	if o.Softcap != nil {
		steps = append(steps, step{"float_div_scalar", KindFloat, scores}, step{"float_tanh", KindFloat, scores}, step{"float_mul_scalar", KindFloat, scores})
	}
	if mask {
		steps = append(steps, step{"float_mask_fill", KindFloat, scores})
	}
	if o.Causal {
		sq, sk := scores[2], scores[3]
		steps = append(steps, step{"int_arange", KindInt, []int64{sq}}, step{"int_reshape", KindInt, []int64{sq, 1}},
			step{"int_arange", KindInt, []int64{sk}}, step{"int_reshape", KindInt, []int64{1, sk}},
			step{"int_add_scalar", KindInt, []int64{sq, 1}}, step{"int_lower", KindBool, []int64{sq, sk}},
			step{"bool_reshape", KindBool, []int64{1, 1, sq, sk}}, step{"bool_expand", KindBool, scores},
			step{"float_mask_fill", KindFloat, scores})
	}
	if bias {
		steps = append(steps, step{"float_add", KindFloat, scores})
	}
	steps = append(steps, step{"float_max_dim", KindFloat, reduced}, step{"float_clamp_min", KindFloat, reduced},
		step{"float_sub", KindFloat, scores}, step{"float_exp", KindFloat, scores}, step{"float_sum_dim", KindFloat, reduced},
		step{"float_clamp_min", KindFloat, reduced}, step{"float_div", KindFloat, scores})
	for _, s := range steps {
		dt := q.dtype
		switch s.kind {
		case KindInt:
			dt = w.defaultsFor(pl.on).int
		case KindBool:
			dt = w.defaultsFor(pl.on).bool
		}
		w.recordOp(s.op, pl, w.output(pl, s.kind, s.shape, dt))
	}
}

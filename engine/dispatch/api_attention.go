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
	var out Value
	if fallback {
		var p *Panic
		if out, p = w.attentionFallback(q, k, v, mask, bias, scores, outShape, opts); p != nil {
			return nil, nil, p
		}
	} else {
		pl, p := routeMulti([]namedInput{{name: "query", t: q, arg: 1}, {name: "key", t: k, arg: 2}, {name: "value", t: v, arg: 3},
			{name: "mask", t: mask, optional: true, arg: 4}, {name: "attn_bias", t: bias, optional: true, arg: 5}})
		if p == nil {
			if p := w.attentionPanic(pl, scores, mask, bias, opts); p != nil {
				if p2 := w.prepare(pl.on); p2 != nil {
					return nil, nil, p2
				}
				return nil, nil, p
			}
		}
		var ue *UsageError
		if out, ue, p = w.finish("attention", q, pl, p, KindFloat, outShape, q.dtype); ue != nil || p != nil {
			return out, ue, p
		}
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
			mv = mask.vals()
		}
		if bias != nil {
			bv = bias.vals()
		}
		return tensor.Attention(q.vals(), k.vals(), v.vals(), mv, bv, opts)
	})
}

// attentionPanic is the softcap assert of the fallback
// (attention.rs:24) or of burn-flex's kernels, and burn-flex's check that
// a mask or bias broadcasts to the scores (attention.rs:152).
func (w *World) attentionPanic(pl placement, scores []int64, mask, bias *Tensor, o tensor.AttentionOptions) *Panic {
	flex := !pl.autodiff && pl.on.Inner().backend == Flex
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

// attentionFallback runs attention_fallback on Dispatch itself
// (attention.rs:14-91): each step is a Dispatch tensor op, routed and
// traced as its own (the matmuls and the bias's add as binary_float!, the
// masks' fills with a bool operand), so a tensor on another device fails
// at the op that reads it, with that op's message. It returns the last
// matmul's output; the caller computes its values.
func (w *World) attentionFallback(q, k, v, mask, bias *Tensor, scores, outShape []int64, o tensor.AttentionOptions) (*Tensor, *Panic) {
	if o.Softcap != nil && !(*o.Softcap > 0) {
		return nil, newPanic("attention-softcap", at(locFallbackAttention, 24),
			"softcap must be positive, got "+floatDisplay(Float{V: *o.Softcap}))
	}
	unary := func(op string, t *Tensor, kind Kind, shape []int64, dtype DType) *Tensor {
		pl := routeUnary(t, kind)
		out := w.output(pl, kind, shape, dtype)
		w.recordOp(op, pl, out)
		return out
	}
	binary := func(op string, a, b *Tensor, input int, shape []int64) (*Tensor, *Panic) {
		var pl placement
		var p *Panic
		if b.kind == KindFloat {
			pl, p = w.routeBinaryFloat(a, b)
		} else {
			pl, p = w.routeFloatAny(a, b)
		}
		if p != nil {
			return nil, w.failOp(op, a, p.on(input))
		}
		if p := w.prepare(pl.on); p != nil {
			return nil, p
		}
		out := w.output(pl, KindFloat, shape, a.dtype)
		w.recordOp(op, pl, out)
		return out, nil
	}
	if p := w.prepare(k.on); p != nil {
		return nil, p
	}
	reduced := append(append([]int64{}, scores[:3]...), 1)
	kt := unary("float_transpose", k, KindFloat, []int64{k.shape[0], k.shape[1], k.shape[3], k.shape[2]}, k.dtype)
	s, p := binary("float_matmul", q, kt, 2, scores)
	if p != nil {
		return nil, p
	}
	s = unary("float_mul_scalar", s, KindFloat, scores, s.dtype)
	if o.Softcap != nil {
		for _, op := range []string{"float_div_scalar", "float_tanh", "float_mul_scalar"} {
			s = unary(op, s, KindFloat, scores, s.dtype)
		}
	}
	if mask != nil {
		if s, p = binary("float_mask_fill", s, mask, 4, scores); p != nil {
			return nil, p
		}
	}
	if o.Causal {
		// build_causal_mask (attention.rs:95-124), on the scores' device.
		sq, sk := scores[2], scores[3]
		d := s.on
		ints, bools := w.defaultsFor(d).int, w.defaultsFor(d).bool
		plain := placement{on: d}
		record := func(op string, kind Kind, shape []int64, dtype DType) *Tensor {
			t := w.output(plain, kind, shape, dtype)
			w.recordOp(op, plain, t)
			return t
		}
		record("int_arange", KindInt, []int64{sq}, ints)
		record("int_reshape", KindInt, []int64{sq, 1}, ints)
		record("int_arange", KindInt, []int64{sk}, ints)
		record("int_reshape", KindInt, []int64{1, sk}, ints)
		record("int_add_scalar", KindInt, []int64{sq, 1}, ints)
		record("int_lower", KindBool, []int64{sq, sk}, bools)
		record("bool_reshape", KindBool, []int64{1, 1, sq, sk}, bools)
		causal := record("bool_expand", KindBool, scores, bools)
		if s, p = binary("float_mask_fill", s, causal, 0, scores); p != nil {
			return nil, p
		}
	}
	if bias != nil {
		if s, p = binary("float_add", s, bias, 5, scores); p != nil {
			return nil, p
		}
	}
	mx := unary("float_max_dim", s, KindFloat, reduced, s.dtype)
	mx = unary("float_clamp_min", mx, KindFloat, reduced, s.dtype)
	if s, p = binary("float_sub", s, mx, 0, scores); p != nil {
		return nil, p
	}
	num := unary("float_exp", s, KindFloat, scores, s.dtype)
	sum := unary("float_sum_dim", num, KindFloat, reduced, s.dtype)
	sum = unary("float_clamp_min", sum, KindFloat, reduced, s.dtype)
	softmax, p := binary("float_div", num, sum, 0, scores)
	if p != nil {
		return nil, p
	}
	return binary("float_matmul", softmax, v, 3, outShape)
}

package nn

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// MultiHeadAttention (crates/burn-nn/src/modules/attention/mha.rs).

func init() {
	register(&configDesc{name: "MultiHeadAttentionConfig", device: true, fields: []field{
		{name: "d_model", typ: "usize"}, {name: "n_heads", typ: "usize"},
		{name: "dropout", typ: "f64", def: f64(0.1)},
		{name: "min_float", typ: "f64", def: f64(-1.0e4)},
		{name: "quiet_softmax", typ: "bool", def: boolean(false)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
		{name: "key_bias", typ: "bool", def: boolean(true)},
		{name: "value_bias", typ: "bool", def: boolean(true)},
		{name: "query_bias", typ: "bool", def: boolean(true)},
		{name: "output_bias", typ: "bool", def: boolean(true)},
	}, init: initMHA})
}

// MhaInput is mha.rs's MhaInput: query, key, value and the optional
// masks.
type MhaInput struct {
	query, key, value *dispatch.Tensor
	maskPad, maskAttn *dispatch.Tensor
}

func (*MhaInput) TypeName() string { return "MhaInput" }

// MhaOutput is mha.rs's MhaOutput, its fields public.
type MhaOutput struct{ weights, context *dispatch.Tensor }

func (*MhaOutput) TypeName() string { return "MhaOutput" }

func initMHA(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	dm, heads := c.intField("d_model"), c.intField("n_heads")
	if heads == 0 {
		// d_model / n_heads in init (mha.rs:144): Rust's integer division.
		return nil, burnPanic("rust-divide-by-zero", "attempt to divide by zero", "crates/burn-nn/src/modules/attention/mha.rs:144")
	}
	linear := func(bias string) (dispatch.Value, error) {
		lc, ue := newConfig(configs["LinearConfig"], []dispatch.Value{usizeVal(dm), usizeVal(dm)})
		if ue != nil {
			return nil, ue
		}
		lc = lc.with("initializer", c.Values["initializer"]).with("bias", c.Values[bias])
		return initLinear(w, lc, d)
	}
	m := &Module{Type: "MultiHeadAttention", Values: map[string]dispatch.Value{}}
	for _, f := range []string{"query", "key", "value", "output"} {
		l, err := linear(f + "_bias")
		if err != nil {
			return nil, err
		}
		m.Values[f] = l
	}
	dc, _ := newConfig(configs["DropoutConfig"], []dispatch.Value{c.Values["dropout"]})
	drop, err := initDropout(w, dc, d)
	if err != nil {
		return nil, err
	}
	m.Values["dropout"] = drop
	m.Values["activation"] = newGelu(false)
	m.Values["d_model"], m.Values["n_heads"], m.Values["d_k"] = usizeVal(dm), usizeVal(heads), usizeVal(dm/heads)
	m.Values["min_float"], m.Values["quiet_softmax"] = c.Values["min_float"], c.Values["quiet_softmax"]
	m.Fields = []string{"query", "key", "value", "output", "dropout", "activation", "d_model", "n_heads", "d_k", "min_float", "quiet_softmax"}
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		return []attr{{"d_model", fmt.Sprint(int64(num(m.Values["d_model"])))}, {"n_heads", fmt.Sprint(int64(num(m.Values["n_heads"])))},
			{"d_k", fmt.Sprint(int64(num(m.Values["d_k"])))}, {"dropout", rustFloat(num(m.Values["dropout"].(*Module).Values["prob"]))},
			{"min_float", rustFloat(num(m.Values["min_float"]))}, {"quiet_softmax", fmt.Sprint(bool(m.Values["quiet_softmax"].(dispatch.Bool)))}}, nil
	}
	m.forward = forwardMHA
	return m, nil
}

func tensorArg(v dispatch.Value, rank, i int, what string) (*dispatch.Tensor, error) {
	t, ok := dispatch.Deref(v).(*dispatch.Tensor)
	if !ok || t.Rank() != rank {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: i, Message: fmt.Sprintf("mismatched types: expected `%s`, found `%s`", what, v.TypeName())}
	}
	return t, nil
}

// mhaInputCall is MhaInput::self_attn and MhaInput::new.
func mhaInputCall(name string, args []dispatch.Value) (dispatch.Value, error) {
	switch name {
	case "self_attn":
		if len(args) != 1 {
			return nil, wrongArity(1, len(args))
		}
		t, err := tensorArg(args[0], 3, 1, "Tensor<3>")
		if err != nil {
			return nil, err
		}
		return &MhaInput{query: t, key: t, value: t}, nil
	case "new":
		if len(args) != 3 {
			return nil, wrongArity(3, len(args))
		}
		in := &MhaInput{}
		for i, p := range []**dispatch.Tensor{&in.query, &in.key, &in.value} {
			t, err := tensorArg(args[i], 3, i+1, "Tensor<3>")
			if err != nil {
				return nil, err
			}
			*p = t
		}
		return in, nil
	}
	return nil, &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf(
		"no function or associated item named `%s` found for struct `MhaInput` in the current scope", name)}
}

func mhaInputMethod(in *MhaInput, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "mask_pad", "mask_attn":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		rank := 2
		if c.Method == "mask_attn" {
			rank = 3
		}
		t, err := tensorArg(c.Args[0], rank, 1, fmt.Sprintf("Tensor<%d, Bool>", rank))
		if err != nil {
			return nil, err
		}
		out := *in
		if c.Method == "mask_pad" {
			out.maskPad = t
		} else {
			out.maskAttn = t
		}
		return &out, nil
	case "clone":
		return in, nil
	}
	return nil, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `MhaInput` in the current scope", c.Method)}
}

// forwardMHA is MultiHeadAttention::forward (mha.rs): the three
// projections split into heads, scores scaled by sqrt(d_k) and dropped
// out, the masks, softmax over the last dim, the weighted values merged
// back and projected.
func forwardMHA(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	in, ok := dispatch.Deref(c.Args[0]).(*MhaInput)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `MhaInput`, found `" + c.Args[0].TypeName() + "`"}
	}
	heads, dk := int64(num(m.Values["n_heads"])), int64(num(m.Values["d_k"]))
	qs := in.query.Shape()
	project := func(x *dispatch.Tensor, name string) (dispatch.Value, error) {
		s := x.Shape()
		l := m.Values[name].(*Module)
		prev := w.EnterModule(name)
		y, err := forwardLinear(w, l, dispatch.Call{Args: []dispatch.Value{x}})
		w.SetModule(prev)
		if err != nil {
			return nil, err
		}
		return chain(w, y, call(w, "reshape", ints(s[0], s[1], heads, dk)), call(w, "swap_dims", usizeVal(1), usizeVal(2)))
	}
	query, err := project(in.query, "query")
	if err != nil {
		return nil, err
	}
	key, err := project(in.key, "key")
	if err != nil {
		return nil, err
	}
	value, err := project(in.value, "value")
	if err != nil {
		return nil, err
	}
	keyT, err := method(w, key, "transpose")
	if err != nil {
		return nil, err
	}
	scores, err := chain(w, query, call(w, "matmul", keyT), call(w, "div_scalar", dispatch.Float{V: float64(float32(math.Sqrt(float64(float32(dk))))), Suffix: "f32"}))
	if err != nil {
		return nil, err
	}
	drop := m.Values["dropout"].(*Module)
	prev := w.EnterModule("dropout")
	scores, err = forwardDropout(w, drop, dispatch.Call{Args: []dispatch.Value{scores}})
	w.SetModule(prev)
	if err != nil {
		return nil, err
	}
	minFloat := m.Values["min_float"]
	if in.maskPad != nil {
		s := in.maskPad.Shape()
		mask, err := method(w, in.maskPad, "reshape", ints(s[0], 1, 1, s[1]))
		if err != nil {
			return nil, err
		}
		if scores, err = method(w, scores, "mask_fill", mask, minFloat); err != nil {
			return nil, err
		}
	}
	if in.maskAttn != nil {
		s := in.maskAttn.Shape()
		mask, err := method(w, in.maskAttn, "reshape", ints(s[0], 1, s[1], s[2]))
		if err != nil {
			return nil, err
		}
		if scores, err = method(w, scores, "mask_fill", mask, minFloat); err != nil {
			return nil, err
		}
	}
	fn := "softmax"
	if bool(m.Values["quiet_softmax"].(dispatch.Bool)) {
		fn = "quiet_softmax"
	}
	weights, err := w.Call(dispatch.Call{Path: []string{fn}, Args: []dispatch.Value{scores, usizeVal(3)}})
	if err != nil {
		return nil, err
	}
	context, err := chain(w, weights, call(w, "matmul", value), call(w, "swap_dims", usizeVal(1), usizeVal(2)),
		call(w, "reshape", ints(qs[0], qs[1], qs[2])))
	if err != nil {
		return nil, err
	}
	prev = w.EnterModule("output")
	out, err := forwardLinear(w, m.Values["output"].(*Module), dispatch.Call{Args: []dispatch.Value{context}})
	w.SetModule(prev)
	if err != nil {
		return nil, err
	}
	wt, _ := weights.(*dispatch.Tensor)
	ct, _ := out.(*dispatch.Tensor)
	return &MhaOutput{weights: wt, context: ct}, nil
}

package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// The transformer encoder (crates/burn-nn/src/modules/transformer/
// encoder.rs and pwff.rs).

func init() {
	activation := func() dispatch.Value { return &dispatch.Enum{Type: "ActivationConfig", Variant: "Gelu"} }
	register(&configDesc{name: "PositionWiseFeedForwardConfig", device: true, fields: []field{
		{name: "d_model", typ: "usize"}, {name: "d_ff", typ: "usize"},
		{name: "dropout", typ: "f64", def: f64(0.1)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
		{name: "activation", typ: "ActivationConfig", def: activation},
	}, init: initPWFF})
	register(&configDesc{name: "TransformerEncoderConfig", device: true, fields: []field{
		{name: "d_model", typ: "usize"}, {name: "d_ff", typ: "usize"}, {name: "n_heads", typ: "usize"}, {name: "n_layers", typ: "usize"},
		{name: "dropout", typ: "f64", def: f64(0.1)},
		{name: "norm_first", typ: "bool", def: boolean(false)},
		{name: "quiet_softmax", typ: "bool", def: boolean(false)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
		{name: "activation", typ: "ActivationConfig", def: activation},
		{name: "layer_norm_eps", typ: "f64", def: f64(1e-5)},
	}, init: initEncoder})
}

// activationModule is ActivationConfig::init for the activations without
// parameters the engine models.
func activationModule(v dispatch.Value) (*Module, error) {
	en, _ := dispatch.Deref(v).(*dispatch.Enum)
	if en != nil {
		switch en.Variant {
		case "Gelu":
			return newGelu(false), nil
		case "Relu", "Sigmoid", "Tanh":
			return newActivation(en.Variant), nil
		}
	}
	name := "_"
	if en != nil {
		name = en.Variant
	}
	return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`ActivationConfig::" + name + "` is not modelled"}
}

// subConfig is Name::new(args) of one of the configs here, with builders.
func subConfig(name string, args []dispatch.Value, with map[string]dispatch.Value) (*Config, error) {
	c, ue := newConfig(configs[name], args)
	if ue != nil {
		return nil, ue
	}
	for k, v := range with {
		c = c.with(k, v)
	}
	return c, nil
}

func initPWFF(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	dm, dff := c.Values["d_model"], c.Values["d_ff"]
	init := map[string]dispatch.Value{"initializer": c.Values["initializer"]}
	inner, err := subConfig("LinearConfig", []dispatch.Value{dm, dff}, init)
	if err != nil {
		return nil, err
	}
	outer, err := subConfig("LinearConfig", []dispatch.Value{dff, dm}, init)
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "PositionWiseFeedForward", Fields: []string{"linear_inner", "linear_outer", "dropout", "activation"}, Values: map[string]dispatch.Value{}}
	if m.Values["linear_inner"], err = initLinear(w, inner, d); err != nil {
		return nil, err
	}
	if m.Values["linear_outer"], err = initLinear(w, outer, d); err != nil {
		return nil, err
	}
	dc, _ := subConfig("DropoutConfig", []dispatch.Value{c.Values["dropout"]}, nil)
	if m.Values["dropout"], err = initDropout(w, dc, d); err != nil {
		return nil, err
	}
	act, err := activationModule(c.Values["activation"])
	if err != nil {
		return nil, err
	}
	m.Values["activation"] = act
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		s := m.Values["linear_inner"].(*Module).param("weight").shape
		return []attr{{"d_model", fmt.Sprint(s[0])}, {"d_ff", fmt.Sprint(s[1])},
			{"prob", rustFloat(num(m.Values["dropout"].(*Module).Values["prob"]))}}, nil
	}
	// PositionWiseFeedForward::forward (pwff.rs:105), each submodule's ops
	// tagged with its field's path.
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		x := c.Args[0]
		for _, name := range []string{"linear_inner", "activation", "dropout", "linear_outer"} {
			mod := m.Values[name].(*Module)
			prev := w.EnterModule(name)
			var err error
			x, err = mod.forward(w, mod, dispatch.Call{Args: []dispatch.Value{x}})
			w.SetModule(prev)
			if err != nil {
				return nil, err
			}
		}
		return x, nil
	}
	return m, nil
}

// TransformerEncoderInput is encoder.rs's input: the tensor and the
// optional masks.
type TransformerEncoderInput struct {
	tensor, maskPad, maskAttn *dispatch.Tensor
}

func (*TransformerEncoderInput) TypeName() string { return "TransformerEncoderInput" }

func encoderInputMethod(in *TransformerEncoderInput, c dispatch.Call) (dispatch.Value, error) {
	if c.Method == "mask_pad" || c.Method == "mask_attn" {
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
		if rank == 2 {
			out.maskPad = t
		} else {
			out.maskAttn = t
		}
		return &out, nil
	}
	return nil, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `TransformerEncoderInput` in the current scope", c.Method)}
}

func initEncoder(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	n := c.intField("n_layers")
	layers := &dispatch.Array{Vec: true}
	for i := int64(0); i < n; i++ {
		l, err := initEncoderLayer(w, c, d)
		if err != nil {
			return nil, err
		}
		layers.Elems = append(layers.Elems, l)
	}
	m := &Module{Type: "TransformerEncoder", Values: map[string]dispatch.Value{"layers": layers},
		Fields: []string{"layers", "d_model", "d_ff", "n_heads", "n_layers", "dropout", "norm_first", "quiet_softmax"}}
	for _, f := range m.Fields[1:] {
		m.Values[f] = c.Values[f]
	}
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		var out []attr
		for _, f := range m.Fields[1:] {
			v := m.Values[f]
			var s string
			switch x := dispatch.Deref(v).(type) {
			case dispatch.Float:
				s = rustFloat(x.V)
			case dispatch.Int:
				s = fmt.Sprint(x.V)
			case dispatch.Bool:
				s = fmt.Sprint(bool(x))
			}
			out = append(out, attr{f, s})
		}
		return out, nil
	}
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		in, ok := dispatch.Deref(c.Args[0]).(*TransformerEncoderInput)
		if !ok {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `TransformerEncoderInput`, found `" + c.Args[0].TypeName() + "`"}
		}
		var x dispatch.Value = in.tensor
		// Each layer's ops are tagged with its path under the encoder's
		// (layers.0, layers.1, ...), as the program's own Vec of modules.
		prev := w.EnterModule("layers")
		defer w.SetModule(prev)
		layersPath := w.Module()
		for i, l := range m.Values["layers"].(*dispatch.Array).Elems {
			w.SetModule(layersPath)
			w.EnterModule(dispatch.IndexSeg(i))
			var err error
			if x, err = forwardEncoderLayer(w, l.(*Module), x, in.maskPad, in.maskAttn); err != nil {
				return nil, err
			}
		}
		return x, nil
	}
	return m, nil
}

// initEncoderLayer is TransformerEncoderLayer::new (encoder.rs).
func initEncoderLayer(w *dispatch.World, c *Config, d *dispatch.Device) (*Module, error) {
	mc, err := subConfig("MultiHeadAttentionConfig", []dispatch.Value{c.Values["d_model"], c.Values["n_heads"]}, map[string]dispatch.Value{
		"initializer": c.Values["initializer"], "dropout": c.Values["dropout"], "quiet_softmax": c.Values["quiet_softmax"]})
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "TransformerEncoderLayer", Fields: []string{"mha", "pwff", "norm_1", "norm_2", "dropout", "norm_first"},
		Values: map[string]dispatch.Value{"norm_first": c.Values["norm_first"]}}
	if m.Values["mha"], err = initMHA(w, mc, d); err != nil {
		return nil, err
	}
	for _, n := range []string{"norm_1", "norm_2"} {
		lc, err := subConfig("LayerNormConfig", []dispatch.Value{c.Values["d_model"]}, map[string]dispatch.Value{"epsilon": c.Values["layer_norm_eps"]})
		if err != nil {
			return nil, err
		}
		if m.Values[n], err = initLayerNorm(w, lc, d); err != nil {
			return nil, err
		}
	}
	dc, _ := subConfig("DropoutConfig", []dispatch.Value{c.Values["dropout"]}, nil)
	if m.Values["dropout"], err = initDropout(w, dc, d); err != nil {
		return nil, err
	}
	pc, err := subConfig("PositionWiseFeedForwardConfig", []dispatch.Value{c.Values["d_model"], c.Values["d_ff"]}, map[string]dispatch.Value{
		"initializer": c.Values["initializer"], "dropout": c.Values["dropout"], "activation": c.Values["activation"]})
	if err != nil {
		return nil, err
	}
	if m.Values["pwff"], err = initPWFF(w, pc, d); err != nil {
		return nil, err
	}
	m.arity = 3
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		opt := func(v dispatch.Value) *dispatch.Tensor {
			if en, ok := dispatch.Deref(v).(*dispatch.Enum); ok && en.Variant == "Some" && len(en.Fields) == 1 {
				t, _ := dispatch.Deref(en.Fields[0]).(*dispatch.Tensor)
				return t
			}
			return nil
		}
		return forwardEncoderLayer(w, m, c.Args[0], opt(c.Args[1]), opt(c.Args[2]))
	}
	return m, nil
}

// forwardEncoderLayer is TransformerEncoderLayer::forward (encoder.rs):
// the attention and feed-forward residual paths, the norms before them
// (norm_first) or after.
func forwardEncoderLayer(w *dispatch.World, m *Module, x dispatch.Value, maskPad, maskAttn *dispatch.Tensor) (dispatch.Value, error) {
	normFirst := bool(m.Values["norm_first"].(dispatch.Bool))
	sub := func(name string, v dispatch.Value) (dispatch.Value, error) {
		mod := m.Values[name].(*Module)
		defer w.SetModule(w.EnterModule(name))
		return mod.forward(w, mod, dispatch.Call{Args: []dispatch.Value{v}})
	}
	residual := x
	var err error
	if normFirst {
		if residual, err = sub("norm_2", residual); err != nil {
			return nil, err
		}
	}
	t, ok := dispatch.Deref(residual).(*dispatch.Tensor)
	if !ok || t.Rank() != 3 {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<3>`, found `" + residual.TypeName() + "`"}
	}
	mha := m.Values["mha"].(*Module)
	prev := w.EnterModule("mha")
	out, err := forwardMHA(w, mha, dispatch.Call{Args: []dispatch.Value{&MhaInput{query: t, key: t, value: t, maskPad: maskPad, maskAttn: maskAttn}}})
	w.SetModule(prev)
	if err != nil {
		return nil, err
	}
	if residual, err = sub("dropout", out.(*MhaOutput).context); err != nil {
		return nil, err
	}
	if x, err = method(w, x, "add", residual); err != nil {
		return nil, err
	}
	if normFirst {
		residual, err = sub("norm_1", x)
	} else {
		x, err = sub("norm_1", x)
		residual = x
	}
	if err != nil {
		return nil, err
	}
	if residual, err = sub("pwff", residual); err != nil {
		return nil, err
	}
	if residual, err = sub("dropout", residual); err != nil {
		return nil, err
	}
	if x, err = method(w, x, "add", residual); err != nil {
		return nil, err
	}
	if !normFirst {
		return sub("norm_2", x)
	}
	return x, nil
}

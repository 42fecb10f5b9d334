package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

func init() {
	register(&configDesc{name: "LayerNormConfig", device: true, fields: []field{
		{name: "d_model", typ: "usize"},
		{name: "epsilon", typ: "f64", def: f64(1e-5)},
		{name: "bias", typ: "bool", def: boolean(true)},
	}, init: initLayerNorm})
	register(&configDesc{name: "BatchNormConfig", device: true, fields: []field{
		{name: "num_features", typ: "usize"},
		{name: "epsilon", typ: "f64", def: f64(1e-5)},
		{name: "momentum", typ: "f64", def: f64(0.1)},
	}, init: initBatchNorm})
	register(&configDesc{name: "EmbeddingConfig", device: true, fields: []field{
		{name: "n_embedding", typ: "usize"}, {name: "d_model", typ: "usize"},
		{name: "initializer", typ: "Initializer", def: func() dispatch.Value {
			return &dispatch.Enum{Type: "Initializer", Variant: "Normal", Named: map[string]dispatch.Value{
				"mean": dispatch.Float{V: 0, Suffix: "f64"}, "std": dispatch.Float{V: 1, Suffix: "f64"}}}
		}},
	}, init: initEmbedding})
	register(&configDesc{name: "MaxPool2dConfig", fields: []field{
		{name: "kernel_size", typ: "[usize; 2]"},
		{name: "strides", typ: "[usize; 2]", from: "kernel_size"},
		{name: "padding", typ: "PaddingConfig2d", def: unit("PaddingConfig2d", "Valid")},
		{name: "dilation", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "ceil_mode", typ: "bool", def: boolean(false)},
	}, init: initPool("MaxPool2d")})
	register(&configDesc{name: "AvgPool2dConfig", fields: []field{
		{name: "kernel_size", typ: "[usize; 2]"},
		{name: "strides", typ: "[usize; 2]", from: "kernel_size"},
		{name: "padding", typ: "PaddingConfig2d", def: unit("PaddingConfig2d", "Valid")},
		{name: "count_include_pad", typ: "bool", def: boolean(true)},
		{name: "ceil_mode", typ: "bool", def: boolean(false)},
	}, init: initPool("AvgPool2d")})
	register(&configDesc{name: "MaxPool1dConfig", fields: []field{
		{name: "kernel_size", typ: "usize"},
		{name: "stride", typ: "usize", from: "kernel_size"},
		{name: "padding", typ: "PaddingConfig1d", def: unit("PaddingConfig1d", "Valid")},
		{name: "dilation", typ: "usize", def: usize(1)},
		{name: "ceil_mode", typ: "bool", def: boolean(false)},
	}, init: initPool("MaxPool1d")})
	register(&configDesc{name: "AvgPool1dConfig", fields: []field{
		{name: "kernel_size", typ: "usize"},
		{name: "stride", typ: "usize", from: "kernel_size"},
		{name: "padding", typ: "PaddingConfig1d", def: unit("PaddingConfig1d", "Valid")},
		{name: "count_include_pad", typ: "bool", def: boolean(true)},
		{name: "ceil_mode", typ: "bool", def: boolean(false)},
	}, init: initPool("AvgPool1d")})
	register(&configDesc{name: "AdaptiveAvgPool1dConfig", fields: []field{{name: "output_size", typ: "usize"}},
		init: func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
			return &Module{Type: "AdaptiveAvgPool1d", Fields: []string{"output_size"},
				Values: map[string]dispatch.Value{"output_size": c.Values["output_size"]},
				content: func(_ *dispatch.World, m *Module) ([]attr, error) {
					return []attr{{"output_size", fmt.Sprint(int64(num(m.Values["output_size"])))}}, nil
				},
				forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
					return w.Call(dispatch.Call{Path: []string{"adaptive_avg_pool1d"}, Args: []dispatch.Value{c.Args[0], m.Values["output_size"]}})
				}}, nil
		}})
	register(&configDesc{name: "CrossEntropyLossConfig", device: true, fields: []field{
		{name: "pad_tokens", typ: "Option<Vec<usize>>"},
		{name: "weights", typ: "Option<Vec<f32>>"},
		{name: "smoothing", typ: "Option<f32>"},
		{name: "logits", typ: "bool", def: boolean(true)},
	}, init: initCrossEntropy})
}

// ---- LayerNorm (crates/burn-nn/src/modules/norm/layer.rs) ----

// constParam is Initializer::init(shape, device) of Ones or Zeros: a
// lazy Param without fans (module/initializer.rs:86).
func constParam(w *dispatch.World, variant string, n int64, d *dispatch.Device) (*Param, error) {
	return initParam(w, &dispatch.Enum{Type: "Initializer", Variant: variant}, []int64{n}, 1, 1, d)
}

func initLayerNorm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	n := c.intField("d_model")
	gamma, err := constParam(w, "Ones", n, d)
	if err != nil {
		return nil, err
	}
	var beta dispatch.Value = none()
	if c.boolField("bias") {
		b, err := constParam(w, "Zeros", n, d)
		if err != nil {
			return nil, err
		}
		beta = some(b)
	}
	return &Module{Type: "LayerNorm", Fields: []string{"gamma", "beta", "epsilon"},
		Values: map[string]dispatch.Value{"gamma": gamma, "beta": beta, "epsilon": c.Values["epsilon"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"d_model", fmt.Sprint(m.param("gamma").shape[0])},
				{"epsilon", rustFloat(num(m.Values["epsilon"]))}, {"bias", fmt.Sprint(m.param("beta") != nil)}}, nil
		},
		// LayerNorm::forward (layer.rs): layer_norm(input, gamma, beta,
		// epsilon); an f32 input needs no wider accumulation.
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			gamma, err := m.param("gamma").Val(w)
			if err != nil {
				return nil, err
			}
			var beta dispatch.Value = none()
			if p := m.param("beta"); p != nil {
				b, err := p.Val(w)
				if err != nil {
					return nil, err
				}
				beta = some(b)
			}
			return w.Call(dispatch.Call{Path: []string{"layer_norm"}, Args: []dispatch.Value{c.Args[0], gamma, beta, m.Values["epsilon"]}})
		}}, nil
}

// ---- BatchNorm (crates/burn-nn/src/modules/norm/batch.rs) ----

func initBatchNorm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	n := c.intField("num_features")
	gamma, err := constParam(w, "Ones", n, d)
	if err != nil {
		return nil, err
	}
	beta, err := constParam(w, "Zeros", n, d)
	if err != nil {
		return nil, err
	}
	// The running statistics are RunningState tensors created at once.
	mean, err := tensorFn(w, 1, "zeros", ints(n), deviceRef(d))
	if err != nil {
		return nil, err
	}
	variance, err := tensorFn(w, 1, "ones", ints(n), deviceRef(d))
	if err != nil {
		return nil, err
	}
	return &Module{Type: "BatchNorm", Fields: []string{"gamma", "beta", "running_mean", "running_var", "momentum", "epsilon"},
		Values: map[string]dispatch.Value{"gamma": gamma, "beta": beta, "running_mean": mean, "running_var": variance,
			"momentum": c.Values["momentum"], "epsilon": c.Values["epsilon"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"num_features", fmt.Sprint(m.param("beta").shape[0])},
				{"momentum", rustFloat(num(m.Values["momentum"]))}, {"epsilon", rustFloat(num(m.Values["epsilon"]))}}, nil
		},
		forward: forwardBatchNorm}, nil
}

func method(w *dispatch.World, recv dispatch.Value, name string, args ...dispatch.Value) (dispatch.Value, error) {
	return w.Call(dispatch.Call{Recv: recv, Method: name, Args: args})
}

// chain calls methods one after the other on the value the last returned.
func chain(w *dispatch.World, v dispatch.Value, steps ...func(dispatch.Value) (dispatch.Value, error)) (dispatch.Value, error) {
	for _, s := range steps {
		var err error
		if v, err = s(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func call(w *dispatch.World, name string, args ...dispatch.Value) func(dispatch.Value) (dispatch.Value, error) {
	return func(v dispatch.Value) (dispatch.Value, error) { return method(w, v, name, args...) }
}

func usizeVal(n int64) dispatch.Value { return dispatch.Int{V: n, Suffix: "usize"} }

// forwardBatchNorm is BatchNorm::forward (batch.rs): the batch's
// statistics on an autodiff device, which also update the running ones,
// the running statistics otherwise.
func forwardBatchNorm(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + c.Args[0].TypeName() + "`"}
	}
	if x.Rank() < 2 {
		return nil, burnPanic("nn-batchnorm-rank", fmt.Sprintf("BatchNorm can only be applied on tensors of rank >= 2 with the following shape [batch_size, channels, ...], received %dD tensor", x.Rank()),
			"crates/burn-nn/src/modules/norm/batch.rs:96")
	}
	gamma, err := m.param("gamma").Val(w)
	if err != nil {
		return nil, err
	}
	beta, err := m.param("beta").Val(w)
	if err != nil {
		return nil, err
	}
	dev := deviceRef(x.Device())
	eps := m.Values["epsilon"]
	if !x.Device().IsAutodiff() {
		mean, err := method(w, m.Values["running_mean"], "to_device", dev)
		if err != nil {
			return nil, err
		}
		variance, err := method(w, m.Values["running_var"], "to_device", dev)
		if err != nil {
			return nil, err
		}
		return w.Call(dispatch.Call{Path: []string{"batch_norm"}, Args: []dispatch.Value{x, gamma, beta, mean, variance, eps}})
	}
	dims := x.Shape()
	channels, flat := dims[0+1], dims[0]
	unsqueeze := make([]int64, len(dims))
	for i := range unsqueeze {
		unsqueeze[i] = 1
	}
	unsqueeze[1] = channels
	for _, d := range dims[2:] {
		flat *= d
	}
	stat := func(v dispatch.Value) (dispatch.Value, error) {
		return chain(w, v, call(w, "swap_dims", usizeVal(0), usizeVal(1)), call(w, "reshape", ints(channels, flat)),
			call(w, "mean_dim", usizeVal(1)), call(w, "reshape", ints(unsqueeze...)))
	}
	mean, err := stat(x)
	if err != nil {
		return nil, err
	}
	centered, err := chain(w, x, call(w, "sub", mean), call(w, "square"))
	if err != nil {
		return nil, err
	}
	variance, err := stat(centered)
	if err != nil {
		return nil, err
	}
	momentum := num(m.Values["momentum"])
	running := func(name string, batch dispatch.Value) error {
		old, err := chain(w, m.Values[name], call(w, "to_device", dev), call(w, "mul_scalar", dispatch.Float{V: 1 - momentum}))
		if err != nil {
			return err
		}
		upd, err := chain(w, batch, call(w, "detach"), call(w, "mul_scalar", dispatch.Float{V: momentum}), call(w, "reshape", ints(channels)))
		if err != nil {
			return err
		}
		next, err := chain(w, old, call(w, "add", upd), call(w, "detach"))
		if err != nil {
			return err
		}
		// RunningState::update: every clone of the module sees it.
		m.Values[name] = next
		return nil
	}
	if err := running("running_mean", mean); err != nil {
		return nil, err
	}
	if err := running("running_var", variance); err != nil {
		return nil, err
	}
	mean1, err := method(w, mean, "reshape", ints(channels))
	if err != nil {
		return nil, err
	}
	var1, err := method(w, variance, "reshape", ints(channels))
	if err != nil {
		return nil, err
	}
	return w.Call(dispatch.Call{Path: []string{"batch_norm"}, Args: []dispatch.Value{x, gamma, beta, mean1, var1, eps}})
}

// ---- Embedding (crates/burn-nn/src/modules/embedding.rs) ----

func initEmbedding(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	n, dm := c.intField("n_embedding"), c.intField("d_model")
	weight, err := initParam(w, c.Values["initializer"], []int64{n, dm}, 1, 1, d)
	if err != nil {
		return nil, err
	}
	return &Module{Type: "Embedding", Fields: []string{"weight"}, Values: map[string]dispatch.Value{"weight": weight},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			s := m.param("weight").shape
			return []attr{{"n_embedding", fmt.Sprint(s[0])}, {"d_model", fmt.Sprint(s[1])}}, nil
		},
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			weight, err := m.param("weight").Val(w)
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Path: []string{"embedding"}, Args: []dispatch.Value{weight, c.Args[0]}})
		}}, nil
}

// ---- pools (crates/burn-nn/src/modules/pool) ----

func initPool(typ string) func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
		stride := c.Values["strides"]
		if stride == nil {
			stride = c.Values["stride"]
		}
		m := &Module{Type: typ, Values: map[string]dispatch.Value{"stride": stride, "kernel_size": c.Values["kernel_size"],
			"padding": c.Values["padding"], "ceil_mode": c.Values["ceil_mode"]}}
		last := "dilation"
		if typ[:3] == "Avg" {
			last = "count_include_pad"
		}
		m.Values[last] = c.Values[last]
		m.Fields = []string{"stride", "kernel_size", "padding", last, "ceil_mode"}
		twoD := typ[len(typ)-2:] == "2d"
		show := func(v dispatch.Value) string {
			if twoD {
				return dims(pairOf(v))
			}
			return fmt.Sprint(int64(num(v)))
		}
		m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
			out := []attr{{"kernel_size", show(m.Values["kernel_size"])}, {"stride", show(m.Values["stride"])},
				{"padding", paddingDebug(m.Values["padding"])}}
			if last == "dilation" {
				out = append(out, attr{"dilation", show(m.Values["dilation"])})
			} else {
				out = append(out, attr{"count_include_pad", fmt.Sprint(bool(m.Values[last].(dispatch.Bool)))})
			}
			return append(out, attr{"ceil_mode", fmt.Sprint(bool(m.Values["ceil_mode"].(dispatch.Bool)))}), nil
		}
		m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			return forwardPool(w, typ, twoD, m, c)
		}
		return m, nil
	}
}

// forwardPool is the pools' forward: symmetric padding goes to the
// module function; Valid padding is zero. (Asymmetric Same padding,
// which pads the input first, is not modelled.)
func forwardPool(w *dispatch.World, typ string, twoD bool, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected a tensor, found `" + c.Args[0].TypeName() + "`"}
	}
	pad, _ := dispatch.Deref(m.Values["padding"]).(*dispatch.Enum)
	var padding dispatch.Value = usizeVal(0)
	if twoD {
		padding = ints(0, 0)
	}
	if pad != nil && pad.Variant != "Valid" {
		if pad.Variant != "Explicit" {
			return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`" + typ + "` with `" + pad.Variant + "` padding is not modelled"}
		}
		f := pad.Fields
		switch {
		case twoD && len(f) == 4 && num(f[0]) == num(f[2]) && num(f[1]) == num(f[3]):
			padding = ints(int64(num(f[0])), int64(num(f[1])))
		case !twoD && len(f) == 2 && num(f[0]) == num(f[1]):
			padding = usizeVal(int64(num(f[0])))
		default:
			return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`" + typ + "` with asymmetric padding is not modelled"}
		}
	}
	_ = x
	name := map[string]string{"MaxPool2d": "max_pool2d", "AvgPool2d": "avg_pool2d", "MaxPool1d": "max_pool1d", "AvgPool1d": "avg_pool1d"}[typ]
	last := m.Values["dilation"]
	if last == nil {
		last = m.Values["count_include_pad"]
	}
	return w.Call(dispatch.Call{Path: []string{name}, Args: []dispatch.Value{c.Args[0], m.Values["kernel_size"], m.Values["stride"], padding, last, m.Values["ceil_mode"]}})
}

// ---- losses (crates/burn-nn/src/loss) ----

func initCrossEntropy(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	if s, ok := dispatch.Deref(c.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" && len(s.Fields) == 1 {
		if a := num(s.Fields[0]); a < 0 || a > 1 {
			return nil, burnPanic("nn-ce-alpha", fmt.Sprintf("Alpha of Cross-entropy loss with smoothed labels should be in interval [0, 1]. Got %s", rustFloat(a)),
				"crates/burn-nn/src/loss/cross_entropy.rs:62")
		}
	}
	var weights dispatch.Value = none()
	if ws, ok := dispatch.Deref(c.Values["weights"]).(*dispatch.Enum); ok && ws.Variant == "Some" && len(ws.Fields) == 1 {
		arr, _ := dispatch.Deref(ws.Fields[0]).(*dispatch.Array)
		if arr != nil {
			for _, e := range arr.Elems {
				if num(e) <= 0 {
					return nil, burnPanic("nn-ce-weights", "Weights of cross-entropy have to be positive.", "crates/burn-nn/src/loss/cross_entropy.rs:68")
				}
			}
		}
		t, err := tensorFn(w, 1, "from_floats", ws.Fields[0], deviceRef(d))
		if err != nil {
			return nil, err
		}
		weights = some(t)
	}
	return &Module{Type: "CrossEntropyLoss", Fields: []string{"pad_tokens", "weights", "smoothing", "logits"},
		Values: map[string]dispatch.Value{"pad_tokens": c.Values["pad_tokens"], "weights": weights,
			"smoothing": c.Values["smoothing"], "logits": c.Values["logits"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			pads := "None"
			if p, ok := dispatch.Deref(m.Values["pad_tokens"]).(*dispatch.Enum); ok && p.Variant == "Some" && len(p.Fields) == 1 {
				if a, ok := dispatch.Deref(p.Fields[0]).(*dispatch.Array); ok {
					pads = fmt.Sprintf("Vec<0..%d>", len(a.Elems))
				}
			}
			weights := "None"
			if wv, ok := dispatch.Deref(m.Values["weights"]).(*dispatch.Enum); ok && wv.Variant == "Some" {
				t := wv.Fields[0].(*dispatch.Tensor)
				weights = fmt.Sprintf("Tensor {rank: 1, shape: %s}", dims(t.Shape()))
			}
			smoothing := "None"
			if s, ok := dispatch.Deref(m.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" && len(s.Fields) == 1 {
				smoothing = rustFloat(num(s.Fields[0]))
			}
			return []attr{{"pad_tokens", pads}, {"weights", weights}, {"smoothing", smoothing},
				{"logits", fmt.Sprint(bool(m.Values["logits"].(dispatch.Bool)))}}, nil
		},
		forward: forwardCrossEntropy, arity: 2}, nil
}

// forwardCrossEntropy is CrossEntropyLoss::forward (cross_entropy.rs):
// its shape assertion, then log_softmax, gather of the targets, the
// padding mask and the (weighted) mean, negated.
func forwardCrossEntropy(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	if len(c.Args) != 2 {
		return nil, wrongArity(2, len(c.Args))
	}
	logits, ok1 := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	targets, ok2 := dispatch.Deref(c.Args[1]).(*dispatch.Tensor)
	if !ok1 || logits.Rank() != 2 {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<2>`, found `" + c.Args[0].TypeName() + "`"}
	}
	if !ok2 || targets.Rank() != 1 || targets.Kind() != dispatch.KindInt {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: "mismatched types: expected `Tensor<1, Int>`, found `" + c.Args[1].TypeName() + "`"}
	}
	batch, tb := logits.Shape()[0], targets.Shape()[0]
	if batch != tb {
		return nil, burnPanic("nn-ce-shape", fmt.Sprintf("Shape of targets (%d) should correspond to outer shape of logits (%d).", tb, batch),
			"crates/burn-nn/src/loss/cross_entropy.rs:248")
	}
	if s, ok := dispatch.Deref(m.Values["smoothing"]).(*dispatch.Enum); ok && s.Variant == "Some" {
		return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`CrossEntropyLoss` with label smoothing is not modelled"}
	}
	if !bool(m.Values["logits"].(dispatch.Bool)) {
		return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`CrossEntropyLoss` on probabilities (`logits: false`) is not modelled"}
	}
	// padding_mask (cross_entropy.rs): targets equal to any pad token.
	var mask dispatch.Value
	if p, ok := dispatch.Deref(m.Values["pad_tokens"]).(*dispatch.Enum); ok && p.Variant == "Some" && len(p.Fields) == 1 {
		pads, _ := dispatch.Deref(p.Fields[0]).(*dispatch.Array)
		if pads != nil && len(pads.Elems) > 0 {
			eq := func(tok dispatch.Value) (dispatch.Value, error) {
				return chain(w, targets, call(w, "equal_elem", dispatch.Int{V: int64(num(tok)), Suffix: "i64"}), call(w, "int"))
			}
			res, err := eq(pads.Elems[0])
			if err != nil {
				return nil, err
			}
			for _, tok := range pads.Elems {
				r, err := eq(tok)
				if err != nil {
					return nil, err
				}
				if res, err = method(w, res, "add", r); err != nil {
					return nil, err
				}
			}
			if mask, err = method(w, res, "greater_elem", dispatch.Int{V: 0}); err != nil {
				return nil, err
			}
		}
	}
	indices, err := method(w, targets, "reshape", ints(batch, 1))
	if err != nil {
		return nil, err
	}
	lsm, err := w.Call(dispatch.Call{Path: []string{"log_softmax"}, Args: []dispatch.Value{logits, usizeVal(1)}})
	if err != nil {
		return nil, err
	}
	picked, err := chain(w, lsm, call(w, "gather", usizeVal(1), indices), call(w, "reshape", ints(batch)))
	if err != nil {
		return nil, err
	}
	applyMask := func(t dispatch.Value) (dispatch.Value, error) {
		if mask == nil {
			return t, nil
		}
		return method(w, t, "mask_fill", mask, dispatch.Int{V: 0})
	}
	if wv, ok := dispatch.Deref(m.Values["weights"]).(*dispatch.Enum); ok && wv.Variant == "Some" {
		weights, err := method(w, wv.Fields[0], "gather", usizeVal(0), targets)
		if err != nil {
			return nil, err
		}
		t, err := method(w, picked, "mul", weights)
		if err != nil {
			return nil, err
		}
		if t, err = applyMask(t); err != nil {
			return nil, err
		}
		num, err := chain(w, t, call(w, "sum"), call(w, "neg"))
		if err != nil {
			return nil, err
		}
		den, err := method(w, weights, "sum")
		if err != nil {
			return nil, err
		}
		return method(w, num, "div", den)
	}
	t, err := applyMask(picked)
	if err != nil {
		return nil, err
	}
	return chain(w, t, call(w, "mean"), call(w, "neg"))
}

// mseLoss is MseLoss (loss/mse.rs): forward(logits, targets, reduction)
// is (logits - targets)^2 reduced by mean or sum.
func mseLoss() *Module {
	return &Module{Type: "MseLoss", Values: map[string]dispatch.Value{}, arity: 3,
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			if len(c.Args) != 3 {
				return nil, wrongArity(3, len(c.Args))
			}
			sq, err := chain(w, c.Args[0], call(w, "sub", c.Args[1]), call(w, "square"))
			if err != nil {
				return nil, err
			}
			red, _ := dispatch.Deref(c.Args[2]).(*dispatch.Enum)
			if red == nil || red.Type != "Reduction" {
				return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 3, Message: "mismatched types: expected `Reduction`, found `" + c.Args[2].TypeName() + "`"}
			}
			switch red.Variant {
			case "Mean", "Auto":
				return method(w, sq, "mean")
			case "Sum":
				return method(w, sq, "sum")
			}
			return nil, unsupportedReduction("nn-mse-reduction", red.Variant, 3, "crates/burn-nn/src/loss/mse.rs:40")
		}}
}

// newGelu is burn-nn's Gelu (activation/gelu.rs): gelu, or
// gelu_approximate when approximate is set.
func newGelu(approximate bool) *Module {
	return &Module{Type: "Gelu", Fields: []string{"approximate"}, Values: map[string]dispatch.Value{"approximate": dispatch.Bool(approximate)},
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			fn := "gelu"
			if bool(m.Values["approximate"].(dispatch.Bool)) {
				fn = "gelu_approximate"
			}
			return w.Call(dispatch.Call{Path: []string{fn}, Args: []dispatch.Value{c.Args[0]}})
		}}
}

func init() {
	register(&configDesc{name: "LeakyReluConfig", fields: []field{{name: "negative_slope", typ: "f64", def: f64(0.01)}},
		init: func(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
			// LeakyRelu (activation/leaky_relu.rs): leaky_relu(input,
			// negative_slope).
			return &Module{Type: "LeakyRelu", Fields: []string{"negative_slope"},
				Values: map[string]dispatch.Value{"negative_slope": c.Values["negative_slope"]},
				content: func(_ *dispatch.World, m *Module) ([]attr, error) {
					return []attr{{"negative_slope", rustFloat(num(m.Values["negative_slope"]))}}, nil
				},
				forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
					return w.Call(dispatch.Call{Path: []string{"leaky_relu"}, Args: []dispatch.Value{c.Args[0], m.Values["negative_slope"]}})
				}}, nil
		}})
}

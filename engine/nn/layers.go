package nn

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

func ints(xs ...int64) *dispatch.Array {
	a := &dispatch.Array{Elems: make([]dispatch.Value, len(xs))}
	for i, x := range xs {
		a.Elems[i] = dispatch.Int{V: x, Suffix: "usize"}
	}
	return a
}

func some(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{v}}
}

// tensorFn calls Tensor::<rank>::name(args...).
func tensorFn(w *dispatch.World, rank int, name string, args ...dispatch.Value) (*dispatch.Tensor, error) {
	v, err := w.Call(dispatch.Call{Path: []string{"Tensor", name}, Generics: [][]string{{strconv.Itoa(rank)}, nil}, Args: args})
	if err != nil {
		return nil, err
	}
	t, ok := v.(*dispatch.Tensor)
	if !ok {
		return nil, fmt.Errorf("Tensor::%s gave %s", name, v.TypeName())
	}
	return t, nil
}

func num(v dispatch.Value) float64 {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Float:
		return x.V
	case dispatch.Int:
		return float64(x.V)
	}
	return 0
}

// initParam is Initializer::init_with(shape, Some(fan_in), Some(fan_out),
// device) (module/initializer.rs:102): a lazy Param that requires grad,
// whose tensor init_tensor creates (initializer.rs:134).
func initParam(w *dispatch.World, init dispatch.Value, shape []int64, fanIn, fanOut int64, d *dispatch.Device) (*Param, error) {
	id, err := w.Call(dispatch.Call{Path: []string{"ParamId", "new"}})
	if err != nil {
		return nil, err
	}
	en, _ := dispatch.Deref(init).(*dispatch.Enum)
	if en == nil || en.Type != "Initializer" {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: "mismatched types: expected `Initializer`"}
	}
	if en.Variant == "Orthogonal" {
		return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`Initializer::Orthogonal` is not modelled"}
	}
	f := func(n string) float64 { return num(en.Named[n]) }
	fanOnly, _ := dispatch.Deref(en.Named["fan_out_only"]).(dispatch.Bool)
	kaiming := 1 / math.Sqrt(float64(fanIn))
	if fanOnly {
		kaiming = 1 / math.Sqrt(float64(fanOut))
	}
	xavier := math.Sqrt(2 / float64(fanIn+fanOut))
	rank := len(shape)
	dist := func(variant string, a, b float64) dispatch.Value {
		return &dispatch.Enum{Type: "Distribution", Variant: variant, Fields: []dispatch.Value{dispatch.Float{V: a}, dispatch.Float{V: b}}}
	}
	create := func(w *dispatch.World, dev *dispatch.Device) (*dispatch.Tensor, error) {
		s, dr := ints(shape...), deviceRef(dev)
		// A fan of -1 is None: kaiming_std and xavier_std expect it
		// (initializer.rs:209, 221), when the closure runs.
		switch {
		case fanOut < 0 && (en.Variant == "XavierUniform" || en.Variant == "XavierNormal"):
			return nil, burnPanic("nn-init-xavier-fan-out", "Can't use Xavier initialization without specifying fan out. Use init_with method and provide fan_out.",
				"crates/burn-core/src/module/initializer.rs:221")
		case fanOut < 0 && bool(fanOnly) && (en.Variant == "KaimingUniform" || en.Variant == "KaimingNormal"):
			return nil, burnPanic("nn-init-kaiming-fan", "Can't use Kaiming initialization without specifying fan. Use init_with method.",
				"crates/burn-core/src/module/initializer.rs:209")
		}
		switch en.Variant {
		case "Constant":
			return tensorFn(w, rank, "full", s, dispatch.Float{V: f("value")}, dr)
		case "Ones":
			return tensorFn(w, rank, "ones", s, dr)
		case "Zeros":
			return tensorFn(w, rank, "zeros", s, dr)
		case "Uniform":
			return tensorFn(w, rank, "random", s, dist("Uniform", f("min"), f("max")), dr)
		case "Normal":
			return tensorFn(w, rank, "random", s, dist("Normal", f("mean"), f("std")), dr)
		case "KaimingUniform":
			a := math.Sqrt(3) * f("gain") * kaiming
			return tensorFn(w, rank, "random", s, dist("Uniform", -a, a), dr)
		case "KaimingNormal":
			return tensorFn(w, rank, "random", s, dist("Normal", 0, f("gain")*kaiming), dr)
		case "XavierUniform":
			a := math.Sqrt(3) * f("gain") * xavier
			return tensorFn(w, rank, "random", s, dist("Uniform", -a, a), dr)
		case "XavierNormal":
			return tensorFn(w, rank, "random", s, dist("Normal", 0, f("gain")*xavier), dr)
		}
		return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`Initializer::" + en.Variant + "` is not modelled"}
	}
	return &Param{ID: id, RequireGrad: true, shape: shape, device: d, init: create}, nil
}

// burnPanic is a panic of burn-nn, id its row of the engine's panic
// sites (engine/catalog/sites.tsv).
func burnPanic(id, msg, location string) *dispatch.Panic {
	return &dispatch.Panic{ID: id, Message: msg, Location: location, Input: -1}
}

func init() {
	register(&configDesc{name: "LinearConfig", device: true, fields: []field{
		{name: "d_input", typ: "usize"}, {name: "d_output", typ: "usize"},
		{name: "bias", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
		{name: "layout", typ: "LinearLayout", def: unit("LinearLayout", "Row")},
	}, init: initLinear})
	register(&configDesc{name: "Conv2dConfig", device: true, fields: []field{
		{name: "channels", typ: "[usize; 2]"}, {name: "kernel_size", typ: "[usize; 2]"},
		{name: "stride", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "dilation", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "groups", typ: "usize", def: usize(1)},
		{name: "padding", typ: "PaddingConfig2d", def: unit("PaddingConfig2d", "Valid")},
		{name: "bias", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
	}, init: initConv2d})
	register(&configDesc{name: "DropoutConfig", fields: []field{{name: "prob", typ: "f64"}}, init: initDropout})
	register(&configDesc{name: "AdaptiveAvgPool2dConfig", fields: []field{{name: "output_size", typ: "[usize; 2]"}}, init: initAdaptiveAvgPool2d})
}

// ---- Linear (crates/burn-nn/src/modules/linear.rs) ----

func initLinear(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	dIn, dOut := c.intField("d_input"), c.intField("d_output")
	shape := []int64{dIn, dOut}
	if l, _ := dispatch.Deref(c.Values["layout"]).(*dispatch.Enum); l != nil && l.Variant == "Col" {
		return nil, &dispatch.UsageError{Code: "unsupported-api", Arg: -1, Message: "`LinearLayout::Col` is not modelled"}
	}
	weight, err := initParam(w, c.Values["initializer"], shape, dIn, dOut, d)
	if err != nil {
		return nil, err
	}
	var bias dispatch.Value = none()
	if c.boolField("bias") {
		b, err := initParam(w, c.Values["initializer"], []int64{dOut}, dIn, dOut, d)
		if err != nil {
			return nil, err
		}
		bias = some(b)
	}
	return &Module{Type: "Linear", Fields: []string{"weight", "bias"},
		Values: map[string]dispatch.Value{"weight": weight, "bias": bias},
		content: func(w *dispatch.World, m *Module) ([]attr, error) {
			p := m.param("weight")
			// weight.shape() reads the lazy Param's shape without
			// initializing it (linear.rs:145).
			return []attr{{"d_input", fmt.Sprint(p.shape[0])}, {"d_output", fmt.Sprint(p.shape[1])},
				{"bias", fmt.Sprint(m.param("bias") != nil)}}, nil
		},
		forward: forwardLinear}, nil
}

// forwardLinear is Linear::forward: burn::tensor::module::linear(input,
// weight.val(), bias.val()) (linear.rs:128).
func forwardLinear(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	weight, err := m.param("weight").Val(w)
	if err != nil {
		return nil, err
	}
	var bias dispatch.Value = none()
	if p := m.param("bias"); p != nil {
		b, err := p.Val(w)
		if err != nil {
			return nil, err
		}
		bias = some(b)
	}
	return w.Call(dispatch.Call{Path: []string{"linear"}, Args: []dispatch.Value{c.Args[0], weight, bias}})
}

// ---- Conv2d (crates/burn-nn/src/modules/conv/conv2d.rs) ----

func initConv2d(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	ch, k := c.pairField("channels"), c.pairField("kernel_size")
	groups := c.intField("groups")
	if groups == 0 || ch[0]%groups != 0 || ch[1]%groups != 0 {
		// checks::checks_channels_div_groups (conv/checks.rs:5).
		return nil, burnPanic("nn-conv-groups", fmt.Sprintf("Both channels must be divisible by the number of groups. Got channels_in=%d, channels_out=%d, groups=%d",
			ch[0], ch[1], groups), "crates/burn-nn/src/modules/conv/checks.rs:6")
	}
	shape := []int64{ch[1], ch[0] / groups, k[0], k[1]}
	fanIn, fanOut := ch[0]/groups*k[0]*k[1], ch[1]/groups*k[0]*k[1]
	weight, err := initParam(w, c.Values["initializer"], shape, fanIn, fanOut, d)
	if err != nil {
		return nil, err
	}
	var bias dispatch.Value = none()
	if c.boolField("bias") {
		b, err := initParam(w, c.Values["initializer"], []int64{ch[1]}, fanIn, fanOut, d)
		if err != nil {
			return nil, err
		}
		bias = some(b)
	}
	return &Module{Type: "Conv2d", Fields: []string{"weight", "bias", "stride", "kernel_size", "dilation", "groups", "padding"},
		Values: map[string]dispatch.Value{"weight": weight, "bias": bias, "stride": c.Values["stride"],
			"kernel_size": c.Values["kernel_size"], "dilation": c.Values["dilation"], "groups": c.Values["groups"],
			"padding": c.Values["padding"]},
		content: contentConv2d, forward: forwardConv2d}, nil
}

func pairOf(v dispatch.Value) []int64 {
	a, _ := dispatch.Deref(v).(*dispatch.Array)
	if a == nil {
		return nil
	}
	out := make([]int64, len(a.Elems))
	for i, e := range a.Elems {
		out[i] = int64(num(e))
	}
	return out
}

// contentConv2d is Conv2d's custom_content (conv2d.rs:120): the weight's
// dims initialize it, as Param's Deref does.
func contentConv2d(w *dispatch.World, m *Module) ([]attr, error) {
	p := m.param("weight")
	if _, err := p.Val(w); err != nil {
		return nil, err
	}
	groups := int64(num(m.Values["groups"]))
	return []attr{{"ch_in", fmt.Sprint(p.shape[1] * groups)}, {"ch_out", fmt.Sprint(p.shape[0])},
		{"stride", dims(pairOf(m.Values["stride"]))}, {"kernel_size", dims(pairOf(m.Values["kernel_size"]))},
		{"dilation", dims(pairOf(m.Values["dilation"]))}, {"groups", fmt.Sprint(groups)},
		{"padding", paddingDebug(m.Values["padding"])}}, nil
}

func paddingDebug(v dispatch.Value) string {
	en, _ := dispatch.Deref(v).(*dispatch.Enum)
	if en == nil {
		return "_"
	}
	if len(en.Fields) == 0 {
		return en.Variant
	}
	s := en.Variant + "("
	for i, f := range en.Fields {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(int64(num(f)))
	}
	return s + ")"
}

// forwardConv2d is Conv2d::forward (conv2d.rs:164): the padding pairs,
// PaddedConvOptions::asymmetric and burn::tensor::module::conv2d.
func forwardConv2d(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<4>`, found `" + c.Args[0].TypeName() + "`"}
	}
	if x.Rank() != 4 {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: fmt.Sprintf("mismatched types: expected `Tensor<4>`, found `Tensor<%d>`", x.Rank())}
	}
	shape := x.Shape()
	k, stride := pairOf(m.Values["kernel_size"]), pairOf(m.Values["stride"])
	top, bottom, left, right := int64(0), int64(0), int64(0), int64(0)
	pad, _ := dispatch.Deref(m.Values["padding"]).(*dispatch.Enum)
	if pad != nil {
		switch pad.Variant {
		case "Same":
			top, bottom = samePadding(k[0], stride[0], shape[2])
			left, right = samePadding(k[1], stride[1], shape[3])
		case "Explicit":
			if len(pad.Fields) == 4 {
				top, left, bottom, right = int64(num(pad.Fields[0])), int64(num(pad.Fields[1])), int64(num(pad.Fields[2])), int64(num(pad.Fields[3]))
			}
		}
	}
	opts, err := w.Call(dispatch.Call{Path: []string{"PaddedConvOptions", "asymmetric"}, Args: []dispatch.Value{
		m.Values["stride"], ints(top, left), ints(bottom, right), m.Values["dilation"], m.Values["groups"]}})
	if err != nil {
		return nil, err
	}
	weight, err := m.param("weight").Val(w)
	if err != nil {
		return nil, err
	}
	var bias dispatch.Value = none()
	if p := m.param("bias"); p != nil {
		b, err := p.Val(w)
		if err != nil {
			return nil, err
		}
		bias = some(b)
	}
	return w.Call(dispatch.Call{Path: []string{"conv2d"}, Args: []dispatch.Value{x, weight, bias, opts}})
}

// samePadding is burn-nn's calculate_same_padding (padding.rs): the
// total padding that keeps the size, split with the extra on the end.
func samePadding(kernel, stride, size int64) (int64, int64) {
	out := (size + stride - 1) / stride
	total := max((out-1)*stride+kernel-size, 0)
	return total / 2, total - total/2
}

// ---- Dropout (crates/burn-nn/src/modules/dropout.rs) ----

func initDropout(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	prob := c.Values["prob"]
	p := num(prob)
	if p < 0 || p > 1 {
		return nil, burnPanic("nn-dropout-prob", fmt.Sprintf("Dropout probability should be between 0 and 1, but got %s", rustFloat(p)),
			"crates/burn-nn/src/modules/dropout.rs:33")
	}
	return &Module{Type: "Dropout", Fields: []string{"prob"}, Values: map[string]dispatch.Value{"prob": prob},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"prob", rustFloat(num(m.Values["prob"]))}}, nil
		},
		forward: forwardDropout}, nil
}

// rustFloat is `{}` of an f64 as Rust prints it (0.5, 1, 0.1).
func rustFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	if math.IsInf(v, -1) {
		return "-inf"
	}
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// forwardDropout is Dropout::forward (dropout.rs:51): the input itself
// off an autodiff device or with prob 0; otherwise input * a Bernoulli
// mask of 1 - prob, scaled by 1 / (1 - prob).
func forwardDropout(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + c.Args[0].TypeName() + "`"}
	}
	prob := num(m.Values["prob"])
	if !x.Device().IsAutodiff() || prob == 0 {
		return x, nil
	}
	keep := 1 - prob
	// random_like is float_random with the input's shape and device
	// (tensor/api/float.rs:1125).
	draw := func() (dispatch.Value, error) {
		return tensorFn(w, x.Rank(), "random", ints(x.Shape()...),
			&dispatch.Enum{Type: "Distribution", Variant: "Bernoulli", Fields: []dispatch.Value{dispatch.Float{V: keep}}}, deviceRef(x.Device()))
	}
	var mask dispatch.Value
	var err error
	if x.HasValues() {
		mask, err = draw()
	} else {
		// The mask is seen only through `x * mask`, which has no values.
		mask, err = w.WithoutValues(draw)
	}
	if err != nil {
		return nil, err
	}
	y, err := w.Call(dispatch.Call{Recv: x, Method: "mul", Args: []dispatch.Value{mask}})
	if err != nil {
		return nil, err
	}
	return w.Call(dispatch.Call{Recv: y, Method: "mul", Args: []dispatch.Value{dispatch.Float{V: 1 / keep}}})
}

// ---- AdaptiveAvgPool2d (crates/burn-nn/src/modules/pool/adaptive_avg_pool2d.rs) ----

func initAdaptiveAvgPool2d(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return &Module{Type: "AdaptiveAvgPool2d", Fields: []string{"output_size"},
		Values: map[string]dispatch.Value{"output_size": c.Values["output_size"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"output_size", dims(pairOf(m.Values["output_size"]))}}, nil
		},
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Path: []string{"adaptive_avg_pool2d"}, Args: []dispatch.Value{c.Args[0], m.Values["output_size"]}})
		}}, nil
}

// ---- activations (crates/burn-nn/src/activation) ----

// activations are the unit-struct modules whose forward is the
// activation function of burn::tensor::activation of the same name.
var activations = map[string]string{"Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh"}

func newActivation(typ string) *Module {
	fn := activations[typ]
	return &Module{Type: typ, Values: map[string]dispatch.Value{},
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Path: []string{fn}, Args: []dispatch.Value{c.Args[0]}})
		}}
}

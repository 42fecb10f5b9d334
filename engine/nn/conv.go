package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Conv1d, Conv3d and the transposed convolutions
// (crates/burn-nn/src/modules/conv): configs as the derive builds them,
// lazy Params drawn by the config's initializer, forward through
// burn::tensor::module's convolution of the same rank.

func triple(a, b, c int64) func() dispatch.Value {
	return func() dispatch.Value { return ints(a, b, c) }
}

func init() {
	register(&configDesc{name: "Conv1dConfig", device: true, fields: []field{
		{name: "channels_in", typ: "usize"}, {name: "channels_out", typ: "usize"}, {name: "kernel_size", typ: "usize"},
		{name: "stride", typ: "usize", def: usize(1)},
		{name: "dilation", typ: "usize", def: usize(1)},
		{name: "groups", typ: "usize", def: usize(1)},
		{name: "padding", typ: "PaddingConfig1d", def: unit("PaddingConfig1d", "Valid")},
		{name: "bias", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
	}, init: initConv1d})
	register(&configDesc{name: "Conv3dConfig", device: true, fields: []field{
		{name: "channels", typ: "[usize; 2]"}, {name: "kernel_size", typ: "[usize; 3]"},
		{name: "stride", typ: "[usize; 3]", def: triple(1, 1, 1)},
		{name: "dilation", typ: "[usize; 3]", def: triple(1, 1, 1)},
		{name: "groups", typ: "usize", def: usize(1)},
		{name: "padding", typ: "PaddingConfig3d", def: unit("PaddingConfig3d", "Valid")},
		{name: "bias", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
	}, init: initConv3d})
	for _, n := range []int{1, 2, 3} {
		typ, zero, one := "usize", usize(0), usize(1)
		switch n {
		case 2:
			typ, zero, one = "[usize; 2]", pair(0, 0), pair(1, 1)
		case 3:
			typ, zero, one = "[usize; 3]", triple(0, 0, 0), triple(1, 1, 1)
		}
		register(&configDesc{name: fmt.Sprintf("ConvTranspose%ddConfig", n), device: true, fields: []field{
			{name: "channels", typ: "[usize; 2]"}, {name: "kernel_size", typ: typ},
			{name: "stride", typ: typ, def: one},
			{name: "dilation", typ: typ, def: one},
			{name: "groups", typ: "usize", def: usize(1)},
			{name: "padding", typ: typ, def: zero},
			{name: "padding_out", typ: typ, def: zero},
			{name: "bias", typ: "bool", def: boolean(true)},
			{name: "initializer", typ: "Initializer", def: kaimingDefault},
		}, init: initConvTranspose(n)})
	}
}

// checkGroups is checks::checks_channels_div_groups (conv/checks.rs:1).
func checkGroups(in, out, groups int64) error {
	if groups == 0 || in%groups != 0 || out%groups != 0 {
		return burnPanic("nn-conv-groups", fmt.Sprintf("Both channels must be divisible by the number of groups. Got channels_in=%d, channels_out=%d, groups=%d",
			in, out, groups), "crates/burn-nn/src/modules/conv/checks.rs:6")
	}
	return nil
}

// convParams are the weight and the optional bias of a convolution:
// init_with(shape, Some(fan_in), fan_out) for the weight and init_with([ch_out],
// Some(fan_in), biasFanOut) for the bias; a fan of -1 is None.
func convParams(w *dispatch.World, c *Config, shape []int64, chOut, fanIn, fanOut, biasFanOut int64, d *dispatch.Device) (dispatch.Value, dispatch.Value, error) {
	weight, err := initParam(w, c.Values["initializer"], shape, fanIn, fanOut, d)
	if err != nil {
		return nil, nil, err
	}
	var bias dispatch.Value = none()
	if c.boolField("bias") {
		b, err := initParam(w, c.Values["initializer"], []int64{chOut}, fanIn, biasFanOut, d)
		if err != nil {
			return nil, nil, err
		}
		bias = some(b)
	}
	return weight, bias, nil
}

func paramVals(w *dispatch.World, m *Module) (dispatch.Value, dispatch.Value, error) {
	weight, err := m.param("weight").Val(w)
	if err != nil {
		return nil, nil, err
	}
	var bias dispatch.Value = none()
	if p := m.param("bias"); p != nil {
		b, err := p.Val(w)
		if err != nil {
			return nil, nil, err
		}
		bias = some(b)
	}
	return weight, bias, nil
}

func rankedInput(c dispatch.Call, rank int) (*dispatch.Tensor, error) {
	x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
	if !ok || x.Rank() != rank {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: fmt.Sprintf("mismatched types: expected `Tensor<%d>`, found `%s`", rank, c.Args[0].TypeName())}
	}
	return x, nil
}

// showDims is `{:?}` of a usize or of a [usize; N] field.
func showDims(v dispatch.Value) string {
	if _, ok := dispatch.Deref(v).(*dispatch.Array); ok {
		return dims(pairOf(v))
	}
	return fmt.Sprint(int64(num(v)))
}

// contentConv is the custom_content of Conv1d (conv1d.rs:76) and Conv3d
// (conv3d.rs:121): ch_in from the weight's dims (which initialize it),
// ch_out, stride, kernel_size, dilation, groups, padding.
func contentConv(w *dispatch.World, m *Module) ([]attr, error) {
	p := m.param("weight")
	if _, err := p.Val(w); err != nil {
		return nil, err
	}
	groups := int64(num(m.Values["groups"]))
	return []attr{{"ch_in", fmt.Sprint(p.shape[1] * groups)}, {"ch_out", fmt.Sprint(p.shape[0])},
		{"stride", showDims(m.Values["stride"])}, {"kernel_size", showDims(m.Values["kernel_size"])},
		{"dilation", showDims(m.Values["dilation"])}, {"groups", fmt.Sprint(groups)},
		{"padding", paddingDebug(m.Values["padding"])}}, nil
}

var convFields = []string{"weight", "bias", "stride", "kernel_size", "dilation", "groups", "padding"}

func convModule(typ string, c *Config, weight, bias dispatch.Value, fields []string) *Module {
	m := &Module{Type: typ, Fields: fields, Values: map[string]dispatch.Value{"weight": weight, "bias": bias}}
	for _, f := range fields[2:] {
		m.Values[f] = c.Values[f]
	}
	return m
}

// ---- Conv1d (conv1d.rs) ----

// initConv1d is Conv1dConfig::init (conv1d.rs:101): the bias's fan_out is
// None (conv1d.rs:122).
func initConv1d(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	in, out, k, groups := c.intField("channels_in"), c.intField("channels_out"), c.intField("kernel_size"), c.intField("groups")
	if err := checkGroups(in, out, groups); err != nil {
		return nil, err
	}
	weight, bias, err := convParams(w, c, []int64{out, in / groups, k}, out, in/groups*k, out/groups*k, -1, d)
	if err != nil {
		return nil, err
	}
	m := convModule("Conv1d", c, weight, bias, convFields)
	m.content = contentConv
	m.forward = forwardConv1d
	return m, nil
}

// forwardConv1d is Conv1d::forward (conv1d.rs:147): the padding pair of
// the input's length, PaddedConvOptions::asymmetric and conv1d.
func forwardConv1d(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := rankedInput(c, 3)
	if err != nil {
		return nil, err
	}
	k, stride := int64(num(m.Values["kernel_size"])), int64(num(m.Values["stride"]))
	var left, right int64
	if pad, _ := dispatch.Deref(m.Values["padding"]).(*dispatch.Enum); pad != nil {
		switch pad.Variant {
		case "Same":
			if stride > 0 {
				left, right = samePadding(k, stride, x.Shape()[2])
			}
		case "Explicit":
			if len(pad.Fields) == 2 {
				left, right = int64(num(pad.Fields[0])), int64(num(pad.Fields[1]))
			}
		}
	}
	opts, err := w.Call(dispatch.Call{Path: []string{"PaddedConvOptions", "asymmetric"}, Args: []dispatch.Value{
		ints(stride), ints(left), ints(right), ints(int64(num(m.Values["dilation"]))), m.Values["groups"]}})
	if err != nil {
		return nil, err
	}
	weight, bias, err := paramVals(w, m)
	if err != nil {
		return nil, err
	}
	return w.Call(dispatch.Call{Path: []string{"conv1d"}, Args: []dispatch.Value{x, weight, bias, opts}})
}

// ---- Conv3d (conv3d.rs) ----

// initConv3d is Conv3dConfig::init (conv3d.rs:70): Same padding with an
// even kernel is refused (checks.rs:16).
func initConv3d(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	ch, k, groups := c.pairField("channels"), c.pairField("kernel_size"), c.intField("groups")
	if err := checkGroups(ch[0], ch[1], groups); err != nil {
		return nil, err
	}
	if pad, _ := dispatch.Deref(c.Values["padding"]).(*dispatch.Enum); pad != nil && pad.Variant == "Same" {
		for _, n := range k {
			if n%2 == 0 {
				return nil, burnPanic("nn-conv-same-even", "not implemented: Same padding with an even kernel size is not supported",
					"crates/burn-nn/src/modules/conv/checks.rs:19")
			}
		}
	}
	prod := k[0] * k[1] * k[2]
	weight, bias, err := convParams(w, c, []int64{ch[1], ch[0] / groups, k[0], k[1], k[2]}, ch[1], ch[0]/groups*prod, ch[1]/groups*prod, ch[1]/groups*prod, d)
	if err != nil {
		return nil, err
	}
	m := convModule("Conv3d", c, weight, bias, convFields)
	m.content = contentConv
	m.forward = forwardConv3d
	return m, nil
}

// forwardConv3d is Conv3d::forward (conv3d.rs:154): calculate_padding_3d
// (padding.rs:119), which refuses an asymmetric Same padding, then
// ConvOptions::new and conv3d.
func forwardConv3d(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := rankedInput(c, 5)
	if err != nil {
		return nil, err
	}
	k, stride := pairOf(m.Values["kernel_size"]), pairOf(m.Values["stride"])
	padding := []int64{0, 0, 0}
	if pad, _ := dispatch.Deref(m.Values["padding"]).(*dispatch.Enum); pad != nil {
		switch pad.Variant {
		case "Same":
			s := x.Shape()
			for i := range 3 {
				if stride[i] == 0 {
					continue
				}
				a, b := samePadding(k[i], stride[i], s[2+i])
				if a != b {
					return nil, burnPanic("nn-conv3d-same-asymmetric", "Asymmetric 3D 'Same' padding is not supported. Use odd kernel sizes for symmetric padding.",
						"crates/burn-nn/src/padding.rs:134")
				}
				padding[i] = a
			}
		case "Explicit":
			if len(pad.Fields) == 3 {
				for i := range 3 {
					padding[i] = int64(num(pad.Fields[i]))
				}
			}
		}
	}
	opts, err := w.Call(dispatch.Call{Path: []string{"ConvOptions", "new"}, Args: []dispatch.Value{
		m.Values["stride"], ints(padding...), m.Values["dilation"], m.Values["groups"]}})
	if err != nil {
		return nil, err
	}
	weight, bias, err := paramVals(w, m)
	if err != nil {
		return nil, err
	}
	return w.Call(dispatch.Call{Path: []string{"conv3d"}, Args: []dispatch.Value{x, weight, bias, opts}})
}

// ---- ConvTranspose1d/2d/3d (conv_transpose{1,2,3}d.rs) ----

var convTransposeFields = []string{"weight", "bias", "stride", "kernel_size", "dilation", "groups", "padding", "padding_out", "channels"}

// initConvTranspose is ConvTransposeNdConfig::init: weight
// [ch_in, ch_out / groups, k...], fan_in = ch_out / groups * prod(k),
// fan_out None for both Params (conv_transpose2d.rs init).
func initConvTranspose(n int) func(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	typ := fmt.Sprintf("ConvTranspose%dd", n)
	return func(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
		ch, groups := c.pairField("channels"), c.intField("groups")
		if err := checkGroups(ch[0], ch[1], groups); err != nil {
			return nil, err
		}
		k := []int64{c.intField("kernel_size")}
		if n > 1 {
			k = c.pairField("kernel_size")
		}
		prod := int64(1)
		for _, x := range k {
			prod *= x
		}
		shape := append([]int64{ch[0], ch[1] / groups}, k...)
		weight, bias, err := convParams(w, c, shape, ch[1], ch[1]/groups*prod, -1, -1, d)
		if err != nil {
			return nil, err
		}
		m := convModule(typ, c, weight, bias, convTransposeFields)
		m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"channels", dims(pairOf(m.Values["channels"]))}, {"stride", showDims(m.Values["stride"])},
				{"kernel_size", showDims(m.Values["kernel_size"])}, {"dilation", showDims(m.Values["dilation"])},
				{"groups", fmt.Sprint(int64(num(m.Values["groups"])))}, {"padding", showDims(m.Values["padding"])},
				{"padding_out", showDims(m.Values["padding_out"])}}, nil
		}
		// forward: ConvTransposeOptions::new(stride, padding, padding_out,
		// dilation, groups) and conv_transpose{n}d.
		m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			x, err := rankedInput(c, n+2)
			if err != nil {
				return nil, err
			}
			arr := func(name string) dispatch.Value {
				if n == 1 {
					return ints(int64(num(m.Values[name])))
				}
				return m.Values[name]
			}
			opts, err := w.Call(dispatch.Call{Path: []string{"ConvTransposeOptions", "new"}, Args: []dispatch.Value{
				arr("stride"), arr("padding"), arr("padding_out"), arr("dilation"), m.Values["groups"]}})
			if err != nil {
				return nil, err
			}
			weight, bias, err := paramVals(w, m)
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Path: []string{fmt.Sprintf("conv_transpose%dd", n)}, Args: []dispatch.Value{x, weight, bias, opts}})
		}
		return m, nil
	}
}

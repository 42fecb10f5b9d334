package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// DeformConv2d (crates/burn-nn/src/modules/conv/deform_conv2d.rs).

func init() {
	register(&configDesc{name: "DeformConv2dConfig", device: true, fields: []field{
		{name: "channels", typ: "[usize; 2]"}, {name: "kernel_size", typ: "[usize; 2]"},
		{name: "stride", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "dilation", typ: "[usize; 2]", def: pair(1, 1)},
		{name: "weight_groups", typ: "usize", def: usize(1)},
		{name: "offset_groups", typ: "usize", def: usize(1)},
		{name: "padding", typ: "PaddingConfig2d", def: unit("PaddingConfig2d", "Valid")},
		{name: "bias", typ: "bool", def: boolean(true)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
	}, init: initDeformConv2d})
}

// initDeformConv2d is DeformConv2dConfig::init (deform_conv2d.rs:79): the
// weight groups' check, Same padding's odd kernels, the offset groups'
// check (:85), then the Params with both fans.
func initDeformConv2d(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	ch, k := c.pairField("channels"), c.pairField("kernel_size")
	wg, og := c.intField("weight_groups"), c.intField("offset_groups")
	if err := checkGroups(ch[0], ch[1], wg); err != nil {
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
	// usize::is_multiple_of(0) holds only for 0.
	if (og == 0 && ch[0] != 0) || (og != 0 && ch[0]%og != 0) {
		return nil, burnPanic("nn-deform-offset-groups", fmt.Sprintf("Channels must be divisible by the number of groups. Got channels_in=%d, offset_groups=%d", ch[0], og),
			"crates/burn-nn/src/modules/conv/deform_conv2d.rs:85")
	}
	prod := k[0] * k[1]
	fanIn, fanOut := ch[0]/wg*prod, ch[1]/wg*prod
	weight, bias, err := convParams(w, c, []int64{ch[1], ch[0] / wg, k[0], k[1]}, ch[1], fanIn, fanOut, fanOut, d)
	if err != nil {
		return nil, err
	}
	m := convModule("DeformConv2d", c, weight, bias, []string{"weight", "bias", "stride", "kernel_size", "dilation", "weight_groups", "offset_groups", "padding"})
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		return []attr{{"stride", dims(pairOf(m.Values["stride"]))}, {"kernel_size", dims(pairOf(m.Values["kernel_size"]))},
			{"dilation", dims(pairOf(m.Values["dilation"]))}, {"weight_groups", fmt.Sprint(int64(num(m.Values["weight_groups"])))},
			{"offset_groups", fmt.Sprint(int64(num(m.Values["offset_groups"])))}, {"padding", paddingDebug(m.Values["padding"])}}, nil
	}
	m.arity = 3
	m.forward = forwardDeformConv2d
	return m, nil
}

// forwardDeformConv2d is DeformConv2d::forward(input, offset, mask)
// (deform_conv2d.rs:165): calculate_padding_2d, which refuses an
// asymmetric padding (padding.rs:98), DeformConvOptions::new and
// deform_conv2d.
func forwardDeformConv2d(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
	x, err := rankedInput(c, 4)
	if err != nil {
		return nil, err
	}
	s := x.Shape()
	k, stride := pairOf(m.Values["kernel_size"]), pairOf(m.Values["stride"])
	var top, bottom, left, right int64
	if pad, _ := dispatch.Deref(m.Values["padding"]).(*dispatch.Enum); pad != nil {
		switch pad.Variant {
		case "Same":
			if stride[0] > 0 && stride[1] > 0 {
				top, bottom = samePadding(k[0], stride[0], s[2])
				left, right = samePadding(k[1], stride[1], s[3])
			}
		case "Explicit":
			if len(pad.Fields) == 4 {
				top, left, bottom, right = int64(num(pad.Fields[0])), int64(num(pad.Fields[1])), int64(num(pad.Fields[2])), int64(num(pad.Fields[3]))
			}
		}
	}
	if top != bottom || left != right {
		return nil, burnPanic("nn-padding-2d-asymmetric", "Asymmetric padding should be handled via calculate_padding_2d_pairs()", "crates/burn-nn/src/padding.rs:98")
	}
	opts, err := w.Call(dispatch.Call{Path: []string{"DeformConvOptions", "new"}, Args: []dispatch.Value{
		m.Values["stride"], ints(top, left), m.Values["dilation"], m.Values["weight_groups"], m.Values["offset_groups"]}})
	if err != nil {
		return nil, err
	}
	weight, bias, err := paramVals(w, m)
	if err != nil {
		return nil, err
	}
	return w.Call(dispatch.Call{Path: []string{"deform_conv2d"}, Args: []dispatch.Value{x, c.Args[1], weight, c.Args[2], bias, opts}})
}

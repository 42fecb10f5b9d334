package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// GroupNorm, InstanceNorm and RmsNorm (crates/burn-nn/src/modules/norm).

func init() {
	// GroupNormConfig (group.rs:16).
	register(&configDesc{name: "GroupNormConfig", device: true, fields: []field{
		{name: "num_groups", typ: "usize"}, {name: "num_channels", typ: "usize"},
		{name: "epsilon", typ: "f64", def: f64(1e-5)},
		{name: "affine", typ: "bool", def: boolean(true)},
	}, init: initGroupNorm})
	// InstanceNormConfig (instance.rs:12).
	register(&configDesc{name: "InstanceNormConfig", device: true, fields: []field{
		{name: "num_channels", typ: "usize"},
		{name: "epsilon", typ: "f64", def: f64(1e-5)},
		{name: "affine", typ: "bool", def: boolean(true)},
	}, init: initInstanceNorm})
	// RmsNormConfig (rms.rs:15).
	register(&configDesc{name: "RmsNormConfig", device: true, fields: []field{
		{name: "d_model", typ: "usize"},
		{name: "epsilon", typ: "f64", def: f64(1e-5)},
	}, init: initRmsNorm})
}

// affineParams are Initializer::Ones.init([n]) and Initializer::Zeros.init([n])
// when affine is set (group.rs:85, instance.rs:62).
func affineParams(w *dispatch.World, affine bool, n int64, d *dispatch.Device) (dispatch.Value, dispatch.Value, error) {
	if !affine {
		return none(), none(), nil
	}
	gamma, err := constParam(w, "Ones", n, d)
	if err != nil {
		return nil, nil, err
	}
	beta, err := constParam(w, "Zeros", n, d)
	if err != nil {
		return nil, nil, err
	}
	return some(gamma), some(beta), nil
}

func initGroupNorm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	groups, channels := c.intField("num_groups"), c.intField("num_channels")
	if groups == 0 {
		// `self.num_channels % self.num_groups` (group.rs:80).
		return nil, burnPanic("nn-groupnorm-remainder-by-zero", "attempt to calculate the remainder with a divisor of zero", "crates/burn-nn/src/modules/norm/group.rs:80")
	}
	if r := channels % groups; r != 0 {
		return nil, burnPanic("nn-groupnorm-groups", fmt.Sprintf("assertion `left == right` failed: The number of channels must be divisible by the number of groups\n  left: %d\n right: 0", r),
			"crates/burn-nn/src/modules/norm/group.rs:79")
	}
	gamma, beta, err := affineParams(w, c.boolField("affine"), channels, d)
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "GroupNorm", Fields: []string{"gamma", "beta", "num_groups", "num_channels", "epsilon", "affine"},
		Values: map[string]dispatch.Value{"gamma": gamma, "beta": beta, "num_groups": c.Values["num_groups"],
			"num_channels": c.Values["num_channels"], "epsilon": c.Values["epsilon"], "affine": c.Values["affine"]}}
	// custom_content (group.rs:66).
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		return []attr{{"num_groups", fmt.Sprint(int64(num(m.Values["num_groups"])))}, {"num_channels", fmt.Sprint(int64(num(m.Values["num_channels"])))},
			{"epsilon", rustFloat(num(m.Values["epsilon"]))}, {"affine", fmt.Sprint(bool(m.Values["affine"].(dispatch.Bool)))}}, nil
	}
	// GroupNorm::forward (group.rs:114): the channel check, then group_norm.
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
		if !ok || x.Kind() != dispatch.KindFloat {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + c.Args[0].TypeName() + "`"}
		}
		s := x.Shape()
		if len(s) < 2 {
			// `input.shape()[1]` of a rank-1 input (group.rs:115).
			return nil, burnPanic("nn-groupnorm-index", fmt.Sprintf("index out of bounds: the len is %d but the index is 1", len(s)), "crates/burn-nn/src/modules/norm/group.rs:115")
		}
		if want := int64(num(m.Values["num_channels"])); s[1] != want {
			return nil, burnPanic("nn-groupnorm-channels", fmt.Sprintf("The number of channels in the input tensor should be equal to the number of channels in the GroupNorm module. Expected %d, got %d", want, s[1]),
				"crates/burn-nn/src/modules/norm/group.rs:116")
		}
		return groupNorm(w, m, x, int64(num(m.Values["num_groups"])))
	}
	return m, nil
}

func initInstanceNorm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	gamma, beta, err := affineParams(w, c.boolField("affine"), c.intField("num_channels"), d)
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "InstanceNorm", Fields: []string{"gamma", "beta", "num_channels", "epsilon", "affine"},
		Values: map[string]dispatch.Value{"gamma": gamma, "beta": beta, "num_channels": c.Values["num_channels"],
			"epsilon": c.Values["epsilon"], "affine": c.Values["affine"]}}
	// custom_content (instance.rs:50).
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		return []attr{{"num_channels", fmt.Sprint(int64(num(m.Values["num_channels"])))},
			{"epsilon", rustFloat(num(m.Values["epsilon"]))}, {"affine", fmt.Sprint(bool(m.Values["affine"].(dispatch.Bool)))}}, nil
	}
	// InstanceNorm::forward (instance.rs:90): group_norm with a group per
	// channel.
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
		if !ok || x.Kind() != dispatch.KindFloat {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + c.Args[0].TypeName() + "`"}
		}
		return groupNorm(w, m, x, int64(num(m.Values["num_channels"])))
	}
	return m, nil
}

// groupNorm is group_norm (group.rs:147): the statistics over each group
// of [batch, num_groups, hidden] (an f16 input widened to f32 for them),
// then the per-channel affine.
func groupNorm(w *dispatch.World, m *Module, x *dispatch.Tensor, groups int64) (dispatch.Value, error) {
	affine := bool(m.Values["affine"].(dispatch.Bool))
	gammaP, betaP := m.param("gamma"), m.param("beta")
	// gamma and beta are x.val() of the Options, read before group_norm.
	var gamma, beta *dispatch.Tensor
	var err error
	if gammaP != nil {
		if gamma, err = gammaP.Val(w); err != nil {
			return nil, err
		}
	}
	if betaP != nil {
		if beta, err = betaP.Val(w); err != nil {
			return nil, err
		}
	}
	if (gamma == nil || beta == nil) && affine {
		return nil, burnPanic("nn-groupnorm-affine", "Affine is set to true, but gamma or beta is None", "crates/burn-nn/src/modules/norm/group.rs:156")
	}
	s := x.Shape()
	n := int64(1)
	for _, d := range s {
		n *= d
	}
	if n <= 2 {
		// Burn compares the number of elements, not the rank.
		return nil, burnPanic("nn-groupnorm-rank", fmt.Sprintf("input rank for GroupNorm should be at least 3, but got %d", n),
			"crates/burn-nn/src/modules/norm/group.rs:161")
	}
	if len(s) < 2 {
		return nil, burnPanic("nn-groupnorm-index", fmt.Sprintf("index out of bounds: the len is %d but the index is 1", len(s)), "crates/burn-nn/src/modules/norm/group.rs:168")
	}
	batch, channels := s[0], s[1]
	rest := int64(1)
	for _, d := range s[2:] {
		rest *= d
	}
	if groups == 0 {
		return nil, burnPanic("nn-groupnorm-divide-by-zero", "attempt to divide by zero", "crates/burn-nn/src/modules/norm/group.rs:170")
	}
	hidden := rest * channels / groups
	o := &ops{w: w}
	in := o.m(x, "reshape", ints(batch, groups, hidden))
	wide := x.DType() == dispatch.F16
	if wide {
		in = o.m(in, "cast", &dispatch.Enum{Type: "FloatDType", Variant: "F32"})
	}
	mean := o.m(in, "mean_dim", usizeVal(2))
	in = o.m(in, "sub", mean)
	variance := o.m(o.m(in, "square"), "mean_dim", usizeVal(2))
	norm := o.m(in, "div", o.m(o.m(variance, "add_scalar", m.Values["epsilon"]), "sqrt"))
	if wide {
		norm = o.m(norm, "cast", &dispatch.Enum{Type: "FloatDType", Variant: "F16"})
	}
	if !affine {
		out := o.m(norm, "reshape", ints(s...))
		return out, o.err
	}
	shape := make([]int64, len(s))
	for i := range shape {
		shape[i] = 1
	}
	shape[1] = channels
	out := o.m(o.m(norm, "reshape", ints(s...)), "mul", o.m(gamma, "reshape", ints(shape...)))
	out = o.m(out, "add", o.m(beta, "reshape", ints(shape...)))
	return out, o.err
}

func initRmsNorm(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	if !(c.floatField("epsilon") > 0) {
		return nil, burnPanic("nn-rmsnorm-epsilon", "epsilon must be positive.", "crates/burn-nn/src/modules/norm/rms.rs:30")
	}
	gamma, err := constParam(w, "Ones", c.intField("d_model"), d)
	if err != nil {
		return nil, err
	}
	m := &Module{Type: "RmsNorm", Fields: []string{"gamma", "epsilon"},
		Values: map[string]dispatch.Value{"gamma": gamma, "epsilon": c.Values["epsilon"]}}
	// custom_content (rms.rs:86): the gamma's shape, not initializing it.
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		return []attr{{"d_model", fmt.Sprint(m.param("gamma").shape[0])}, {"epsilon", rustFloat(num(m.Values["epsilon"]))}}, nil
	}
	// RmsNorm::forward (rms.rs:71): x / sqrt(mean(x²) + eps) over the last
	// dim, computed in f32, times gamma.
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		x, ok := dispatch.Deref(c.Args[0]).(*dispatch.Tensor)
		if !ok || x.Kind() != dispatch.KindFloat {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "mismatched types: expected `Tensor<D>`, found `" + c.Args[0].TypeName() + "`"}
		}
		o := &ops{w: w}
		dtype := o.m(x, "dtype")
		sq := o.m(o.m(x, "cast", &dispatch.Enum{Type: "DType", Variant: "F32"}), "square")
		rms := o.m(o.m(o.m(sq, "mean_dim", usizeVal(int64(x.Rank()-1))), "add_scalar", m.Values["epsilon"]), "sqrt")
		y := o.m(x, "div", o.m(rms, "cast", dtype))
		if o.err != nil {
			return nil, o.err
		}
		gamma, err := m.param("gamma").Val(w)
		if err != nil {
			return nil, err
		}
		out := o.m(y, "mul", o.mg(gamma, "unsqueeze", []string{fmt.Sprint(x.Rank())}))
		return out, o.err
	}
	return m, nil
}

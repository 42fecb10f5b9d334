package nn

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// PRelu, HardSigmoid and SwiGlu (crates/burn-nn/src/activation).

func init() {
	// PReluConfig (prelu.rs:40).
	register(&configDesc{name: "PReluConfig", device: true, fields: []field{
		{name: "num_parameters", typ: "usize", def: usize(1)},
		{name: "alpha", typ: "f64", def: f64(0.25)},
	}, init: initPRelu})
	// HardSigmoidConfig (hard_sigmoid.rs:22).
	register(&configDesc{name: "HardSigmoidConfig", fields: []field{
		{name: "alpha", typ: "f64", def: f64(0.2)},
		{name: "beta", typ: "f64", def: f64(0.5)},
	}, init: initHardSigmoid})
	// SwiGluConfig (swiglu.rs:12).
	register(&configDesc{name: "SwiGluConfig", device: true, fields: []field{
		{name: "d_input", typ: "usize"}, {name: "d_output", typ: "usize"},
		{name: "bias", typ: "bool", def: boolean(false)},
		{name: "initializer", typ: "Initializer", def: kaimingDefault},
		{name: "layout", typ: "LinearLayout", def: unit("LinearLayout", "Row")},
	}, init: initSwiGlu})
}

// initPRelu is PReluConfig::init (prelu.rs:51): alpha is
// Initializer::Constant { value: alpha }.init([num_parameters]).
func initPRelu(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	init := &dispatch.Enum{Type: "Initializer", Variant: "Constant", Named: map[string]dispatch.Value{"value": c.Values["alpha"]}}
	alpha, err := initParam(w, init, []int64{c.intField("num_parameters")}, 1, 1, d)
	if err != nil {
		return nil, err
	}
	return &Module{Type: "PRelu", Fields: []string{"alpha", "alpha_value"},
		Values: map[string]dispatch.Value{"alpha": alpha, "alpha_value": c.Values["alpha"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"num_parameters", fmt.Sprint(m.param("alpha").shape[0])}, {"alpha_value", rustFloat(num(m.Values["alpha_value"]))}}, nil
		},
		// PRelu::forward (prelu.rs:69): activation::prelu(input, alpha.val()).
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			alpha, err := m.param("alpha").Val(w)
			if err != nil {
				return nil, err
			}
			return w.Call(dispatch.Call{Path: []string{"prelu"}, Args: []dispatch.Value{c.Args[0], alpha}})
		}}, nil
}

// initHardSigmoid is HardSigmoidConfig::init (hard_sigmoid.rs:32).
func initHardSigmoid(w *dispatch.World, c *Config, _ *dispatch.Device) (dispatch.Value, error) {
	return &Module{Type: "HardSigmoid", Fields: []string{"alpha", "beta"},
		Values: map[string]dispatch.Value{"alpha": c.Values["alpha"], "beta": c.Values["beta"]},
		content: func(_ *dispatch.World, m *Module) ([]attr, error) {
			return []attr{{"alpha", rustFloat(num(m.Values["alpha"]))}, {"beta", rustFloat(num(m.Values["beta"]))}}, nil
		},
		// HardSigmoid::forward (hard_sigmoid.rs:63).
		forward: func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
			return w.Call(dispatch.Call{Path: []string{"hard_sigmoid"}, Args: []dispatch.Value{c.Args[0], m.Values["alpha"], m.Values["beta"]}})
		}}, nil
}

// initSwiGlu is SwiGluConfig::init (swiglu.rs:66): two Linears of d_input
// to d_output with the config's bias, initializer and layout.
func initSwiGlu(w *dispatch.World, c *Config, d *dispatch.Device) (dispatch.Value, error) {
	m := &Module{Type: "SwiGlu", Fields: []string{"linear_inner", "linear_outer"}, Values: map[string]dispatch.Value{}}
	for _, name := range m.Fields {
		lc, ue := newConfig(configs["LinearConfig"], []dispatch.Value{c.Values["d_input"], c.Values["d_output"]})
		if ue != nil {
			return nil, ue
		}
		l, err := initLinear(w, lc.with("bias", c.Values["bias"]).with("initializer", c.Values["initializer"]).with("layout", c.Values["layout"]), d)
		if err != nil {
			return nil, err
		}
		m.Values[name] = l
	}
	m.content = func(_ *dispatch.World, m *Module) ([]attr, error) {
		l := m.Values["linear_inner"].(*Module)
		s := l.param("weight").shape
		return []attr{{"d_input", fmt.Sprint(s[0])}, {"d_output", fmt.Sprint(s[1])}, {"bias", fmt.Sprint(l.param("bias") != nil)}}, nil
	}
	// SwiGlu::forward (swiglu.rs:89): silu(linear_inner(x)) * linear_outer(x).
	m.forward = func(w *dispatch.World, m *Module, c dispatch.Call) (dispatch.Value, error) {
		o := &ops{w: w}
		lin := func(name string) dispatch.Value {
			return o.in(name, func() dispatch.Value {
				v, err := forwardLinear(w, m.Values[name].(*Module), dispatch.Call{Args: c.Args})
				o.err = err
				return v
			})
		}
		x := o.fn("silu", lin("linear_inner"))
		out := o.m(x, "mul", lin("linear_outer"))
		return out, o.err
	}
	return m, nil
}

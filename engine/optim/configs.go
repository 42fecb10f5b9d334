package optim

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

func init() {
	wd := nn.FieldSpec{Name: "weight_decay", Type: "Option<WeightDecayConfig>"}
	clip := nn.FieldSpec{Name: "grad_clipping", Type: "Option<GradientClippingConfig>"}
	// crates/burn-optim/src/optim/adam.rs
	nn.RegisterConfig("AdamConfig", []nn.FieldSpec{
		{Name: "beta_1", Type: "f32", Default: nn.F32(0.9)},
		{Name: "beta_2", Type: "f32", Default: nn.F32(0.999)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-5)},
		{Name: "amsgrad", Type: "bool", Default: nn.Boolean(false)},
		wd, clip,
	}, false, initOptimizer)
	// adamw.rs
	nn.RegisterConfig("AdamWConfig", []nn.FieldSpec{
		{Name: "beta_1", Type: "f32", Default: nn.F32(0.9)},
		{Name: "beta_2", Type: "f32", Default: nn.F32(0.999)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-5)},
		{Name: "weight_decay", Type: "f32", Default: nn.F32(1e-4)},
		{Name: "cautious_weight_decay", Type: "bool", Default: nn.Boolean(false)},
		{Name: "amsgrad", Type: "bool", Default: nn.Boolean(false)},
		clip,
	}, false, initOptimizer)
	// sgd.rs
	nn.RegisterConfig("SgdConfig", []nn.FieldSpec{
		wd, {Name: "momentum", Type: "Option<MomentumConfig>"}, {Name: "gradient_clipping", Type: "Option<GradientClippingConfig>"},
	}, false, initOptimizer)
	// decay.rs, momentum.rs
	nn.RegisterConfig("WeightDecayConfig", []nn.FieldSpec{{Name: "penalty", Type: "f32"}}, false, nil)
	nn.RegisterConfig("MomentumConfig", []nn.FieldSpec{
		{Name: "momentum", Type: "f64", Default: nn.F64(0.9)},
		{Name: "dampening", Type: "f64", Default: nn.F64(0.1)},
		{Name: "nesterov", Type: "bool", Default: nn.Boolean(false)},
	}, false, nil)
}

func init() {
	// rmsprop.rs
	nn.RegisterConfig("RmsPropConfig", []nn.FieldSpec{
		{Name: "alpha", Type: "f32", Default: nn.F32(0.99)},
		{Name: "momentum", Type: "f32", Default: nn.F32(0.9)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-5)},
		{Name: "centered", Type: "bool", Default: nn.Boolean(false)},
		{Name: "weight_decay", Type: "Option<WeightDecayConfig>"},
		{Name: "grad_clipping", Type: "Option<GradientClippingConfig>"},
	}, false, initOptimizer)
	// grad_clipping/base.rs: GradientClippingConfig::Value(f32), Norm(f32).
	nn.RegisterVariant("GradientClippingConfig", "Value", "f32")
	nn.RegisterVariant("GradientClippingConfig", "Norm", "f32")
	// grad_clipping/base.rs:33-39: the clipping itself, which
	// ModuleOptimizer::with_grad_clipping takes.
	nn.RegisterVariant("GradientClipping", "Value", "f32")
	nn.RegisterVariant("GradientClipping", "Norm", "f32")
}

func float32Field(c *nn.Config, name string) float32 {
	if f, ok := dispatch.Deref(c.Values[name]).(dispatch.Float); ok {
		return float32(f.V)
	}
	return 0
}

func float64Field(c *nn.Config, name string) float64 {
	if f, ok := dispatch.Deref(c.Values[name]).(dispatch.Float); ok {
		return f.V
	}
	return 0
}

func boolField(c *nn.Config, name string) bool {
	b, _ := dispatch.Deref(c.Values[name]).(dispatch.Bool)
	return bool(b)
}

// someField is the value of an Option field when it is Some.
func someField(c *nn.Config, name string) dispatch.Value {
	if en, ok := dispatch.Deref(c.Values[name]).(*dispatch.Enum); ok && en.Type == "Option" && en.Variant == "Some" && len(en.Fields) == 1 {
		return dispatch.Deref(en.Fields[0])
	}
	return nil
}

// decayOf is `self.weight_decay.as_ref().map(WeightDecay::new)`.
func decayOf(c *nn.Config) *weightDecay {
	if wd, ok := someField(c, "weight_decay").(*nn.Config); ok {
		return &weightDecay{penalty: float32Field(wd, "penalty")}
	}
	return nil
}

// clippingOf is GradientClippingConfig::init (grad_clipping/base.rs:21-26).
func clippingOf(c *nn.Config, field string) *clipping {
	en, ok := someField(c, field).(*dispatch.Enum)
	if !ok || len(en.Fields) != 1 {
		return nil
	}
	f, _ := dispatch.Deref(en.Fields[0]).(dispatch.Float)
	return &clipping{byNorm: en.Variant == "Norm", threshold: float32(f.V)}
}

// initOptimizer is the `init` of an optimizer config: `build()` wrapped in
// a ModuleOptimizer, with the config's gradient clipping
// (adam.rs:100-123, adamw.rs:122-146, sgd.rs:48-62, rmsprop.rs:43-68,
// adagrad.rs:82-103).
func initOptimizer(_ *dispatch.World, c *nn.Config, _ *dispatch.Device) (dispatch.Value, error) {
	o, err := buildOptimizer(c)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// buildOptimizer is the config's init; its rule alone is the config's
// build, the bare optimizer, which ModuleOptimizer::from wraps without
// the clipping.
func buildOptimizer(c *nn.Config) (*ModuleOptimizer, error) {
	o := &ModuleOptimizer{states: map[any]*paramContext{}}
	momentumOf := func() adaptiveMomentum {
		return adaptiveMomentum{beta1: float32Field(c, "beta_1"), beta2: float32Field(c, "beta_2"),
			epsilon: float32Field(c, "epsilon"), amsgrad: boolField(c, "amsgrad")}
	}
	switch c.Type {
	case "AdamConfig":
		o.name, o.rule, o.clip = "Adam", &adam{momentum: momentumOf(), decay: decayOf(c)}, clippingOf(c, "grad_clipping")
	case "AdamWConfig":
		o.name, o.rule, o.clip = "AdamW", &adamW{momentum: momentumOf(), weightDecay: float32Field(c, "weight_decay"),
			cautious: boolField(c, "cautious_weight_decay")}, clippingOf(c, "grad_clipping")
	case "SgdConfig":
		r := &sgd{decay: decayOf(c)}
		if m, ok := someField(c, "momentum").(*nn.Config); ok {
			r.momentum = &momentum{momentum: float32(float64Field(m, "momentum")), dampening: float64Field(m, "dampening"), nesterov: boolField(m, "nesterov")}
		}
		o.name, o.rule, o.clip = "Sgd", r, clippingOf(c, "gradient_clipping")
	case "RmsPropConfig":
		o.name, o.rule, o.clip = "RmsProp", &rmsProp{alpha: float32Field(c, "alpha"), momentum: float32Field(c, "momentum"),
			epsilon: float32Field(c, "epsilon"), centered: boolField(c, "centered"), decay: decayOf(c)}, clippingOf(c, "grad_clipping")
	case "AdaGradConfig":
		o.name, o.rule, o.clip = "AdaGrad", &adaGrad{lrDecay: float64Field(c, "lr_decay"), epsilon: float32Field(c, "epsilon"), decay: decayOf(c)}, clippingOf(c, "grad_clipping")
	case "AdanConfig":
		o.name, o.rule, o.clip = "Adan", &adan{beta1: float32Field(c, "beta_1"), beta2: float32Field(c, "beta_2"), beta3: float32Field(c, "beta_3"),
			epsilon: float32Field(c, "epsilon"), weightDecay: float32Field(c, "weight_decay"), noProx: boolField(c, "no_prox")}, clippingOf(c, "grad_clipping")
	case "MuonConfig":
		// muon.rs:169-216: no gradient clipping.
		r := &muon{a: 3.4445, b: -4.775, c: 2.0315, steps: int(usizeField(c, "ns_steps")), epsilon: float32Field(c, "epsilon")}
		if m, ok := dispatch.Deref(c.Values["momentum"]).(*nn.Config); ok {
			r.momentum = momentum{momentum: float32(float64Field(m, "momentum")), dampening: float64Field(m, "dampening"), nesterov: boolField(m, "nesterov")}
		}
		if tup, ok := dispatch.Deref(c.Values["ns_coefficients"]).(dispatch.Tuple); ok && len(tup) == 3 {
			var k [3]float32
			for i, x := range tup {
				f, _ := dispatch.Deref(x).(dispatch.Float)
				k[i] = float32(f.V)
			}
			r.a, r.b, r.c = k[0], k[1], k[2]
		}
		if wd, ok := someField(c, "weight_decay").(*nn.Config); ok {
			p := float32Field(wd, "penalty")
			r.decay = &p
		}
		if en, ok := dispatch.Deref(c.Values["adjust_lr_fn"]).(*dispatch.Enum); ok {
			r.matchAdamW = en.Variant == "MatchRmsAdamW"
		}
		o.name, o.rule = "Muon", r
	default:
		return nil, &nn.Unmodelled{Item: c.Type + "::init", Why: "the engine does not model this optimizer"}
	}
	return o, nil
}

// Bare is an optimizer itself (Adam, Sgd, ...), what a config's build
// returns (adam.rs:100-110): ModuleOptimizer::from makes it the optimizer
// of every parameter.
type Bare struct {
	name string
	rule rule
}

func (b *Bare) TypeName() string { return b.name }

// muonMomentum is MuonConfig's default momentum, MomentumConfig {
// momentum: 0.95, dampening: 0.0, nesterov: true } (muon.rs:136).
func muonMomentum() dispatch.Value {
	cfg, _, err := nn.Call(nil, dispatch.Call{Path: []string{"MomentumConfig", "new"}}, nil)
	if err != nil {
		return dispatch.Unknown{}
	}
	for _, set := range []struct {
		method string
		v      dispatch.Value
	}{{"with_momentum", f64v(0.95)}, {"with_dampening", f64v(0)}, {"with_nesterov", dispatch.Bool(true)}} {
		if cfg, _, err = nn.Call(nil, dispatch.Call{Recv: cfg, Method: set.method, Args: []dispatch.Value{set.v}}, nil); err != nil {
			return dispatch.Unknown{}
		}
	}
	return cfg
}

func init() {
	// muon.rs:125-160.
	nn.RegisterConfig("MuonConfig", []nn.FieldSpec{
		{Name: "weight_decay", Type: "Option<WeightDecayConfig>"},
		{Name: "momentum", Type: "MomentumConfig", Default: muonMomentum},
		{Name: "ns_coefficients", Type: "(f32, f32, f32)", Default: func() dispatch.Value {
			return dispatch.Tuple{f32v(3.4445), f32v(-4.775), f32v(2.0315)}
		}},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-7)},
		{Name: "ns_steps", Type: "usize", Default: nn.Usize(5)},
		{Name: "adjust_lr_fn", Type: "AdjustLrFn", Default: func() dispatch.Value { return &dispatch.Enum{Type: "AdjustLrFn", Variant: "Original"} }},
	}, false, initOptimizer)
	// adan.rs:19-41.
	nn.RegisterConfig("AdanConfig", []nn.FieldSpec{
		{Name: "beta_1", Type: "f32", Default: nn.F32(0.98)},
		{Name: "beta_2", Type: "f32", Default: nn.F32(0.92)},
		{Name: "beta_3", Type: "f32", Default: nn.F32(0.99)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-8)},
		{Name: "weight_decay", Type: "f32", Default: nn.F32(0)},
		{Name: "no_prox", Type: "bool", Default: nn.Boolean(false)},
		{Name: "grad_clipping", Type: "Option<GradientClippingConfig>"},
	}, false, initOptimizer)
	// adagrad.rs:17-27.
	nn.RegisterConfig("AdaGradConfig", []nn.FieldSpec{
		{Name: "lr_decay", Type: "f64", Default: nn.F64(0)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-5)},
		{Name: "weight_decay", Type: "Option<WeightDecayConfig>"},
		{Name: "grad_clipping", Type: "Option<GradientClippingConfig>"},
	}, false, initOptimizer)
}

package optim

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

func unmodelled(name string) func(*dispatch.World, *nn.Config, *dispatch.Device) (dispatch.Value, error) {
	return func(*dispatch.World, *nn.Config, *dispatch.Device) (dispatch.Value, error) {
		return nil, &nn.Unmodelled{Item: name + "::init", Why: "burn-optim's optimizers are not modelled yet"}
	}
}

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
	}, false, unmodelled("AdamConfig"))
	// adamw.rs
	nn.RegisterConfig("AdamWConfig", []nn.FieldSpec{
		{Name: "beta_1", Type: "f32", Default: nn.F32(0.9)},
		{Name: "beta_2", Type: "f32", Default: nn.F32(0.999)},
		{Name: "epsilon", Type: "f32", Default: nn.F32(1e-5)},
		{Name: "weight_decay", Type: "f32", Default: nn.F32(1e-4)},
		{Name: "cautious_weight_decay", Type: "bool", Default: nn.Boolean(false)},
		{Name: "amsgrad", Type: "bool", Default: nn.Boolean(false)},
		clip,
	}, false, unmodelled("AdamWConfig"))
	// sgd.rs
	nn.RegisterConfig("SgdConfig", []nn.FieldSpec{
		wd, {Name: "momentum", Type: "Option<MomentumConfig>"}, {Name: "gradient_clipping", Type: "Option<GradientClippingConfig>"},
	}, false, unmodelled("SgdConfig"))
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
	}, false, unmodelled("RmsPropConfig"))
	// grad_clipping/base.rs: GradientClippingConfig::Value(f32), Norm(f32).
	nn.RegisterVariant("GradientClippingConfig", "Value", "f32")
	nn.RegisterVariant("GradientClippingConfig", "Norm", "f32")
}

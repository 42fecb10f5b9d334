// Package optim models burn-optim at Burn commit 2c06be35
// (crates/burn-optim).
//
// Configs: AdamConfig, AdamWConfig, SgdConfig, RmsPropConfig,
// AdaGradConfig, AdanConfig, MuonConfig, WeightDecayConfig, MomentumConfig, GradientClippingConfig
// and the learning-rate schedulers' configs are built, changed and
// printed as #[derive(Config)] does (through engine/nn's config machinery,
// so they behave as the program's own configs and burn-nn's do).
//
// Optimizers: an optimizer config's `init()` is a *ModuleOptimizer
// (optim/module/module_optimizer.rs), and `optim.step(lr, model, grads)`
// is Step: the model mapped Param by Param as ModuleOptimizerMapper does
// (module_optimizer.rs:420-503). A Param whose id has a gradient in the
// GradientsParams is moved to the gradient's device when it is elsewhere
// (:431), its gradient clipped, and its value stepped by the optimizer's
// rule on its inner tensor, as Adam, AdamW, Sgd (with momentum and weight
// decay), RmsProp, AdaGrad, Adan and Muon compute it, every operation a Tensor call
// through engine/dispatch, so the trace holds the backend's ops on that
// device and the values are its f32; the new tensor is lifted back with
// Tensor::from_inner and require_grad. A Param without a gradient is left
// as it is. The state of each stepped Param (Adam's moments and step
// count, SGD's velocity, ...) stays in the optimizer value, so `let mut
// optim` carries it from step to step, and is moved to the gradient's
// device before each step, as Optimizer::to_device does.
//
// GradientsParams (optim/grads.rs): from_grads, from_module and
// from_params read each float Param's gradient out of a backward's
// Gradients (grad_remove), and new, register, get, remove, len, is_empty
// and to_device work on it as the TensorContainer does;
// GradientsAccumulator (optim/grad_accum.rs) sums several of them.
//
// Learning rates: step takes an f64 or a ModuleLearningRate; the
// schedulers (lr_scheduler/) give their learning rates exactly as Burn
// computes them, in f64.
//
// Burn's panics on these paths are rows of engine/catalog/sites.tsv (ids
// optim-...).
package optim

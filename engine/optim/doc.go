// Package optim models burn-optim at Burn commit 2c06be35
// (crates/burn-optim): so far its configs. AdamConfig, AdamWConfig,
// SgdConfig, RmsPropConfig, WeightDecayConfig, MomentumConfig and
// GradientClippingConfig are built, changed and printed as
// #[derive(Config)] does (through engine/nn's config machinery, so they
// behave as the program's own configs and burn-nn's do). Their `init`,
// the optimizer itself, is not modelled yet: it is a playground-unmodelled
// boundary whose value is unknown, so what an optimizer step computes is
// not checked.
package optim

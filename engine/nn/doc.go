// Package nn models burn-nn, and the module and config machinery of
// burn-core it is written with, at Burn commit 2c06be35
// (crates/burn-nn, crates/burn-core/src/module, crates/burn-core/src/config.rs).
//
// A Burn config (LinearConfig, Conv2dConfig, DropoutConfig, ...) is a
// *Config: its fields in declaration order, built by `new` from the
// fields without a `#[config(default = ..)]` and changed by the
// `with_<field>` builders, exactly as `#[derive(Config)]` generates them
// for the program's own configs (engine/interp/derive_config.go), and
// printed as serde_json's pretty JSON (config_to_json, config.rs:92).
//
// Modelled: Linear, Conv2d, Dropout, BatchNorm, LayerNorm, GroupNorm,
// InstanceNorm, RmsNorm, Embedding, Lstm (with LstmState), BiLstm, Gru
// (their gates GateControllers of two Linears, as Burn builds them, so the
// params, their ids and counts are Burn's; the timesteps sliced one at a
// time as DimIter does), MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvgPool1d/2d,
// Relu, LeakyRelu, Gelu, Sigmoid, Tanh, PRelu, HardSigmoid, SwiGlu,
// MultiHeadAttention (with MhaInput and MhaOutput),
// PositionWiseFeedForward, TransformerEncoder (its layers and input),
// Conv1d, Conv3d, ConvTranspose1d/2d/3d, DeformConv2d, Interpolate1d/2d,
// Unfold4d, PositionalEncoding, RotaryEncoding, and the losses
// CrossEntropyLoss, MseLoss, BinaryCrossEntropyLoss, HuberLoss,
// KLDivLoss, PoissonNllLoss, SmoothL1Loss, CosineEmbeddingLoss,
// HingeEmbeddingLoss, MarginRankingLoss, SoftMarginLoss, LpLoss,
// GaussianNLLLoss, TripletMarginLoss and MultiMarginLoss, with their
// configs. Inside the
// composed modules each submodule's ops carry its module path
// (World.EnterModule: layers.1.mha.query). Their
// panics are rows of engine/catalog/sites.tsv (ids nn-...).
//
// A Burn module (Linear, Conv2d, Dropout, Relu, ...) is a *Module: its
// fields in declaration order, Params among them. What
// `#[derive(Module)]` generates (devices, to_device, fork, no_grad,
// valid, num_params, clone and the ModuleDisplay format) walks a Burn
// module and the program's own modules the same way (walk.go).
//
// Params are lazy, as burn-core's Param::uninitialized is
// (module/param/base.rs:283): init(&device) draws nothing; the first use
// of a Param (its forward, to_device, devices, val) runs its initializer
// on the device it was created for, so the trace shows the creation where
// Burn creates it. The values come from the playground's generator: the
// initializer's distribution (Initializer::init_tensor,
// module/initializer.rs:134) is a Tensor::random on the device, whose
// values are those of the backend's seeded generator as engine/dispatch
// draws them, so a run is reproducible and `seed` changes them as it
// changes any random tensor.
//
// Every tensor operation of a module is a call into engine/dispatch as
// burn-nn composes it (Linear's forward is burn::tensor::module::linear,
// Conv2d's is conv2d with PaddedConvOptions), so the trace, the panics
// and the values are dispatch's own.
package nn

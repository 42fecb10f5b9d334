// Package burnapi is Burn's public API at tracel-ai/burn 2c06be35
// (version 0.22.0-pre.2) as data: burn-tensor's (every Tensor method and
// associated function with the kinds it exists for, the types burn-tensor
// re-exports from burn-std (TensorData, Shape, Tolerance, Distribution,
// DType, the element types, Slice and s!), the function modules
// (activation, module, linalg, signal, grid, loss) and their feature
// gates, and the paths burn and burn-core give burn-tensor (burn::tensor,
// burn::prelude)); and the items of burn-core, burn-nn, burn-optim,
// burn-train, burn-dataset, burn-store, burn-rl and burn-vision at the
// paths burn's facade gives them (burn::nn, burn::optim, burn::train,
// burn::data::dataloader, burn::data::dataset::vision, burn::store,
// burn::module, burn::config, ...), with their impls, the traits they
// implement (so a trait's own methods are theirs: Dataset::iter),
// what derive(Config) and derive(Module) generate, and each item's gate:
// the features of the modules and re-exports on the facade's path (burn's
// train) and the crate's own (burn-dataset's vision), crate-qualified.
// The dependencies between those crates and their [features] tables are
// rows too, so Closure can say which features Cargo's unification turns
// on beyond what engine/config's graph propagates (burn-train asks
// burn-core for std and dataset).
//
// The table, api.tsv, is extracted from Burn's source by
// internal/tools/burnapi (its header says how); it holds names and
// signatures only. The engine resolves names against it: a Burn item the
// engine does not model is not rustc's "no function or associated item
// named ..", but a playground-unmodelled warning whose value is unknown.
//
// burn-tensor's `stats` module is pub(crate) at this commit: its
// functions are reached through Tensor methods (var, var_mean, ...), so
// the table has no `stats` module. Shape's inherent methods are
// cubecl-zspace's (not part of Burn's repository): the table knows Shape
// as a re-export, and the SliceOps trait Burn implements for it.
package burnapi

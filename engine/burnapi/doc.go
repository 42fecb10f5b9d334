// Package burnapi is burn-tensor's public API at tracel-ai/burn 2c06be35
// (version 0.22.0-pre.2) as data: every Tensor method and associated
// function with the kinds it exists for, the types burn-tensor re-exports
// from burn-std (TensorData, Shape, Tolerance, Distribution, DType, the
// element types, Slice and s!), the function modules (activation, module,
// linalg, signal, grid, loss) and their feature gates, and the paths burn
// and burn-core give burn-tensor (burn::tensor, burn::prelude).
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

// Package tensor computes the values of small tensors the way Burn would
// (Burn commit 2c06be35), so a snippet shows what it computes and not only
// where it runs: creation, element-wise arithmetic and comparisons with
// Burn's broadcasting, reductions, matmul, shape and indexing ops,
// activations, casts, burn::tensor::module's pools, interpolation,
// convolutions (transposed, deformable), attention, CTC loss and
// unfold/fold as burn-flex computes them (pool.go, interpolate.go,
// conv.go, deform.go, attention.go, ctc.go, unfold4d.go),
// reverse-mode autodiff for tracked float tensors, and
// the exact text Rust prints for a Tensor (`{}` and `{:?}`), a TensorData
// (`{}`, `{:?}`) and TensorData's assert_eq / assert_approx_eq failures.
//
// Values: a Tensor holds its Data (float dtypes as float64 rounded to the
// dtype after every operation, ints wrapped to their width, bools) and,
// when tracked, its autodiff node. Operations are functions named after
// the Burn method they perform (Binary("add", a, b), ReduceDim("argmax",
// t, dim, I32), Slice, Cat, Matmul, ...). They take dims, ranges and
// shapes already resolved and checked by package burncheck and return an
// error only for input Burn would have refused or left to the backend; the
// caller then carries the tensor as a shape.
//
// Budget: values are computed only while the run's Budget has elements
// left (DefaultBudget, a million) and, for matmul, multiply-adds
// (DefaultWork, 10^8). The caller asks it before each operation; a tensor
// refused values, and everything computed from it, keeps its shape only,
// so a 10^12-element tensor costs no memory and a run stops computing at
// the same place on every platform.
//
// Fidelity limits, each chosen where it is documented: random values come
// from the playground's own seeded generator (Burn's backends each use
// their own RNG, which no simulator can reproduce); sums and matmul
// accumulate in float64 and round once, so an f32 result can differ from
// a backend's in the last digit; transcendental functions are correctly
// rounded to f32, where GPU kernels may be an ulp off.
//
// It must not know about devices, backends, dispatch, syntax,
// diagnostics, HTTP or WebAssembly, imports only the standard library,
// and keeps no state outside the values it returns: no clock, no global
// generator.
package tensor

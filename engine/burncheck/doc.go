// Package burncheck reproduces burn-tensor's TensorCheck
// (crates/burn-tensor/src/tensor/api/check.rs at Burn commit 2c06be35): the
// validation every Tensor method runs before its operation reaches
// dispatch. Each check is a pure function over shapes, ranks, dims, device
// Debug strings and dtypes that returns nil when it passes or a *Failure
// holding Burn's exact panic text.
//
// It has two layers:
//
//   - check functions, one per function of check.rs (BinaryOpsEW, Matmul,
//     Narrow, Cat, ...), plus DimIndex (unwrap_dim_index) and Reshape
//     (Shape::reshape with unwrap_shape_reshape). They take dims already
//     resolved, as Burn's do, and leave Failure.Location empty;
//   - validators named after the public functions (TensorMatmul,
//     TensorFlatten, ActivationPrelu, LinalgDet, ...), which run what that
//     function validates in Burn's order (resolving negative dims first,
//     clamping slices, then the checks) and place the failure where Rust
//     reports it.
//
// Where Rust reports a check failure: check! is a macro, so a failed check
// panics at the line of the check! invocation in the calling method (for
// example numeric.rs:38 for Tensor::add), not inside check.rs;
// unwrap_dim_index is #[track_caller], so it reports its caller's line.
// The embedded table sites.tsv (see Sites) lists every such site: method,
// check, operation name and location. It is the reference for which method
// runs which check.
//
// TensorCheck collects every failed condition of one check before it
// panics, and the message names the operation of the last condition
// registered; Failure.IDs keeps them all in order.
//
// Numbers Burn holds as usize are int64 here and must not be negative: a
// negative literal where Rust expects usize does not compile, so the caller
// rejects it before calling. Dims that Burn takes as `impl AsIndex` may be
// negative and count from the end; a dim out of range yields Burn's
// "BoundsError: dimension -3 out of bounds: 0..2", quoting the dim as
// written.
//
// Rust's own panics that a check path reaches before TensorCheck does (an
// index out of range, a subtraction below zero in a debug build, a
// copy_from_slice length mismatch) are reported with Rust 1.95's wording
// and the ids IDIndexOutOfBounds and friends.
//
// The package imports only the standard library and holds no mutable
// state. It must not know about syntax, diagnostics, HTTP or WebAssembly,
// and must not decide device equality itself: callers pass a DeviceKey.
package burncheck

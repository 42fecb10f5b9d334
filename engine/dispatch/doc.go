// Package dispatch models Burn's multi-backend dispatch at commit 2c06be35:
// devices and their Debug strings, the default device and BURN_DEVICE,
// tensor kinds and autodiff tracking, routing by arity, transfers, the
// autodiff entry points, remote devices and the remote server, and the
// burn-tensor checks that run before dispatch (through package burncheck).
// Every panic Burn raises on these paths is returned as a *Panic with
// Burn's exact message, the panic table's id and the location Rust
// reports; a call rustc would reject is a *UsageError.
//
// The interpreter talks to it through one World per run: World.Call for
// everything with Burn meaning (see Call for how values arrive), SetSite
// to tag what follows, Trace for the dispatched operations, and Debug and
// Display for Rust's formatting of any Value. The Burn API surface is
// split by receiver: api_device.go (Device), api_tensor.go and the
// embedded table ops.tsv (Tensor methods that lower to one dispatch op),
// api_indexing.go (the methods that do not fit the table), api_autodiff.go,
// api_compose.go (cat, stack, one_hot, max_pair, activations, linear and
// the Linear module), api_module.go (convolutions, prelu), api_linalg.go
// (linalg and signal), distributed.go (DistributedContext, all_reduce,
// set_distributed), capture.go (capture_scope and its sessions),
// enumerate.go (Device::enumerate, DeviceType filters, Devices), remote.go. Where Burn's API calls a closure of the snippet
// (capture_scope), Call returns a *Callback for the interpreter to run. The routing macros are in route.go and transfer.go,
// the panic messages together in panics.go; burn-tensor's checks come from
// package burncheck (check.go adapts them).
//
// Routing, tracking and panics are decided on metadata only: kind,
// backend, device, tracking, checkpointing, dtype and shape, so shapes may
// be as large as int64 counts. Beside the metadata, a tensor carries its
// values while they fit the run's budget (compute.go): package tensor
// computes them, gradients included, one Budget and one generator per
// backend per World (`device.seed(n)` restarts the backend's generator
// from n; until then it is seeded with tensor.DefaultSeed, 0). Past the
// budget a tensor and everything computed from it keep their shapes only,
// Display prints `[..]` for their data (the evaluator does not print it:
// a print of such a tensor is playground-unchecked), and Epilogue gives the note the
// run's output ends with. Trace notes end with a preview of each output's
// values. TensorData holds the values a read returns (data.go: to_vec,
// into_scalar, ==, assert_eq, assert_approx_eq and Tolerance). Where Burn
// prints something the model does not hold, the choice is documented
// where it is made:
//   - process-wide counters (autodiff NodeIds, fusion and router TensorIds,
//     remote registry ids, capture ids) count from zero per World; a
//     random ParamId prints its value as `..`;
//   - FlexTensor's `unique` is printed true: a clone is usually moved
//     into the op that consumes it, and the model does not see drops;
//   - primitives that print their data (NdArray, LibTorch) print `..`
//     in the panic messages that show them;
//   - random values come from the playground's generator, not the
//     backend's (see package tensor);
//   - a device the simulated machine lacks fails on first use with the
//     playground's own "playground-missing-hardware" panic, because the
//     real failure comes from the driver, not from Burn;
//   - a remote connection nobody answers fails the way it does on Linux
//     (ECONNREFUSED, errno 111), re-raised on the main thread as
//     rem-service-call-ensure with the runner thread's panic as Cause;
//   - burn::server::start succeeds by returning () and setting Serving:
//     in Rust it blocks until the process is stopped.
//
// It must not know about syntax, diagnostics, HTTP or WebAssembly, must
// import only the standard library (and burncheck and tensor), and keeps no state
// outside a World: the op table is parsed once and only read.
package dispatch

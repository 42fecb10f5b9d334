// Package dispatch models Burn's multi-backend dispatch at commit 2c06be35:
// devices and their Debug strings, tensor kinds and autodiff tracking, routing
// by arity, transfers, autodiff entry points and the remote server, and the
// burn-tensor checks that run before dispatch. Every panic Burn raises on
// these paths is raised here as a *Panic with Burn's exact message and
// source location.
//
// It works on tensor metadata (kind, backend, device, tracking, dtype and
// shape); it knows nothing of syntax, HTTP or WebAssembly.
package dispatch

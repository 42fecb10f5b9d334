// Package wasm runs engine.wasm (built from wasm/guest) in a wazero sandbox,
// so that the server executes exactly the bytes the browser loads.
//
// A Sandbox compiles the module once, keeps a pool of warm instances and
// gives each instance to one run at a time: wazero instances are not safe for
// concurrent calls, and sharing one crashes the host process. Any instance
// that traps, times out or runs out of memory is closed and replaced, so no
// state from a failed run reaches the next one; an instance whose linear
// memory has grown past Limits.RecyclePages is replaced too, because wasm
// memory never shrinks.
//
// The guest gets no filesystem, network, environment, arguments or real
// clock, and runs with WithCloseOnContextDone: without it a deadline cannot
// stop a spinning guest, and the next garbage collection of the host waits
// for it forever.
//
// This package knows nothing about HTTP; it must not import web or store.
package wasm

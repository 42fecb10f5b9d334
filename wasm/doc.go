// Package wasm runs engine.wasm (built from wasm/guest) in a wazero sandbox,
// so that the server executes exactly the bytes the browser loads.
//
// A Sandbox compiles the module once, keeps a pool of warm instances and
// gives each instance to one run at a time: wazero instances are not safe for
// concurrent calls, and sharing one crashes the host process. Any instance
// that traps, times out or runs out of memory is closed and replaced, so no
// state from a failed run reaches the next one; an instance whose linear
// memory has grown past Limits.RecyclePages is replaced too, because wasm
// memory never shrinks. A run that ran out of memory on a used instance, or
// whose instance ended under it, is run once more on a fresh one, so that
// its Result depends on the request alone (run.go); a worker that dies
// while it waits for a run is replaced when it dies.
//
// The guest gets no filesystem, network, environment, arguments or real
// clock. A run that overruns its deadline must be stopped, and there are two
// ways (Isolation):
//
//   - InProcess: the instances live in this process, compiled with
//     WithCloseOnContextDone. Without it a deadline cannot stop a spinning
//     guest, and the next garbage collection of the host waits for it
//     forever; with it, wazero calls out to the host at every loop
//     iteration of the guest, which makes the guest about three times
//     slower and a whole run about twice as long (BENCHMARKS.md).
//   - ProcessIsolation: each instance lives in a worker process (this
//     program started again, see worker.go), compiled without those checks,
//     and a run that overruns is stopped by killing its worker. The pool,
//     its limits and the Results are the same; only the cost differs. This
//     is what `playground serve` uses.
//
// This package knows nothing about HTTP; it must not import web or store.
package wasm

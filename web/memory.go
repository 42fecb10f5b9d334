package web

import "github.com/dispatch-playground/playground/wasm"

// serverBaseMemory is what the server needs besides its sandbox instances:
// the compiled engine, the embedded files and the requests in flight.
const serverBaseMemory = 128 << 20

// SoftMemoryLimit is the Go memory limit (debug.SetMemoryLimit) for a
// server whose sandbox has these limits: the base, and, when the instances
// live in the server's process, twice each instance's memory cap, since
// wazero grows an instance's memory by copying it. Near the limit the collector works harder, so the memories of
// replaced instances are returned promptly instead of piling up while
// hostile programs keep the pool busy. It is a soft limit: the server
// slows down rather than fails when live memory nears it.
func SoftMemoryLimit(l wasm.Limits, isolation wasm.Isolation) int64 {
	if isolation == wasm.ProcessIsolation {
		return serverBaseMemory
	}
	return serverBaseMemory + 2*int64(l.PoolSize)*int64(l.MemoryPages)*wasm.PageSize
}

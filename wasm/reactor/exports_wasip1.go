package reactor

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// buffers keeps every buffer handed out by alloc reachable, so the garbage
// collector does not reclaim memory the host is about to write.
var buffers = map[uint32][]byte{}

// lastResult keeps the bytes of the previous run reachable until the next
// run, while the host copies them out.
var lastResult []byte

// gcPercent is the guest's GOGC. A reactor's collector runs its background
// work only when a run yields, so a cycle stays open across most of a run,
// with write barriers on and allocations paying for marking; letting the
// heap grow to three times what is live (about 27 MiB) instead of twice
// halves the cycles; with the changes beside it, it took a third off a run
// in the sandbox (BENCHMARKS.md, "Where the time goes").
const gcPercent = 200

// memoryLimitShare is the part of the host's memory cap the collector aims
// to stay under (see configure).
const memoryLimitShare = 5.0 / 8

func init() { debug.SetGCPercent(gcPercent) }

// configure is told the host's cap on this instance's memory. Past the cap
// the guest fails with "out of memory", whatever its collector could have
// freed, so the collector is told to work harder from five eighths of it
// on: a run that holds a lot of memory collects as often as it did with
// the default GOGC, and a typical run does not reach it.
//
//go:wasmexport configure
func configure(pages uint32) {
	debug.SetMemoryLimit(int64(float64(pages) * 65536 * memoryLimitShare))
}

// collect runs a whole collection. A host with idle time between runs
// (the page's worker, once it has posted a result) calls it then, so that
// the next run starts with no cycle open and the heap's whole headroom
// ahead of it: a re-check of a training step then allocates less than
// that headroom and runs without the collector (BENCHMARKS.md, "The
// collector between runs").
//
//go:wasmexport collect
func collect() { runtime.GC() }

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	buf := make([]byte, max(size, 1))
	ptr := uint32(uintptr(unsafe.Pointer(&buf[0])))
	buffers[ptr] = buf
	return ptr
}

//go:wasmexport free
func free(ptr uint32) { delete(buffers, ptr) }

// input returns n bytes of the buffer at ptr. The run exports read only
// buffers alloc returned: they refuse any other address rather than trust
// the host with raw pointers.
func input(ptr, n uint32) ([]byte, bool) {
	buf, ok := buffers[ptr]
	if !ok || int(n) > len(buf) {
		return nil, false
	}
	return buf[:n], true
}

//go:wasmexport run
func run(ptr, length uint32) uint64 {
	request, ok := input(ptr, length)
	if !ok {
		return finish(nil, abi.ErrBadRequest)
	}
	req, err := abi.DecodeRequest(request)
	if err != nil {
		return finish(nil, err)
	}
	return finish(handler(req))
}

//go:wasmexport run_request
func runRequest(ptr, configLen, snippetLen uint32) uint64 {
	texts, ok := input(ptr, configLen+snippetLen)
	if !ok || configLen+snippetLen < configLen {
		return finish(nil, abi.ErrBadRequest)
	}
	return finish(handler(engine.Request{Config: string(texts[:configLen]), Snippet: string(texts[configLen:])}))
}

// finish keeps the result alive and packs its address, or 0 on an error.
func finish(result []byte, err error) uint64 {
	// A reactor's goroutines run only while an export runs, so a collection
	// the run started may not get to finish: instances then grew by about
	// 100 KB a run, without end. Yielding once lets the collector's
	// goroutines do their work now; memory stays flat.
	runtime.Gosched()
	lastResult = result
	if err != nil || len(result) == 0 {
		return 0
	}
	return abi.Pack(uint32(uintptr(unsafe.Pointer(&result[0]))), uint32(len(result)))
}

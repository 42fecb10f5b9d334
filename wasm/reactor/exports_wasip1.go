package reactor

import (
	"runtime/debug"
	"unsafe"

	"github.com/dispatch-playground/playground/wasm/abi"
)

// gcPercent is the guest's GOGC. The host bounds the guest's memory and
// replaces an instance once its memory has grown past a threshold, so the
// guest can afford to collect less often than Go's default of 100; fewer
// collections save time, because the collector's loops are a large part of
// what a sandboxed call executes.
const gcPercent = 400

// buffers keeps every buffer handed out by alloc reachable, so the garbage
// collector does not reclaim memory the host is about to write.
var buffers = map[uint32][]byte{}

// lastResult keeps the bytes of the previous run reachable until the next
// run, while the host copies them out.
var lastResult []byte

func init() { debug.SetGCPercent(gcPercent) }

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	buf := make([]byte, max(size, 1))
	ptr := uint32(uintptr(unsafe.Pointer(&buf[0])))
	buffers[ptr] = buf
	return ptr
}

//go:wasmexport free
func free(ptr uint32) { delete(buffers, ptr) }

// run reads the request from a buffer alloc returned; it refuses any other
// address rather than trust the host with raw pointers.
//
//go:wasmexport run
func run(ptr, length uint32) uint64 {
	buf, ok := buffers[ptr]
	if !ok || int(length) > len(buf) {
		lastResult = nil
		return 0
	}
	result, err := handler(buf[:length])
	lastResult = result
	if err != nil || len(result) == 0 {
		return 0
	}
	return abi.Pack(uint32(uintptr(unsafe.Pointer(&result[0]))), uint32(len(result)))
}

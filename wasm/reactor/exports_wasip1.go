package reactor

import (
	"runtime"
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

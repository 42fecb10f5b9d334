package wasmtest

import (
	"bytes"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// Agrees reports whether out, the Result JSON a sandbox with these limits
// returned for req, is the one the native engine gives (native), or the
// sandbox's own Result for a limit only the host enforces: the wall time,
// the memory of an instance, the size of a Result. Those depend on the
// machine, not on the engine, so they are the one way the two may differ.
func Agrees(out, native []byte, req engine.Request, limits wasm.Limits) bool {
	if bytes.Equal(out, native) {
		return true
	}
	for _, res := range []engine.Result{
		wasm.TimeLimitResult(req.Snippet, limits.WallTime),
		wasm.MemoryLimitResult(req.Snippet, limits.MemoryPages),
		wasm.ResultLimitResult(req.Snippet, len(native), limits.ResultBytes),
	} {
		if limited, err := abi.Encode(res); err == nil && bytes.Equal(out, limited) {
			return true
		}
	}
	return false
}

// Command guest is engine.wasm: the engine built for GOOS=wasip1 as a
// reactor (-buildmode=c-shared). It has no main loop: the host calls the
// exports of package reactor once per request, and each request goes through
// abi.HandleRequest, the same function native callers use. Built for any
// other target it is an empty program, so that `go build ./...` passes
// everywhere.
//
// It must not read files, the environment, the network or the clock: the
// host gives it none of them, and the browser's WASI shim gives it less.
package main

import (
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/reactor"
)

func init() { reactor.Serve(abi.HandleRequest) }

func main() {}

// Command faultguest is engine.wasm with three faults the real engine must
// never have, so that tests can prove the host survives them: a snippet of
// exactly "spin" loops forever, "grow" allocates until memory runs out, and
// "crash" panics. Every other request runs the real engine.
//
// It exists for the tests of package wasm and the server; it is never served.
package main

import (
	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/reactor"
)

// Snippets that trigger a fault.
const (
	Spin  = "spin"
	Grow  = "grow"
	Crash = "crash"
)

// sink keeps allocations reachable so that the collector cannot free them.
var sink [][]byte

func init() { reactor.Serve(handle) }

func handle(req engine.Request) ([]byte, error) {
	switch req.Snippet {
	case Spin:
		n := 0
		for {
			n++
		}
	case Grow:
		for {
			sink = append(sink, make([]byte, 1<<20))
		}
	case Crash:
		var m map[string]int
		m["nil map"]++
	}
	return abi.HandleRequest(req)
}

func main() {}

package wasm_test

import (
	"context"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// exampleRequests are the requests of every example, and of its repaired
// version when it has one.
func exampleRequests(t testing.TB) map[string]engine.Request {
	all := examples.All()
	if len(all) == 0 {
		t.Fatal("no examples")
	}
	reqs := map[string]engine.Request{}
	for _, ex := range all {
		reqs[ex.Name] = engine.Request{Config: ex.Config, Snippet: ex.Snippet}
		if ex.HasFix {
			reqs[ex.Name+"/fixed"] = engine.Request{Config: ex.FixedConfig, Snippet: ex.FixedSnippet}
		}
	}
	return reqs
}

// TestParity is the promise that the engine runs the same everywhere: every
// example gives byte-identical Result JSON natively and in the sandbox, with
// either isolation.
//
// The wall time limit is a backstop that depends on the machine; parity is
// about the engine, whose own limits are deterministic, so it is lifted here:
// the engine's step budget takes seconds inside the sandbox.
func TestParity(t *testing.T) {
	limits := testLimits()
	limits.WallTime = time.Minute
	reqs := exampleRequests(t)
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), limits, iso)
		for name, req := range reqs {
			t.Run(name, func(t *testing.T) {
				native, err := abi.Encode(engine.Run(req))
				if err != nil {
					t.Fatal(err)
				}
				sandboxed, err := sb.RunJSON(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if string(native) != string(sandboxed) {
					t.Errorf("native and sandbox differ\nnative  %s\nsandbox %s", native, sandboxed)
				}
			})
		}
	})
}

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
		reqs[ex.Name] = engine.Request{Config: ex.Config, Snippet: ex.Snippet, Entry: ex.Entry}
		if ex.HasFix {
			reqs[ex.Name+"/fixed"] = engine.Request{Config: ex.FixedConfig, Snippet: ex.FixedSnippet, Entry: ex.Entry}
		}
	}
	// Requests of contract version 2: a crate of several files, run as its
	// binary and as its tests.
	crate := map[string]string{
		"src/lib.rs":   "pub mod model;\n",
		"src/model.rs": "use burn::tensor::{Device, Tensor};\npub fn input(d: &Device) -> Tensor<2> { Tensor::<2>::ones([2, 2], d) }\n",
	}
	config := "[package]\nname = \"my-app\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\n"
	reqs["crate/bin"] = engine.Request{Config: config, Files: crate, Entry: "src/bin/train.rs",
		Snippet: "use burn::tensor::Device;\nfn main() { let x = my_app::model::input(&Device::default()); let y = x.reshape([3]); }\n"}
	reqs["crate/tests"] = engine.Request{Config: config, Files: crate, Entry: engine.EntryTests,
		Snippet: "#[cfg(test)]\nmod tests {\n    #[test]\n    fn shape() { let x = my_app::model::input(&Default::default()); assert_eq!(x.dims(), [2, 3]); }\n}\nfn main() {}\n"}
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

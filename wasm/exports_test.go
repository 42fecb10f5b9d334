package wasm_test

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// TestRunExportTakesJSON drives the export the browser uses, run, the way
// web/frontend/worker.js does: alloc, write the Request JSON, run.
func TestRunExportTakesJSON(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCloseOnContextDone(true).WithMemoryLimitPages(1024).WithCompilationCache(wasmtest.Cache()))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, wasmtest.Build(t), wazero.NewModuleConfig().WithStartFunctions(abi.ExportInitialize))
	if err != nil {
		t.Fatal(err)
	}
	alloc, run := mod.ExportedFunction(abi.ExportAlloc), mod.ExportedFunction(abi.ExportRun)
	call := func(request string, fromAlloc bool) []byte {
		t.Helper()
		res, err := alloc.Call(ctx, uint64(len(request)))
		if err != nil {
			t.Fatal(err)
		}
		ptr := uint32(res[0])
		mod.Memory().WriteString(ptr, request)
		if !fromAlloc {
			ptr += 8
		}
		res, err = run.Call(ctx, uint64(ptr), uint64(len(request)))
		if err != nil {
			t.Fatal(err)
		}
		if res[0] == 0 {
			return nil
		}
		p, n := abi.Unpack(res[0])
		out, _ := mod.Memory().Read(p, n)
		return out
	}
	request := `{"config":"[dependencies]\nburn = \"0.22\"\n","snippet":"let t = Tensor::<1>::ones([3], &Device::default());"}`
	want, err := abi.Handle([]byte(request))
	if err != nil {
		t.Fatal(err)
	}
	if got := call(request, true); string(got) != string(want) {
		t.Fatalf("run gave %s, native %s", got, want)
	}
	// A collection between runs changes nothing a run returns.
	collect := mod.ExportedFunction(abi.ExportCollect)
	if collect == nil {
		t.Fatal("no collect export")
	}
	for range 3 {
		if _, err := collect.Call(ctx); err != nil {
			t.Fatal(err)
		}
		if got := call(request, true); string(got) != string(want) {
			t.Fatalf("run after collect gave %s, native %s", got, want)
		}
	}
	if got := call(`{"snippet": 7}`, true); got != nil {
		t.Errorf("bad JSON gave %s", got)
	}
	if got := call(request, false); got != nil {
		t.Errorf("a pointer alloc did not return gave %s", got)
	}
}

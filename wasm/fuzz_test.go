package wasm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// FuzzRequest sends arbitrary bytes down both of the host's request paths:
// the server's (decode natively, then Sandbox.RunJSON with the two texts)
// and the browser's (the bytes as they are into the guest's `run` export).
// Neither may crash the host; each gives a Result of the contract or a
// clear error; and every Result is the native engine's for the same bytes,
// or the sandbox's own for a limit only the host enforces.
func FuzzRequest(f *testing.F) {
	for _, req := range exampleRequests(f) {
		f.Add(encode(f, req))
	}
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `{"snippet": 7}`, `{"config": "", "snippet": "let x = 1;"`,
		`{"snippet": "\ud800"}`, "{\"snippet\": \"\xff\xfe\"}", `{"snippet": "` + "\x00" + `"}`,
		`{"config": "[dependencies]\nburn = \"0.22\"", "snippet": "loop {}", "extra": [1, 2]}`,
	} {
		f.Add([]byte(seed))
	}
	module := wasmtest.Build(f)
	limits := testLimits()
	limits.PoolSize = 1
	// A program that runs to the engine's step budget takes seconds in
	// wasm; a shorter wall time ends it sooner with the sandbox's own
	// Result, which is as good an answer, and leaves the budget to new
	// inputs.
	limits.WallTime = 500 * time.Millisecond
	sb := wasmtest.NewSandbox(f, module, limits)
	reqs := exampleRequests(f)
	browser := newRunExport(f, module, limits, encode(f, reqs["wrong-device-add"]))

	f.Fuzz(func(t *testing.T, request []byte) {
		native, nativeErr := abi.Handle(request)
		req, err := abi.DecodeRequest(request)
		if err != nil {
			if !errors.Is(err, abi.ErrBadRequest) || nativeErr == nil {
				t.Fatalf("decoding %q: %v; the native path said %v", request, err, nativeErr)
			}
		} else {
			if nativeErr != nil {
				t.Fatalf("the native engine failed on a request that decodes: %v", nativeErr)
			}
			out, err := sb.RunJSON(context.Background(), req)
			if err != nil {
				t.Fatalf("the sandbox failed on %q: %v", request, err)
			}
			checkResult(t, "sandbox", out, native, req, limits)
		}

		out, limited := browser.run(t, request)
		switch {
		case limited:
		case nativeErr != nil && out != nil:
			t.Fatalf("run took %q, which the native path refuses (%v), and gave %.300s", request, nativeErr, out)
		case nativeErr == nil && out == nil:
			t.Fatalf("run refused %q, which the native path runs", request)
		case nativeErr == nil:
			checkResult(t, "run export", out, native, req, limits)
		}
	})
}

// checkResult requires out to be a Result of the contract that the sandbox
// may give for req: the native engine's, or its own for a host limit.
func checkResult(t *testing.T, path string, out, native []byte, req engine.Request, limits wasm.Limits) {
	t.Helper()
	var res engine.Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s: not JSON: %v: %.300s", path, err, out)
	}
	switch res.Status {
	case engine.StatusOK, engine.StatusPanicked, engine.StatusRejected:
	default:
		t.Fatalf("%s: status %q", path, res.Status)
	}
	if !wasmtest.Agrees(out, native, req, limits) {
		t.Fatalf("%s: the Result differs from the native engine's\n%s  %.500s\nnative %.500s", path, path, out, native)
	}
}

// runExport is one guest instance driven as the browser's worker drives
// it: alloc, write the Request JSON, run, free. It is replaced after any
// trap, and a new one runs warmUp first, as the sandbox and the worker warm
// theirs: the first run of an instance loads the catalog, which in wasm
// takes longer than a short wall time.
type runExport struct {
	rt     wazero.Runtime
	module wazero.CompiledModule
	limits wasm.Limits
	warmUp []byte
	mod    api.Module
	stderr bytes.Buffer
}

func newRunExport(tb testing.TB, module []byte, limits wasm.Limits, warmUp []byte) *runExport {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
		WithCloseOnContextDone(true).WithMemoryLimitPages(limits.MemoryPages).WithCompilationCache(wasmtest.Cache()))
	tb.Cleanup(func() { _ = rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	compiled, err := rt.CompileModule(ctx, module)
	if err != nil {
		tb.Fatal(err)
	}
	return &runExport{rt: rt, module: compiled, limits: limits, warmUp: warmUp}
}

// run calls the export with request. limited reports a run the host
// stopped (wall time, memory): the instance is then replaced.
func (r *runExport) run(t *testing.T, request []byte) (out []byte, limited bool) {
	t.Helper()
	if r.mod == nil {
		r.stderr.Reset()
		mod, err := r.rt.InstantiateModule(context.Background(), r.module, wazero.NewModuleConfig().
			WithName("").WithStartFunctions(abi.ExportInitialize).WithStderr(&r.stderr))
		if err != nil {
			t.Fatal(err)
		}
		r.mod = mod
		if _, err := r.call(context.Background(), r.warmUp); err != nil {
			t.Fatalf("warm-up: %v\n%.2000s", err, r.stderr.String())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.limits.WallTime)
	defer cancel()
	out, err := r.call(ctx, request)
	if err != nil {
		// A trap leaves the guest's runtime in an undefined state.
		_ = r.mod.Close(context.Background())
		r.mod = nil
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || strings.Contains(r.stderr.String(), "out of memory") {
			return nil, true
		}
		t.Fatalf("run trapped on %q: %v\n%.2000s", request, err, r.stderr.String())
	}
	return out, false
}

// call writes request into a buffer from alloc, runs it and copies the
// Result out; nil when run refused the request.
func (r *runExport) call(ctx context.Context, request []byte) ([]byte, error) {
	res, err := r.mod.ExportedFunction(abi.ExportAlloc).Call(ctx, uint64(len(request)))
	if err != nil {
		return nil, fmt.Errorf("alloc: %w", err)
	}
	ptr := uint32(res[0])
	if !r.mod.Memory().Write(ptr, request) {
		return nil, fmt.Errorf("alloc gave %#x, outside memory", ptr)
	}
	res, err = r.mod.ExportedFunction(abi.ExportRun).Call(ctx, uint64(ptr), uint64(len(request)))
	if err != nil {
		return nil, err
	}
	var out []byte
	if p, n := abi.Unpack(res[0]); res[0] != 0 {
		view, ok := r.mod.Memory().Read(p, n)
		if !ok {
			return nil, fmt.Errorf("run returned %#x+%d, outside memory", p, n)
		}
		out = append([]byte(nil), view...)
	}
	if _, err := r.mod.ExportedFunction(abi.ExportFree).Call(ctx, uint64(ptr)); err != nil {
		return nil, fmt.Errorf("free: %w", err)
	}
	return out, nil
}

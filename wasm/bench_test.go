package wasm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// The benchmarks of BENCHMARKS.md. Names follow benchstat's key=value
// convention, so that `benchstat -col /path` compares the paths:
//
//	BenchmarkRun/path=engine    engine.Run alone
//	BenchmarkRun/path=native    abi.Handle: Request JSON in, engine.Run, Result JSON out
//	BenchmarkRun/path=sandbox   the same request through a pooled instance (InProcess)
//	BenchmarkRun/path=process   the same through a pooled worker process (ProcessIsolation)
//
// (path=http is in package web). BenchmarkThroughput runs the same
// examples from GOMAXPROCS goroutines, native against the pool.

// BenchExamples are the programs benchmarked: runs that end ok, panic and
// are rejected, with small and large Results.
var benchExamples = []string{"tour-hello", "book-autodiff", "wrong-device-add", "matmul-inner-dim", "remote-server-libtorch", "burn-device-disabled"}

type benchCase struct {
	name    string
	req     engine.Request
	request []byte // the Request as JSON, what the native path decodes
}

func benchCases(b *testing.B) []benchCase {
	var cases []benchCase
	for _, name := range benchExamples {
		ex, ok := examples.ByName(name)
		if !ok {
			b.Fatalf("no example %s", name)
		}
		req := engine.Request{Config: ex.Config, Snippet: ex.Snippet}
		cases = append(cases, benchCase{name, req, encode(b, req)})
	}
	return cases
}

func BenchmarkRun(b *testing.B) {
	cases := benchCases(b)
	sb := wasmtest.NewSandbox(b, wasmtest.Build(b), testLimits())
	workers := wasmtest.NewIsolatedSandbox(b, wasmtest.Build(b), testLimits(), wasm.ProcessIsolation)
	for _, c := range cases {
		b.Run("path=engine/ex="+c.name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				engine.Run(c.req)
			}
		})
		b.Run("path=native/ex="+c.name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				if _, err := abi.Handle(c.request); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("path=sandbox/ex="+c.name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				if _, err := sb.RunJSON(context.Background(), c.req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("path=process/ex="+c.name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				if _, err := workers.RunJSON(context.Background(), c.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkThroughput(b *testing.B) {
	cases := benchCases(b)
	sb := wasmtest.NewSandbox(b, wasmtest.Build(b), testLimits())
	workers := wasmtest.NewIsolatedSandbox(b, wasmtest.Build(b), testLimits(), wasm.ProcessIsolation)
	b.Run("path=native", func(b *testing.B) {
		defer wasmtest.ReportCPU(b)()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				if _, err := abi.Handle(cases[i%len(cases)].request); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	for _, p := range []struct {
		name string
		sb   *wasm.Sandbox
	}{{"sandbox", sb}, {"process", workers}} {
		b.Run("path="+p.name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i++ {
					if _, err := p.sb.RunJSON(context.Background(), cases[i%len(cases)].req); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkTerminationChecks runs engine.wasm's run_request on one
// instance with and without WithCloseOnContextDone, which InProcess
// isolation cannot do without (a spinning guest would block the host's
// garbage collector for ever) and ProcessIsolation's workers do without.
// It measures what that safety costs: wazero then calls out to the host at
// every loop header, and Go's wasm code passes one at every jump between
// basic blocks.
func BenchmarkTerminationChecks(b *testing.B) {
	module := wasmtest.Build(b)
	ex, _ := examples.ByName("wrong-device-add")
	for _, checks := range []bool{true, false} {
		ctx := context.Background()
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().
			WithCloseOnContextDone(checks).WithMemoryLimitPages(wasm.DefaultMemoryPages).WithCompilationCache(wasmtest.Cache()))
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		mod, err := rt.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithName("").WithStartFunctions(abi.ExportInitialize))
		if err != nil {
			b.Fatal(err)
		}
		texts := ex.Config + ex.Snippet
		res, err := mod.ExportedFunction(abi.ExportAlloc).Call(ctx, uint64(len(texts)))
		if err != nil {
			b.Fatal(err)
		}
		mod.Memory().WriteString(uint32(res[0]), texts)
		run := mod.ExportedFunction(abi.ExportRunRequest)
		stack := make([]uint64, 3)
		b.Run(fmt.Sprintf("checks=%v/ex=%s", checks, ex.Name), func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				stack[0], stack[1], stack[2] = res[0], uint64(len(ex.Config)), uint64(len(ex.Snippet))
				if err := run.CallWithStack(ctx, stack); err != nil || stack[0] == 0 {
					b.Fatal(err)
				}
			}
		})
		_ = rt.Close(ctx)
	}
}

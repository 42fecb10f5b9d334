package wasm_test

import (
	"context"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// The benchmarks of BENCHMARKS.md. Names follow benchstat's key=value
// convention, so that `benchstat -col /path` compares the paths:
//
//	BenchmarkRun/path=engine    engine.Run alone
//	BenchmarkRun/path=native    abi.Handle: Request JSON in, engine.Run, Result JSON out
//	BenchmarkRun/path=sandbox   the same request through a pooled instance
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
	}
}

func BenchmarkThroughput(b *testing.B) {
	cases := benchCases(b)
	sb := wasmtest.NewSandbox(b, wasmtest.Build(b), testLimits())
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
	b.Run("path=sandbox", func(b *testing.B) {
		defer wasmtest.ReportCPU(b)()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				if _, err := sb.RunJSON(context.Background(), cases[i%len(cases)].req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

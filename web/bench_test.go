package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// benchExamples are the examples of the wasm package's benchmarks, so that
// BENCHMARKS.md compares the same runs on every path.
var benchExamples = []string{"tour-hello", "book-autodiff", "wrong-device-add", "matmul-inner-dim", "remote-server-libtorch", "burn-device-disabled"}

// BenchmarkRun/path=http is the full path: a loopback HTTP request to
// POST /api/run, the server, the sandbox pool, and the answer read back.
func BenchmarkRun(b *testing.B) {
	f := newBenchServer(b)
	for _, name := range benchExamples {
		body := benchBody(b, name)
		b.Run("path=http/ex="+name, func(b *testing.B) {
			defer wasmtest.ReportCPU(b)()
			for b.Loop() {
				f.post(b, body)
			}
		})
	}
}

func BenchmarkThroughput(b *testing.B) {
	f := newBenchServer(b)
	var bodies [][]byte
	for _, name := range benchExamples {
		bodies = append(bodies, benchBody(b, name))
	}
	b.Run("path=http", func(b *testing.B) {
		defer wasmtest.ReportCPU(b)()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				f.post(b, bodies[i%len(bodies)])
			}
		})
	})
}

type benchServer struct {
	url    string
	client *http.Client
}

func newBenchServer(b *testing.B) *benchServer {
	limits := wasm.DefaultLimits()
	limits.PoolSize = 2
	f := newFixture(b, wasmtest.Build(b), limits, nil)
	ts := httptest.NewServer(f.server)
	b.Cleanup(ts.Close)
	return &benchServer{url: ts.URL + "/api/run", client: ts.Client()}
}

func benchBody(b *testing.B, name string) []byte {
	ex, ok := examples.ByName(name)
	if !ok {
		b.Fatalf("no example %s", name)
	}
	body, err := abi.EncodeRequest(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

func (f *benchServer) post(b *testing.B, body []byte) {
	resp, err := f.client.Post(f.url, "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

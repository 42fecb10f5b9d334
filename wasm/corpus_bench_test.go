package wasm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// BenchmarkCorpus runs every program of a folder of txtar files (each a
// Cargo.toml and a main.rs, the form of Burn's backend tests that
// realcorpus.py writes) once per iteration, natively and through a pooled
// worker process, and reports the median and the 99th percentile of one
// program's run. The folder is named by PLAYGROUND_CORPUS; without it the
// benchmark is skipped, since the corpus is Burn's code, read from Burn's
// repository by the tool, not kept here.
//
//	PLAYGROUND_CORPUS=/tmp/rc/tests go test ./wasm/ -run='^$' -bench=BenchmarkCorpus -benchtime=1x
func BenchmarkCorpus(b *testing.B) {
	dir := os.Getenv("PLAYGROUND_CORPUS")
	if dir == "" {
		b.Skip("PLAYGROUND_CORPUS names no folder of txtar programs")
	}
	reqs := corpusPrograms(b, dir)
	workers := wasmtest.NewIsolatedSandbox(b, wasmtest.Build(b), testLimits(), wasm.ProcessIsolation)
	native := make([]string, len(reqs))
	for i, req := range reqs {
		native[i] = engine.Run(req).Status
	}
	for _, path := range []string{"engine", "process"} {
		b.Run("path="+path, func(b *testing.B) {
			var times []time.Duration
			differ := 0
			for b.Loop() {
				differ = 0
				for i, req := range reqs {
					start := time.Now()
					if path == "engine" {
						engine.Run(req)
					} else if res, err := workers.RunJSON(context.Background(), req); err != nil {
						b.Fatal(err)
					} else if status := statusOf(res); status != native[i] {
						// The sandbox's wall clock stopped a run the
						// engine's budgets let finish.
						differ++
					}
					times = append(times, time.Since(start))
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "ns-median/program")
			b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "ns-p99/program")
			b.ReportMetric(float64(len(reqs)), "programs")
			if path == "process" {
				b.ReportMetric(float64(differ), "status-differs")
			}
		})
	}
}

// statusOf reads the status of a Result's JSON.
func statusOf(result []byte) string {
	var r struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(result, &r)
	return r.Status
}

// corpusPrograms reads the folder's txtar programs in name order.
func corpusPrograms(b *testing.B, dir string) []engine.Request {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(names) == 0 {
		b.Fatalf("no txtar programs in %s (%v)", dir, err)
	}
	sort.Strings(names)
	reqs := make([]engine.Request, 0, len(names))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		var req engine.Request
		for _, f := range txtar.Parse(data).Files {
			switch {
			case f.Name == "Cargo.toml":
				req.Config = string(f.Data)
			case f.Name == "main.rs" || f.Name == engine.EntryMain:
				req.Snippet = string(f.Data)
			case strings.HasSuffix(f.Name, ".rs"):
				if req.Files == nil {
					req.Files = map[string]string{}
				}
				req.Files[f.Name] = string(f.Data)
			}
		}
		reqs = append(reqs, req)
	}
	return reqs
}

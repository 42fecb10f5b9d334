package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/engine"
)

// guideStep is testdata/guide_step.txtar as a Request: the guide's model
// and one training step on a batch of 64.
func guideStep(tb testing.TB) engine.Request {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "guide_step.txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	req := engine.Request{}
	for _, f := range txtar.Parse(data).Files {
		switch f.Name {
		case "Cargo.toml":
			req.Config = string(f.Data)
		case "main.rs":
			req.Snippet = string(f.Data)
		}
	}
	return req
}

// TestGuideStepRuns keeps BenchmarkGuideStep's program honest: it runs
// clean and complete, and its trace holds the forward (both convolutions
// and both matmuls), the backward and an Adam update of each of the
// model's eight parameters (the square root of its second moment).
func TestGuideStepRuns(t *testing.T) {
	res := engine.Run(guideStep(t))
	if res.Status != engine.StatusOK || !res.Complete {
		t.Fatalf("status %s complete %v:\n%s", res.Status, res.Complete, Summary(res))
	}
	ops := map[string]int{}
	for _, e := range res.Trace {
		ops[e.Op]++
	}
	for op, want := range map[string]int{"conv2d": 2, "float_matmul": 2, "backward": 1, "float_sqrt": 8} {
		if ops[op] != want {
			t.Errorf("%d %s in the trace, want %d (%v)", ops[op], op, want, ops)
		}
	}
}

// BenchmarkGuideStep is the cost of checking and running the guide's
// training step, the figure #15's performance line is about.
//
//	go test ./engine/ -run='^$' -bench=BenchmarkGuideStep -count=5
func BenchmarkGuideStep(b *testing.B) {
	req := guideStep(b)
	b.ReportAllocs()
	for b.Loop() {
		engine.Run(req)
	}
}

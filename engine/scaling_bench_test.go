package engine_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// scalingSizes are the snippet lengths, in lines, of BenchmarkScaling.
var scalingSizes = []int{10, 100, 1000, 10000}

// scalingLines are the statements a scaling snippet cycles through: tensor
// creation, a scalar op, an element-wise function, a reduction, integer
// arithmetic, a comment, a print and a use of an earlier integer. Each uses
// the value an earlier line made (%[2]d is one line back, %[3]d three); they
// are short, so that 10,000 of them fit the snippet limit.
var scalingLines = []string{
	"let t%[1]d = Tensor::<1>::ones([4], &d);",
	"let u%[1]d = t%[2]d * 2.0;",
	"let v%[1]d = u%[2]d.exp();",
	"let w%[1]d = v%[2]d.sum();",
	"let n%[1]d = %[1]d * 3;",
	"// %[1]d",
	"println!(\"{:?}\", w%[3]d.dims());",
	"let k%[1]d = n%[3]d + 1;",
}

// scalingSnippet is a program of n lines besides its first and last two.
func scalingSnippet(n int) string {
	var b strings.Builder
	b.WriteString("fn main() {\nlet d = Device::default();\n")
	for i := range n {
		fmt.Fprintf(&b, scalingLines[i%len(scalingLines)]+"\n", i, i-1, i-3)
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkScaling runs engine.Run on snippets of 10 to 10,000 lines and
// reports the cost per line, which must stay flat: a phase whose cost grows
// faster than the snippet shows as a rising ns/line.
func BenchmarkScaling(b *testing.B) {
	for _, n := range scalingSizes {
		req := engine.Request{Snippet: scalingSnippet(n)}
		if res := engine.Run(req); res.Status != engine.StatusOK {
			b.Fatalf("%d lines: status %s: %v", n, res.Status, res.Diagnostics)
		}
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				engine.Run(req)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
		})
	}
}

// TestScalingSnippetsRun keeps the benchmark's programs honest: every size
// runs clean, dispatches operations on every kind of line, and allocates
// no more per line at 10,000 lines than twice what it does at 100 (bytes
// allocated are a measure of work that does not depend on the machine's
// load, as time does).
func TestScalingSnippetsRun(t *testing.T) {
	perLine := map[int]float64{}
	for _, n := range scalingSizes {
		req := engine.Request{Snippet: scalingSnippet(n)}
		res := engine.Run(req)
		if res.Status != engine.StatusOK {
			t.Fatalf("%d lines: status %s: %v", n, res.Status, res.Diagnostics)
		}
		// Half the lines dispatch an operation; the trace keeps the first
		// dispatch.MaxTrace.
		if want := min(n/2, dispatch.MaxTrace); n >= 100 && len(res.Trace) < want {
			t.Errorf("%d lines: %d trace entries, want %d", n, len(res.Trace), want)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 3
		for range runs {
			engine.Run(req)
		}
		runtime.ReadMemStats(&after)
		perLine[n] = float64(after.TotalAlloc-before.TotalAlloc) / runs / float64(n)
		t.Logf("%5d lines: %6.0f bytes allocated per line, %d trace entries", n, perLine[n], len(res.Trace))
	}
	if perLine[10000] > 2*perLine[100] {
		t.Errorf("%0.f bytes per line at 10,000 lines, more than twice the %0.f at 100: something grows faster than the snippet", perLine[10000], perLine[100])
	}
}

package syntax

import (
	"runtime"
	"strings"
	"testing"
)

// TestUnclosedDelimitersStaySmall: 200,000 opening parentheses that never
// close are reported as unclosed, each at its own parenthesis, up to the
// diagnostic cap, and the delimiter check keeps a few bytes per open
// delimiter. It kept a whole Token each, 77 MB in all, which in the
// sandbox made the same snippet answer the memory limit after some runs
// and a syntax error after others.
func TestUnclosedDelimitersStaySmall(t *testing.T) {
	const n = 200000
	const prefix = "fn main() { let x = "
	src := prefix + strings.Repeat("(", n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, diags := Parse(src)
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 16<<20 {
		t.Errorf("Parse allocated %d MiB", allocated>>20)
	}
	if len(diags) != MaxDiagnostics {
		t.Fatalf("%d diagnostics, want the cap of %d", len(diags), MaxDiagnostics)
	}
	// The `{` of main comes first, then the parentheses in order.
	for i, d := range diags {
		at := strings.Index(src, "{")
		if i > 0 {
			at = len(prefix) + i - 1
		}
		if d.Code != CodeSyntaxError || d.Message != "unclosed delimiter" || d.Range.Start != at || d.Range.End != at+1 {
			t.Fatalf("diagnostic %d: %s %q at %v, want unclosed delimiter at %d", i, d.Code, d.Message, d.Range, at)
		}
		if len(d.Labels) != 2 || d.Labels[0].Range != d.Range || d.Labels[1].Range.Start != len(src) ||
			d.Labels[1].Message != "the file ends before `"+src[at:at+1]+"` is closed" {
			t.Fatalf("diagnostic %d: labels %+v", i, d.Labels)
		}
	}
}

// TestMismatchedDelimitersNameTheirOpener: the opener a mismatched closer
// is reported against is the right byte of the source.
func TestMismatchedDelimitersNameTheirOpener(t *testing.T) {
	src := "fn main() { let x = ([1, 2)]; }"
	_, diags := Parse(src)
	if len(diags) == 0 {
		t.Fatal("no diagnostic")
	}
	d := diags[0]
	if d.Message != "mismatched closing delimiter: `)`" || src[d.Range.Start:d.Range.End] != ")" {
		t.Fatalf("%+v", d)
	}
	if len(d.Labels) != 2 || src[d.Labels[0].Range.Start:d.Labels[0].Range.End] != "[" || d.Labels[0].Range.Start != strings.Index(src, "[") {
		t.Errorf("labels %+v, want the unclosed `[`", d.Labels)
	}
}

package report_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/report"
	"github.com/dispatch-playground/playground/engine/source"
)

// span builds a Span from a text and byte offsets, the way the engine does.
func span(text string, start, end int) source.Span {
	return source.NewFile("", text).Span(source.Range{Start: start, End: end})
}

const mainRS = "use burn::tensor::Tensor;\n\nfn main() {\n    let a = Tensor::<1>::ones([2], &Device::cuda(0));\n    let b = Tensor::<1>::ones([2], &Device::Cpu);\n    let c = a + b;\n}\n"

func TestDiagnosticWithLabelAndHelp(t *testing.T) {
	aStart := strings.Index(mainRS, "Tensor::<1>::ones([2], &Device::cuda(0))")
	aEnd := aStart + len("Tensor::<1>::ones([2], &Device::cuda(0))")
	sum := strings.Index(mainRS, "a + b")
	res := engine.Result{
		Status: engine.StatusPanicked,
		Diagnostics: []engine.Diagnostic{{
			Code: "input-tensor-is-on-the-wrong-backend", Severity: "error", Phase: "check",
			Message: "input tensor `rhs` is on the wrong backend", File: "main.rs",
			Span:   span(mainRS, sum, sum+5),
			Labels: []engine.Label{{File: "main.rs", Span: span(mainRS, aStart, aEnd), Message: "tensor `a` was created on Cuda(0) here"}},
			Help:   []string{"move `b` to the device of `a` with `b.to_device(&a.device())`"},
		}},
		Panic: &engine.Panic{Rendered: "thread 'main' panicked at crates/burn-dispatch/src/ops.rs:12:\ninput tensor `rhs` is on the wrong backend"},
		Trace: []engine.TraceEntry{
			{Op: "float_ones", Device: "Cuda(0)"},
			{Op: "float_ones", Device: "Cpu"},
		},
	}
	got := report.Text(res, map[string]string{"main.rs": mainRS})
	want := "error[input-tensor-is-on-the-wrong-backend]: input tensor `rhs` is on the wrong backend\n" +
		" --> main.rs:6:13\n" +
		"  |\n" +
		"4 |     let a = Tensor::<1>::ones([2], &Device::cuda(0));\n" +
		"  |             ---------------------------------------- tensor `a` was created on Cuda(0) here\n" +
		"...\n" +
		"6 |     let c = a + b;\n" +
		"  |             ^^^^^\n" +
		"  |\n" +
		"  = help: move `b` to the device of `a` with `b.to_device(&a.device())`\n" +
		"\n" +
		"thread 'main' panicked at crates/burn-dispatch/src/ops.rs:12:\ninput tensor `rhs` is on the wrong backend\n" +
		"trace: 2 operations on 2 devices (Cuda(0): 1, Cpu: 1), 0 transfers\n" +
		"status: panicked\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestLabelInAnotherFileAndWideGutter(t *testing.T) {
	cargo := "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n"
	snippet := strings.Repeat("\n", 11) + "let d = Device::cuda(0);\n"
	at := strings.Index(snippet, "Device::cuda(0)")
	feat := strings.Index(cargo, "[\"cuda\"]")
	res := engine.Result{
		Status: engine.StatusRejected,
		Diagnostics: []engine.Diagnostic{{
			Severity: "warning", Message: "no CUDA device in the simulated hardware", File: "main.rs",
			Span:   span(snippet, at, at+len("Device::cuda(0)")),
			Labels: []engine.Label{{File: "Cargo.toml", Span: span(cargo, feat, feat+8), Message: "enabled here"}},
		}},
	}
	got := report.Text(res, map[string]string{"main.rs": snippet, "Cargo.toml": cargo})
	want := "warning: no CUDA device in the simulated hardware\n" +
		"  --> main.rs:12:9\n" +
		"   |\n" +
		"12 | let d = Device::cuda(0);\n" +
		"   |         ^^^^^^^^^^^^^^^\n" +
		"   |\n" +
		"  ::: Cargo.toml:2:39\n" +
		"   |\n" +
		"2  | burn = { version = \"0.22\", features = [\"cuda\"] }\n" +
		"   |                                       -------- enabled here\n" +
		"   |\n" +
		"\n" +
		"trace: no tensor operations\n" +
		"status: rejected\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTabsAndWideCharactersKeepCaretsAligned(t *testing.T) {
	text := "\tlet é = x + y;\n"
	at := strings.Index(text, "x + y")
	res := engine.Result{Status: engine.StatusRejected, Diagnostics: []engine.Diagnostic{{
		Code: "c", Severity: "error", Message: "m", File: "main.rs", Span: span(text, at, at+5),
	}}}
	got := report.Text(res, map[string]string{"main.rs": text})
	if !strings.Contains(got, "1 |     let é = x + y;\n  |             ^^^^^\n") {
		t.Fatalf("carets misaligned:\n%s", got)
	}
}

func TestEmptyAndMultiLineSpans(t *testing.T) {
	text := "let t = Tensor::cat(\n    vec![a, b],\n    0,\n);\n"
	start := strings.Index(text, "Tensor::cat(")
	end := strings.Index(text, ");") + 1
	eof := len(text)
	res := engine.Result{Status: engine.StatusRejected, Diagnostics: []engine.Diagnostic{
		{Code: "multi", Severity: "error", Message: "m", File: "main.rs", Span: span(text, start, end),
			Labels: []engine.Label{{File: "main.rs", Span: span(text, start, end), Message: "this call"}}},
		{Code: "empty", Severity: "error", Message: "expected `;`", File: "main.rs", Span: span(text, eof, eof)},
	}}
	got := report.Text(res, map[string]string{"main.rs": text})
	wantMulti := "1 | let t = Tensor::cat(\n" +
		"  |         ^^^^^^^^^^^^\n" +
		"  |         ------------\n" +
		"...\n" +
		"4 | );\n" +
		"  | ^\n" +
		"  | - this call\n"
	if !strings.Contains(got, wantMulti) {
		t.Errorf("multi-line span:\n%s", got)
	}
	// The end of the file is the start of the empty fifth line.
	if !strings.Contains(got, " --> main.rs:5:1\n  |\n5 | \n  | ^\n") {
		t.Errorf("empty span at the end:\n%s", got)
	}
}

func TestMissingFileStillGivesTheLocation(t *testing.T) {
	res := engine.Result{Status: engine.StatusRejected, Diagnostics: []engine.Diagnostic{{
		Code: "x", Severity: "error", Message: "bad", File: "Cargo.toml", Span: span("a\nb", 2, 3),
	}}}
	got := report.Text(res, map[string]string{})
	if want := "error[x]: bad\n --> Cargo.toml:2:1\n\n"; !strings.HasPrefix(got, want) {
		t.Fatalf("got %q, want prefix %q", got, want)
	}
}

func TestOutputComesBeforeThePanic(t *testing.T) {
	res := engine.Result{
		Status: engine.StatusPanicked,
		Output: "[2, 3]",
		Panic:  &engine.Panic{Rendered: "thread 'main' panicked at a.rs:1:\nboom\n"},
	}
	got := report.Text(res, nil)
	if want := "[2, 3]\nthread 'main' panicked at a.rs:1:\nboom\ntrace: no tensor operations\nstatus: panicked\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestTraceSummaryCountsTransfers(t *testing.T) {
	got := report.TraceSummary([]engine.TraceEntry{
		{Op: "float_ones", Device: "Cpu"},
		{Op: "float_to_device", Device: "Cuda(0)"},
		{Op: "int_to_device", Device: "Cuda(0)"},
		{Op: "float_add", Device: "Cuda(0)"},
	})
	if want := "trace: 4 operations on 2 devices (Cpu: 1, Cuda(0): 3), 2 transfers"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := report.TraceSummary([]engine.TraceEntry{{Op: "float_to_device", Device: "Cpu"}}); got != "trace: 1 operation on 1 device (Cpu: 1), 1 transfer" {
		t.Fatalf("singular: %q", got)
	}
}

func TestRunRepeatingTheCheckIsPrintedOnceWithItsFixes(t *testing.T) {
	sum := strings.Index(mainRS, "a + b")
	d := engine.Diagnostic{
		Code: "x", Severity: "error", Phase: "check", Message: "boom", File: "main.rs",
		Span:  span(mainRS, sum, sum+5),
		Fixes: []engine.Fix{{Title: "Move `b` to the device of `a`"}},
	}
	run := d
	run.Phase = "run"
	got := report.Text(engine.Result{Status: engine.StatusPanicked, Diagnostics: []engine.Diagnostic{d, run}}, map[string]string{"main.rs": mainRS})
	if n := strings.Count(got, "error[x]: boom"); n != 1 {
		t.Errorf("diagnostic printed %d times:\n%s", n, got)
	}
	if !strings.Contains(got, "= fix: Move `b` to the device of `a`\n") {
		t.Errorf("no fix line:\n%s", got)
	}
}

// FuzzText renders diagnostics whose spans come from the text (as the
// engine makes them) and spans that do not fit it at all: the renderer
// must never fail, and must always name the diagnostic and the status.
func FuzzText(f *testing.F) {
	f.Add("let a = 1;\n\tlet é = a + b;\n", 4, 9, 2, 3, 1, 40)
	f.Add("", 0, 0, 0, 0, -5, 9999)
	f.Add("x\n", 0, 1, 1, 1<<40, 1, 1<<50)
	f.Fuzz(func(t *testing.T, text string, start, end, line, col, rawLine, rawCol int) {
		clamp := func(n int) int { return min(max(n, 0), len(text)) }
		fromText := span(text, clamp(start), clamp(max(start, end)))
		raw := source.Span{Start: source.Pos{Line: rawLine, Column: rawCol}, End: source.Pos{Line: line, Column: col}}
		res := engine.Result{Status: engine.StatusRejected, Diagnostics: []engine.Diagnostic{
			{Code: "a", Severity: "error", Message: "m", File: "main.rs", Span: fromText,
				Labels: []engine.Label{{File: "main.rs", Span: raw, Message: "l"}, {File: "Cargo.toml", Span: fromText}}},
			{Code: "b", Severity: "warning", Message: "n", File: "main.rs", Span: raw, Help: []string{"h"}},
		}}
		got := report.Text(res, map[string]string{"main.rs": text, "Cargo.toml": text})
		if !strings.HasPrefix(got, "error[a]: m\n") || !strings.Contains(got, "warning[b]: n\n") || !strings.HasSuffix(got, "status: rejected\n") {
			t.Fatalf("rendered:\n%s", got)
		}
	})
}

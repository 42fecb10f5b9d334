package engine

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/interp"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A Request whose Entry is EntryTests is built as `cargo test` builds it and
// runs its #[test] functions instead of main. The check covers every test
// (ignored ones too) and every function no test calls, main among them. A
// panic the check finds in a test that is meant to panic (#[should_panic],
// with its expected text) or that never runs (#[ignore]) is what that test
// is for, not an error of the program, so it is left out. The two promises
// then read: when the check reports no error, no test fails by panicking;
// when a test fails by panicking, the check reported the same code at the
// same span.

// checkEntry reports an Entry the engine cannot run. A crate's other
// targets need the Request's files, which this engine does not read.
func checkEntry(req Request) (diag.Diagnostic, bool) {
	entry := req.Entry
	switch entry {
	case "", EntryMain, EntryTests:
		return diag.Diagnostic{}, true
	}
	if isCrateRoot(entry) {
		// A binary, example, test or bench of the crate: Snippet is its text.
		return diag.Diagnostic{}, true
	}
	return diag.Diagnostic{Code: "unknown-entry", Severity: diag.Error, Phase: diag.Config, File: diag.CargoToml,
		Message: fmt.Sprintf("no target `%s` in this package: the playground runs %q (main), src/bin/NAME.rs, examples/NAME.rs or %q (the #[test] functions)",
			entry, EntryMain, EntryTests)}, false
}

// runTests is runDetailed for EntryTests, after the parse.
func runTests(file *syntax.File, files map[string]*source.File, opts interp.Options, diags diag.List, configErrors bool) (Result, Detail) {
	var detail Detail
	mainFile := files[diag.MainRS]
	for _, d := range diags {
		if d.PanicID != "" {
			detail.CheckPanicIDs = append(detail.CheckPanicIDs, d.PanicID)
		}
	}

	opts.Mode = interp.Check
	checked := interp.EvalTests(file, mainFile, opts)
	checkDiags := testCheckDiagnostics(checked)
	diags = append(diags, checkDiags...)
	for _, d := range checkDiags {
		if d.PanicID != "" {
			detail.CheckPanicIDs = append(detail.CheckPanicIDs, d.PanicID)
		}
	}
	checkCut := checked.Limited == interp.LimitDiagnostics
	if configErrors || compileErrors(checkDiags) {
		return build(StatusRejected, diags, files, interp.Outcome{}, checkCut), detail
	}

	opts.Mode = interp.Run
	ran := interp.EvalTests(file, mainFile, opts)
	var runDiags diag.List
	var first *interp.TestRun
	failed := false
	tests := make([]TestResult, 0, len(ran.Tests))
	for i := range ran.Tests {
		t := &ran.Tests[i]
		tr := TestResult{Name: t.Name, Status: t.Status, Output: t.Output, ShouldPanic: t.ShouldPanic}
		if t.Panic != nil {
			tr.Panic = panicJSON(t.Panic, t.Name, mainFile)
		}
		tests = append(tests, tr)
		for _, d := range t.Diags {
			// A panic is an error of the program only where it fails a test.
			if t.Status == interp.TestFailed || !isPanic(d) {
				runDiags = append(runDiags, d)
			}
		}
		if t.Status == interp.TestFailed {
			failed = true
			if first == nil && t.Panic != nil {
				first = t
			}
		}
	}
	runDiags = append(runDiags, ran.Diags...)
	trace, traceNote := testTraces(ran.Tests)
	if traceNote != nil {
		runDiags = append(runDiags, *traceNote)
	}
	diags = append(diags, runDiags...)

	status := StatusOK
	switch {
	case ran.Limited != "" || compileErrors(runDiags):
		status = StatusRejected
	case failed:
		status = StatusPanicked
	}
	outcome := interp.Outcome{Output: libtestReport(ran), Trace: trace}
	if first != nil {
		outcome.Panic = first.Panic
		detail.RunPanicID = first.Panic.ID
		for c := first.Panic.Cause; c != nil; c = c.Cause {
			detail.RunCauseIDs = append(detail.RunCauseIDs, c.ID)
		}
	}
	res := build(status, diags, files, outcome, checkCut)
	if first != nil {
		res.Panic.Rendered = first.Panic.RenderedOn(first.Name)
	}
	res.Tests = tests
	return res, detail
}

// testCheckDiagnostics gathers the check's diagnostics of every test, once
// each, without the panics that a test expects or never reaches.
func testCheckDiagnostics(checked interp.TestsOutcome) diag.List {
	seen := map[string]bool{}
	var out diag.List
	add := func(d diag.Diagnostic) {
		key := fmt.Sprintf("%s|%s|%s|%d|%d|%s", d.Phase, d.Code, d.PanicID, d.Range.Start, d.Range.End, d.Message)
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	for _, d := range checked.Diags {
		add(d)
	}
	for _, t := range checked.Tests {
		for _, d := range t.Diags {
			if isPanic(d) && (t.Ignored || t.ShouldPanic && (!t.HasExpected || strings.Contains(d.Message, t.Expected))) {
				continue
			}
			add(d)
		}
	}
	return out
}

// isPanic reports whether d is a panic the program would raise when run:
// Burn's or its own, not a compile-time error.
func isPanic(d diag.Diagnostic) bool {
	if d.PanicID == "" || d.Severity != diag.Error {
		return false
	}
	row, ok := catalog.PanicRow(d.PanicID)
	return !ok || row.Kind != "compile_error"
}

// panicJSON is the JSON form of a test's panic, raised on the test's thread.
func panicJSON(p *interp.PanicAt, thread string, main *source.File) *Panic {
	code := p.ID
	if !p.User {
		code = codeOf(p.ID)
	}
	return &Panic{Message: p.Message, Location: p.Location, Rendered: p.RenderedOn(thread), Code: code, Span: main.Span(p.Range)}
}

// testTraces puts the tests' traces one after the other, keeping at most
// dispatch.MaxTrace entries in all, as one run keeps; note says where the
// trace was cut.
func testTraces(tests []interp.TestRun) (trace []interp.TraceEvent, note *diag.Diagnostic) {
	total := 0
	for _, t := range tests {
		total += len(t.Trace)
		for _, ev := range t.Trace {
			if len(trace) == dispatch.MaxTrace {
				if note == nil {
					note = &diag.Diagnostic{Code: "playground-trace-limit", Severity: diag.Note, Phase: diag.Run, File: diag.MainRS, Range: ev.Range}
				}
				break
			}
			trace = append(trace, ev)
		}
	}
	if note != nil {
		note.Message = fmt.Sprintf("the tests dispatched %d traced tensor operations; the trace shows the first %d", total, dispatch.MaxTrace)
	}
	return trace, note
}

// libtestReport is what libtest prints on stdout for a run of the tests
// one at a time (`cargo test -- --test-threads=1`), its time always
// 0.00s: the playground counts steps, not time. A run stopped by a limit
// ends where the process would have been stopped, inside the line of the
// test it stopped in.
func libtestReport(ran interp.TestsOutcome) string {
	var b strings.Builder
	n := len(ran.Cases)
	fmt.Fprintf(&b, "\nrunning %d %s\n", n, pluralWord(n, "test"))
	passed, ignored := 0, 0
	var failures []*interp.TestRun
	for i := range ran.Tests {
		t := &ran.Tests[i]
		mode := ""
		if t.ShouldPanic && !t.Ignored {
			mode = " - should panic"
		}
		fmt.Fprintf(&b, "test %s%s ... ", t.Name, mode)
		if ran.Limited != "" && i == len(ran.Tests)-1 {
			return b.String()
		}
		switch t.Status {
		case interp.TestOK:
			passed++
			b.WriteString("ok\n")
		case interp.TestIgnored:
			ignored++
			b.WriteString("ignored")
			if t.IgnoreReason != "" {
				b.WriteString(", " + t.IgnoreReason)
			}
			b.WriteString("\n")
		default:
			failures = append(failures, t)
			b.WriteString("FAILED\n")
		}
	}
	verdict := "ok"
	if len(failures) > 0 {
		verdict = "FAILED"
		b.WriteString("\nfailures:\n")
		var stdouts strings.Builder
		for _, t := range failures {
			if t.Output != "" {
				fmt.Fprintf(&stdouts, "---- %s stdout ----\n%s\n", t.Name, t.Output)
			}
		}
		if stdouts.Len() > 0 {
			b.WriteString("\n" + stdouts.String())
		}
		b.WriteString("\nfailures:\n")
		for _, t := range failures {
			fmt.Fprintf(&b, "    %s\n", t.Name)
		}
	}
	fmt.Fprintf(&b, "\ntest result: %s. %d passed; %d failed; %d ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n",
		verdict, passed, len(failures), ignored)
	return b.String()
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

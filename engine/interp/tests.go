package interp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/cfg"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A program built by `cargo test` runs its #[test] functions instead of
// main: libtest sorts them by name and runs each in a fresh process state,
// capturing what it prints. EvalTests does the same over the evaluator:
// each test gets a fresh interpreter (a fresh dispatch.World, fresh
// output), in name order, with `cfg(test)` holding. The step and output
// budgets are shared by all the tests of a program, so a test run is
// bounded as a run of main is.

// TestCase is one #[test] function of a program, as libtest sees it.
type TestCase struct {
	// Name is the function's path in the crate without the crate's name,
	// "tests::adds" for `fn adds` in `mod tests`: libtest's name for it.
	Name string
	Fn   *syntax.FnDecl
	// Ignored is set by #[ignore]; IgnoreReason is the text of
	// #[ignore = "reason"].
	Ignored      bool
	IgnoreReason string
	// ShouldPanic is set by #[should_panic]; Expected is the text of its
	// `expected = ".."` (or of #[should_panic = ".."]), HasExpected when it
	// has one.
	ShouldPanic bool
	Expected    string
	HasExpected bool
}

// Test statuses, as libtest reports them.
const (
	TestOK      = "ok"
	TestFailed  = "failed"
	TestIgnored = "ignored"
)

// TestRun is one test as an evaluation left it.
type TestRun struct {
	TestCase
	// Status is TestOK, TestFailed or TestIgnored (a run only).
	Status string
	// Panic is the panic the test raised, nil when it raised none. A
	// should_panic test that passed has one.
	Panic *PanicAt
	// Output is what the test wrote, as libtest captures it and shows it
	// under `---- name stdout ----` when the test fails: its prints, the
	// panic hook's report of its panic, `Error: ..` for an Err it returned,
	// and libtest's own note on a should_panic test that failed.
	Output string
	Trace  []TraceEvent
	// Diags are the diagnostics of this test's evaluation.
	Diags diag.List
}

// TestsOutcome is what EvalTests found.
type TestsOutcome struct {
	// Cases is every test of the program, in libtest's order.
	Cases []TestCase
	// Tests are the tests evaluated, in the same order. A run stopped by
	// a limit ends with the test it stopped in (failed); the tests after
	// it are not run.
	Tests []TestRun
	// Diags are the diagnostics about the program as a whole, not one test.
	Diags diag.List
	// Limited names the limit that stopped the evaluation, or is empty.
	Limited string
}

// backtraceNote is what Rust's panic hook adds to the first panic of a
// process when RUST_BACKTRACE is not set.
const backtraceNote = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"

// Tests lists the #[test] functions of f compiled under `cargo test`
// with opts, sorted by name as libtest sorts them.
func Tests(f *syntax.File, opts Options) []TestCase {
	if f == nil {
		return nil
	}
	opts.Test = true
	in := &interp{opts: opts, build: cfg.New(opts.Features, true, opts.Config.Target)}
	var cases []TestCase
	in.collectTests(f.Items, "", &cases)
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases
}

// collectTests walks items and the inline modules among them.
func (in *interp) collectTests(items []syntax.Item, prefix string, out *[]TestCase) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.ModDecl:
			// The package's library linked into a binary is built as for
			// `cargo run`: its tests are its own harness's, not this one's.
			if it.Inline && !it.Crate && in.compiled(it.Attrs) {
				in.collectTests(it.Items, prefix+it.Name+"::", out)
			}
		case *syntax.FnDecl:
			if tc, ok := testCase(it); ok && in.compiled(it.Attrs) {
				tc.Name = prefix + it.Name
				*out = append(*out, tc)
			}
		}
	}
}

// compiled tells whether every #[cfg(..)] among attrs holds.
func (in *interp) compiled(attrs []*syntax.Attr) bool {
	return in.build.Compiled(attrs)
}

// testCase reads the test attributes of fn; ok is false when it has no
// #[test].
func testCase(fn *syntax.FnDecl) (tc TestCase, ok bool) {
	tc.Fn = fn
	for _, a := range fn.Attrs {
		switch a.Path {
		case "test":
			ok = true
		case "ignore":
			tc.Ignored = true
			if a.Eq {
				tc.IgnoreReason, _ = stringArg(a.Args)
			}
		case "should_panic":
			tc.ShouldPanic = true
			switch {
			case a.Eq:
				tc.Expected, tc.HasExpected = stringArg(a.Args)
			case len(a.Args) == 3 && a.Args[0].Text == "expected" && a.Args[1].Text == "=":
				tc.Expected, tc.HasExpected = stringArg(a.Args[2:])
			}
		}
	}
	return tc, ok
}

// stringArg is the value of a lone string literal.
func stringArg(tokens []syntax.Token) (string, bool) {
	if len(tokens) == 1 && tokens[0].Kind == syntax.String {
		return tokens[0].Value, true
	}
	return "", false
}

// EvalTests evaluates the tests of f as `cargo test` does: in Check mode
// it checks each of them (ignored ones too, as rustc compiles them); in
// Run mode it runs each one that is not ignored in a fresh interpreter,
// in name order. It never panics.
func EvalTests(f *syntax.File, src *source.File, opts Options) (out TestsOutcome) {
	opts.Test = true
	if opts.StepLimit == 0 {
		opts.StepLimit = DefaultStepLimit
	}
	if opts.OutputLimit == 0 {
		opts.OutputLimit = DefaultOutputLimit
	}
	out = TestsOutcome{Cases: Tests(f, opts)}
	if f == nil {
		return out
	}
	steps, printed, diags := 0, 0, 0
	// A check also covers the program as a whole: its extensions, and
	// every function no test calls (main among them), as rustc compiles
	// them (whole.go).
	var prog *interp
	if opts.Mode == Check {
		prog = newInterp(f, src, opts)
		prog.checkExtensions()
		diags = len(prog.diags)
		defer func() {
			if out.Limited == "" {
				prog.opts.StepLimit = opts.StepLimit - steps
				prog.checkUncalled()
			}
			out.Diags = prog.diags
		}()
	}
	panicked := false // Rust's panic hook prints its note once per process
	for _, tc := range out.Cases {
		if opts.Mode == Check && diags >= MaxCheckDiagnostics {
			out.Limited = LimitDiagnostics
			break
		}
		if opts.Mode == Run && tc.Ignored {
			out.Tests = append(out.Tests, TestRun{TestCase: tc, Status: TestIgnored})
			continue
		}
		in := newInterp(f, src, opts)
		in.opts.StepLimit = opts.StepLimit - steps
		in.opts.OutputLimit = opts.OutputLimit - printed
		ret, crashed := in.evalTest(&tc)
		steps += in.steps
		if prog != nil {
			prog.entered[tc.Fn] = true
			for fn := range in.entered {
				prog.entered[fn] = true
			}
		}
		printed += in.output.Len()
		o := in.outcome()
		run := TestRun{TestCase: tc, Panic: o.Panic, Trace: o.Trace, Diags: o.Diags}
		diags += len(o.Diags)
		if opts.Mode == Run {
			run.Status, run.Output = in.testResult(&tc, ret, &panicked)
		}
		if crashed || o.Limited != "" {
			out.Limited = o.Limited
			if crashed {
				out.Limited = "internal"
			}
			if opts.Mode == Run {
				run.Status = TestFailed
			}
			out.Tests = append(out.Tests, run)
			break
		}
		out.Tests = append(out.Tests, run)
	}
	return out
}

// evalTest calls one test function. crashed reports an internal error of
// the evaluator, which it turns into a diagnostic.
func (in *interp) evalTest(tc *TestCase) (ret value, crashed bool) {
	defer func() {
		if r := recover(); r != nil {
			in.diags.Add(diag.Diagnostic{
				Code: "playground-internal-error", Severity: diag.Error, Phase: in.opts.Mode.phase(),
				Message: fmt.Sprintf("the playground's interpreter failed on this program: %v", r),
				File:    diag.MainRS, Range: in.lastRange,
			})
			ret, crashed = nil, true
		}
	}()
	fn := tc.Fn
	if in.opts.Mode == Check {
		// rustc's checks of the test harness (rustc_builtin_macros/src/test.rs).
		if len(fn.Params) > 0 {
			in.report(diag.Diagnostic{Code: "invalid-test-function", Severity: diag.Error, Range: fn.Range,
				Message: "functions used as tests can not have any arguments"})
			return nil, false
		}
		if tc.ShouldPanic && fn.Result != nil && fn.Result.Text != "()" {
			in.report(diag.Diagnostic{Code: "invalid-test-function", Severity: diag.Error, Range: fn.Range,
				Message: "functions using `#[should_panic]` must return `()`"})
		}
	}
	ret, _ = in.callUser(fn, nil, fn.NameSpan)
	return ret, false
}

// testResult decides a test's status as libtest does and completes its
// captured output. panicked is whether a test before it panicked.
func (in *interp) testResult(tc *TestCase, ret value, panicked *bool) (status, output string) {
	var b strings.Builder
	b.WriteString(in.output.String())
	p := in.panic
	if p != nil {
		// The panic hook writes into the test's capture, after a blank line.
		b.WriteString("\n" + p.RenderedOn(tc.Name) + "\n")
		if !*panicked {
			b.WriteString(backtraceNote)
		}
		*panicked = true
	}
	if in.limited != "" {
		return TestFailed, b.String()
	}
	switch {
	case tc.ShouldPanic && p == nil:
		pos := in.src.Position(tc.Fn.NameSpan.Start)
		fmt.Fprintf(&b, "note: test did not panic as expected at src/main.rs:%d:%d", pos.Line, pos.Column)
		if in.unmodelledItem != "" {
			// The engine saw no panic; Burn may raise one where it
			// could not look.
			fmt.Fprintf(&b, "\nnote: the playground does not model `%s`, which this test calls: whether Burn panics there is not known", in.unmodelledItem)
		}
		return TestFailed, b.String()
	case tc.ShouldPanic && tc.HasExpected && !strings.Contains(p.Message, tc.Expected):
		fmt.Fprintf(&b, "note: panic did not contain expected string\n      panic message: %s\n expected substring: %s",
			dispatch.Debug(dispatch.Str(p.Message)), dispatch.Debug(dispatch.Str(tc.Expected)))
		return TestFailed, b.String()
	case tc.ShouldPanic:
		return TestOK, b.String()
	case p != nil:
		return TestFailed, b.String()
	}
	// A test returning Result fails on Err: its Termination impl prints the
	// error's Debug form to stderr, which libtest captures.
	if en, ok := dispatch.Deref(ret).(*dispatch.Enum); ok && en.Type == "Result" && en.Variant == "Err" {
		var err value = dispatch.Unit{}
		if len(en.Fields) == 1 {
			err = en.Fields[0]
		}
		b.WriteString("Error: " + debug(err) + "\n")
		return TestFailed, b.String()
	}
	return TestOK, b.String()
}

// RenderedOn is the text Rust's panic hook prints for the panic on the
// thread named thread: a test runs on a thread named after the test.
func (p *PanicAt) RenderedOn(thread string) string {
	if p.Location == "" {
		return fmt.Sprintf("thread '%s' panicked:\n%s", thread, p.Message)
	}
	return fmt.Sprintf("thread '%s' panicked at %s:\n%s", thread, p.Location, p.Message)
}

package engine

import (
	"encoding/json"

	"github.com/dispatch-playground/playground/engine/source"
)

// Version is the engine's semantic version, reported in every Result.
const Version = "0.2.0"

// BurnCommit is the Burn commit whose behaviour the engine reproduces.
const BurnCommit = "2c06be35"

// Request is the input of a run: the user's Cargo.toml and main.rs.
// An empty Config means `[dependencies] burn = "0.22"` with default features.
type Request struct {
	Config  string `json:"config"`
	Snippet string `json:"snippet"`
	// Entry is what the run builds and runs (contract version 2): empty or
	// EntryMain runs main, as `cargo run` does; EntryTests runs the
	// program's #[test] functions instead, as `cargo test` does. The
	// field is left out of the JSON when empty, so a version-1 Request is
	// unchanged.
	Entry string `json:"entry,omitempty"`
	// Files are the crate's other files by path from its root
	// ("src/model.rs", "src/bin/train.rs"), contract version 2: with them
	// the Request is a crate whose root is the entry (src/main.rs unless
	// Entry names another target), and Snippet is the entry's text.
	Files map[string]string `json:"files,omitempty"`
}

// Entries a Request may name.
const (
	EntryMain  = "src/main.rs"
	EntryTests = "tests"
)

// Status values of a Result.
const (
	StatusOK       = "ok"
	StatusPanicked = "panicked"
	StatusRejected = "rejected"
)

// Result is the output of a run, the JSON contract shared by the browser,
// the sandbox, the CLI and the tests.
type Result struct {
	Status      string       `json:"status"`
	Panic       *Panic       `json:"panic"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Trace       []TraceEntry `json:"trace"`
	Output      string       `json:"output"`
	// Tests are the program's tests when the Request's Entry is
	// EntryTests, in the order libtest runs them (by name); null when no
	// test ran: the run ran main, or the program was rejected before its
	// tests could run. When tests run, the rest of the Result describes
	// the test run as a whole:
	//   - Status is ok when every test passed or was ignored, panicked
	//     when one failed (as `cargo test` fails), and rejected as for a
	//     run of main (a compile error, a limit);
	//   - Panic is the panic of the first failing test that panicked, null
	//     when no failing test panicked (an Err returned, a should_panic
	//     test that did not panic); its Rendered names the test's thread;
	//   - Output is libtest's report, byte for byte what `cargo test
	//     -- --test-threads=1` prints on stdout, except that the panic
	//     hook's lines name no thread id and the time is always 0.00s;
	//   - Trace is the tests' traces one after the other, Diagnostics the
	//     check of every test and the run diagnostics of the failing ones.
	Tests []TestResult `json:"tests"`
	// Complete is false when something the program did was not modelled
	// or not checked (contract version 2): a diagnostic of CodeUnmodelled
	// or CodeUnchecked is in the Result. An incomplete Result is not the
	// verdict "ok": its status says what the engine saw, and the warnings
	// say what it could not see. The two promises hold for a complete
	// Result; for an incomplete one, promise (1) reads "no panic the
	// engine can see".
	Complete bool `json:"complete"`
	// Hints are what the check learned of the program's tensors, where
	// the program names them (contract version 2): after the pattern of
	// each `let` that binds a tensor, and at each use of a variable that
	// holds one, in the order of the text. Empty when the check did not
	// run (a parse or config error) or saw no tensor.
	Hints  []HintEntry `json:"hints"`
	Engine EngineInfo  `json:"engine"`
}

// HintEntry is one label of Result.Hints: `Tensor<2> · Cuda(0) · [64,
// 10] · autodiff` (the type, the device as Burn's Debug prints it, the
// shape, and autodiff on an autodiff device).
type HintEntry struct {
	File  string      `json:"file"`
	Span  source.Span `json:"span"`
	Label string      `json:"label"`
}

// The warnings that make a Result incomplete.
const (
	CodeUnmodelled = "playground-unmodelled"
	CodeUnchecked  = "playground-unchecked"
	// CodeOutsideWorld is a call that needs what a program run by the
	// playground does not have (files, the network, other processes, the
	// clock): a boundary, like an item not modelled (interp's
	// CodeOutsideWorld).
	CodeOutsideWorld = "playground-outside-world"
)

// Incompleteness makes a Result incomplete: a Burn item or a boundary not
// modelled, or an assertion, branch or print whose values are unknown.
func Incompleteness(code string) bool {
	return code == CodeUnmodelled || code == CodeUnchecked || code == CodeOutsideWorld
}

// IncompleteCodes are the codes Incompleteness holds, for the surfaces
// that count them in their own language (the page's results.js).
func IncompleteCodes() []string {
	return []string{CodeOutsideWorld, CodeUnchecked, CodeUnmodelled}
}

// Unchecked counts the diagnostics that make res incomplete: the things
// the surfaces say were not checked.
func (res Result) Unchecked() int {
	n := 0
	for _, d := range res.Diagnostics {
		if Incompleteness(d.Code) {
			n++
		}
	}
	return n
}

// Test statuses of a TestResult.
const (
	TestOK      = "ok"
	TestFailed  = "failed"
	TestIgnored = "ignored"
)

// TestResult is one #[test] function as the test run left it.
type TestResult struct {
	// Name is libtest's name of the test: its module path in the crate
	// and its name, "tests::adds".
	Name   string `json:"name"`
	Status string `json:"status"`
	// Panic is the panic the test raised, null when it raised none (a
	// should_panic test that passed has one).
	Panic *Panic `json:"panic"`
	// Output is what the test wrote as libtest captures it, which `cargo
	// test` shows under `---- name stdout ----` when the test fails: its
	// prints, the panic hook's report of its panic, `Error: ..` for an Err
	// it returned and libtest's note on a should_panic test that failed.
	Output      string `json:"output"`
	ShouldPanic bool   `json:"shouldPanic"`
}

// Panic describes where and how Burn would panic.
type Panic struct {
	Message  string      `json:"message"`
	Location string      `json:"location"`
	Rendered string      `json:"rendered"`
	Code     string      `json:"code"`
	Span     source.Span `json:"span"`
}

// Diagnostic is the JSON form of a diag.Diagnostic with its catalog record.
type Diagnostic struct {
	Code     string      `json:"code"`
	Severity string      `json:"severity"`
	Phase    string      `json:"phase"`
	Message  string      `json:"message"`
	File     string      `json:"file"`
	Span     source.Span `json:"span"`
	Labels   []Label     `json:"labels"`
	Help     []string    `json:"help,omitempty"`
	// Record is the catalog record of Code, or null. Its bytes are the
	// catalog's own (catalog.Record.EncodedJSON): read them, never change
	// them.
	Record json.RawMessage `json:"record"`
	Fixes  []Fix           `json:"fixes"`
}

// Label is a related span with a message.
type Label struct {
	File    string      `json:"file"`
	Span    source.Span `json:"span"`
	Message string      `json:"message"`
}

// Fix is a machine-applicable suggestion.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
}

// Edit replaces a span of one file with new text.
type Edit struct {
	File    string      `json:"file"`
	Span    source.Span `json:"span"`
	NewText string      `json:"newText"`
}

// TraceEntry is one dispatched operation.
type TraceEntry struct {
	Span source.Span `json:"span"`
	// File names the crate's file the span is in; left out for a
	// version-1 Request, whose one file is main.rs.
	File     string  `json:"file,omitempty"`
	Op       string  `json:"op"`
	Backend  string  `json:"backend"`
	Device   string  `json:"device"`
	Autodiff bool    `json:"autodiff"`
	Kind     string  `json:"kind"`
	Shape    []int64 `json:"shape"`
	Note     string  `json:"note,omitempty"`
	// Module is the path of the module whose method ran the operation,
	// as the program reached it: the variable it named, then fields and
	// Vec indices ("model.conv1", "model.blocks.0"). Left out for an
	// operation outside any module's method.
	Module string `json:"module,omitempty"`
}

// EngineInfo identifies the engine and the Burn commit it models.
type EngineInfo struct {
	Version string `json:"version"`
	Burn    string `json:"burn"`
}

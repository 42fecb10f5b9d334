package engine_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/examples"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of examples/*.txtar")

// maxGoldenOutput bounds the program output a golden file keeps.
const maxGoldenOutput = 2048

// Summary is the golden excerpt of a Result: what a reader checks by eye.
func Summary(res engine.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\n", res.Status)
	if !res.Complete {
		fmt.Fprintf(&b, "complete: false\n")
	}
	if p := res.Panic; p != nil {
		fmt.Fprintf(&b, "panic: %s at %s\n", p.Code, spanText(p.Span))
		fmt.Fprintf(&b, "  location: %s\n", p.Location)
		fmt.Fprintf(&b, "  message: %s\n", indent(p.Message))
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s %s %s %s:%s\n", d.Phase, d.Severity, d.Code, d.File, spanText(d.Span))
		fmt.Fprintf(&b, "  message: %s\n", indent(d.Message))
		for _, l := range d.Labels {
			fmt.Fprintf(&b, "  label %s:%s: %s\n", l.File, spanText(l.Span), l.Message)
		}
		for _, f := range d.Fixes {
			fmt.Fprintf(&b, "  fix: %s\n", f.Title)
		}
	}
	for _, t := range res.Trace {
		ad := ""
		if t.Autodiff {
			ad = " autodiff"
		}
		note := ""
		if t.Note != "" {
			note = " (" + t.Note + ")"
		}
		fmt.Fprintf(&b, "trace %s %s %s %s %s %v%s%s\n", spanText(t.Span), t.Op, t.Backend, t.Device, t.Kind, t.Shape, ad, note)
	}
	for _, tr := range res.Tests {
		fmt.Fprintf(&b, "test %s %s\n", tr.Name, tr.Status)
	}
	if res.Output != "" {
		out := res.Output
		if len(out) > maxGoldenOutput {
			out = fmt.Sprintf("%s\n... (%d bytes in all)", out[:maxGoldenOutput], len(res.Output))
		}
		fmt.Fprintf(&b, "output:\n%s", out)
		if !strings.HasSuffix(out, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func spanText(s source.Span) string {
	return fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    | ") }

func run(t *testing.T, req engine.Request) engine.Result {
	t.Helper()
	res := engine.Run(req)
	again := engine.Run(req)
	a, _ := json.Marshal(res)
	b, _ := json.Marshal(again)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs of the same request differ:\n%s\n%s", a, b)
	}
	return res
}

// TestExamples runs every example: its golden excerpt, the two promises
// between check and run, and its fixed version.
func TestExamples(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			res := run(t, engine.Request{Config: ex.Config, Snippet: ex.Snippet, Entry: ex.Entry})
			got := Summary(res)
			if *update {
				rewriteWant(t, ex, got)
			} else if got != ex.Want {
				t.Errorf("%s: Result differs from its want section (go test ./engine -run TestExamples -update rewrites it)\n--- got\n%s--- want\n%s", ex.File(), got, ex.Want)
			}
			checkPromises(t, res)
			if res.Status != engine.StatusOK && !ex.HasFix {
				t.Errorf("%s ends %s but has no fixed/main.rs or fixed/Cargo.toml section", ex.File(), res.Status)
			}
			if ex.HasFix {
				fixed := run(t, engine.Request{Config: ex.FixedConfig, Snippet: ex.FixedSnippet, Entry: ex.Entry})
				if fixed.Status != engine.StatusOK {
					t.Errorf("%s: the fixed program ends %s, want ok:\n%s", ex.File(), fixed.Status, Summary(fixed))
				}
			}
			if res.Status != engine.StatusOK {
				checkFirstFix(t, ex, res)
			}
		})
	}
}

// checkPromises tests the design's two promises: (1) no check error means
// no panic; (2) a panic was reported by check with the same code and span.
// They hold for a complete Result. An incomplete one (complete false, with
// a playground-unmodelled or playground-unchecked warning saying what the
// engine did not see) is allowed to read promise (1) as "no panic the
// engine can see": its status is what the engine saw, not a verdict on
// what it could not, so what is tested of it is that it says so, at a
// span, and that what it saw still keeps both promises.
func checkPromises(t *testing.T, res engine.Result) {
	t.Helper()
	unseen := 0
	for _, d := range res.Diagnostics {
		if !engine.Incompleteness(d.Code) {
			continue
		}
		unseen++
		if d.Severity != "warning" || (d.Phase != "check" && d.Phase != "run") {
			t.Errorf("%s is a %s of phase %s, want a warning of check or run", d.Code, d.Severity, d.Phase)
		}
		if d.Span.End.Offset < d.Span.Start.Offset || d.Message == "" {
			t.Errorf("%s has no span or no message: %+v", d.Code, d)
		}
	}
	if res.Complete != (unseen == 0) {
		t.Errorf("complete is %v with %d playground-unmodelled/unchecked warnings", res.Complete, unseen)
	}
	checkErrors := 0
	for _, d := range res.Diagnostics {
		if d.Phase == "check" && d.Severity == "error" {
			checkErrors++
		}
	}
	if res.Panic == nil {
		return
	}
	if checkErrors == 0 {
		t.Errorf("promise 1 broken: run panicked (%s) but check reported no error", res.Panic.Code)
	}
	for _, d := range res.Diagnostics {
		if d.Phase == "check" && d.Code == res.Panic.Code && d.Span == res.Panic.Span {
			return
		}
	}
	t.Errorf("promise 2 broken: run panicked with %s at %v, but check has no such diagnostic there", res.Panic.Code, res.Panic.Span)
}

// checkFirstFix applies the first fix of a failing example and requires
// what the fix promises. The fix of a run's panic, or of the limit that
// stopped it, leaves a program that runs clean. The first fix of a program
// rejected before running mends its error and brings no new one: what is
// left is the program's other errors, if it had any, or a program that
// compiles (it may run into a panic the errors hid).
func checkFirstFix(t *testing.T, ex examples.Example, res engine.Result) {
	t.Helper()
	for _, d := range res.Diagnostics {
		switch {
		case len(d.Fixes) == 0 || d.Severity != "error":
			continue
		case res.Panic != nil && (d.Phase != "run" || d.Code != res.Panic.Code):
			continue
		}
		req := engine.ApplyFix(engine.Request{Config: ex.Config, Snippet: ex.Snippet, Entry: ex.Entry}, d.Fixes[0])
		fixed := engine.Run(req)
		ranBefore := res.Panic != nil || d.Phase == "run"
		if ranBefore && fixed.Status != engine.StatusOK || !ranBefore && !mendsOne(res, fixed, d) {
			t.Errorf("%s: applying fix %q leaves status %s:\n%s\n--- Cargo.toml\n%s\n--- main.rs\n%s", ex.File(), d.Fixes[0].Title,
				fixed.Status, Summary(fixed), req.Config, req.Snippet)
		}
		return
	}
}

// mendsOne reports whether fixed, a rejected program with fix d applied,
// has fewer errors than before, each of them one the program had.
func mendsOne(before, fixed engine.Result, d engine.Diagnostic) bool {
	had := map[string]int{}
	n := 0
	for _, e := range before.Diagnostics {
		if e.Severity == "error" {
			had[e.Code+"\x00"+e.Message]++
			n++
		}
	}
	had[d.Code+"\x00"+d.Message]--
	m := 0
	for _, e := range fixed.Diagnostics {
		if e.Severity != "error" {
			continue
		}
		m++
		if k := e.Code + "\x00" + e.Message; had[k] > 0 {
			had[k]--
		} else if fixed.Status == engine.StatusRejected {
			return false
		}
	}
	return m < n
}

func rewriteWant(t *testing.T, ex examples.Example, got string) {
	t.Helper()
	path := filepath.Join("..", ex.File())
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == "want" {
			ar.Files[i].Data = []byte(got)
			found = true
		}
	}
	if !found {
		// Keep want right after main.rs, before any fixed/ sections.
		var files []txtar.File
		for _, f := range ar.Files {
			files = append(files, f)
			if f.Name == "main.rs" {
				files = append(files, txtar.File{Name: "want", Data: []byte(got)})
			}
		}
		ar.Files = files
	}
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogCoverage requires every catalog record to be triggered by at
// least one example. A record is exempt only when every row of Burn's panic
// table behind it has a reason in examples/unreachable.tsv (the record
// stays, so a pasted message still finds it), or when only the sandbox
// host can raise it (hostOnly).
func TestCatalogCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, ex := range examples.All() {
		res := engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
		for _, d := range res.Diagnostics {
			seen[d.Code] = true
		}
	}
	unreachable := unreachableRecords(t)
	var missing, exempt []string
	for _, rec := range catalog.All() {
		switch {
		case seen[rec.Code]:
		case unreachable[rec.Code]:
			exempt = append(exempt, rec.Code)
		case hostOnly[rec.Code] != "":
			exempt = append(exempt, rec.Code+" ("+hostOnly[rec.Code]+")")
		default:
			missing = append(missing, rec.Code)
		}
	}
	t.Logf("%d records exempt:\n  %s", len(exempt), strings.Join(exempt, "\n  "))
	if len(missing) > 0 {
		t.Errorf("%d catalog records are triggered by no example:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}

// hostOnly lists the codes that the WebAssembly host raises, never the
// engine: no snippet run natively can produce them. The sandbox's own tests
// trigger each one.
var hostOnly = map[string]string{
	"playground-result-limit":    "the sandbox's cap on the size of a Result",
	"playground-sandbox-stopped": "an instance of the sandbox that ended under a run twice; the sandbox's tests kill one",
	// Not host-only, but no example should hold a 256 KiB program or a
	// crash of the engine: TestMalformedInput covers the first, and the
	// second is what the single recover in engine.Run reports.
	"snippet-too-large":         "a snippet over 256 KiB; TestMalformedInput sends one",
	"playground-internal-error": "raised only if the engine itself fails",
	// A golden file would list the 1,000 trace entries or the 100
	// diagnostics before the note; testdata/adversarial raises both.
	"playground-trace-limit":      "a run of more than 1,000 tensor operations; engine/adversarial_test.go runs one",
	"playground-diagnostic-limit": "more than 100 diagnostics; engine/adversarial_test.go sends such programs",
	// burn-tensor prints every failed check inside one envelope
	// (bt-check-format); a diagnostic carries the code of the condition
	// that failed, and the envelope's record documents the frame.
	"tensor-operation-error-operation-reason-then-per-e": "the envelope of every TensorCheck diagnostic",
}

// unreachableRecords returns the codes of records all of whose panic-table
// rows have a reason in examples/unreachable.tsv.
func unreachableRecords(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "examples", "unreachable.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	reason := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if id, _, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			reason[id] = true
		}
	}
	rows := map[string][]string{} // code -> rows
	for _, line := range strings.Split(catalogTable(t), "\n")[1:] {
		id, _, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if rec, found := catalog.ByPanicID(id); found {
			rows[rec.Code] = append(rows[rec.Code], id)
		}
	}
	out := map[string]bool{}
	for code, ids := range rows {
		all := true
		for _, id := range ids {
			row, _ := catalog.PanicRow(id)
			if row.UserReachable() && !reason[id] {
				all = false
			}
		}
		out[code] = all
	}
	return out
}

func catalogTable(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("catalog", "panics.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

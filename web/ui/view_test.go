package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/examples"
)

func TestStateRoundTripAndRefusals(t *testing.T) {
	s := newState("[dependencies]\nburn = \"0.22\"\n", "let é = 1;\n", ModeValidation)
	b, err := s.encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"v":1,`) {
		t.Errorf("state JSON %s does not lead with its version", b)
	}
	got, err := decodeState(b)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("decode(encode) = %+v, %v", got, err)
	}
	for name, in := range map[string]string{
		"unknown version": `{"v":2,"config":"","snippet":"","mode":"panic"}`,
		"not JSON":        `v=1`,
		"too large":       `{"v":1,"config":"","snippet":"` + strings.Repeat("x", maxStateBytes+1) + `","mode":"panic"}`,
	} {
		if _, err := decodeState([]byte(in)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	if s, _ := decodeState([]byte(`{"v":1,"config":"","snippet":"","mode":"other"}`)); s.Mode != ModePanic {
		t.Errorf("unknown mode decoded as %q, want the default", s.Mode)
	}
}

func edit(text string, from, to int, newText string) engine.Edit {
	f := source.NewFile("main.rs", text)
	return engine.Edit{File: "main.rs", Span: f.Span(source.Range{Start: from, End: to}), NewText: newText}
}

func TestApplyFix(t *testing.T) {
	snippet := "let é = a;\nlet b = c;\n"
	s := newState("[dependencies]\n", snippet, ModePanic)
	fix := engine.Fix{Edits: []engine.Edit{
		// Given in source order; applied from the end.
		edit(snippet, 11, 11, " // moved"), // é is two bytes
		edit(snippet, 20, 21, "d"),
		{File: "Cargo.toml", Span: source.Span{Start: source.Pos{Offset: 15}, End: source.Pos{Offset: 15}}, NewText: "burn = \"0.22\"\n"},
	}}
	got, err := applyFix(s, fix)
	if err != nil {
		t.Fatal(err)
	}
	if got.Snippet != "let é = a; // moved\nlet b = d;\n" || got.Config != "[dependencies]\nburn = \"0.22\"\n" {
		t.Errorf("applyFix = %q, %q", got.Snippet, got.Config)
	}
	for name, bad := range map[string]engine.Fix{
		"outside":     {Edits: []engine.Edit{edit(snippet, 0, 0, "")}},
		"overlapping": {Edits: []engine.Edit{edit(snippet, 0, 5, "x"), edit(snippet, 3, 8, "y")}},
		"unknown":     {Edits: []engine.Edit{{File: "lib.rs"}}},
	} {
		if name == "outside" {
			bad.Edits[0].Span.End.Offset = len(snippet) + 1
		}
		if _, err := applyFix(s, bad); err == nil {
			t.Errorf("%s edit applied", name)
		}
	}
}

func TestModesSplitTheDiagnostics(t *testing.T) {
	r := &resultsView{Result: engine.Result{Status: engine.StatusPanicked, Panic: &engine.Panic{}, Diagnostics: []engine.Diagnostic{
		{Phase: "config", Severity: "warning"}, {Phase: "check", Severity: "error"}, {Phase: "check", Severity: "error"}, {Phase: "run", Severity: "error"},
	}}}
	phases := func() (out []string) {
		for _, d := range r.diagnostics() {
			out = append(out, d.Phase)
		}
		return out
	}
	r.Mode = ModePanic
	if got := strings.Join(phases(), ","); got != "config,run" || !r.showsPanic() || r.summary() != "Burn would panic" {
		t.Errorf("panic mode shows %s, raw panic %v, %q", got, r.showsPanic(), r.summary())
	}
	r.Mode = ModeValidation
	if got := strings.Join(phases(), ","); got != "config,check,check" || r.showsPanic() || r.summary() != "2 errors found" {
		t.Errorf("validation mode shows %s, raw panic %v, %q", got, r.showsPanic(), r.summary())
	}
}

func TestRawJSONMatchesThePageScript(t *testing.T) {
	r := &resultsView{Result: engine.Result{Status: "ok", Output: "Tensor<2> & more", Diagnostics: []engine.Diagnostic{}, Trace: []engine.TraceEntry{}}}
	got := r.rawJSON()
	if !strings.Contains(got, `"output": "Tensor<2> & more"`) || strings.HasSuffix(got, "\n") {
		t.Errorf("raw JSON escapes HTML or ends in a newline: %s", got)
	}
	var back engine.Result
	if err := json.Unmarshal([]byte(got), &back); err != nil || back.Output != r.Result.Output {
		t.Errorf("raw JSON does not decode back: %v", err)
	}
}

func TestExampleGroupsOrderTheTourFirst(t *testing.T) {
	all := []examples.Example{
		{Name: "a", Group: "remote"}, {Name: "b", Group: "backends"}, {Name: "c", Group: "tour"},
		{Name: "d", Group: "errors"}, {Name: "e", Group: "autodiff"}, {Name: "f", Group: "tour"},
	}
	records := map[string][]examples.Example{"zeta-code": {all[0]}, "alpha-code": {all[3], all[4]}}
	title := func(code string) string { return "Title of " + code }
	var titles []string
	for _, g := range exampleGroups(all, records, title) {
		var names []string
		for _, l := range g.Links {
			names = append(names, l.Name)
		}
		titles = append(titles, g.Title+":"+strings.Join(names, ","))
	}
	want := "Tour:c,f By backend:b By catalog record:d,a Autodiff:e Errors:d Remote:a"
	if got := strings.Join(titles, " "); got != want {
		t.Errorf("groups = %s\nwant     %s", got, want)
	}
	if ex, _ := defaultExample(all); ex.Name != "c" {
		t.Errorf("default example = %s, want the first of the tour", ex.Name)
	}
	for _, ex := range examples.All() {
		if ex.Group == "" {
			t.Errorf("example %s has no group for the menu", ex.Name)
		}
	}
}

func TestRecordsFindTheirExamples(t *testing.T) {
	for want, text := range map[string]string{
		libtorchCode:          "status: panicked\npanic: " + libtorchCode + " at 5:25-5:43\n  location: x\n",
		"feature-not-enabled": "status: rejected\ncheck error feature-not-enabled main.rs:1:1-1:2\nrun error " + libtorchCode + " main.rs:1:1-1:2\n",
		"":                    "status: ok\ntrace float_add Flex\n",
	} {
		if got := leadingCode(text); got != want {
			t.Errorf("leadingCode(%q) = %q, want %q", text, got, want)
		}
	}
	ex, ok := recordExample(libtorchCode)
	if !ok || leadingCode(ex.Want) != libtorchCode {
		t.Fatalf("no example leads with %s", libtorchCode)
	}
}

func TestTraceLayout(t *testing.T) {
	at := func(off int) source.Span { return source.Span{Start: source.Pos{Offset: off}} }
	trace := []engine.TraceEntry{
		{Op: "float_ones", Device: "Cuda(0)", Backend: "Cuda", Span: at(10)},
		{Op: "float_add", Device: "Cuda(0)", Backend: "Cuda", Autodiff: true, Span: at(20)},
		{Op: "float_to_device", Device: "Flex", Backend: "Flex", Note: "cross-backend: Cuda(0) -> host memory -> Flex", Span: at(30)},
		{Op: "float_to_device", Device: "Cuda(1)", Backend: "Cuda", Note: "within Cuda", Span: at(40)},
	}
	l := layoutTrace(trace, &engine.Panic{Span: at(35)})
	var lanes []string
	for _, lane := range l.Lanes {
		lanes = append(lanes, lane.Device)
	}
	if got := strings.Join(lanes, ","); got != "Cuda(0),Flex,Cuda(1)" {
		t.Fatalf("lanes = %s", got)
	}
	if l.Nodes[2].From == nil || l.Nodes[2].From.Y != l.Lanes[0].Y || l.Nodes[2].Y != l.Lanes[1].Y {
		t.Errorf("transfer from Cuda(0) to Flex drawn as %+v", l.Nodes[2])
	}
	if l.Nodes[3].From != nil {
		t.Error("a transfer whose note names no source got an arrow")
	}
	capture := engine.TraceEntry{Op: "int_to_device", Note: "read from Cpu and recorded on the capture device"}
	if got := transferSource(capture); got != "Cpu" {
		t.Errorf("capture transfer source = %q", got)
	}
	if l.Panic == nil || l.Panic.Y != l.Lanes[1].Y || l.Panic.X <= l.Nodes[3].X {
		t.Errorf("panic at %+v: want after the last column, on the lane of the last op before it (Flex)", l.Panic)
	}
	if l.Width != traceLabelWidth+5*traceStep || l.Height != 2*traceTop+3*traceLaneHeight {
		t.Errorf("size %dx%d", l.Width, l.Height)
	}
	if empty := layoutTrace(nil, &engine.Panic{}); len(empty.Lanes) != 1 || empty.Panic == nil {
		t.Error("a panic before any operation still gets a lane and a mark")
	}
	if got := shortOp("float_mask_where_fill"); got != "mask_where_…" || len([]rune(got)) != traceOpChars {
		t.Errorf("shortOp = %q", got)
	}
	if got := shortOp("float_from_data"); got != "from_data" {
		t.Errorf("shortOp = %q", got)
	}
	if got := shortDevice("Remote(RemoteDevice { endpoint: WebSocket })"); got != "Remote(RemoteDevice …" {
		t.Errorf("shortDevice = %q", got)
	}
}

func TestConfigHelpersData(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range helpers.Groups {
		for _, f := range g.Features {
			if seen[f.Name] || f.Note == "" {
				t.Errorf("feature %q repeated or without a note", f.Name)
			}
			seen[f.Name] = true
		}
	}
	for _, want := range []string{"tch", "remote-server", "cuda", "flex", "autodiff"} {
		if !seen[want] {
			t.Errorf("the panel lacks the %s feature", want)
		}
	}
	if len(helpers.BurnDevices) != 11 {
		t.Errorf("BURN_DEVICE values: %v (spec.md §2.4 lists 11)", helpers.BurnDevices)
	}
}

// TestALimitedRunIsSummarisedAsARun: a Result a limit stopped ran up to
// it, and its summary says which limit; one rejected at parse did not run.
func TestALimitedRunIsSummarisedAsARun(t *testing.T) {
	for _, c := range []struct {
		d    engine.Diagnostic
		want string
	}{
		{engine.Diagnostic{Code: "playground-time-limit", Phase: "run", Severity: "error", Message: "the program did not finish within the playground's budget of 2000000 evaluation steps; does a loop never end?"},
			"Ran until the playground stopped it: its step budget"},
		{engine.Diagnostic{Code: "playground-time-limit", Phase: "run", Severity: "error", Message: "the run did not finish within the playground's time limit of 2s"},
			"Ran until the playground stopped it: its time limit"},
		{engine.Diagnostic{Code: "playground-memory-limit", Phase: "run", Severity: "error", Message: "out of memory"},
			"Ran until the playground stopped it: its memory limit"},
		{engine.Diagnostic{Code: "syntax", Phase: "parse", Severity: "error", Message: "expected `;`"},
			"Rejected before running"},
	} {
		r := &resultsView{Mode: ModePanic, Result: engine.Result{Status: engine.StatusRejected, Complete: true, Diagnostics: []engine.Diagnostic{c.d}}}
		if got := r.summary(); got != c.want {
			t.Errorf("%s: summary %q, want %q", c.d.Code, got, c.want)
		}
	}
}

package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

// playgroundView is everything the playground component shows.
type playgroundView struct {
	State State
	// Origin names where the texts came from ("/examples/tour-hello",
	// "/s/abc"): the page keys its autosave by it, and "Reset to example"
	// goes back to Reset.
	Origin string
	Reset  State
	// Results is nil until something ran.
	Results *resultsView
	Groups  []exampleGroup
	// Compact drops the examples menu and the share controls, for a
	// playground embedded in another page (a catalog record).
	Compact bool
}

// resultsView is one run's outcome as the results area shows it.
type resultsView struct {
	Result engine.Result
	Mode   Mode
	// Failure is set when the runner itself failed (sandbox busy, time
	// limit): the playground's fault, not the program's.
	Failure string
}

// diagnosticView is a diagnostic with its catalog record decoded.
type diagnosticView struct {
	engine.Diagnostic
	// Index is the diagnostic's position in Result.Diagnostics; fix buttons
	// name a fix by it.
	Index  int
	Record record
}

// record holds the fields of a catalog record (the seed schema) that the
// card shows.
type record struct {
	Slug             string   `json:"slug"`
	ErrorMessage     string   `json:"errorMessage"`
	MessagePattern   string   `json:"messagePattern"`
	FilePath         string   `json:"filePath"`
	LineNumber       int      `json:"lineNumber"`
	GithubURL        string   `json:"githubUrl"`
	Documentation    string   `json:"documentation"`
	TriggerScenarios string   `json:"triggerScenarios"`
	Solutions        []string `json:"solutions"`
	ExampleFix       string   `json:"exampleFix"`
	PreventionTips   []string `json:"preventionTips"`
	Tags             []string `json:"tags"`
}

func decodeRecord(raw json.RawMessage) record {
	var r record
	if len(raw) > 0 {
		// A record that does not decode is shown without its details; the
		// diagnostic itself is still complete.
		_ = json.Unmarshal(raw, &r)
	}
	return r
}

func (d diagnosticView) title() string { return cardTitle(d.Code) }

// location renders the primary span as rustc does: file:line:column.
func (d diagnosticView) location() string {
	return fmt.Sprintf("%s:%d:%d", d.File, d.Span.Start.Line, d.Span.Start.Column)
}

// shown reports whether a diagnostic of the given phase belongs to mode: the
// panic view shows what a run does (no static findings), the validation view
// shows what the check finds (no run, whose panic the check already
// reported). A program the check rejected never ran, so the panic view
// shows the check's findings too: they are why nothing ran.
func shown(phase string, mode Mode, status string) bool {
	switch phase {
	case "check":
		return mode == ModeValidation || status == "rejected"
	case "run":
		return mode == ModePanic
	}
	return true
}

// diagnostics returns the diagnostics the mode shows, in the engine's order.
func (r *resultsView) diagnostics() []diagnosticView {
	var out []diagnosticView
	for i, d := range r.Result.Diagnostics {
		if shown(d.Phase, r.Mode, r.Result.Status) {
			rec := decodeRecord(d.Record)
			if p := r.Result.Panic; p != nil && p.Code == d.Code {
				rec.FilePath, rec.LineNumber, rec.GithubURL = panicSource(p.Location, rec)
			}
			out = append(out, diagnosticView{Diagnostic: d, Index: i, Record: rec})
		}
	}
	return out
}

// showsPanic reports whether the raw panic is shown beside the cards.
func (r *resultsView) showsPanic() bool {
	return r.Mode == ModePanic && r.Result.Panic != nil
}

// rustPanicText is the panic exactly as a Rust binary prints it to stderr.
func rustPanicText(p *engine.Panic) string {
	return p.Rendered + "\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
}

// rawJSON is the Result as the page's script prints it: indented by two
// spaces, with <, > and & as themselves.
func (r *resultsView) rawJSON() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r.Result); err != nil {
		return err.Error()
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// stoppedSummary is the summary of a Result rejected by a limit the
// program ran into (the engine's step budget, the sandbox's clock or
// memory): it ran, up to that limit. The phrases mirror stoppedSummary in
// web/frontend/results.js.
func stoppedSummary(res engine.Result) string {
	for _, d := range res.Diagnostics {
		limit, ok := runLimits[d.Code]
		if !ok || d.Severity != "error" || d.Phase != "run" {
			continue
		}
		switch {
		case d.Code == "playground-time-limit" && strings.Contains(d.Message, "evaluation steps"):
			limit = "its step budget"
		case d.Code == "playground-time-limit" && strings.Contains(d.Message, "nested function calls"):
			limit = "its call depth limit"
		}
		return "Ran until the playground stopped it: " + limit
	}
	return ""
}

var runLimits = map[string]string{
	"playground-time-limit":   "its time limit",
	"playground-memory-limit": "its memory limit",
	"playground-output-limit": "its output limit",
	"playground-result-limit": "the result's size limit",
}

// summary is the one-line outcome above the tabs.
func (r *resultsView) summary() string {
	if r.Failure != "" {
		return "The run did not complete"
	}
	n := 0
	for _, d := range r.diagnostics() {
		if d.Severity == "error" {
			n++
		}
	}
	switch {
	case r.Result.Status == engine.StatusPanicked && r.Mode == ModePanic:
		return "Burn would panic"
	case r.Result.Status == engine.StatusRejected:
		if s := stoppedSummary(r.Result); s != "" {
			return s
		}
		return "Rejected before running"
	case n == 1:
		return "1 error found"
	case n > 1:
		return fmt.Sprintf("%d errors found", n)
	case r.incomplete():
		return "Ran; " + notChecked(r.Result.Unchecked())
	}
	return "Runs without a panic"
}

// incomplete reports a Result that is not complete: complete is false and
// the warnings that make it so are there to be counted (a Result made by
// hand, with no complete field set, is not called incomplete).
func (r *resultsView) incomplete() bool {
	return !r.Result.Complete && r.Result.Unchecked() > 0
}

// notChecked says how many things a run did not check.
func notChecked(n int) string {
	if n == 1 {
		return "1 thing was not checked"
	}
	return fmt.Sprintf("%d things were not checked", n)
}

// incompleteNote is what the results say of an incomplete Result (one
// with the warnings of engine.IncompleteCodes), empty for
// a complete one: its verdict covers only what the playground saw.
func (r *resultsView) incompleteNote() string {
	if !r.incomplete() || r.Failure != "" {
		return ""
	}
	return "Not complete: " + notChecked(r.Result.Unchecked()) +
		". The playground ran what it models; where it did not know the values, Burn may still panic or an assertion may still fail."
}

// exampleGroup is one heading of the examples menu.
type exampleGroup struct {
	Title string
	Links []exampleLink
}

type exampleLink struct {
	Name  string // the example's name: it opens at /examples/{Name}
	Label string
}

func linksTo(exs []examples.Example) []exampleLink {
	links := make([]exampleLink, len(exs))
	for i, ex := range exs {
		links[i] = exampleLink{Name: ex.Name, Label: ex.Title}
	}
	return links
}

// groupTitles names the groups the menu shows first, in this order; other
// groups follow alphabetically under their own name.
var groupTitles = []struct{ group, title string }{
	{"tour", "Tour"},
	{"backends", "By backend"},
}

// exampleGroups builds the examples menu: the tour, the examples by
// backend, one example per catalog record (titled by the record), then
// every other group. records maps a catalog code to its examples and
// titles to the record titles.
func exampleGroups(all []examples.Example, records map[string][]examples.Example, titles func(code string) string) []exampleGroup {
	byGroup := map[string][]examples.Example{}
	for _, ex := range all {
		byGroup[ex.Group] = append(byGroup[ex.Group], ex)
	}
	var groups []exampleGroup
	for _, g := range groupTitles {
		if exs := byGroup[g.group]; len(exs) > 0 {
			groups = append(groups, exampleGroup{Title: g.title, Links: linksTo(exs)})
			delete(byGroup, g.group)
		}
	}
	if len(records) > 0 {
		byRecord := exampleGroup{Title: "By catalog record"}
		for code, exs := range records {
			byRecord.Links = append(byRecord.Links, exampleLink{Name: exs[0].Name, Label: titles(code)})
		}
		sort.Slice(byRecord.Links, func(i, j int) bool { return byRecord.Links[i].Label < byRecord.Links[j].Label })
		groups = append(groups, byRecord)
	}
	rest := make([]string, 0, len(byGroup))
	for name := range byGroup {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		title := name
		if title == "" {
			title = "Other"
		}
		groups = append(groups, exampleGroup{Title: strings.ToUpper(title[:1]) + title[1:], Links: linksTo(byGroup[name])})
	}
	return groups
}

// defaultExample is what / shows: the first example of the tour.
func defaultExample(all []examples.Example) (examples.Example, bool) {
	for _, ex := range all {
		if ex.Group == "tour" {
			return ex, true
		}
	}
	if len(all) > 0 {
		return all[0], true
	}
	return examples.Example{}, false
}

// applyFix applies a fix's edits to the state's texts. Edits are byte
// ranges into the texts the fix was computed for.
func applyFix(s State, fix engine.Fix) (State, error) {
	texts := map[string]*string{"main.rs": &s.Snippet, "Cargo.toml": &s.Config}
	edits := append([]engine.Edit(nil), fix.Edits...)
	// Apply from the end so earlier offsets stay valid.
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].File != edits[j].File {
			return edits[i].File < edits[j].File
		}
		return edits[i].Span.Start.Offset > edits[j].Span.Start.Offset
	})
	limit := map[string]int{}
	for _, e := range edits {
		text, ok := texts[e.File]
		if !ok {
			return s, fmt.Errorf("fix edits unknown file %q", e.File)
		}
		start, end := e.Span.Start.Offset, e.Span.End.Offset
		if l, seen := limit[e.File]; seen && end > l {
			return s, fmt.Errorf("fix has overlapping edits in %s", e.File)
		}
		if start < 0 || start > end || end > len(*text) {
			return s, fmt.Errorf("fix edit %d..%d is outside %s", start, end, e.File)
		}
		*text = (*text)[:start] + e.NewText + (*text)[end:]
		limit[e.File] = start
	}
	return s, nil
}

// burnSourceURL is where the modelled Burn commit's files are read.
const burnSourceURL = "https://github.com/tracel-ai/burn/blob/2c06be351006851d42fdb6df16b976f4a82d9747/"

// panicSource is where Burn raises the panic of this run: the panic's own
// location at the modelled commit, which can differ from the line a record
// cites (the seed records were written against a later commit). A location
// in the user's program, or none, keeps the record's.
func panicSource(location string, rec record) (string, int, string) {
	file, line, ok := strings.Cut(location, ":")
	n, err := strconv.Atoi(line)
	if !ok || err != nil || !strings.HasPrefix(file, "crates/") {
		return rec.FilePath, rec.LineNumber, rec.GithubURL
	}
	return file, n, fmt.Sprintf("%s%s#L%d", burnSourceURL, file, n)
}

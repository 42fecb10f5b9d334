package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/expand"
	"github.com/dispatch-playground/playground/engine/interp"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A panic whose diagnostic knows no edit of its own, and a run stopped by
// the playground's budget, get one by search: the engine makes one edit of
// the program near where it stopped, runs the changed program, and offers
// the first edit after which it runs clean and complete and still runs the
// code that panicked. The fix is backed by the engine's own run of it,
// like every verdict. The edits (fixsearch_edits.go) change a value (a
// number, a bool, a unit variant of one of Burn's enums, an array's
// length), a device, a tensor's conversion or rank, or a setting; which
// values they try is fixsearch_values.go's, and what they read of the
// program's tokens fixsearch_tokens.go's.
//
// The search is bounded by counts, never by a clock, so the Result stays
// the same on every host: it tries at most maxSearchRuns programs, and
// their steps together stay within a budget that grows with the program's
// own run and never passes an eighth of the step limit, so a run and its search
// end well within the sandbox's time.
const (
	maxSearchRuns = 64
	maxSiteValues = 5
	// A search is not tried after a run this large: no changed program
	// would finish within the budget.
	maxSearchedSteps = interp.DefaultStepLimit / 8
	// bytesPerStep prices the reading of a program (its parse, its
	// expansion, its check's walk), which no step counts, against the
	// budget: every changed program is read again, whole.
	bytesPerStep = 16
	// maxSearchedBytes bounds the programs searched: each changed one is
	// read again whole, and the garbage of reading a long one many times
	// is memory a sandbox instance keeps.
	maxSearchedBytes = 32 << 10
)

// searchFix looks for a one-edit fix of a snippet whose run panicked with
// no fix offered, or was stopped by the time, memory or size budget.
func searchFix(req Request, res Result, detail Detail) (Fix, bool) {
	// An incomplete Result has parts the engine did not check: that a
	// changed program runs clean there would not be backed.
	reading := len(req.Snippet) / bytesPerStep
	if isCrate(req) || req.Entry == EntryTests || !res.Complete || len(req.Snippet) > maxSearchedBytes ||
		detail.Steps+reading > maxSearchedSteps && detail.Limited == "" {
		return Fix{}, false
	}
	anchor, ok := searchAnchor(res)
	if !ok {
		return Fix{}, false
	}
	message := ""
	if res.Panic != nil {
		message = res.Panic.Message
	}
	tensors := map[int]string{}
	for _, h := range res.Hints {
		if h.File == diag.MainRS && strings.HasPrefix(h.Label, "Tensor") {
			tensors[h.Span.Start.Offset] = h.Label
		}
	}
	edits := searchEdits(searchWindow(syntax.Lex(req.Snippet, 0), anchor), req.Snippet, anchor, tensors, res.Panic != nil, message)
	// A run stopped by its budget used all of it: a fixed program is one
	// that ends well within it.
	base := detail.Steps + reading
	if detail.Limited != "" {
		base = reading
	}
	budget := min(8*base+20_000, interp.DefaultStepLimit/8)
	perRun := max(4*base, 20_000)
	if detail.Limited != "" {
		perRun = 10_000
	}
	file := source.NewFile(diag.MainRS, req.Snippet)
	for _, e := range edits {
		if budget < base {
			break
		}
		try := req
		try.Snippet = req.Snippet[:e.r.Start] + e.text + req.Snippet[e.r.End:]
		watch := shifted(anchor, e)
		got, d := runTarget(try, false, runLimits{steps: min(perRun, budget), watch: &watch})
		budget -= d.Steps + reading
		// The changed program must run the code that panicked: one that
		// steps around it is not mended.
		if got.Status != StatusOK || !d.Reached && !e.removesAnchor || !got.Complete {
			continue
		}
		return Fix{
			Title: fmt.Sprintf("%s on line %d", e.title, file.Position(e.r.Start).Line),
			Edits: []Edit{{File: diag.MainRS, Span: file.Span(e.r), NewText: e.text}},
		}, true
	}
	return Fix{}, false
}

// packageFeatureFix offers, for the program's own compile_error! that
// names a feature its package declares ("needs the `gpu` feature"), the
// edit that turns that feature on by default, when the program then
// compiles.
func packageFeatureFix(res *Result, req Request) {
	if res.Status != StatusRejected || isCrate(req) {
		return
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if d.Code != expand.CodeCompileError || len(d.Fixes) > 0 {
			continue
		}
		cfg, _ := configs.parse(req.Config)
		for _, f := range cfg.DeclaredFeatures() {
			edit, ok := cfg.EnablePackageFeatureEdit(f)
			if !ok || !strings.Contains(d.Message, "`"+f+"`") {
				continue
			}
			fix := Fix{Title: fmt.Sprintf("Turn on the package's `%s` feature by default", f),
				Edits: []Edit{{File: diag.CargoToml, Span: source.NewFile(diag.CargoToml, req.Config).Span(edit.Range), NewText: edit.NewText}}}
			if got, _ := runTarget(ApplyFix(req, fix), false, runLimits{}); got.Status != StatusRejected {
				d.Fixes = append(d.Fixes, fix)
				break
			}
		}
	}
}

// The tokens the search reads around its anchor: what made the panic's
// inputs is before it, and 64 changes are tried at most, so nothing far
// away would be reached. The window also bounds the cost of reading the
// tokens (each looks back through its statement and brackets) on a huge
// program: without it, a 20,000-element array literal took seconds.
const (
	windowBefore = 2000
	windowAfter  = 500
	windowMax    = 4000
)

// searchWindow is the tokens from windowBefore before anchor to
// windowAfter after it, and of an anchor longer than that (a call whose
// argument is a long array of data), the last windowMax.
func searchWindow(toks []syntax.Token, anchor source.Range) []syntax.Token {
	first := sort.Search(len(toks), func(k int) bool { return toks[k].Range.End > anchor.Start })
	last := sort.Search(len(toks), func(k int) bool { return toks[k].Range.Start >= anchor.End })
	end := min(last+windowAfter, len(toks))
	return toks[max(first-windowBefore, end-windowMax, 0):end]
}

// shifted is r in the text after e: moved by an edit before it, grown or
// shrunk by one inside it.
func shifted(r source.Range, e edit) source.Range {
	delta := len(e.text) - e.r.Len()
	switch {
	case e.r.End <= r.Start:
		return source.Range{Start: r.Start + delta, End: r.End + delta}
	case e.r.Start >= r.Start && e.r.End <= r.End:
		return source.Range{Start: r.Start, End: r.End + delta}
	}
	return r
}

// searchAnchor is where the run stopped: its panic, when no diagnostic at
// the panic offers a fix already, or the limit that stopped it.
func searchAnchor(res Result) (source.Range, bool) {
	if p := res.Panic; p != nil {
		for _, d := range res.Diagnostics {
			if d.Code == p.Code && d.Span == p.Span && len(d.Fixes) > 0 {
				return source.Range{}, false
			}
		}
		return source.Range{Start: p.Span.Start.Offset, End: p.Span.End.Offset}, true
	}
	if res.Status != StatusRejected {
		return source.Range{}, false
	}
	for _, d := range res.Diagnostics {
		if d.Severity == string(diag.Error) && d.Phase != string(diag.Run) {
			return source.Range{}, false
		}
	}
	for _, d := range res.Diagnostics {
		switch d.Code {
		case "playground-time-limit", "playground-memory-limit", "playground-limit":
			if d.File == diag.MainRS {
				return source.Range{Start: d.Span.Start.Offset, End: d.Span.End.Offset}, true
			}
		}
	}
	return source.Range{}, false
}

// offerFix puts fix on the diagnostics of the run's panic, or of the limit
// that stopped it.
func offerFix(res *Result, req Request, fix Fix) {
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		switch {
		case res.Panic != nil && d.Code == res.Panic.Code && d.Span == res.Panic.Span,
			res.Panic == nil && d.Severity == string(diag.Error) && d.Phase == string(diag.Run):
			d.Fixes = append(d.Fixes, fix)
		}
	}
}

// Package engine is the one entry point of the simulator: Run turns a Request
// (Cargo.toml and main.rs) into a Result. The browser, the sandbox, the CLI
// and the tests all call Run and nothing else.
//
// The phases: the config and the snippet are parsed (each with its
// diagnostics); macros are expanded (package expand); a check pass reports
// every error it can find without stopping; if nothing stops it, a run
// executes the program until the first panic, exactly where Burn would
// panic.
package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/expand"
	"github.com/dispatch-playground/playground/engine/interp"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Limits of one run. They are counts, not clock readings, so every host
// gives the same Result.
const (
	MaxSnippetBytes = 256 << 10
	MaxConfigBytes  = 64 << 10
)

// Run simulates the request. It never panics and is deterministic: the same
// Request gives byte-identical JSON.
func Run(req Request) Result {
	res, _ := runDetailed(req)
	return res
}

// Detail is what a run knows beyond the Result contract: the rows of
// Burn's panic table behind its panic and its check diagnostics. Tests use
// it to tie examples to rows.
type Detail struct {
	RunPanicID string
	// RunCauseIDs are the panics that happened first on another thread
	// and that the run's panic re-raises.
	RunCauseIDs   []string
	CheckPanicIDs []string
	// Steps is the work of the check and the run, in units of the step
	// budget; Limited names the limit that stopped the run, if any.
	Steps   int
	Limited string
	// Reached says the run evaluated code inside runLimits.watch.
	Reached bool
}

// runLimits are what a search's runs set (fixsearch.go): a step limit for
// the check and the run, each (0 is the interpreter's default), and a
// range of main.rs whose evaluation the run reports.
type runLimits struct {
	steps int
	watch *source.Range
}

func runDetailed(req Request) (res Result, detail Detail) {
	if req.Entry == EntryTests && len(req.Files) > 0 {
		if _, ok := checkEntry(req); ok {
			if _, ok := tooLarge(req); ok {
				return runHarnesses(req)
			}
		}
	}
	res, detail = runTarget(req, req.Entry == EntryTests, runLimits{})
	if fix, ok := searchFix(req, res, detail); ok {
		offerFix(&res, req, fix)
	}
	packageFeatureFix(&res, req)
	return res, detail
}

// runTarget runs the Request's entry: its main, or its #[test] functions
// when asTests (one test harness: a snippet's, or one target of a crate).
// limits are a fix search's; a run of the Request itself has none.
func runTarget(req Request, asTests bool, limits runLimits) (res Result, detail Detail) {
	files := map[string]*source.File{
		diag.MainRS:    source.NewFile(diag.MainRS, req.Snippet),
		diag.CargoToml: source.NewFile(diag.CargoToml, req.Config),
	}
	var diags diag.List
	defer func() {
		if r := recover(); r != nil {
			diags.Add(diag.Diagnostic{Code: "playground-internal-error", Severity: diag.Error, Phase: diag.Run,
				Message: fmt.Sprintf("the playground failed on this program: %v", r), File: diag.MainRS})
			res, detail = build(StatusRejected, diags, files, interp.Outcome{}, false), Detail{}
		}
	}()

	if d, ok := tooLarge(req); !ok {
		diags.Add(d)
		return build(StatusRejected, diags, files, interp.Outcome{}, false), detail
	}

	manifests := otherManifests(req)
	for p, t := range manifests {
		files[p] = source.NewFile(p, t)
	}
	var cfg *config.Config
	var cdiags diag.List
	if len(manifests) > 0 {
		cfg, cdiags = config.ParseIn(req.Config, manifests)
	} else {
		cfg, cdiags = configs.parse(req.Config)
	}
	diags = append(diags, cdiags...)
	if d, ok := checkEntry(req); !ok && !asTests {
		diags.Add(d)
		return build(StatusRejected, diags, files, interp.Outcome{}, false), detail
	}
	var file *syntax.File
	var pdiags diag.List
	if isCrate(req) {
		var crate *source.File
		crate, file, pdiags = loadCrate(req, strings.ReplaceAll(cfg.Package.Name, "-", "_"), cfg.PathCrates)
		files[diag.MainRS] = crate
		for _, seg := range crate.Segments() {
			files[seg.File.Name] = seg.File
		}
	} else {
		file, pdiags = syntax.Parse(req.Snippet)
		// A snippet is a crate of one file: a module it declares without
		// a body has no file to be read from.
		pdiags = append(pdiags, missingModules(file)...)
	}
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return build(StatusRejected, diags, files, interp.Outcome{}, false), detail
	}

	xdiags := expand.Expand(file, files[diag.MainRS], expand.Options{Package: cfg.Package, Target: cfg.Dispatch.Target, Test: asTests})
	diags = append(diags, xdiags...)
	rejected := cdiags.HasErrors() || xdiags.HasErrors()

	opts := interp.Options{Config: cfg.Dispatch, FeatureEdit: cfg.AddFeatureEdit, ServerEdit: cfg.ServerEdit, Features: cfg.Package.Features, Crates: cfg.Package.Crates,
		Unseen: cfg.Package.Unseen, Declared: cfg.DeclaredFeatures(), PackageFeatureEdit: cfg.EnablePackageFeatureEdit,
		StepLimit: limits.steps}
	if asTests {
		return runTests(file, files, opts, diags, rejected)
	}
	opts.Mode = interp.Check
	checked := interp.Eval(file, files[diag.MainRS], opts)
	diags = append(diags, checked.Diags...)
	for _, d := range append(cdiags, checked.Diags...) {
		if d.PanicID != "" {
			detail.CheckPanicIDs = append(detail.CheckPanicIDs, d.PanicID)
		}
	}
	checkCut := checked.Limited == interp.LimitDiagnostics
	if rejected || compileErrors(checked.Diags) {
		return withHints(build(StatusRejected, diags, files, interp.Outcome{}, checkCut), checked.Hints, files[diag.MainRS]), detail
	}

	opts.Mode = interp.Run
	opts.Watch = limits.watch
	ran := interp.Eval(file, files[diag.MainRS], opts)
	diags = append(diags, ran.Diags...)
	detail.Steps, detail.Limited, detail.Reached = checked.Steps+ran.Steps, ran.Limited, ran.Reached
	status := StatusOK
	switch {
	case ran.Panic != nil:
		status = StatusPanicked
		detail.RunPanicID = ran.Panic.ID
		for c := ran.Panic.Cause; c != nil; c = c.Cause {
			detail.RunCauseIDs = append(detail.RunCauseIDs, c.ID)
		}
	case ran.Limited != "" || compileErrors(ran.Diags):
		status = StatusRejected
	}
	return withHints(build(status, diags, files, ran, checkCut), checked.Hints, files[diag.MainRS]), detail
}

// withHints puts the check's hints in res, each in the file it lies in.
func withHints(res Result, hints []interp.Hint, main *source.File) Result {
	for _, h := range hints {
		if main.IsGenerated(h.Range) {
			continue
		}
		r := main.Resolve(h.Range)
		entry := HintEntry{File: diag.MainRS, Span: main.Span(r), Label: h.Label}
		if len(main.Segments()) > 0 {
			file, fr := main.LocateRange(r)
			entry.File, entry.Span = file.Name, file.Span(fr)
		}
		res.Hints = append(res.Hints, entry)
	}
	return res
}

func tooLarge(req Request) (diag.Diagnostic, bool) {
	switch {
	case len(req.Snippet) > MaxSnippetBytes:
		return diag.Diagnostic{Code: "snippet-too-large", Severity: diag.Error, Phase: diag.Parse, File: diag.MainRS,
			Message: fmt.Sprintf("the snippet is %d bytes; the playground takes at most %d", len(req.Snippet), MaxSnippetBytes)}, false
	case len(req.Files) > MaxCrateFiles:
		return diag.Diagnostic{Code: "snippet-too-large", Severity: diag.Error, Phase: diag.Parse, File: diag.MainRS,
			Message: fmt.Sprintf("the crate has %d files; the playground takes at most %d", len(req.Files), MaxCrateFiles)}, false
	case crateSize(req) > MaxSnippetBytes:
		return diag.Diagnostic{Code: "snippet-too-large", Severity: diag.Error, Phase: diag.Parse, File: diag.MainRS,
			Message: fmt.Sprintf("the crate's files are %d bytes; the playground takes at most %d", crateSize(req), MaxSnippetBytes)}, false
	case len(req.Config) > MaxConfigBytes:
		return diag.Diagnostic{Code: "snippet-too-large", Severity: diag.Error, Phase: diag.Config, File: diag.CargoToml,
			Message: fmt.Sprintf("Cargo.toml is %d bytes; the playground takes at most %d", len(req.Config), MaxConfigBytes)}, false
	}
	return diag.Diagnostic{}, true
}

// compileErrors reports whether a check found errors that rustc would have
// rejected: everything but the panics of Burn and of the program itself.
// Burn's own compile-time errors (the rows of its panic table whose kind is
// compile_error, raised by its proc-macros) count as rejections too.
func compileErrors(list diag.List) bool {
	for _, d := range list {
		if d.Severity != diag.Error {
			continue
		}
		if d.PanicID == "" {
			return true
		}
		if row, ok := catalog.PanicRow(d.PanicID); ok && row.Kind == "compile_error" {
			return true
		}
	}
	return false
}

// build assembles the Result. checkCut says the check stopped looking
// after interp.MaxCheckDiagnostics.
func build(status string, diags diag.List, files map[string]*source.File, ran interp.Outcome, checkCut bool) Result {
	res := Result{
		Status:      status,
		Diagnostics: []Diagnostic{},
		Trace:       []TraceEntry{},
		Hints:       []HintEntry{},
		Output:      ran.Output,
		Engine:      EngineInfo{Version: Version, Burn: BurnCommit},
	}
	main := files[diag.MainRS]
	for i := range diags {
		if diags[i].Code == "" && diags[i].PanicID != "" {
			diags[i].Code = codeOf(diags[i].PanicID)
		}
		resolveGenerated(&diags[i], main)
	}
	diags.Sort()
	res.Complete = true
	for _, d := range diags {
		if Incompleteness(d.Code) {
			res.Complete = false
		}
	}
	panicked := ran.Panic
	if panicked != nil {
		at := *panicked
		at.Range = main.Resolve(at.Range)
		panicked = &at
	}
	diags = capDiagnostics(diags, panicked, checkCut)
	for _, d := range diags {
		locate(&d, main)
		res.Diagnostics = append(res.Diagnostics, toJSON(d, files))
	}
	if p := ran.Panic; p != nil {
		code := p.ID
		if !p.User {
			code = codeOf(p.ID)
		}
		res.Panic = &Panic{
			Message: p.Message, Location: p.Location, Rendered: p.Rendered(),
			Code: code, Span: spanIn(main, p.Range),
		}
	}
	for _, ev := range ran.Trace {
		shape := ev.Shape
		if shape == nil {
			shape = []int64{}
		}
		entry := TraceEntry{
			Span: main.Span(ev.Range), Op: ev.Op, Backend: ev.Backend, Device: ev.Device,
			Autodiff: ev.Autodiff, Kind: ev.Kind, Shape: shape, Note: ev.Note, Module: ev.Module,
		}
		if len(main.Segments()) > 0 {
			file, r := main.LocateRange(ev.Range)
			entry.File, entry.Span = file.Name, file.Span(r)
		}
		res.Trace = append(res.Trace, entry)
	}
	return res
}

// resolveGenerated maps the ranges of a diagnostic in main.rs that lie in
// the generated text of a macro expansion back to main.rs (see
// expand.Expand), with rustc's note on the macro the error comes from. An
// edit inside generated text has no place in the user's text, so a fix
// with one is dropped.
func resolveGenerated(d *diag.Diagnostic, main *source.File) {
	if d.File != diag.MainRS {
		return
	}
	if m := main.Macro(d.Range); m != "" && d.Code != expand.CodeRecursionLimit {
		d.Help = append(d.Help[:len(d.Help):len(d.Help)], fmt.Sprintf("this %s originates in the macro `%s`", d.Severity, m))
	}
	d.Range = main.Resolve(d.Range)
	for i := range d.Labels {
		if d.Labels[i].File == diag.MainRS {
			d.Labels[i].Range = main.Resolve(d.Labels[i].Range)
		}
	}
	fixes := d.Fixes[:0:0]
	for _, fx := range d.Fixes {
		generated := false
		for _, e := range fx.Edits {
			generated = generated || e.File == diag.MainRS && main.IsGenerated(e.Range)
		}
		if !generated {
			fixes = append(fixes, fx)
		}
	}
	if len(fixes) < len(d.Fixes) {
		d.Fixes = fixes
	}
}

// MaxDiagnostics bounds the diagnostics of a Result. A pasted file can
// hold thousands of errors; each diagnostic carries its catalog record, so
// an uncapped Result would grow by kilobytes per error.
const MaxDiagnostics = 100

// capDiagnostics keeps the first MaxDiagnostics of a sorted list, and every
// diagnostic at the run's panic, which ties the panic to the check's report
// of it. A note at the first one left out says how many were: at least
// that many when the check stopped looking (checkCut).
func capDiagnostics(diags diag.List, panicked *interp.PanicAt, checkCut bool) diag.List {
	if len(diags) <= MaxDiagnostics {
		return diags
	}
	kept := make(diag.List, 0, MaxDiagnostics+2)
	var first *diag.Diagnostic
	dropped := 0
	for i := range diags {
		d := &diags[i]
		switch {
		case i < MaxDiagnostics, panicked != nil && d.File == diag.MainRS && d.Range == panicked.Range:
			kept = append(kept, *d)
		default:
			if first == nil {
				first = d
			}
			dropped++
		}
	}
	more := strconv.Itoa(dropped)
	if checkCut {
		more = "at least " + more
	}
	kept.Add(diag.Diagnostic{Code: "playground-diagnostic-limit", Severity: diag.Note, Phase: first.Phase, File: first.File, Range: first.Range,
		Message: fmt.Sprintf("%s more diagnostics are not shown; the playground shows the first %d", more, MaxDiagnostics)})
	kept.Sort()
	return kept
}

// codeOf maps a Burn panic id to its catalog code.
func codeOf(panicID string) string {
	if rec, ok := catalog.ByPanicID(panicID); ok {
		return rec.Code
	}
	return panicID
}

var nullRecord = json.RawMessage("null")

func toJSON(d diag.Diagnostic, files map[string]*source.File) Diagnostic {
	f := files[d.File]
	if f == nil {
		f = files[diag.MainRS]
	}
	out := Diagnostic{
		Code: d.Code, Severity: string(d.Severity), Phase: string(d.Phase), Message: d.Message,
		File: d.File, Span: f.Span(d.Range), Labels: []Label{}, Help: d.Help, Record: nullRecord, Fixes: []Fix{},
	}
	if rec, ok := catalog.ByCode(d.Code); ok {
		out.Record = rec.EncodedJSON()
	}
	for _, l := range d.Labels {
		lf := files[l.File]
		if lf == nil {
			lf = f
		}
		out.Labels = append(out.Labels, Label{File: l.File, Span: lf.Span(l.Range), Message: l.Message})
	}
	for _, fx := range d.Fixes {
		jf := Fix{Title: fx.Title, Edits: []Edit{}}
		for _, e := range fx.Edits {
			ef := files[e.File]
			if ef == nil {
				ef = f
			}
			jf.Edits = append(jf.Edits, Edit{File: e.File, Span: ef.Span(e.Range), NewText: e.NewText})
		}
		out.Fixes = append(out.Fixes, jf)
	}
	return out
}

// locate names the file of a crate each range of d lies in (see
// loadCrate); a version-1 Request's one file needs nothing.
func locate(d *diag.Diagnostic, main *source.File) {
	if len(main.Segments()) == 0 {
		return
	}
	if d.File == diag.MainRS {
		file, r := main.LocateRange(d.Range)
		d.File, d.Range = file.Name, r
	}
	labels := make([]diag.Label, len(d.Labels))
	for i, l := range d.Labels {
		if l.File == diag.MainRS {
			file, r := main.LocateRange(l.Range)
			l.File, l.Range = file.Name, r
		}
		labels[i] = l
	}
	d.Labels = labels
	fixes := make([]diag.Fix, len(d.Fixes))
	for i, fx := range d.Fixes {
		edits := make([]diag.Edit, len(fx.Edits))
		for j, e := range fx.Edits {
			if e.File == diag.MainRS {
				file, r := main.LocateRange(e.Range)
				e.File, e.Range = file.Name, r
			}
			edits[j] = e
		}
		fx.Edits = edits
		fixes[i] = fx
	}
	d.Fixes = fixes
}

// spanIn renders a range of main in the file of the crate it lies in.
func spanIn(main *source.File, r source.Range) source.Span {
	file, local := main.LocateRange(r)
	return file.Span(local)
}

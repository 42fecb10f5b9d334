package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Mode selects checking or running.
type Mode int

const (
	Check Mode = iota
	Run
)

func (m Mode) phase() diag.Phase {
	if m == Check {
		return diag.Check
	}
	return diag.Run
}

// Default limits. They are counted, not timed, so results are reproducible.
// The step budget is sized so that a run that exhausts it still ends well
// inside the sandbox's 2 s wall-time limit (about 35 ms natively, about
// 1.1 s in wazero with its termination checks): the engine, not the host's
// clock, then decides, and every surface gives the same Result.
const (
	DefaultStepLimit   = 400_000
	DefaultOutputLimit = 64 << 10
	maxCallDepth       = 128
)

// Options configures one evaluation.
type Options struct {
	Mode        Mode
	Config      dispatch.Config
	StepLimit   int // 0 means DefaultStepLimit
	OutputLimit int // bytes; 0 means DefaultOutputLimit
	// FeatureEdit returns the Cargo.toml edit that enables a burn feature,
	// used to turn fix hints into edits. It may be nil.
	FeatureEdit func(feature string) (diag.Edit, bool)
}

// TraceEvent is a dispatched operation with the span of the call that
// caused it.
type TraceEvent struct {
	dispatch.TraceEvent
	Range source.Range
}

// PanicAt is the panic that stopped a run.
type PanicAt struct {
	dispatch.Panic
	Range source.Range
	// User is set for panics raised by the snippet itself (assert!,
	// panic!, arithmetic overflow), whose location is in main.rs.
	User bool
}

// Outcome is what an evaluation found.
type Outcome struct {
	Diags  diag.List
	Panic  *PanicAt // Run only: the panic that stopped it
	Output string
	Trace  []TraceEvent
	// Limited names the limit that stopped the evaluation ("time",
	// "output", LimitDiagnostics), or is empty.
	Limited string
}

// Eval evaluates f. It never panics: an internal error of the evaluator is
// reported as a diagnostic instead of crashing the caller.
func Eval(f *syntax.File, src *source.File, opts Options) (out Outcome) {
	in := newInterp(f, src, opts)
	defer func() {
		if r := recover(); r != nil {
			in.diags.Add(diag.Diagnostic{
				Code: "playground-internal-error", Severity: diag.Error, Phase: opts.Mode.phase(),
				Message: fmt.Sprintf("the playground's interpreter failed on this program: %v", r),
				File:    diag.MainRS, Range: in.lastRange,
			})
			out = in.outcome()
		}
	}()
	in.program()
	return in.outcome()
}

// binding is one variable.
type binding struct {
	v     dispatch.Value
	mut   bool
	decl  source.Range
	name  string
	moved bool
}

type scope struct {
	vars   map[string]*binding
	parent *scope
}

func (s *scope) lookup(name string) *binding {
	for ; s != nil; s = s.parent {
		if b, ok := s.vars[name]; ok {
			return b
		}
	}
	return nil
}

type interp struct {
	file  *syntax.File
	src   *source.File
	opts  Options
	world *dispatch.World

	fns     map[string]*syntax.FnDecl // free functions by name
	imports map[string][]string       // `use` aliases: last segment -> full path
	traits  map[string]*syntax.TraitDecl
	impls   []*syntax.ImplDecl
	structs map[string]*syntax.StructDecl

	scope *scope
	depth int

	steps     int
	output    strings.Builder
	diags     diag.List
	seen      map[string]bool // de-duplicates check diagnostics
	panic     *PanicAt
	limited   string
	sites     []source.Range
	lastRange source.Range
}

func newInterp(f *syntax.File, src *source.File, opts Options) *interp {
	if opts.StepLimit == 0 {
		opts.StepLimit = DefaultStepLimit
	}
	if opts.OutputLimit == 0 {
		opts.OutputLimit = DefaultOutputLimit
	}
	in := &interp{
		file: f, src: src, opts: opts,
		world:   dispatch.NewWorld(opts.Config),
		fns:     map[string]*syntax.FnDecl{},
		imports: map[string][]string{},
		traits:  map[string]*syntax.TraitDecl{},
		structs: map[string]*syntax.StructDecl{},
		seen:    map[string]bool{},
		scope:   &scope{vars: map[string]*binding{}},
	}
	if f != nil {
		in.declare(f.Items)
	}
	return in
}

func (in *interp) outcome() Outcome {
	if count, cut := in.world.Dispatched(); cut >= 0 && in.opts.Mode == Run {
		in.diags.Add(diag.Diagnostic{Code: "playground-trace-limit", Severity: diag.Note, Phase: diag.Run, File: diag.MainRS,
			Range:   in.siteRange(cut),
			Message: fmt.Sprintf("the program dispatched %d tensor operations; the trace shows the first %d", count, dispatch.MaxTrace)})
	}
	out := Outcome{Diags: in.diags, Panic: in.panic, Output: in.output.String(), Limited: in.limited}
	for _, ev := range in.world.Trace() {
		out.Trace = append(out.Trace, TraceEvent{TraceEvent: ev, Range: in.siteRange(ev.Site)})
	}
	return out
}

// siteRange is the span of a call site, empty for an unknown one.
func (in *interp) siteRange(site int) source.Range {
	if site >= 0 && site < len(in.sites) {
		return in.sites[site]
	}
	return source.Range{}
}

// declare records items: functions, traits, impls, structs and imports.
func (in *interp) declare(items []syntax.Item) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.FnDecl:
			in.fns[it.Name] = it
		case *syntax.TraitDecl:
			in.traits[it.Name] = it
		case *syntax.ImplDecl:
			in.impls = append(in.impls, it)
		case *syntax.StructDecl:
			in.structs[it.Name] = it
		case *syntax.UseDecl:
			in.use(it.Path)
		case *syntax.ModDecl:
			in.declare(it.Items)
		}
	}
}

// use records the names a `use` tree brings into scope. The tree is kept
// as text by the parser: `burn::tensor::{Device, Tensor as T, backend::*}`.
func (in *interp) use(tree string) {
	tree = strings.Join(strings.Fields(tree), " ")
	for _, tok := range []string{"::", "{", "}", ","} {
		tree = strings.ReplaceAll(tree, " "+tok, tok)
		tree = strings.ReplaceAll(tree, tok+" ", tok)
	}
	tree = strings.TrimPrefix(strings.TrimSuffix(tree, ";"), "::")
	in.useTree(nil, tree)
}

func (in *interp) useTree(prefix []string, tree string) {
	tree = strings.TrimSpace(tree)
	if tree == "" {
		return
	}
	// A trailing {group} distributes the leading path over its parts.
	if i := strings.Index(tree, "{"); i >= 0 && strings.HasSuffix(tree, "}") {
		head := strings.TrimSuffix(tree[:i], "::")
		p := append(append([]string{}, prefix...), splitPath(head)...)
		for _, part := range splitTop(tree[i+1 : len(tree)-1]) {
			in.useTree(p, part)
		}
		return
	}
	path, alias, aliased := strings.Cut(tree, " as ")
	segs := append(append([]string{}, prefix...), splitPath(path)...)
	if len(segs) == 0 {
		return
	}
	last := segs[len(segs)-1]
	if last == "*" {
		return
	}
	if last == "self" {
		segs = segs[:len(segs)-1]
		if len(segs) == 0 {
			return
		}
		last = segs[len(segs)-1]
	}
	name := last
	if aliased {
		name = strings.TrimSpace(alias)
	}
	if name != "_" {
		in.imports[name] = segs
	}
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "::") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// splitTop splits a use group on commas outside braces.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// program runs the bare statements, then main if there is one and the bare
// statements did not already run it.
func (in *interp) program() {
	defer in.epilogue()
	in.checkExtensions()
	if len(in.file.Stmts) > 0 {
		if sig := in.stmts(in.file.Stmts); sig != nil {
			return
		}
		return
	}
	if main, ok := in.fns["main"]; ok && main.Body != nil {
		in.callUser(main, nil, main.NameSpan)
	}
}

// epilogue ends a run's output with what the playground says about the
// run as a whole (tensors whose values were not computed), on a line of
// its own and within the output limit.
func (in *interp) epilogue() {
	note := in.world.Epilogue()
	if note == "" || in.opts.Mode != Run || in.limited != "" {
		return
	}
	if in.output.Len() > 0 && !strings.HasSuffix(in.output.String(), "\n") {
		note = "\n" + note
	}
	if in.output.Len()+len(note) <= in.opts.OutputLimit {
		in.output.WriteString(note)
	}
}

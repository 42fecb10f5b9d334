package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dispatch-playground/playground/engine/cfg"
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
	// ServerEdit returns the Cargo.toml edit of a fix to the playground's
	// servers.
	ServerEdit func(dispatch.ServerEdit) (diag.Edit, bool)
	// Test compiles the program as `cargo test` does: `cfg(test)` holds.
	// EvalTests sets it; Eval runs main with it off.
	Test bool
	// Features are the package's own enabled features, which
	// `#[cfg(feature = "..")]` tests.
	Features []string
	// Crates are the crates the package depends on, by their Rust names:
	// a call into one the engine does not model is a boundary.
	Crates []string
	// Unseen are the path and git dependencies among Crates, whose
	// manifests may turn on features of burn the config does not show.
	Unseen []string
	// Declared are the features the package's [features] declares, and
	// PackageFeatureEdit the Cargo.toml edit that turns one on by default
	// (features_off.go).
	Declared           []string
	PackageFeatureEdit func(feature string) (diag.Edit, bool)
	// Watch, when set, is a range of main.rs whose evaluation a run
	// reports (Outcome.Reached): a step inside it.
	Watch *source.Range
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
	// Hints are the check's labels of the program's tensors (hints.go).
	Hints []Hint
	// Steps is the work the evaluation did, in units of the step budget.
	Steps int
	// Reached says the run evaluated code inside Options.Watch.
	Reached bool
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
	// consumed is the tensor a Burn operation took from the binding by
	// value (live.go): while the binding still holds it, it holds no handle.
	consumed *dispatch.Tensor
}

type scope struct {
	vars   map[string]*binding
	parent *scope
	// caller is set on the first scope of a function's or closure's frame:
	// the scope of the code that called it. shadowed are the bindings a
	// later `let` of this scope shadowed, which live to its end (live.go).
	caller   *scope
	shadowed []*binding
}

// names are the variables s sees, in their declaration order.
func (s *scope) names() []string {
	var bs []*binding
	for ; s != nil; s = s.parent {
		for _, b := range s.vars {
			bs = append(bs, b)
		}
	}
	slices.SortFunc(bs, func(a, b *binding) int { return a.decl.Start - b.decl.Start })
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		if !slices.Contains(out, b.name) {
			out = append(out, b.name)
		}
	}
	return out
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
	// hints are the tensors the check saw where the program names them
	// (hints.go).
	hints map[source.Range]*dispatch.Tensor

	file  *syntax.File
	src   *source.File
	opts  Options
	world *dispatch.World

	// rootMod is the crate root; mod is the module of the code being
	// evaluated, selfType the type `Self` names there (with the module it
	// is written in).
	rootMod  *module
	mod      *module
	selfType *syntax.Type
	selfMod  *module
	fnMod    map[*syntax.FnDecl]*module
	fnImpl   map[*syntax.FnDecl]*syntax.ImplDecl
	implMod  map[*syntax.ImplDecl]*module
	// build is what #[cfg] is evaluated against.
	build cfg.Build
	// crates are the package's crates linked into the program by name.
	crates map[string]*module
	// typeMod is the module that declares each struct and enum.
	typeMod map[string]*module
	// entered holds the functions a check has evaluated; uncalled is set
	// while it checks those the program's entry does not reach.
	entered map[*syntax.FnDecl]bool
	// lookups remembers name lookups; looking holds those in progress.
	lookups map[lookupKey]lookupResult
	looking map[lookupKey]bool
	// lookupCycle is set when a lookup in progress met itself.
	lookupCycle bool
	uncalled    bool
	impls       []*syntax.ImplDecl
	// traits and structs index every trait and struct of the program by
	// name, for the backend-extension checks.
	traits  map[string]*syntax.TraitDecl
	structs map[string]*syntax.StructDecl

	scope *scope
	depth int

	steps   int
	reached bool // a step inside opts.Watch
	output  strings.Builder
	diags   diag.List
	seen    map[string]bool // de-duplicates check diagnostics
	panic   *PanicAt
	limited string
	// offFeatures are the package features named by the #[cfg]s of code
	// the build left out (features_off.go).
	offFeatures []string
	mainName    source.Range // main's name, where a note about the whole run points
	sites       []source.Range
	lastRange   source.Range
	// letTypes is the type inferLets gave each untyped
	// `let x = Default::default();` ("" when no later use decides it).
	letTypes map[*syntax.LetStmt]string
	// typeArgs are the type parameters of the function being evaluated
	// and of its impl, each with the program's type it stands for in this
	// call ("" when neither a turbofish nor an argument says): `T::new()`
	// calls that type's function. turbofish is the explicit type
	// arguments of the call about to enter a function.
	typeArgs  map[string]string
	turbofish []string
	// unmodelledItem is the first Burn item this evaluation called that the
	// engine does not model ("" when none): a test that should panic and
	// did not may have panicked there.
	unmodelledItem string
	// blockMods are the anonymous modules of blocks that declare items.
	blockMods map[*syntax.BlockExpr]*module
	// guessing counts the branches being run whose condition the engine
	// does not know (guessedIf).
	guessing int
	// mpath is the path of the module whose method runs (modpath.go).
	mpath modPaths
	// burns are the receivers of the Burn calls running, outermost first;
	// external counts the program's closures Burn's or the standard
	// library's code is calling back (live.go).
	burns    []value
	external int
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
		rootMod: newModule("crate", nil),
		fnMod:   map[*syntax.FnDecl]*module{},
		fnImpl:  map[*syntax.FnDecl]*syntax.ImplDecl{},
		implMod: map[*syntax.ImplDecl]*module{},
		typeMod: map[string]*module{},
		entered: map[*syntax.FnDecl]bool{},
		traits:  map[string]*syntax.TraitDecl{},
		structs: map[string]*syntax.StructDecl{},
		seen:    map[string]bool{},
		scope:   &scope{vars: map[string]*binding{}},
	}
	in.mod = in.rootMod
	in.world.SetLiveHandles(in.liveHandles)
	in.build = cfg.New(opts.Features, opts.Test, opts.Config.Target)
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
	out := Outcome{Diags: in.diags, Panic: in.panic, Output: in.output.String(), Limited: in.limited, Hints: in.hintList(), Steps: in.steps, Reached: in.reached}
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

// declare records items of the module being evaluated.
func (in *interp) declare(items []syntax.Item) {
	in.declareIn(in.mod, items)
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

// program runs the bare statements, then main if there is one and the bare
// statements did not already run it.
func (in *interp) program() {
	defer in.epilogue()
	defer in.featuresOffNote()
	in.checkExtensions()
	defer in.checkUncalled()
	if len(in.file.Stmts) > 0 {
		in.stmts(in.file.Stmts)
		return
	}
	if main, ok := in.rootMod.fns["main"]; ok && main.Body != nil {
		in.mainName = main.NameSpan
		in.callUser(main, nil, main.NameSpan)
	}
}

// freshWorld is the dispatch model of a program that has not run yet.
func (in *interp) freshWorld() *dispatch.World {
	w := dispatch.NewWorld(in.opts.Config)
	w.SetLiveHandles(in.liveHandles)
	return w
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

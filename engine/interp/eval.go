package interp

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/similar"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// signal interrupts normal evaluation: loop control, return, or the end of
// the evaluation (a panic in Run mode, or a limit).
type signal struct {
	kind  sigKind
	label string
	value dispatch.Value
}

type sigKind int

const (
	sigBreak sigKind = iota + 1
	sigContinue
	sigReturn
	sigStop
)

var stop = &signal{kind: sigStop}

type value = dispatch.Value

var unknown value = dispatch.Unknown{}

func isUnknown(v value) bool {
	_, ok := dispatch.Deref(v).(dispatch.Unknown)
	return ok
}

// yieldSteps is how often a long evaluation yields to other goroutines. A
// Go runtime without preemption (WebAssembly) runs the garbage collector's
// goroutines only when the running one yields; without this, a long run
// that allocates grows its heap until the instance runs out of memory.
const yieldSteps = 1 << 12

// MaxCheckDiagnostics is how many diagnostics a check collects before it
// stops looking: a Result shows only the first hundred, and a file of a
// hundred thousand errors would otherwise fill the memory of a WebAssembly
// instance with them. A check stopped for it has Limited LimitDiagnostics.
const (
	MaxCheckDiagnostics = 1000
	LimitDiagnostics    = "diagnostics"
)

// step counts one unit of work against the step budget.
func (in *interp) step(r source.Range) *signal {
	in.steps++
	in.lastRange = r
	if w := in.opts.Watch; w != nil && !in.reached && r.Start >= w.Start && r.End <= w.End && r.End > r.Start {
		in.reached = true
	}
	if in.steps%yieldSteps == 0 {
		runtime.Gosched()
	}
	if in.opts.Mode == Check && len(in.diags) >= MaxCheckDiagnostics {
		return in.limit(LimitDiagnostics, r)
	}
	if in.steps > in.opts.StepLimit {
		return in.limit("time", r)
	}
	return nil
}

// limit stops the evaluation because a playground limit was reached. Only a
// run reports it: a check that runs out of budget simply stops looking.
func (in *interp) limit(kind string, r source.Range) *signal {
	if in.limited == "" {
		in.limited = kind
		if in.opts.Mode == Run {
			code, msg := "playground-time-limit", fmt.Sprintf(
				"the program did not finish within the playground's budget of %d evaluation steps; does a loop never end?", in.opts.StepLimit)
			switch kind {
			case "output":
				code, msg = "playground-output-limit", fmt.Sprintf(
					"the program printed more than the playground's limit of %d bytes; the output was cut there", in.opts.OutputLimit)
			case "depth":
				msg = fmt.Sprintf("the program nested function calls more than %d deep; does a function call itself without end?", maxCallDepth)
			}
			in.diags.Add(diag.Diagnostic{Code: code, Severity: diag.Error, Phase: diag.Run, Message: msg, File: diag.MainRS, Range: r})
		}
	}
	return stop
}

func (in *interp) push() { in.scope = &scope{vars: map[string]*binding{}, parent: in.scope} }
func (in *interp) pop()  { in.scope = in.scope.parent }

func (in *interp) define(name string, v value, mut bool, r source.Range) {
	if old := in.scope.vars[name]; old != nil {
		in.shadow(old)
	}
	in.scope.vars[name] = &binding{v: v, mut: mut, decl: r, name: name}
}

// ---- statements ----

func (in *interp) stmts(list []syntax.Stmt) *signal {
	in.inferLets(list)
	for _, s := range list {
		if _, sig := in.stmt(s); sig != nil {
			return sig
		}
	}
	return nil
}

func (in *interp) block(b *syntax.BlockExpr) (value, *signal) {
	in.push()
	defer in.pop()
	if bm := in.blockModule(b); bm != nil {
		saved := in.mod
		in.mod = bm
		defer func() { in.mod = saved }()
	}
	var last value = dispatch.Unit{}
	in.inferLets(b.Stmts)
	for i, s := range b.Stmts {
		v, sig := in.stmt(s)
		if sig != nil {
			if b.Label != "" && sig.kind == sigBreak && sig.label == b.Label {
				// `'a: { ... break 'a v; }` ends the block with v.
				return sig.value, nil
			}
			return nil, sig
		}
		if es, ok := s.(*syntax.ExprStmt); ok && !es.Semi && i == len(b.Stmts)-1 {
			last = v
		}
	}
	return last, nil
}

// blockModule is the anonymous module of the items b declares, made the
// first time b runs, or nil when it declares none: the items are visible
// in the whole block, before their statement as after it.
func (in *interp) blockModule(b *syntax.BlockExpr) *module {
	if bm, ok := in.blockMods[b]; ok {
		return bm
	}
	var items []syntax.Item
	for _, s := range b.Stmts {
		if is, ok := s.(*syntax.ItemStmt); ok && in.build.Compiled(stmtAttrs(s)) {
			items = append(items, is.Item)
		}
	}
	var bm *module
	if len(items) > 0 {
		bm = newModule("", in.mod)
		bm.block = true
		in.declareIn(bm, items)
	}
	if in.blockMods == nil {
		in.blockMods = map[*syntax.BlockExpr]*module{}
	}
	in.blockMods[b] = bm
	return bm
}

func (in *interp) stmt(s syntax.Stmt) (value, *signal) {
	if sig := in.step(s.Span()); sig != nil {
		return nil, sig
	}
	if !in.build.Compiled(stmtAttrs(s)) {
		in.noteCfgOff(stmtAttrs(s))
		return dispatch.Unit{}, nil
	}
	switch s := s.(type) {
	case *syntax.LetStmt:
		if s.Init == nil {
			in.bindPattern(s.Pat, unknown)
			return dispatch.Unit{}, nil
		}
		expect := in.letTypes[s]
		if s.Type != nil {
			expect = in.typeText(s.Type)
		} else if sp, ok := s.Pat.(*syntax.SlicePat); ok && expect == "" && !hasRest(sp.Elems) {
			// `let [a, b] = v.try_into().unwrap();`: the pattern names
			// the array type.
			expect = fmt.Sprintf("[_; %d]", len(sp.Elems))
		}
		v, sig := in.exprExpect(s.Init, expect)
		if sig != nil {
			return nil, sig
		}
		v = typedLiteral(v, expect)
		if s.Else != nil {
			in.checkLetElse(s)
			if ok := in.matchPattern(s.Pat, v, true); !ok {
				_, sig := in.block(s.Else)
				if sig != nil {
					return nil, sig
				}
			}
			return dispatch.Unit{}, nil
		}
		in.checkLetPattern(s, v)
		in.letMoves(s.Init)
		in.bindPattern(s.Pat, in.copyOnBind(v))
		in.hintLet(s.Pat, v)
		return dispatch.Unit{}, nil
	case *syntax.ExprStmt:
		return in.expr(s.X)
	case *syntax.ItemStmt:
		if !in.mod.block {
			// A bare statement of a snippet: its items are the crate's.
			in.declare([]syntax.Item{s.Item})
		}
		return dispatch.Unit{}, nil
	}
	return dispatch.Unit{}, nil
}

// typedLiteral gives an unsuffixed number the primitive type a `let`
// declares (`let gpu: i64 = -1;`), which decides the conversions Burn's
// API runs on it.
func typedLiteral(v value, declared string) value {
	declared = strings.TrimSpace(declared)
	switch x := v.(type) {
	case dispatch.Int:
		if x.Suffix == "" && intTypes[declared] {
			x.Suffix = declared
			return x
		}
	case dispatch.Float:
		if x.Suffix == "" && (declared == "f32" || declared == "f64") {
			return rstd.WithType(x, declared)
		}
	case *dispatch.Array:
		// `let v: Vec<f32> = vec![0.1, 0.2];`: the elements take the
		// element type.
		if elem, ok := rstd.ElemType(declared); ok {
			for i, el := range x.Elems {
				x.Elems[i] = typedLiteral(el, elem)
			}
			if len(x.Elems) == 0 {
				x.Elem = elem
			}
		}
	}
	return v
}

var intTypes = map[string]bool{
	"i8": true, "i16": true, "i32": true, "i64": true, "i128": true, "isize": true,
	"u8": true, "u16": true, "u32": true, "u64": true, "u128": true, "usize": true,
}

// ---- patterns ----

// bindPattern binds an irrefutable pattern.
func (in *interp) bindPattern(p syntax.Pattern, v value) {
	in.matchPattern(p, v, true)
}

// matchPattern matches v against p, binding names when it matches. An
// Unknown value matches every pattern, binding Unknown.
func (in *interp) matchPattern(p syntax.Pattern, v value, bind bool) bool {
	switch p := p.(type) {
	case *syntax.IdentPat:
		if p.Sub != nil && !in.matchPattern(p.Sub, v, bind) {
			return false
		}
		if bind {
			in.define(p.Name, v, p.Mut, p.Range)
		}
		return true
	case *syntax.ParenPat:
		return in.matchPattern(p.Pat, v, bind)
	case *syntax.RefPat:
		return in.matchPattern(p.Pat, dispatch.Deref(v), bind)
	case *syntax.OrPat:
		for _, alt := range p.Alts {
			if in.matchPattern(alt, v, false) {
				return in.matchPattern(alt, v, bind)
			}
		}
		return false
	case *syntax.RestPat, *syntax.BadPat:
		return true
	case *syntax.RangePat:
		n, ok := asFloat(v)
		if !ok {
			return isUnknown(v)
		}
		if p.Lo != nil {
			lo, sig := in.expr(p.Lo)
			if l, ok := asFloat(lo); sig == nil && ok && n < l {
				return false
			}
		}
		if p.Hi != nil {
			hi, sig := in.expr(p.Hi)
			if h, ok := asFloat(hi); sig == nil && ok && (n > h || (!p.Inclusive && n == h)) {
				return false
			}
		}
		return true
	case *syntax.StructPat:
		e, ok := dispatch.Deref(v).(*dispatch.Enum)
		if !ok || e.Variant != p.Path[len(p.Path)-1].Name {
			if !ok {
				for _, f := range p.Fields {
					in.matchPattern(f.Pat, unknown, bind)
				}
			}
			return !ok && isUnknown(v)
		}
		for _, f := range p.Fields {
			fv, has := e.Named[f.Name]
			if !has {
				fv = unknown
			}
			if !in.matchPattern(f.Pat, fv, bind) {
				return false
			}
		}
		return true
	case *syntax.SlicePat:
		arr, ok := dispatch.Deref(v).(*dispatch.Array)
		if !ok {
			for _, el := range p.Elems {
				in.matchPattern(el, unknown, bind)
			}
			return isUnknown(v)
		}
		rest := -1
		for i, el := range p.Elems {
			if _, isRest := el.(*syntax.RestPat); isRest {
				rest = i
			}
		}
		if rest < 0 && len(arr.Elems) != len(p.Elems) || rest >= 0 && len(arr.Elems) < len(p.Elems)-1 {
			return false
		}
		for i, el := range p.Elems {
			switch {
			case rest >= 0 && i == rest:
				continue
			case rest >= 0 && i > rest:
				if !in.matchPattern(el, arr.Elems[len(arr.Elems)-(len(p.Elems)-i)], bind) {
					return false
				}
			default:
				if !in.matchPattern(el, arr.Elems[i], bind) {
					return false
				}
			}
		}
		return true
	case *syntax.WildPat:
		return true
	case *syntax.TuplePat:
		t, ok := dispatch.Deref(v).(dispatch.Tuple)
		if !ok || len(t) != len(p.Elems) {
			for _, e := range p.Elems {
				in.matchPattern(e, unknown, bind)
			}
			return isUnknown(v)
		}
		for i, e := range p.Elems {
			if !in.matchPattern(e, t[i], bind) {
				return false
			}
		}
		return true
	case *syntax.TupleStructPat:
		name := p.Path[len(p.Path)-1].Name
		e, ok := dispatch.Deref(v).(*dispatch.Enum)
		if !ok {
			for _, el := range p.Elems {
				in.matchPattern(el, unknown, bind)
			}
			return isUnknown(v)
		}
		if e.Variant != name {
			return false
		}
		for i, el := range p.Elems {
			var f value = unknown
			if i < len(e.Fields) {
				f = e.Fields[i]
			}
			if !in.matchPattern(el, f, bind) {
				return false
			}
		}
		return true
	case *syntax.LitPat:
		lit, sig := in.expr(p.Lit)
		if sig != nil || isUnknown(v) {
			return true
		}
		eq, known := valuesEqual(lit, v)
		return eq || !known
	}
	return false
}

// ---- expressions ----

func (in *interp) expr(e syntax.Expr) (value, *signal) { return in.exprExpect(e, "") }

// exprExpect evaluates e; expect is the declared type of the value, passed
// to Burn constructors that infer their rank or kind from it.
func (in *interp) exprExpect(e syntax.Expr, expect string) (value, *signal) {
	if sig := in.step(e.Span()); sig != nil {
		return nil, sig
	}
	switch e := e.(type) {
	case *syntax.LitExpr:
		return in.literal(e), nil
	case *syntax.PathExpr:
		v, sig := in.path(e)
		if sig == nil && len(e.Segments) == 1 && in.opts.Mode == Check {
			in.hintAt(e.Range, v)
		}
		return v, sig
	case *syntax.CallExpr:
		return in.call(e, expect)
	case *syntax.MethodCallExpr:
		return in.methodCall(e, expect)
	case *syntax.ParenExpr:
		return in.exprExpect(e.X, expect)
	case *syntax.BlockExpr:
		return in.block(e)
	case *syntax.UnaryExpr:
		return in.unary(e)
	case *syntax.BinaryExpr:
		return in.binary(e)
	case *syntax.AssignExpr:
		return in.assign(e)
	case *syntax.CastExpr:
		return in.cast(e)
	case *syntax.ArrayExpr:
		elems, sig := in.exprs(e.Elems)
		if sig != nil {
			return nil, sig
		}
		return &dispatch.Array{Elems: elems}, nil
	case *syntax.ArrayRepeatExpr:
		return in.repeat(e.Elem, e.Len, false, e.Range)
	case *syntax.TupleExpr:
		if len(e.Elems) == 0 {
			return dispatch.Unit{}, nil
		}
		elems, sig := in.exprs(e.Elems)
		if sig != nil {
			return nil, sig
		}
		return dispatch.Tuple(elems), nil
	case *syntax.RangeExpr:
		return in.rangeExpr(e)
	case *syntax.IfExpr:
		return in.ifExpr(e)
	case *syntax.ForExpr:
		return in.forExpr(e)
	case *syntax.WhileExpr:
		return in.whileExpr(e)
	case *syntax.LoopExpr:
		return in.loopExpr(e)
	case *syntax.MatchExpr:
		return in.matchExpr(e)
	case *syntax.BreakExpr:
		var v value = dispatch.Unit{}
		if e.Value != nil {
			var sig *signal
			if v, sig = in.expr(e.Value); sig != nil {
				return nil, sig
			}
		}
		return nil, &signal{kind: sigBreak, value: v, label: e.Label}
	case *syntax.ContinueExpr:
		return nil, &signal{kind: sigContinue, label: e.Label}
	case *syntax.ReturnExpr:
		var v value = dispatch.Unit{}
		if e.Value != nil {
			var sig *signal
			if v, sig = in.expr(e.Value); sig != nil {
				return nil, sig
			}
		}
		return nil, &signal{kind: sigReturn, value: v}
	case *syntax.MacroExpr:
		return in.macro(e)
	case *syntax.ClosureExpr:
		env := in.scope
		if e.Move {
			env = in.moveEnv(e)
		}
		return &closure{params: e.Params, body: e.Body, env: env, mod: in.mod, selfType: in.selfType, selfMod: in.selfMod}, nil
	case *syntax.StructExpr:
		return in.structLit(e)
	case *syntax.TryExpr:
		v, sig := in.expr(e.X)
		if sig != nil {
			return nil, sig
		}
		return in.try(v, e)
	case *syntax.AwaitExpr:
		return in.expr(e.X)
	case *syntax.FieldExpr:
		return in.field(e)
	case *syntax.IndexExpr:
		return in.index(e)
	case *syntax.BadExpr:
		return unknown, nil
	}
	in.unsupported(e.Span(), "this expression is not supported by the playground")
	return unknown, nil
}

func (in *interp) exprs(list []syntax.Expr) ([]value, *signal) {
	out := make([]value, 0, len(list))
	for _, x := range list {
		v, sig := in.expr(x)
		if sig != nil {
			return nil, sig
		}
		out = append(out, v)
	}
	return out, nil
}

// maxArrayLen bounds arrays built by `[x; n]` and `vec![x; n]`: the
// playground keeps such arrays element by element.
const maxArrayLen = 1 << 20

func (in *interp) repeat(elem, n syntax.Expr, vec bool, r source.Range) (value, *signal) {
	v, sig := in.expr(elem)
	if sig != nil {
		return nil, sig
	}
	nv, sig := in.expr(n)
	if sig != nil {
		return nil, sig
	}
	count, ok := asInt(nv)
	if !ok {
		return unknown, nil
	}
	if count < 0 || count > maxArrayLen {
		// The array would not fit the playground's memory budget; a run
		// stops here as it would if the sandbox ran out of memory.
		in.report(diag.Diagnostic{Code: "playground-memory-limit", Severity: diag.Error,
			Message: fmt.Sprintf("an array of %d elements is larger than the playground's memory budget of %d elements", count, maxArrayLen),
			File:    diag.MainRS, Range: r})
		if in.opts.Mode == Run {
			in.limited = "memory"
			return nil, stop
		}
		return unknown, nil
	}
	if sig := in.stepN(int(count), r); sig != nil {
		return nil, sig
	}
	elems := make([]value, count)
	for i := range elems {
		elems[i] = v
	}
	return &dispatch.Array{Elems: elems, Vec: vec}, nil
}

// stepN charges n steps at once, for work proportional to a size.
func (in *interp) stepN(n int, r source.Range) *signal {
	in.steps += n
	if in.steps > in.opts.StepLimit {
		return in.limit("time", r)
	}
	return nil
}

func (in *interp) literal(e *syntax.LitExpr) value {
	switch e.Kind {
	case syntax.IntLit:
		text := strings.ReplaceAll(strings.TrimSuffix(e.Text, e.Suffix), "_", "")
		if strings.HasPrefix(e.Suffix, "f") { // 2f32
			f, _ := strconv.ParseFloat(text, 64)
			return dispatch.Float{V: f, Suffix: e.Suffix}
		}
		u, err := strconv.ParseUint(text, 0, 64)
		if err != nil && (e.Suffix == "i128" || e.Suffix == "u128") {
			if v, ok := rstd.Parse(text, e.Suffix).(*dispatch.Enum); ok && v.Variant == "Ok" {
				return v.Fields[0]
			}
		}
		if err != nil {
			in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error,
				Message: "integer literal is too large", File: diag.MainRS, Range: e.Range})
			return unknown
		}
		return dispatch.Int{V: int64(u), Suffix: e.Suffix}
	case syntax.FloatLit:
		text := strings.ReplaceAll(strings.TrimSuffix(e.Text, e.Suffix), "_", "")
		f, _ := strconv.ParseFloat(text, 64)
		return rstd.WithType(dispatch.Float{V: f}, e.Suffix)
	case syntax.CharLit:
		if r := []rune(e.Value); len(r) == 1 {
			return rstd.Char(r[0])
		}
		return dispatch.Str(e.Value)
	case syntax.ByteLit:
		if len(e.Value) == 1 {
			return dispatch.Int{V: int64(e.Value[0]), Suffix: "u8"}
		}
		return unknown
	case syntax.StrLit:
		return dispatch.Str(e.Value)
	case syntax.BoolLit:
		return dispatch.Bool(e.Text == "true")
	}
	return unknown
}

func segNames(segs []syntax.PathSegment) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = s.Name
	}
	return out
}

// path evaluates a path used as a value (not called).
func (in *interp) path(e *syntax.PathExpr) (value, *signal) {
	names := segNames(e.Segments)
	if e.QSelf == nil && len(names) == 1 {
		name := names[0]
		if b := in.scope.lookup(name); b != nil {
			return b.v, nil
		}
		switch name {
		case "None":
			return &dispatch.Enum{Type: "Option", Variant: "None"}, nil
		case "self":
			in.report(diag.Diagnostic{Code: "unknown-variable", Severity: diag.Error,
				Message: "`self` is only available in methods", File: diag.MainRS, Range: e.Range})
			return unknown, nil
		}
	}
	segs, m := in.expandSegs(in.mod, in.segsIn(in.mod, e.Segments, nil, 0), 0)
	names = segNamesOf(segs)
	r := in.resolveIn(m, names, 0)
	if e.QSelf != nil {
		r = resolution{external: names}
	}
	if len(names) == 1 && r.external != nil {
		if _, ok := in.lookupIn(m, names[0], 0); !ok {
			if crate := in.foreignGlob(m); crate != "" {
				// `use cubecl::prelude::*;` brings ABSOLUTE_POS_X in.
				return in.otherCrateCall(crate, []string{crate, names[0]}, e.Range), nil
			}
			d := diag.Diagnostic{Code: "unknown-variable", Severity: diag.Error,
				Message: fmt.Sprintf("cannot find value `%s` in this scope", names[0]), File: diag.MainRS, Range: e.Range}
			if near, ok := similar.Name(names[0], in.scope.names()); ok {
				// rustc's help, and its edit.
				d.Help = []string{fmt.Sprintf("a local variable with a similar name exists: `%s`", near)}
				d.Fixes = []diag.Fix{{Title: fmt.Sprintf("Use `%s`", near), Edits: []diag.Edit{{File: diag.MainRS, Range: e.Range, NewText: near}}}}
			}
			in.report(d)
			return unknown, nil
		}
	}
	if r.external == nil {
		return in.itemValue(r, e)
	}
	names = r.external
	if v, ok := rstd.Const(names); ok {
		return v, nil
	}
	if v, ok := dispatch.BurnConst(names); ok {
		return v, nil
	}
	if rstd.HasFunctions(names) {
		return &rstd.FnRef{Path: names}, nil
	}
	if last := names[len(names)-1]; len(names) >= 2 && last != "" && last[0] >= 'a' && last[0] <= 'z' {
		// `.map(Slice::from)`, `.map(activation::relu)`: Burn's function
		// as a value, called when the value is.
		return &burnFn{path: names}, nil
	}
	if len(names) >= 2 {
		return &dispatch.Enum{Type: names[len(names)-2], Variant: names[len(names)-1]}, nil
	}
	return &dispatch.Enum{Type: names[0], Variant: names[0]}, nil
}

// itemValue is the value of a path that names an item of the program: a
// function, a const or static, a unit struct, an enum variant, an
// associated const or function.
func (in *interp) itemValue(r resolution, e *syntax.PathExpr) (value, *signal) {
	it := r.item
	switch {
	case r.unresolved:
		in.report(diag.Diagnostic{Code: "unknown-variable", Severity: diag.Error,
			Message: fmt.Sprintf("failed to resolve: could not find `%s` in `%s`", r.rest[0], in.src.Slice(e.Range)),
			File:    diag.MainRS, Range: e.Range})
		return unknown, nil
	case it.fn != nil && len(r.rest) == 0:
		return &fnValue{decl: it.fn}, nil
	case it.konst != nil && len(r.rest) == 0:
		return in.constValue(it.konst, e.Range)
	case it.typ != nil && len(r.rest) == 0:
		return &dispatch.Enum{Type: it.typ.Name, Variant: it.typ.Name}, nil
	case it.typ != nil && len(r.rest) == 1:
		name := r.rest[0]
		if c, m := in.assocConst(it.typ.Name, name); c != nil {
			return in.constValue(&constItem{decl: c, mod: m}, e.Range)
		}
		if fn := in.assocFn(it.typ.Name, name); fn != nil {
			return &fnValue{decl: fn}, nil
		}
		return &dispatch.Enum{Type: it.typ.Name, Variant: name}, nil
	case it.module != nil && len(r.rest) == 0:
		in.report(diag.Diagnostic{Code: "unknown-variable", Severity: diag.Error,
			Message: fmt.Sprintf("expected value, found module `%s`", in.src.Slice(e.Range)), File: diag.MainRS, Range: e.Range})
		return unknown, nil
	}
	names := append(segNames(e.Segments)[:0:0], r.rest...)
	if len(names) >= 2 {
		return &dispatch.Enum{Type: names[len(names)-2], Variant: names[len(names)-1]}, nil
	}
	if len(names) == 1 {
		return &dispatch.Enum{Type: names[0], Variant: names[0]}, nil
	}
	return unknown, nil
}

func (in *interp) structLit(e *syntax.StructExpr) (value, *signal) {
	segs, m := in.expandSegs(in.mod, in.segsIn(in.mod, e.Path, nil, 0), 0)
	names := segNamesOf(segs)
	r := in.resolveIn(m, names, 0)
	if r.external != nil {
		names = r.external
	}
	en := &dispatch.Enum{Named: map[string]value{}}
	en.Variant = names[len(names)-1]
	if len(names) >= 2 {
		en.Type = names[len(names)-2]
	} else {
		en.Type = en.Variant
	}
	switch it := r.item; {
	case r.external != nil:
	case it.typ != nil && len(r.rest) == 0:
		en.Type, en.Variant = it.typ.Name, it.typ.Name
	case it.typ != nil && len(r.rest) == 1:
		en.Type, en.Variant = it.typ.Name, r.rest[0]
	}
	var declared map[string]*syntax.Type
	if it := r.item; r.external == nil && it.typ != nil && !it.typ.Enum && len(r.rest) == 0 {
		declared = map[string]*syntax.Type{}
		for _, f := range it.typ.Fields {
			declared[f.Name] = f.Type
		}
	}
	for _, f := range e.Fields {
		v, sig := in.expr(f.Value)
		if sig != nil {
			return nil, sig
		}
		en.Named[f.Name] = in.typedAs(v, declared[f.Name])
	}
	return in.finishStructLit(e, en)
}

func (in *interp) try(v value, e *syntax.TryExpr) (value, *signal) {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	if !ok {
		return v, nil
	}
	switch {
	case en.Type == "Result" && en.Variant == "Ok", en.Type == "Option" && en.Variant == "Some":
		if len(en.Fields) == 1 {
			return en.Fields[0], nil
		}
		return dispatch.Unit{}, nil
	case en.Variant == "Err":
		return nil, &signal{kind: sigReturn, value: in.tryErr(en, e)}
	case en.Variant == "None":
		return nil, &signal{kind: sigReturn, value: en}
	}
	return v, nil
}

func (in *interp) field(e *syntax.FieldExpr) (value, *signal) {
	x, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	switch x := dispatch.Deref(x).(type) {
	case dispatch.Unknown:
		return unknown, nil
	case dispatch.Tuple:
		if i, err := strconv.Atoi(e.Name); err == nil && i >= 0 && i < len(x) {
			return x[i], nil
		}
	case *dispatch.Enum:
		if v, ok := x.Named[e.Name]; ok {
			return v, nil
		}
		if i, err := strconv.Atoi(e.Name); err == nil && i >= 0 && i < len(x.Fields) {
			return x.Fields[i], nil
		}
	default:
		if v, ok := nn.Field(x, e.Name); ok {
			return v, nil
		}
		if v, ok := dispatch.Field(x, e.Name); ok {
			return v, nil
		}
	}
	in.report(diag.Diagnostic{Code: "unknown-method", Severity: diag.Error,
		Message: fmt.Sprintf("no field `%s` on type `%s`", e.Name, x.TypeName()), File: diag.MainRS, Range: e.NameSpan})
	return unknown, nil
}

func (in *interp) index(e *syntax.IndexExpr) (value, *signal) {
	x, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	idx, sig := in.expr(e.Index)
	if sig != nil {
		return nil, sig
	}
	if isUnknown(x) || isUnknown(idx) {
		return unknown, nil
	}
	arr, ok := dispatch.Deref(x).(*dispatch.Array)
	if shape, isShape := dispatch.Deref(x).(*dispatch.ShapeValue); isShape {
		// Shape's Index indexes its dims (cubecl-zspace shape.rs, Index<Idx: SliceIndex<[usize]>>).
		arr, ok, x = shapeDims(shape), true, shapeDims(shape)
	}
	if v, handled, sig := in.stdIndex(e, x, idx); handled {
		return v, sig
	}
	if !ok {
		in.report(diag.Diagnostic{Code: "unknown-method", Severity: diag.Error,
			Message: fmt.Sprintf("cannot index into a value of type `%s`", x.TypeName()), File: diag.MainRS, Range: e.Range})
		return unknown, nil
	}
	if r, ok := dispatch.Deref(idx).(*dispatch.Range); ok {
		lo, hi := int64(0), int64(len(arr.Elems))
		if r.Lo != nil {
			lo = *r.Lo
		}
		if r.Hi != nil {
			hi = *r.Hi
			if r.Inclusive {
				hi++
			}
		}
		if lo > hi || hi > int64(len(arr.Elems)) || lo < 0 {
			return in.userPanic(e.Range, rstd.SlicePanic(lo, hi, int64(len(arr.Elems)), r.Hi == nil).Error())
		}
		return &dispatch.Array{Elems: arr.Elems[lo:hi]}, nil
	}
	i, ok := asInt(idx)
	if !ok {
		return unknown, nil
	}
	if i < 0 || i >= int64(len(arr.Elems)) {
		return in.userPanic(e.Range, rstd.IndexPanic(int64(len(arr.Elems)), idx).Error())
	}
	return arr.Elems[i], nil
}

func (in *interp) rangeExpr(e *syntax.RangeExpr) (value, *signal) {
	var lo value
	if e.Lo != nil {
		var sig *signal
		if lo, sig = in.expr(e.Lo); sig != nil {
			return nil, sig
		}
		if f, isFloat := dispatch.Deref(lo).(dispatch.Float); isFloat && e.Hi != nil {
			return in.floatRange(e, f)
		}
	}
	r := &dispatch.Range{Inclusive: e.Inclusive}
	chars := false
	for i, side := range []struct {
		x   syntax.Expr
		dst **int64
	}{{e.Lo, &r.Lo}, {e.Hi, &r.Hi}} {
		if side.x == nil {
			continue
		}
		v := lo
		if i == 1 {
			var sig *signal
			if v, sig = in.expr(side.x); sig != nil {
				return nil, sig
			}
		}
		if isUnknown(v) {
			return unknown, nil
		}
		n, ok := rangeBound(v)
		if !ok {
			in.typeMismatch(side.x.Span(), "an integer", v)
			return unknown, nil
		}
		*side.dst = &n
		_, isChar := dispatch.Deref(v).(rstd.Char)
		chars = isChar
		if i, ok := dispatch.Deref(v).(dispatch.Int); ok && i.Suffix != "" {
			r.Suffix = i.Suffix
		}
	}
	if chars && r.Lo != nil && r.Hi != nil {
		return rstd.CharRange{R: r}, nil
	}
	return r, nil
}

// floatRange is `low..high` or `low..=high` whose low bound is the float
// lf. Its bounds share the float type one of them names.
func (in *interp) floatRange(e *syntax.RangeExpr, lf dispatch.Float) (value, *signal) {
	hi, sig := in.expr(e.Hi)
	if sig != nil {
		return nil, sig
	}
	if isUnknown(hi) {
		return unknown, nil
	}
	hf, isFloat := dispatch.Deref(hi).(dispatch.Float)
	if !isFloat {
		in.typeMismatch(e.Hi.Span(), "`"+lf.TypeName()+"`", hi)
		return unknown, nil
	}
	suffix := lf.Suffix
	if suffix == "" {
		suffix = hf.Suffix
	}
	if suffix != "" {
		lf, _ = rstd.WithType(lf, suffix).(dispatch.Float)
		hf, _ = rstd.WithType(hf, suffix).(dispatch.Float)
	}
	return &dispatch.FloatRange{Lo: lf, Hi: hf, Inclusive: e.Inclusive}, nil
}

// ---- control flow ----

func (in *interp) cond(x syntax.Expr) (b, known bool, sig *signal) {
	v, sig := in.expr(x)
	if sig != nil {
		return false, false, sig
	}
	switch v := dispatch.Deref(v).(type) {
	case dispatch.Bool:
		return bool(v), true, nil
	case dispatch.Unknown:
		return false, false, nil
	}
	in.typeMismatch(x.Span(), "`bool`", v)
	return false, false, nil
}

func (in *interp) ifExpr(e *syntax.IfExpr) (value, *signal) {
	if e.Let != nil {
		v, sig := in.expr(e.Cond)
		if sig != nil {
			return nil, sig
		}
		if isUnknown(v) {
			in.unchecked(e.Cond.Span(), "this `if let`", in.valueOf(e.Cond.Span()), "its first branch was run as if the pattern matched")
		}
		in.push()
		matched := in.matchPattern(e.Let, v, true)
		if matched {
			res, sig := in.guessedIf(isUnknown(v), func() (value, *signal) { return in.block(e.Then) })
			in.pop()
			if sig != nil || !isUnknown(v) || in.opts.Mode == Run {
				return res, sig
			}
		} else {
			in.pop()
		}
		if e.Else != nil && (!matched || isUnknown(v)) {
			return in.guessedIf(isUnknown(v), func() (value, *signal) { return in.expr(e.Else) })
		}
		return dispatch.Unit{}, nil
	}
	b, known, sig := in.cond(e.Cond)
	if sig != nil {
		return nil, sig
	}
	if known {
		if b {
			return in.block(e.Then)
		}
		if e.Else != nil {
			return in.expr(e.Else)
		}
		return dispatch.Unit{}, nil
	}
	// Undecidable condition: a check visits both arms. A run gets here
	// only on a value the engine does not know (see unchecked): it says
	// so, and visits both arms as the check does.
	in.unchecked(e.Cond.Span(), "this `if`", in.valueOf(e.Cond.Span()), "both of its branches were run")
	if _, sig := in.guessedIf(true, func() (value, *signal) { return in.block(e.Then) }); sig != nil && sig.kind == sigStop {
		return nil, sig
	}
	if e.Else != nil {
		if _, sig := in.guessedIf(true, func() (value, *signal) { return in.expr(e.Else) }); sig != nil && sig.kind == sigStop {
			return nil, sig
		}
	}
	return unknown, nil
}

// guessedIf runs a branch the program may not take (when guess is set):
// one whose condition the engine does not know. A panic inside it is not
// the run's, since Burn may never get there; see guessedPanic.
func (in *interp) guessedIf(guess bool, branch func() (value, *signal)) (value, *signal) {
	if !guess {
		return branch()
	}
	in.guessing++
	defer func() { in.guessing-- }()
	return branch()
}

// loopControl reads what ended one iteration of the loop labelled label
// (empty for none): whether the loop must end and the signal to pass on.
// A break or continue that names another label ends this loop too and
// goes on to the one it names.
func loopControl(sig *signal, label string) (end bool, pass *signal) {
	if sig == nil {
		return false, nil
	}
	if (sig.kind == sigBreak || sig.kind == sigContinue) && sig.label != "" && sig.label != label {
		return true, sig
	}
	switch sig.kind {
	case sigBreak:
		return true, nil
	case sigContinue:
		return false, nil
	}
	return true, sig
}

func (in *interp) forExpr(e *syntax.ForExpr) (value, *signal) {
	it, sig := in.expr(e.Iter)
	if sig != nil {
		return nil, sig
	}
	iter := func(v value) (bool, *signal) {
		if sig := in.step(e.Range); sig != nil {
			return true, sig
		}
		in.push()
		in.bindPattern(e.Pat, v)
		_, sig := in.block(e.Body)
		in.pop()
		return loopControl(sig, e.Label)
	}
	if r, ok := it.(*dispatch.Ref); ok && r.Mut {
		if arr, ok := dispatch.Deref(r.V).(*dispatch.Array); ok {
			// `for x in &mut v`: each element a slot written back.
			it = rstd.IterMut(&stdCaller{in: in, r: e.Iter.Span()}, arr)
		}
	}
	switch x := dispatch.Deref(it).(type) {
	case *dispatch.Range:
		if x.Lo == nil {
			in.typeMismatch(e.Iter.Span(), "a range with a start", x)
			return unknown, nil
		}
		hi := int64(math.MaxInt64)
		if x.Hi != nil {
			hi = *x.Hi
		}
		suffix := x.Suffix
		for i := *x.Lo; i < hi || (x.Inclusive && i == hi); i++ {
			if end, pass := iter(dispatch.Int{V: i, Suffix: suffix}); end {
				return dispatch.Unit{}, pass
			}
			if i == math.MaxInt64 {
				break
			}
		}
		return dispatch.Unit{}, nil
	case *dispatch.Array:
		for _, el := range x.Elems {
			if end, pass := iter(el); end {
				return dispatch.Unit{}, pass
			}
		}
		return dispatch.Unit{}, nil
	case dispatch.Unknown:
		// A loop over values the engine does not know runs once, with an
		// unknown element, as a check visits both arms of an if: Burn
		// may run it any number of times, so a panic inside is a guess.
		in.unchecked(e.Iter.Span(), "this `for` loop", in.valueOf(e.Iter.Span()), "its body was run once, with an unknown element")
		_, pass := in.guessedIf(true, func() (value, *signal) {
			_, pass := iter(unknown)
			return nil, pass
		})
		return dispatch.Unit{}, pass
	}
	if en, ok := dispatch.Deref(it).(*dispatch.Enum); ok {
		if ui, ok := in.userIter(en, e.Iter.Span()); ok {
			it = ui
		}
	}
	if it, ok := rstd.IntoIter(&stdCaller{in: in, r: e.Iter.Span()}, it); ok {
		// An iterator pulls one element an iteration.
		for {
			el, more, err := it.Next()
			if err != nil || !more {
				if err == nil && it.Open() {
					in.forgetOpenLoop(e.Body)
				}
				_, sig := in.stdResult(nil, err, e.Iter.Span(), e.Iter.Span())
				return dispatch.Unit{}, sig
			}
			if end, pass := iter(el); end {
				it.Close()
				return dispatch.Unit{}, pass
			}
		}
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("`%s` is not an iterator", it.TypeName()), File: diag.MainRS, Range: e.Iter.Span()})
	return unknown, nil
}

func (in *interp) whileExpr(e *syntax.WhileExpr) (value, *signal) {
	for {
		if sig := in.step(e.Range); sig != nil {
			return nil, sig
		}
		if e.Let != nil {
			v, sig := in.expr(e.Cond)
			if sig != nil {
				return nil, sig
			}
			if isUnknown(v) {
				in.unchecked(e.Cond.Span(), "this `while let`", in.valueOf(e.Cond.Span()), "its body was run once")
			}
			in.push()
			if !in.matchPattern(e.Let, v, true) {
				in.pop()
				return dispatch.Unit{}, nil
			}
			_, sig = in.guessedIf(isUnknown(v), func() (value, *signal) { return in.block(e.Body) })
			in.pop()
			if end, pass := loopControl(sig, e.Label); end || isUnknown(v) {
				return dispatch.Unit{}, pass
			}
			continue
		}
		b, known, sig := in.cond(e.Cond)
		if sig != nil {
			return nil, sig
		}
		if !known {
			in.unchecked(e.Cond.Span(), "this `while`", in.valueOf(e.Cond.Span()), "its body was run once")
		}
		if known && !b {
			return dispatch.Unit{}, nil
		}
		_, sig = in.guessedIf(!known, func() (value, *signal) { return in.block(e.Body) })
		if end, pass := loopControl(sig, e.Label); end || !known {
			return dispatch.Unit{}, pass
		}
	}
}

// Each iteration of a loop is a step, so that a loop with an empty body
// (`loop {}`) still ends at the step budget.
func (in *interp) loopExpr(e *syntax.LoopExpr) (value, *signal) {
	for {
		if sig := in.step(e.Range); sig != nil {
			return nil, sig
		}
		_, sig := in.block(e.Body)
		if sig != nil && (sig.kind == sigBreak || sig.kind == sigContinue) && sig.label != "" && sig.label != e.Label {
			return nil, sig
		}
		if sig != nil {
			switch sig.kind {
			case sigBreak:
				if sig.value != nil {
					return sig.value, nil
				}
				return dispatch.Unit{}, nil
			case sigContinue:
				continue
			}
			return nil, sig
		}
	}
}

func (in *interp) matchExpr(e *syntax.MatchExpr) (value, *signal) {
	v, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	in.checkMatch(e, v)
	if isUnknown(v) && len(e.Arms) > 1 {
		in.unchecked(e.X.Span(), "this `match`", in.valueOf(e.X.Span()), "its first arm was run as if it matched")
	}
	for _, arm := range e.Arms {
		if !in.build.Compiled(arm.Attrs) {
			continue
		}
		in.push()
		matched, guessedArm := false, false
		for _, p := range arm.Pats {
			if in.matchPattern(p, v, true) {
				matched = true
				break
			}
		}
		if matched && arm.Guard != nil {
			b, known, sig := in.cond(arm.Guard)
			if sig != nil {
				in.pop()
				return nil, sig
			}
			if !known {
				in.unchecked(arm.Guard.Span(), "this match guard", in.valueOf(arm.Guard.Span()), "its arm was run as if it held")
				guessedArm = true
			}
			matched = b || !known
		}
		if matched {
			res, sig := in.guessedIf(guessedArm || isUnknown(v) && len(e.Arms) > 1, func() (value, *signal) { return in.expr(arm.Body) })
			in.pop()
			if sig != nil || !isUnknown(v) || in.opts.Mode == Run {
				return res, sig
			}
			continue // a check visits every arm of an undecidable match
		}
		in.pop()
	}
	if isUnknown(v) {
		return unknown, nil
	}
	return in.userPanic(e.Range, "internal error: entered unreachable code: no match arm matched")
}

package expand

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/cfg"
	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// Limits of expansion. RecursionLimit is rustc's default recursion_limit;
// the others bound what hostile input can make the playground build.
const (
	RecursionLimit = 128
	// MaxTokens bounds the tokens all expansions of one program produce.
	MaxTokens = 1 << 16
	// MaxExpansions bounds the macro calls one program expands.
	MaxExpansions = 100_000
)

// Options is what expansion knows of the build: Cargo's variables come
// from the package, cfg! tests its features, the target and the test
// flag.
type Options struct {
	Package config.Package
	// Target is the build target triple; empty means the host
	// (x86_64-unknown-linux-gnu).
	Target string
	// Test is set when the program is built as a test harness (cfg(test)).
	Test bool
}

// Expand expands, in place, every macro call of f that expansion owns:
// the program's own macro_rules! macros and the built-ins that rustc
// expands before type checking (stringify!, concat!, env!, line!, ...).
// The built-ins that evaluate their arguments (println!, assert!, vec!,
// the log and tracing macros, ...) are left to the evaluator, with their
// arguments parsed and expanded. src is main.rs; the text of every
// expansion is added to it as generated text (see source.File.Generate),
// and the nodes built from an expansion have their ranges there.
func Expand(f *syntax.File, src *source.File, opts Options) diag.List {
	x := &expander{
		src: src, opts: opts, names: map[string]bool{}, later: map[string]source.Range{},
		exported: map[string]*macroDef{}, imports: map[string]string{},
		scope: &scope{macros: map[string]*macroDef{}},
		build: cfg.New(opts.Package.Features, opts.Test, opts.Target),
	}
	x.prescan(f)
	x.file(f)
	x.diags.Sort()
	return x.diags
}

// macroDef is one macro_rules! definition.
type macroDef struct {
	name  string
	rules []*rule
	head  source.Range
}

// scope holds the macros defined in a block or module, for macro_rules!'s
// textual scoping: a macro is visible after its definition, in the rest of
// the block or module that holds it and in what that contains.
type scope struct {
	parent *scope
	macros map[string]*macroDef
}

func (s *scope) lookup(name string) *macroDef {
	for ; s != nil; s = s.parent {
		if d, ok := s.macros[name]; ok {
			return d
		}
	}
	return nil
}

type expander struct {
	src   *source.File
	opts  Options
	build cfg.Build
	diags diag.List
	scope *scope
	// exported holds the #[macro_export] macros, which `crate::name!` and
	// `$crate::name!` reach from anywhere.
	exported map[string]*macroDef
	// names holds the name of every macro_rules! macro of the program, so
	// that the parser keeps their calls as token trees; later holds where
	// the macros not defined yet at the current point of the walk are.
	names map[string]bool
	later map[string]source.Range
	// imports maps a name brought in by `use` to its path ("info" ->
	// "log::info"), to recognise the log and tracing macros.
	imports map[string]string
	// modPath is the module path of the walk, for module_path!.
	modPath []string

	depth      int // nesting of expansions being expanded
	expansions int
	tokens     int
	hygieneN   int
	// callRange is the invocation being expanded, for limits reported
	// inside it.
	callRange source.Range
	// stopped is set once a limit was reported: nothing more is expanded.
	stopped bool
	// quiet counts the enclosing nodes that #[cfg] leaves out.
	quiet int
}

func (x *expander) add(d diag.Diagnostic) {
	if x.quiet == 0 && len(x.diags) < syntax.MaxDiagnostics {
		x.diags.Add(d)
	}
}

// prescan records the names of the program's macros and its imports.
func (x *expander) prescan(f *syntax.File) {
	f.Walk(func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.MacroRulesDecl:
			x.names[n.Name] = true
			if _, seen := x.later[n.Name]; !seen {
				x.later[n.Name] = n.NameSpan
			}
		case *syntax.UseDecl:
			for _, l := range n.Leaves {
				if l.Glob {
					x.imports["*"+l.Path] = l.Path
					continue
				}
				name := l.Alias
				if name == "" {
					name = l.Path
					if i := strings.LastIndex(name, "::"); i >= 0 {
						name = name[i+2:]
					}
				}
				x.imports[name] = strings.TrimPrefix(l.Path, "::")
			}
		case *syntax.ExternCrateDecl:
			for _, a := range n.Attrs {
				if a.Path == "macro_use" {
					x.imports["*"+n.Name+"::*"] = n.Name + "::*"
				}
			}
		}
		return true
	})
}

// ---- the walk ----

func (x *expander) file(f *syntax.File) {
	items, stmts := f.Items, f.Stmts
	var outItems []syntax.Item
	var outStmts []syntax.Stmt
	for len(items) > 0 || len(stmts) > 0 {
		if len(stmts) == 0 || len(items) > 0 && items[0].Span().Start <= stmts[0].Span().Start {
			outItems = append(outItems, x.item(items[0])...)
			items = items[1:]
			continue
		}
		call := isMacroStmt(stmts[0])
		for _, s := range x.stmt(stmts[0]) {
			switch s := s.(type) {
			case *syntax.ItemStmt:
				outItems = append(outItems, s.Item)
			case *syntax.ExprStmt:
				// A top-level macro call that failed leaves nothing: a
				// bare statement would stand in for main.
				if _, bad := s.X.(*syntax.BadExpr); bad && call {
					continue
				}
				outStmts = append(outStmts, s)
			default:
				outStmts = append(outStmts, s)
			}
		}
		stmts = stmts[1:]
	}
	f.Items, f.Stmts = outItems, outStmts
}

func isMacroStmt(s syntax.Stmt) bool {
	es, ok := s.(*syntax.ExprStmt)
	if !ok {
		return false
	}
	m, ok := es.X.(*syntax.MacroExpr)
	return ok && m.Tokens != nil
}

func (x *expander) push() { x.scope = &scope{parent: x.scope, macros: map[string]*macroDef{}} }
func (x *expander) pop()  { x.scope = x.scope.parent }

func hasAttr(attrs []*syntax.Attr, name string) bool {
	for _, a := range attrs {
		if a.Path == name {
			return true
		}
	}
	return false
}

// define records a macro_rules! definition where the walk stands.
func (x *expander) define(d *syntax.MacroRulesDecl) {
	def := &macroDef{name: d.Name, rules: x.compileRules(d), head: x.head(d)}
	x.scope.macros[d.Name] = def
	x.names[d.Name] = true
	delete(x.later, d.Name)
	if hasAttr(d.Attrs, "macro_export") {
		x.exported[d.Name] = def
	}
}

// head is the `macro_rules! name` of a definition, without its attributes.
func (x *expander) head(d *syntax.MacroRulesDecl) source.Range {
	text, base := x.src.TextAt(d.NameSpan.Start)
	from := d.Range.Start
	if i := strings.LastIndex(text[max(from-base, 0):max(d.NameSpan.Start-base, 0)], "macro_rules"); i >= 0 {
		from += i
	}
	return source.Range{Start: from, End: d.NameSpan.End}
}

func (x *expander) items(list []syntax.Item) []syntax.Item {
	var out []syntax.Item
	for _, it := range list {
		out = append(out, x.item(it)...)
	}
	return out
}

// item expands inside an item and returns what stands in its place: the
// item itself, or what a macro call expanded to. Inside an item that
// `#[cfg]` leaves out, expansion still runs (a test build may keep it) but
// reports nothing.
func (x *expander) item(it syntax.Item) []syntax.Item {
	defer x.gate(itemAttrs(it))()
	switch it := it.(type) {
	case *syntax.MacroRulesDecl:
		x.define(it)
	case *syntax.MacroItem:
		return x.expandItems(it.Call, false)
	case *syntax.FnDecl:
		x.fn(it)
	case *syntax.ImplDecl:
		x.generics(it.Generics)
		it.Trait, it.For = x.typ(it.Trait), x.typ(it.For)
		x.where(it.Where)
		it.Methods, it.Assoc = x.members(it.Methods, it.Assoc)
	case *syntax.TraitDecl:
		x.generics(it.Generics)
		x.types(it.Supers)
		x.where(it.Where)
		it.Methods, it.Assoc = x.members(it.Methods, it.Assoc)
	case *syntax.StructDecl:
		x.generics(it.Generics)
		x.where(it.Where)
		x.fields(it.Fields)
	case *syntax.ModDecl:
		x.push()
		x.modPath = append(x.modPath, it.Name)
		it.Items = x.items(it.Items)
		x.modPath = x.modPath[:len(x.modPath)-1]
		inner := x.scope
		x.pop()
		if hasAttr(it.Attrs, "macro_use") {
			for name, d := range inner.macros {
				x.scope.macros[name] = d
			}
		}
	case *syntax.ConstDecl:
		it.Type = x.typ(it.Type)
		it.Value = x.expr(it.Value)
	case *syntax.TypeAliasDecl:
		x.generics(it.Generics)
		x.types(it.Bounds)
		it.Type = x.typ(it.Type)
	}
	return []syntax.Item{it}
}

func itemAttrs(it syntax.Item) []*syntax.Attr {
	switch it := it.(type) {
	case *syntax.MacroRulesDecl:
		return it.Attrs
	case *syntax.MacroItem:
		return it.Attrs
	case *syntax.FnDecl:
		return it.Attrs
	case *syntax.ImplDecl:
		return it.Attrs
	case *syntax.TraitDecl:
		return it.Attrs
	case *syntax.StructDecl:
		return it.Attrs
	case *syntax.ModDecl:
		return it.Attrs
	case *syntax.ConstDecl:
		return it.Attrs
	case *syntax.TypeAliasDecl:
		return it.Attrs
	}
	return nil
}

// gate silences diagnostics inside what `#[cfg]` leaves out; call the
// function it returns when leaving.
func (x *expander) gate(attrs []*syntax.Attr) func() {
	if !x.build.OffEverywhere(attrs) {
		return func() {}
	}
	x.quiet++
	return func() { x.quiet-- }
}

func (x *expander) fn(f *syntax.FnDecl) {
	x.generics(f.Generics)
	for _, p := range f.Params {
		p.Pat = x.pat(p.Pat)
		p.Type = x.typ(p.Type)
	}
	f.Result = x.typ(f.Result)
	x.where(f.Where)
	if f.Body != nil {
		x.block(f.Body)
	}
}

// members expands a trait's or impl's items; a macro call among them may
// add methods and other items.
func (x *expander) members(methods []*syntax.FnDecl, assoc []syntax.Item) ([]*syntax.FnDecl, []syntax.Item) {
	for _, m := range methods {
		done := x.gate(m.Attrs)
		x.fn(m)
		done()
	}
	var others []syntax.Item
	for _, it := range assoc {
		mi, ok := it.(*syntax.MacroItem)
		if !ok {
			others = append(others, x.item(it)...)
			continue
		}
		done := x.gate(mi.Attrs)
		expanded := x.expandItems(mi.Call, true)
		done()
		for _, e := range expanded {
			if fn, ok := e.(*syntax.FnDecl); ok {
				methods = append(methods, fn)
			} else {
				others = append(others, e)
			}
		}
	}
	return methods, others
}

func (x *expander) fields(fs []*syntax.Field) {
	for _, f := range fs {
		done := x.gate(f.Attrs)
		f.Type = x.typ(f.Type)
		x.fields(f.Fields)
		f.Discriminant = x.expr(f.Discriminant)
		done()
	}
}

func (x *expander) generics(gs []*syntax.Generic) {
	for _, g := range gs {
		x.types(g.Bounds)
		if g.Default != nil {
			x.genericArg(g.Default)
		}
	}
}

func (x *expander) where(ws []*syntax.WherePredicate) {
	for _, w := range ws {
		w.Type = x.typ(w.Type)
		x.types(w.Bounds)
	}
}

func (x *expander) types(ts []*syntax.Type) {
	for i := range ts {
		ts[i] = x.typ(ts[i])
	}
}

func (x *expander) genericArg(g *syntax.GenericArg) {
	g.Type = x.typ(g.Type)
	g.Const = x.expr(g.Const)
}

func (x *expander) path(segs []syntax.PathSegment) {
	for i := range segs {
		for j := range segs[i].Generics {
			x.genericArg(&segs[i].Generics[j])
		}
		x.types(segs[i].FnArgs)
		segs[i].FnResult = x.typ(segs[i].FnResult)
	}
}

// ---- statements ----

func (x *expander) block(b *syntax.BlockExpr) {
	if b == nil {
		return
	}
	x.push()
	b.Stmts = x.stmts(b.Stmts)
	x.pop()
}

func (x *expander) stmts(list []syntax.Stmt) []syntax.Stmt {
	var out []syntax.Stmt
	for _, s := range list {
		out = append(out, x.stmt(s)...)
	}
	return out
}

func (x *expander) stmt(s syntax.Stmt) []syntax.Stmt {
	switch s := s.(type) {
	case *syntax.LetStmt:
		defer x.gate(s.Attrs)()
		s.Pat = x.pat(s.Pat)
		s.Type = x.typ(s.Type)
		s.Init = x.expr(s.Init)
		x.block(s.Else)
	case *syntax.ExprStmt:
		defer x.gate(s.Attrs)()
		if m, ok := s.X.(*syntax.MacroExpr); ok && m.Tokens != nil {
			return x.stmtMacro(s, m)
		}
		s.X = x.expr(s.X)
	case *syntax.ItemStmt:
		var out []syntax.Stmt
		for _, it := range x.item(s.Item) {
			out = append(out, &syntax.ItemStmt{Item: it})
		}
		return out
	}
	return []syntax.Stmt{s}
}

// stmtMacro expands a macro call in statement position: a program's macro
// expands to statements; a built-in stands as an expression statement.
func (x *expander) stmtMacro(s *syntax.ExprStmt, m *syntax.MacroExpr) []syntax.Stmt {
	def := x.resolve(m)
	if def == nil {
		if items, ok := x.burnItemMacro(m); ok {
			// kernel_source! at the top of a snippet declares items.
			var out []syntax.Stmt
			for _, it := range items {
				out = append(out, &syntax.ItemStmt{Item: it})
			}
			return out
		}
		s.X = x.expr(m)
		return []syntax.Stmt{s}
	}
	stmts, ok := x.expandUser(m, def, posStmts)
	if !ok {
		return []syntax.Stmt{&syntax.ExprStmt{Range: s.Range, X: &syntax.BadExpr{Range: m.Range}, Semi: s.Semi}}
	}
	list := stmts.([]syntax.Stmt)
	if s.Semi && len(list) > 0 {
		if last, ok := list[len(list)-1].(*syntax.ExprStmt); ok {
			last.Semi = true
		}
	}
	return list
}

// ---- patterns and types ----

func (x *expander) pat(p syntax.Pattern) syntax.Pattern {
	switch p := p.(type) {
	case *syntax.MacroPat:
		def := x.resolve(p.Call)
		if def == nil {
			x.unknown(p.Call)
			return &syntax.BadPat{Range: p.Range}
		}
		out, ok := x.expandUser(p.Call, def, posPat)
		if !ok {
			return &syntax.BadPat{Range: p.Range}
		}
		return out.(syntax.Pattern)
	case *syntax.IdentPat:
		p.Sub = x.pat(p.Sub)
	case *syntax.TuplePat:
		x.pats(p.Elems)
	case *syntax.TupleStructPat:
		x.path(p.Path)
		x.pats(p.Elems)
	case *syntax.LitPat:
		p.Lit = x.expr(p.Lit)
	case *syntax.StructPat:
		x.path(p.Path)
		for _, f := range p.Fields {
			f.Pat = x.pat(f.Pat)
		}
	case *syntax.RefPat:
		p.Pat = x.pat(p.Pat)
	case *syntax.RangePat:
		p.Lo, p.Hi = x.expr(p.Lo), x.expr(p.Hi)
	case *syntax.SlicePat:
		x.pats(p.Elems)
	case *syntax.OrPat:
		x.pats(p.Alts)
	case *syntax.ParenPat:
		p.Pat = x.pat(p.Pat)
	}
	return p
}

func (x *expander) pats(ps []syntax.Pattern) {
	for i := range ps {
		ps[i] = x.pat(ps[i])
	}
}

func (x *expander) typ(t *syntax.Type) *syntax.Type {
	if t == nil {
		return nil
	}
	if t.Kind == syntax.TypeMacro && t.Macro != nil {
		def := x.resolve(t.Macro)
		if def == nil {
			x.unknown(t.Macro)
			return &syntax.Type{Kind: syntax.TypeBad, Range: t.Range}
		}
		out, ok := x.expandUser(t.Macro, def, posType)
		if !ok {
			return &syntax.Type{Kind: syntax.TypeBad, Range: t.Range}
		}
		return out.(*syntax.Type)
	}
	t.QSelf, t.QTrait = x.typ(t.QSelf), x.typ(t.QTrait)
	x.path(t.Path)
	x.types(t.Elems)
	t.Len = x.expr(t.Len)
	x.types(t.Bounds)
	t.Result = x.typ(t.Result)
	return t
}

// ---- expressions ----

func (x *expander) exprs(es []syntax.Expr) {
	for i := range es {
		es[i] = x.expr(es[i])
	}
}

func (x *expander) expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *syntax.MacroExpr:
		if e.Tokens == nil {
			x.builtinArgs(e)
			return e
		}
		return x.exprMacro(e)
	case *syntax.PathExpr:
		e.QSelf, e.QTrait = x.typ(e.QSelf), x.typ(e.QTrait)
		x.path(e.Segments)
	case *syntax.CallExpr:
		e.Fun = x.expr(e.Fun)
		x.exprs(e.Args)
	case *syntax.MethodCallExpr:
		e.Recv = x.expr(e.Recv)
		for i := range e.Generics {
			x.genericArg(&e.Generics[i])
		}
		x.exprs(e.Args)
	case *syntax.FieldExpr:
		e.X = x.expr(e.X)
	case *syntax.IndexExpr:
		e.X, e.Index = x.expr(e.X), x.expr(e.Index)
	case *syntax.UnaryExpr:
		e.X = x.expr(e.X)
	case *syntax.BinaryExpr:
		e.X, e.Y = x.expr(e.X), x.expr(e.Y)
	case *syntax.AssignExpr:
		e.Lhs, e.Rhs = x.expr(e.Lhs), x.expr(e.Rhs)
	case *syntax.CastExpr:
		e.X = x.expr(e.X)
		e.Type = x.typ(e.Type)
	case *syntax.ArrayExpr:
		x.exprs(e.Elems)
	case *syntax.ArrayRepeatExpr:
		e.Elem, e.Len = x.expr(e.Elem), x.expr(e.Len)
	case *syntax.TupleExpr:
		x.exprs(e.Elems)
	case *syntax.ParenExpr:
		e.X = x.expr(e.X)
	case *syntax.RangeExpr:
		e.Lo, e.Hi = x.expr(e.Lo), x.expr(e.Hi)
	case *syntax.BlockExpr:
		x.block(e)
	case *syntax.IfExpr:
		e.Let = x.pat(e.Let)
		e.Cond = x.expr(e.Cond)
		x.block(e.Then)
		e.Else = x.expr(e.Else)
	case *syntax.ForExpr:
		e.Pat = x.pat(e.Pat)
		e.Iter = x.expr(e.Iter)
		x.block(e.Body)
	case *syntax.WhileExpr:
		e.Let = x.pat(e.Let)
		e.Cond = x.expr(e.Cond)
		x.block(e.Body)
	case *syntax.LoopExpr:
		x.block(e.Body)
	case *syntax.MatchExpr:
		e.X = x.expr(e.X)
		for _, a := range e.Arms {
			x.arm(a)
		}
	case *syntax.BreakExpr:
		e.Value = x.expr(e.Value)
	case *syntax.ReturnExpr:
		e.Value = x.expr(e.Value)
	case *syntax.ClosureExpr:
		for _, p := range e.Params {
			p.Pat = x.pat(p.Pat)
			p.Type = x.typ(p.Type)
		}
		e.Result = x.typ(e.Result)
		e.Body = x.expr(e.Body)
	case *syntax.StructExpr:
		x.path(e.Path)
		for _, f := range e.Fields {
			f.Value = x.expr(f.Value)
		}
		e.Base = x.expr(e.Base)
	case *syntax.TryExpr:
		e.X = x.expr(e.X)
	case *syntax.AwaitExpr:
		e.X = x.expr(e.X)
	}
	return e
}

func (x *expander) arm(a *syntax.MatchArm) {
	x.pats(a.Pats)
	a.Guard = x.expr(a.Guard)
	a.Body = x.expr(a.Body)
}

// builtinArgs expands inside the parsed arguments of a built-in the
// evaluator runs.
func (x *expander) builtinArgs(m *syntax.MacroExpr) {
	x.exprs(m.Args)
	x.exprs(m.Steps)
	if m.Arm != nil {
		x.arm(m.Arm)
	}
	x.exprs(m.Fields)
}

// exprMacro expands a token-tree macro call in expression position.
func (x *expander) exprMacro(m *syntax.MacroExpr) syntax.Expr {
	if def := x.resolve(m); def != nil {
		out, ok := x.expandUser(m, def, posExpr)
		if !ok {
			return &syntax.BadExpr{Range: m.Range}
		}
		return out.(syntax.Expr)
	}
	return x.builtin(m)
}

// ---- resolution ----

// resolve finds the program's macro a call names, or nil: a bare name by
// macro_rules!'s textual scope (or a #[macro_export] macro), a
// `crate::name` or `$crate::name` path among the exported ones.
func (x *expander) resolve(m *syntax.MacroExpr) *macroDef {
	switch {
	case len(m.Path) <= 1:
		if d := x.scope.lookup(m.Name); d != nil {
			return d
		}
		return x.exported[m.Name]
	case len(m.Path) == 2 && (m.Path[0] == "crate" || m.Path[0] == "self" || m.Path[0] == "super"):
		if d := x.exported[m.Name]; d != nil {
			return d
		}
		return x.scope.lookup(m.Name)
	}
	return nil
}

// unknown reports a call of a macro that is neither the program's nor a
// built-in.
func (x *expander) unknown(m *syntax.MacroExpr) {
	r := m.NameSpan
	if r.End > r.Start {
		r.End-- // the `!`
	}
	path := strings.Join(m.Path, "::")
	if path == "" {
		path = m.Name
	}
	var later *source.Range
	if at, ok := x.later[m.Name]; ok && len(m.Path) <= 1 {
		later = &at
	}
	x.add(errUnknownMacro(r, path, later))
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// curFn is the hidden variable a call binds to the function it runs, so
// that `?` finds the error type the function returns. No Rust name can
// spell it.
const curFn = "\x00fn"

// tryErr is the value `x?` returns on an `Err(e)`: `Err(From::from(e))`
// when the function's error type is one of the program's types with an
// `impl From<..>` that takes e, and the Err itself otherwise.
func (in *interp) tryErr(en *dispatch.Enum, e *syntax.TryExpr) value {
	if len(en.Fields) != 1 {
		return en
	}
	b := in.scope.lookup(curFn)
	if b == nil {
		return en
	}
	fv, ok := b.v.(*fnValue)
	if !ok || fv.decl.Result == nil {
		return en
	}
	target := errorTypeOf(fv.decl.Result)
	if target == "" || in.structs[target] == nil {
		return en
	}
	payload := en.Fields[0]
	if pe, ok := dispatch.Deref(payload).(*dispatch.Enum); ok && pe.Type == target {
		return en
	}
	from := in.fromImpl(target, payload)
	if from == nil {
		return en
	}
	v, sig := in.callUser(from, []value{payload}, e.Range)
	if sig != nil || v == nil {
		return en
	}
	return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []value{v}}
}

// errorTypeOf is E of a written `Result<T, E>`.
func errorTypeOf(t *syntax.Type) string {
	if t.Kind != syntax.TypePath || len(t.Path) == 0 {
		return ""
	}
	last := t.Path[len(t.Path)-1]
	if last.Name != "Result" || len(last.Generics) != 2 || last.Generics[1].Type == nil {
		return ""
	}
	return lastSeg(last.Generics[1].Type)
}

// fromImpl is the `from` of the program's `impl From<S> for target` whose
// S is the payload's type, or the only From impl of target.
func (in *interp) fromImpl(target string, payload value) *syntax.FnDecl {
	var only *syntax.FnDecl
	n := 0
	name := dispatch.Deref(payload).TypeName()
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.Trait) != "From" || lastSeg(im.For) != target {
			continue
		}
		var fn *syntax.FnDecl
		for _, m := range im.Methods {
			if m.Name == "from" {
				fn = m
			}
		}
		if fn == nil {
			continue
		}
		n++
		only = fn
		seg := im.Trait.Path[len(im.Trait.Path)-1]
		if len(seg.Generics) == 1 && seg.Generics[0].Type != nil && lastSeg(seg.Generics[0].Type) == name {
			return fn
		}
	}
	if n == 1 {
		return only
	}
	return nil
}

// checkLetElse is rustc's E0308 on a `let ... else` whose else block can
// finish normally.
func (in *interp) checkLetElse(s *syntax.LetStmt) {
	if s.Else == nil || diverges(s.Else) {
		return
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: "`else` clause of `let...else` does not diverge", File: diag.MainRS, Range: s.Else.Range,
		Help: []string{"expected `!`, found `()`: try adding a diverging expression, such as `return` or `panic!(..)`"}})
}

// diverges reports whether evaluating x never finishes normally, as
// rustc's type `!` tells: return, break, continue, a panicking macro,
// a `loop` without a break, process::exit, or a block, if or match made
// only of such.
func diverges(x syntax.Node) bool {
	switch x := x.(type) {
	case *syntax.BlockExpr:
		for _, s := range x.Stmts {
			if diverges(s) {
				return true
			}
		}
		return false
	case *syntax.ExprStmt:
		return diverges(x.X)
	case *syntax.LetStmt:
		return x.Init != nil && diverges(x.Init)
	case *syntax.ReturnExpr, *syntax.BreakExpr, *syntax.ContinueExpr:
		return true
	case *syntax.ParenExpr:
		return diverges(x.X)
	case *syntax.MacroExpr:
		switch x.Name {
		case "panic", "unreachable", "todo", "unimplemented":
			return true
		}
	case *syntax.CallExpr:
		if p, ok := x.Fun.(*syntax.PathExpr); ok && len(p.Segments) > 0 {
			last := p.Segments[len(p.Segments)-1].Name
			if last == "exit" || last == "abort" {
				return true
			}
		}
	case *syntax.LoopExpr:
		return !breaksOut(x.Body, x.Label, 0)
	case *syntax.IfExpr:
		return x.Else != nil && diverges(x.Then) && diverges(x.Else)
	case *syntax.MatchExpr:
		if diverges(x.X) {
			return true
		}
		if len(x.Arms) == 0 {
			return false
		}
		for _, a := range x.Arms {
			if !diverges(a.Body) {
				return false
			}
		}
		return true
	}
	return false
}

// breaksOut reports whether body has a break that ends the loop labelled
// label: an unlabelled one outside inner loops, or one naming the label.
func breaksOut(n syntax.Node, label string, depth int) bool {
	found := false
	syntax.Inspect(n, func(c syntax.Node) bool {
		if found {
			return false
		}
		switch c := c.(type) {
		case *syntax.BreakExpr:
			if c.Label == "" && depth == 0 || c.Label != "" && c.Label == label {
				found = true
			}
		case *syntax.LoopExpr, *syntax.WhileExpr, *syntax.ForExpr:
			if c != n {
				var body *syntax.BlockExpr
				switch l := c.(type) {
				case *syntax.LoopExpr:
					body = l.Body
				case *syntax.WhileExpr:
					body = l.Body
				case *syntax.ForExpr:
					body = l.Body
				}
				if label != "" && breaksOut(body, label, depth+1) {
					found = true
				}
				return false
			}
		case *syntax.ClosureExpr:
			return false
		}
		return true
	})
	return found
}

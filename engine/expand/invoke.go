package expand

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// position is where a macro call stands, which decides how its expansion
// is parsed: rustc's AstFragmentKind.
type position int

const (
	posExpr position = iota
	posStmts
	posItems
	posAssoc
	posPat
	posType
)

// expandUser expands a call of one of the program's macros: the rules are
// tried in order, the first that matches is transcribed, its output parsed
// for the call's position and expanded in turn. It returns an Expr, a
// []Stmt, a []Item, a Pattern or a *Type, and false when the call failed
// (the error is reported).
func (x *expander) expandUser(m *syntax.MacroExpr, def *macroDef, pos position) (any, bool) {
	if x.stopped {
		return nil, false
	}
	if x.depth >= RecursionLimit {
		x.add(errRecursionLimit(m.Range, def.name, crateName(x.opts.Package.Name)))
		x.stopped = true
		return nil, false
	}
	if x.expansions++; x.expansions > MaxExpansions {
		x.add(errExpansionTooLarge(m.Range))
		x.stopped = true
		return nil, false
	}
	saved := x.callRange
	x.callRange = m.Range
	defer func() { x.callRange = saved }()

	in := input{toks: x.tokensAt(m.Tokens, m.Range.Start)}
	in.eof = syntax.Token{Kind: syntax.EOF, Range: m.Close}
	in.eof.Range.End = in.eof.Range.Start
	var best *failure
	for _, r := range def.rules {
		binds, res, f := x.matchRule(def.name, r, in)
		switch res {
		case matched:
			return x.expandRule(m, def, r, binds, pos)
		case reported:
			return nil, false
		}
		if best == nil || f.pos > best.pos {
			best = &f
		}
	}
	if best != nil {
		x.add(errNoRuleMatches(*best, def.head))
	}
	return nil, false
}

func (x *expander) expandRule(m *syntax.MacroExpr, def *macroDef, r *rule, binds map[string]*binding, pos position) (any, bool) {
	out, ok := x.transcribe(r, binds, r.size+2*len(m.Tokens))
	if !ok {
		return nil, false
	}
	x.hygiene(out)
	toks := x.layout(out, m.Range, def.name)
	x.depth++
	defer func() { x.depth-- }()
	switch pos {
	case posExpr:
		e, rest, diags := syntax.ParseExpr(toks)
		if !x.parsed(diags, rest, m, def, "expression") {
			return nil, false
		}
		return x.expr(e), true
	case posStmts:
		stmts, diags := syntax.ParseStmts(toks)
		if !x.parsed(diags, syntax.Token{Kind: syntax.EOF}, m, def, "statement") {
			return nil, false
		}
		return x.stmts(stmts), true
	case posItems, posAssoc:
		items, diags := syntax.ParseItems(toks, pos == posAssoc)
		if !x.parsed(diags, syntax.Token{Kind: syntax.EOF}, m, def, "item") {
			return nil, false
		}
		if pos == posItems {
			return x.items(items), true
		}
		var out []syntax.Item
		for _, it := range items {
			if fn, ok := it.(*syntax.FnDecl); ok {
				x.fn(fn)
				out = append(out, fn)
				continue
			}
			if mi, ok := it.(*syntax.MacroItem); ok {
				out = append(out, x.expandItems(mi.Call, true)...)
				continue
			}
			out = append(out, x.item(it)...)
		}
		return out, true
	case posPat:
		p, rest, diags := syntax.ParsePattern(toks)
		if !x.parsed(diags, rest, m, def, "pattern") {
			return nil, false
		}
		return x.pat(p), true
	case posType:
		t, rest, diags := syntax.ParseType(toks)
		if !x.parsed(diags, rest, m, def, "type") {
			return nil, false
		}
		return x.typ(t), true
	}
	return nil, false
}

// parsed reports the parse errors of an expansion the way rustc does, and
// the tokens left over after what the position takes.
func (x *expander) parsed(diags diag.List, rest syntax.Token, m *syntax.MacroExpr, def *macroDef, context string) bool {
	ok := true
	for _, d := range diags {
		if d.Severity != diag.Error {
			continue
		}
		if msg, found := strings.CutSuffix(d.Message, ", found `<eof>`"); found {
			d.Message = "macro expansion ends with an incomplete expression: " + msg
		}
		if x.src.Resolve(d.Range) != x.src.Resolve(m.Range) {
			d.Labels = append(d.Labels, label(m.Range, "in this macro invocation"))
		}
		x.add(d)
		ok = false
	}
	if ok && rest.Kind != syntax.EOF {
		x.add(errTrailingTokens(rest, m.Range, def.name, context))
		ok = false
	}
	return ok
}

// expandItems expands a macro call where items stand.
func (x *expander) expandItems(m *syntax.MacroExpr, assoc bool) []syntax.Item {
	def := x.resolve(m)
	if def == nil {
		if items, ok := x.burnItemMacro(m); ok {
			return items
		}
		switch name, _ := x.stdName(m); name {
		case "compile_error", "include":
			x.builtin(m)
		default:
			x.unknownOrUnsupported(m)
		}
		return nil
	}
	pos := posItems
	if assoc {
		pos = posAssoc
	}
	out, ok := x.expandUser(m, def, pos)
	if !ok {
		return nil
	}
	return out.([]syntax.Item)
}

// crateName is the crate's name as rustc writes it: the package's name
// with `-` made `_`.
func crateName(pkg string) string {
	if pkg == "" {
		pkg = "playground"
	}
	return strings.ReplaceAll(pkg, "-", "_")
}

package syntax

import (
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// Tokens is a stretch of tokens for the parser to read instead of text: a
// macro call's arguments, or what a macro expanded to. Text is the text
// their ranges index, starting at offset Base: main.rs itself (Base 0), or
// a region of generated text (see source.File.Generate). Macros names the
// program's own macro_rules! macros, whose calls keep their token trees
// even where a built-in has the same name.
type Tokens struct {
	Toks   []Token
	Text   string
	Base   int
	Macros map[string]bool
}

// parser makes a parser over the tokens. Its line table is built only
// when an error needs it: fragments are parsed by the thousand against
// main.rs's text.
func (t Tokens) parser() *parser {
	p := &parser{
		src: t.Text, base: t.Base, braceMacroEnd: -1,
		fromTokens: true, toks: t.Toks, macros: t.Macros,
		lexCutoff: t.Base + len(t.Text) + 1,
	}
	p.tok = p.lex()
	return p
}

// consumed is how many of the tokens the parser has consumed, and false
// when it stopped inside a token (after splitting `>>`).
func (p *parser) consumed() (int, bool) {
	n := p.ti
	for _, t := range p.ahead {
		if t.Kind != EOF {
			n--
		}
	}
	if p.tok.Kind != EOF {
		n--
	}
	return n, !p.splitRest
}

// rest is the first token the parser did not consume, EOF when none is
// left.
func (p *parser) rest() Token { return p.tok }

// parseTokens runs fn over the tokens and reports the first token it left
// and the diagnostics.
func parseTokens(t Tokens, fn func(p *parser)) (Token, diag.List) {
	p := t.parser()
	p.run(func() { fn(p) })
	p.diags.Sort()
	return p.rest(), p.diags
}

// ParseExpr reads one expression. rest is the first token after it (EOF
// when the expression took every token).
func ParseExpr(t Tokens) (x Expr, rest Token, diags diag.List) {
	rest, diags = parseTokens(t, func(p *parser) { x = p.parseExpr() })
	if x == nil {
		x = &BadExpr{Range: source.Range{Start: t.Base, End: t.Base}}
	}
	return x, rest, diags
}

// ParseStmts reads statements up to the end of the tokens; items among
// them are ItemStmts.
func ParseStmts(t Tokens) (stmts []Stmt, diags diag.List) {
	_, diags = parseTokens(t, func(p *parser) {
		for p.tok.Kind != EOF {
			start := p.tok.Range.Start
			item, stmt := p.parseStmt(false)
			if item != nil {
				stmts = append(stmts, &ItemStmt{Item: item})
			}
			if stmt != nil {
				stmts = append(stmts, stmt)
			}
			if p.tok.Range.Start == start && p.tok.Kind != EOF {
				p.syncStmt()
				if p.tok.Range.Start == start {
					p.next()
				}
			}
		}
	})
	return stmts, diags
}

// ParseItems reads items up to the end of the tokens, as in a module (or,
// with assoc set, as in an impl or trait body: functions among them are
// methods).
func ParseItems(t Tokens, assoc bool) (items []Item, diags diag.List) {
	_, diags = parseTokens(t, func(p *parser) {
		if assoc {
			methods, others := p.parseAssocList(ctxImpl)
			for _, m := range methods {
				items = append(items, m)
			}
			items = append(items, others...)
			return
		}
		for p.tok.Kind != EOF {
			start := p.tok.Range.Start
			attrs := p.parseOuterAttrs()
			if it := p.parseItem(attrs, ctxFree); it != nil {
				items = append(items, it)
			}
			if p.tok.Range.Start == start && p.tok.Kind != EOF {
				p.syncStmt()
				if p.tok.Range.Start == start {
					p.next()
				}
			}
		}
	})
	return items, diags
}

// ParsePattern reads one pattern (with top-level alternatives).
func ParsePattern(t Tokens) (pat Pattern, rest Token, diags diag.List) {
	rest, diags = parseTokens(t, func(p *parser) { pat = p.parsePattern() })
	if pat == nil {
		pat = &BadPat{Range: source.Range{Start: t.Base, End: t.Base}}
	}
	return pat, rest, diags
}

// ParseType reads one type.
func ParseType(t Tokens) (ty *Type, rest Token, diags diag.List) {
	rest, diags = parseTokens(t, func(p *parser) { ty = p.parseType() })
	if ty == nil {
		ty = &Type{Kind: TypeBad, Range: source.Range{Start: t.Base, End: t.Base}}
	}
	return ty, rest, diags
}

// ParseFragment reads one fragment of a macro_rules! matcher's kind (expr,
// ty, pat, pat_param, path, stmt, block, item, meta, vis) from the start of
// the tokens, as rustc's parser does for a `$x:kind` metavariable, and
// reports how many tokens it took. ok is false when the fragment ended
// inside a token. The kinds that are single tokens or trees (ident,
// lifetime, literal, tt) are the matcher's own business.
func ParseFragment(kind string, t Tokens) (n int, ok bool, diags diag.List) {
	p := t.parser()
	p.run(func() {
		switch kind {
		case "expr", "expr_2021":
			p.parseExpr()
		case "ty":
			p.parseType()
		case "pat":
			p.parsePattern()
		case "pat_param":
			p.parsePatternNoAlt()
		case "path":
			p.parsePathSegments(false)
		case "block":
			if p.is("{") {
				p.parseBlock()
			} else {
				p.error(errExpected(p.tok, "`{`"))
			}
		case "stmt":
			p.parseFragmentStmt()
		case "item":
			attrs := p.parseOuterAttrs()
			if p.parseItem(attrs, ctxFree) == nil && len(p.diags) == 0 {
				p.error(errExpected(p.tok, "item"))
			}
		case "meta":
			p.parseMeta()
		case "vis":
			p.parseVis()
		}
	})
	p.diags.Sort()
	n, ok = p.consumed()
	return n, ok, p.diags
}

// parseFragmentStmt reads a `$s:stmt`: a statement without its trailing
// semicolon.
func (p *parser) parseFragmentStmt() {
	switch {
	case p.is("let"):
		p.next()
		p.parsePattern()
		if p.got(":") {
			p.parseType()
		}
		if p.got("=") {
			p.parseExpr()
			if p.got("else") {
				p.parseBlockExpected()
			}
		}
	case p.startsItem():
		attrs := p.parseOuterAttrs()
		p.parseItem(attrs, ctxBlock)
	default:
		attrs := p.parseOuterAttrs()
		_ = attrs
		p.parseStmtExpr()
	}
}

// parseMeta reads an attribute's contents: a path, then a delimited token
// tree or `= expr`.
func (p *parser) parseMeta() {
	p.parsePathSegments(false)
	switch {
	case isOpener(p.tok):
		p.skipGroup()
	case p.got("="):
		p.parseExpr()
	}
}

// Lex splits text into tokens whose ranges start at base, as for a region
// of generated text; comments and whitespace are dropped and lexical
// errors are not reported (the text is the engine's own).
func Lex(text string, base int) []Token {
	lx := newLexer(text, nil)
	lx.pos = 0
	var toks []Token
	for {
		t := lx.next()
		if t.Kind == EOF {
			return toks
		}
		t.Range.Start += base
		t.Range.End += base
		toks = append(toks, t)
	}
}

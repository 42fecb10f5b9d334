package syntax

import "github.com/dispatch-playground/playground/engine/source"

// macroShape tells how a supported macro's arguments are read.
type macroShape int

const (
	macroUnsupported macroShape = iota
	macroExprs                  // comma-separated expressions
	macroVec                    // vec![a, b] or vec![x; n]
	macroSlice                  // s![range[; step], ...]
	macroMatches                // matches!(expr, pat [if guard])
)

func macroShapeOf(name string) macroShape {
	switch name {
	case "println", "print", "eprintln", "eprint", "format", "format_args", "write", "writeln", "dbg",
		"assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne",
		"panic", "todo", "unimplemented", "unreachable":
		return macroExprs
	case "vec":
		return macroVec
	case "s":
		return macroSlice
	case "matches":
		return macroMatches
	}
	return macroUnsupported
}

// parseMacro reads a macro call in expression position whose path segs
// started at start; the current token is `!`. The built-ins of known shape
// have their arguments parsed; any other call keeps its token tree.
func (p *parser) parseMacro(start int, segs []PathSegment) Expr {
	name := segs[len(segs)-1].Name
	shape := macroShapeOf(name)
	if shape == macroUnsupported || p.macros[name] {
		return p.parseMacroCall(start, segs)
	}
	p.next() // !
	braced := p.is("{")
	m := &MacroExpr{Name: name, NameSpan: p.rangeFrom(start), Delim: p.tok.Text, Path: segmentNames(segs)}
	closer := closerOf(p.tok.Text)
	p.next()
	old := p.noStruct
	p.noStruct = false
	switch shape {
	case macroExprs:
		p.parseCommaList(closer, func() { m.Args = append(m.Args, p.parseExpr()) })
	case macroVec:
		p.parseVecArgs(m, closer)
	case macroSlice:
		p.parseCommaList(closer, func() {
			m.Args = append(m.Args, p.parseExpr())
			var step Expr
			if p.got(";") {
				step = p.parseExpr()
			}
			m.Steps = append(m.Steps, step)
		})
	case macroMatches:
		p.parseMatchesArgs(m, closer)
	}
	p.noStruct = old
	m.Close = source.Range{Start: p.prevEnd - len(closer), End: p.prevEnd}
	m.Range = p.rangeFrom(start)
	if braced {
		p.braceMacroEnd = p.prevEnd
	}
	return m
}

// parseMacroCall reads a macro call as a token tree, in any position; the
// current token is the `!` after segs.
func (p *parser) parseMacroCall(start int, segs []PathSegment) *MacroExpr {
	p.next() // !
	m := &MacroExpr{NameSpan: p.rangeFrom(start), Delim: p.tok.Text, Path: segmentNames(segs)}
	if len(segs) > 0 {
		m.Name = segs[len(segs)-1].Name
	}
	braced := p.is("{")
	inner := p.delims + 1
	p.next()
	m.Tokens = []Token{}
	for p.tok.Kind != EOF && !(p.delims == inner && isCloser(p.tok)) {
		m.Tokens = append(m.Tokens, p.tok)
		p.next()
	}
	m.Close = p.tok.Range
	p.next()
	m.Range = p.rangeFrom(start)
	if braced {
		p.braceMacroEnd = p.prevEnd
	}
	return m
}

func segmentNames(segs []PathSegment) []string {
	names := make([]string, len(segs))
	for i, s := range segs {
		names[i] = s.Name
	}
	return names
}

// atMacroCall reports whether a macro call begins at the current token:
// a path (`m`, `log::info`, `crate::m`) followed by `!` and a delimiter.
func (p *parser) atMacroCall() bool {
	n := 0
	if p.is("::") {
		n = 1
	}
	for i := n; ; i += 2 {
		t := p.tok
		if i > 0 {
			t = p.peek(i)
		}
		if !isPathSegmentTok(t) {
			return false
		}
		next := p.peek(i + 1)
		switch {
		case isTok(next, "!"):
			return isOpener(p.peek(i + 2))
		case !isTok(next, "::"):
			return false
		}
	}
}

// parseMacroItem reads a macro call where an item stands, with its `;`
// when it is not braced.
func (p *parser) parseMacroItem(start int, attrs []*Attr) Item {
	callStart := p.tok.Range.Start
	segs := p.parsePathSegments(true)
	m := p.parseMacroCall(callStart, segs)
	if m.Delim != "{" && !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	return &MacroItem{Range: p.rangeFrom(start), Attrs: attrs, Call: m}
}

// parseMacroRules reads `macro_rules! name { rules }` (or with parentheses
// or brackets and a `;`); the current token is `macro_rules`.
func (p *parser) parseMacroRules(start int, attrs []*Attr) Item {
	p.next() // macro_rules
	p.next() // !
	d := &MacroRulesDecl{Attrs: attrs}
	d.Name, d.NameSpan = p.expectIdent()
	if !isOpener(p.tok) {
		p.error(errExpected(p.tok, "one of `(`, `[`, or `{`"))
		return nil
	}
	braced := p.is("{")
	closer := closerOf(p.tok.Text)
	p.next()
	for !p.is(closer) && p.tok.Kind != EOF && !isCloser(p.tok) {
		rule := &MacroRule{Range: source.Range{Start: p.tok.Range.Start}}
		if !isOpener(p.tok) {
			p.error(errMisplaced(p.tok, "invalid macro matcher; matchers must be contained in balanced delimiters"))
			p.skipTo(";")
			p.got(";")
			continue
		}
		rule.Matcher, rule.MatcherRange = p.tokenGroup()
		if !p.expect("=>") {
			p.skipTo(";")
			p.got(";")
			continue
		}
		if !isOpener(p.tok) {
			p.error(errMisplaced(p.tok, "macro rhs must be delimited"))
			p.skipTo(";")
			p.got(";")
			continue
		}
		rule.Transcriber, rule.TranscriberRange = p.tokenGroup()
		rule.Range.End = p.prevEnd
		d.Rules = append(d.Rules, rule)
		if !p.got(";") && !p.is(closer) {
			p.error(errExpected(p.tok, "`;`", "`"+closer+"`"))
			p.skipTo(";")
			p.got(";")
		}
	}
	p.closeDelim(closer)
	if !braced && !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	d.Range = p.rangeFrom(start)
	return d
}

// tokenGroup reads a delimited group (the current token opens it) and
// returns the tokens inside and the group's range.
func (p *parser) tokenGroup() ([]Token, source.Range) {
	start := p.tok.Range.Start
	inner := p.delims + 1
	p.next()
	toks := []Token{}
	for p.tok.Kind != EOF && !(p.delims == inner && isCloser(p.tok)) {
		toks = append(toks, p.tok)
		p.next()
	}
	p.next()
	return toks, p.rangeFrom(start)
}

func (p *parser) parseVecArgs(m *MacroExpr, closer string) {
	if p.got(closer) {
		return
	}
	first := p.parseExpr()
	m.Args = []Expr{first}
	switch {
	case p.got(";"):
		m.Repeat = true
		m.Args = append(m.Args, p.parseExpr())
		p.closeDelim(closer)
	case p.got(","):
		p.parseCommaList(closer, func() { m.Args = append(m.Args, p.parseExpr()) })
	default:
		p.closeDelim(closer)
	}
}

func (p *parser) parseMatchesArgs(m *MacroExpr, closer string) {
	m.Args = []Expr{p.parseExpr()}
	if !p.expect(",") {
		p.skipTo()
		p.got(closer)
		return
	}
	arm := &MatchArm{Pats: p.parseAltPatterns()}
	if p.got("if") {
		arm.Guard = p.parseExpr()
	}
	arm.Range = source.Range{Start: arm.Pats[0].Span().Start, End: p.prevEnd}
	m.Arm = arm
	p.got(",")
	p.closeDelim(closer)
}

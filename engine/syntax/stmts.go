package syntax

// parseStmt reads one statement, or an item in statement position. At the
// top level (top set) items stay items; in a block the caller wraps them in
// an ItemStmt. It returns neither for an empty statement `;` and for input
// it could not read (after reporting it).
func (p *parser) parseStmt(top bool) (Item, Stmt) {
	if p.is("#") && isTok(p.peek(1), "!") {
		p.error(errMisplaced(p.tok, "an inner attribute is not permitted in this context"))
		p.next()
		p.next()
		p.skipGroup()
		return nil, nil
	}
	attrs := p.parseOuterAttrs()
	if len(attrs) > 0 && (p.tok.Kind == EOF || isCloser(p.tok)) {
		p.error(errMisplaced(p.tok, "expected statement after outer attribute"))
		return nil, nil
	}
	if p.got(";") {
		return nil, nil
	}
	if p.is("let") {
		return nil, p.parseLet(attrs)
	}
	if p.startsItem() {
		ctx := ctxBlock
		if top {
			ctx = ctxFree
		}
		item := p.parseItem(attrs, ctx)
		if item == nil {
			return nil, nil
		}
		return item, nil
	}
	if !p.startsExpr() {
		p.error(errExpected(p.tok, "expression"))
		return nil, nil
	}
	x, blockLike := p.parseStmtExpr()
	s := &ExprStmt{X: x, Attrs: attrs}
	start := x.Span().Start
	if len(attrs) > 0 {
		start = attrs[0].Range.Start
	}
	switch {
	case p.got(";"):
		s.Semi = true
	case blockLike, p.is("}"), p.tok.Kind == EOF:
		// A block-like expression ends its statement; otherwise this is
		// the value of the block (or the snippet's final expression).
	default:
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	s.Range = p.rangeFrom(start)
	return nil, s
}

// parseStmtExpr reads an expression in statement position (or a match arm
// body). As in Rust, a block-like expression (block, if, match, loop,
// while, for, unsafe block, macro with braces) ends there unless `.` or `?`
// continues it; blockLike reports that it did end there.
func (p *parser) parseStmtExpr() (x Expr, blockLike bool) {
	if !p.startsBlockLike() {
		x = p.parseExpr()
		return x, x.Span().End == p.braceMacroEnd
	}
	p.enter()
	defer p.leave()
	x = p.parsePrimary()
	if !p.is(".") && !p.is("?") {
		return x, true
	}
	x = p.parsePostfix(x)
	x = p.parseBinaryFrom(x, precOr)
	x = p.parseRangeFrom(x)
	x = p.parseAssignFrom(x)
	return x, false
}

func (p *parser) startsBlockLike() bool {
	t := p.tok
	switch t.Kind {
	case Punct:
		return t.Text == "{"
	case Lifetime:
		return isTok(p.peek(1), ":")
	case Keyword:
		switch t.Text {
		case "if", "match", "loop", "while", "for":
			return true
		case "unsafe", "const":
			return isTok(p.peek(1), "{")
		case "async":
			n := p.peek(1)
			return isTok(n, "{") || isTok(n, "move") && isTok(p.peek(2), "{")
		}
	}
	return false
}

// parseLet reads `let pat [: T] [= init [else { ... }]];`.
func (p *parser) parseLet(attrs []*Attr) Stmt {
	start := p.tok.Range.Start
	if len(attrs) > 0 {
		start = attrs[0].Range.Start
	}
	p.next()
	s := &LetStmt{Attrs: attrs, Pat: p.parsePattern()}
	if p.got(":") {
		s.Type = p.parseType()
	}
	if p.got("=") {
		s.Init = p.parseExpr()
		if p.got("else") {
			s.Else = p.parseBlockExpected()
		}
	}
	if !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	s.Range = p.rangeFrom(start)
	return s
}

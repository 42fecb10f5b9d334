package syntax

import (
	"unicode"
	"unicode/utf8"
)

// parsePattern reads a pattern that may have top-level alternatives
// (`A | B`), as after let, for, and inside parentheses.
func (p *parser) parsePattern() Pattern {
	alts := p.parseAltPatterns()
	if len(alts) == 1 {
		return alts[0]
	}
	return &OrPat{Range: span(alts[0], alts[len(alts)-1]), Alts: alts}
}

// parseAltPatterns reads `[|] pat | pat ...`; it always returns at least
// one pattern.
func (p *parser) parseAltPatterns() []Pattern {
	p.got("|")
	alts := []Pattern{p.parsePatternNoAlt()}
	for p.got("|") {
		alts = append(alts, p.parsePatternNoAlt())
	}
	return alts
}

// startsLowercase tells a binding (`x`, `_unused`) from a path pattern
// (`None`, `Empty`) for a lone identifier, by Rust's naming conventions.
func startsLowercase(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return r == '_' || !unicode.IsUpper(r)
}

// parsePatternNoAlt reads one pattern without top-level alternatives, as in
// closure parameters.
func (p *parser) parsePatternNoAlt() Pattern {
	p.enter()
	defer p.leave()
	t := p.tok
	start := t.Range.Start
	switch {
	case t.Kind == Ident && t.Text == "_":
		p.next()
		return &WildPat{Range: t.Range}
	case t.Kind == OpenInvisible:
		// An `$e:expr` fragment where a pattern stands: rustc accepts a
		// literal or a path there.
		p.next()
		inner := p.parsePatternNoAlt()
		if p.tok.Kind == CloseInvisible {
			p.next()
		}
		return inner
	case p.is(".."):
		p.next()
		return &RestPat{Range: t.Range}
	case p.is("..="), p.is("..."):
		p.next()
		hi := p.parseRangeBound()
		return &RangePat{Range: p.rangeFrom(start), Hi: hi, Inclusive: true}
	case p.is("&"), p.is("&&"):
		if p.is("&&") {
			p.splitFirst()
			inner := p.parsePatternNoAlt()
			return &RefPat{Range: p.rangeFrom(start), Pat: inner}
		}
		p.next()
		mut := p.got("mut")
		inner := p.parsePatternNoAlt()
		return &RefPat{Range: p.rangeFrom(start), Mut: mut, Pat: inner}
	case p.is("("):
		return p.parseTuplePattern()
	case p.is("["):
		p.next()
		s := &SlicePat{}
		p.parseCommaList("]", func() { s.Elems = append(s.Elems, p.parsePattern()) })
		s.Range = p.rangeFrom(start)
		return s
	case p.is("-") && (p.peek(1).Kind == Int || p.peek(1).Kind == Float),
		t.Kind == Int, t.Kind == Float, t.Kind == String, t.Kind == Char, t.Kind == Byte, t.Kind == ByteString,
		p.is("true"), p.is("false"):
		lo := p.parseRangeBound()
		if r := p.parseRangePatRest(lo); r != nil {
			return r
		}
		return &LitPat{Range: lo.Span(), Lit: lo}
	case p.is("ref"), p.is("mut"):
		id := &IdentPat{Ref: p.got("ref"), Mut: p.got("mut")}
		id.Name, id.NameSpan = p.expectIdent()
		if p.got("@") {
			id.Sub = p.parsePatternNoAlt()
		}
		id.Range = p.rangeFrom(start)
		return id
	case p.is("box"):
		p.error(errUnsupported(t.Range, "`box` patterns"))
		p.next()
		p.parsePatternNoAlt()
		return &BadPat{Range: p.rangeFrom(start)}
	case isPathSegmentTok(t), p.is("::"):
		return p.parsePathPattern()
	case p.is("<"), p.is("<<"):
		p.error(errUnsupported(t.Range, "qualified paths in patterns"))
		p.parseQualifiedPrefix()
		p.parsePathSegments(true)
		return &BadPat{Range: p.rangeFrom(start)}
	}
	p.error(errExpected(t, "pattern"))
	return &BadPat{Range: p.missing()}
}

// parsePathPattern reads a binding, a path pattern, a tuple-struct or a
// struct pattern, or a range with a path bound.
func (p *parser) parsePathPattern() Pattern {
	t := p.tok
	start := t.Range.Start
	next := p.peek(1)
	lone := t.Kind == Ident && !isTok(next, "::") && !isTok(next, "(") && !isTok(next, "{") && !isTok(next, "!")
	if lone && (startsLowercase(t.Text) || isTok(next, "@")) {
		p.next()
		id := &IdentPat{Name: t.Text, NameSpan: t.Range}
		if p.got("@") {
			id.Sub = p.parsePatternNoAlt()
		}
		id.Range = p.rangeFrom(start)
		return id
	}
	if isTok(t, "self") && !isTok(next, "::") {
		p.next()
		return &IdentPat{Range: t.Range, Name: "self", NameSpan: t.Range}
	}
	segs := p.parsePathSegments(true)
	switch {
	case p.is("("):
		p.next()
		ts := &TupleStructPat{Path: segs, Paren: true}
		p.parseCommaList(")", func() { ts.Elems = append(ts.Elems, p.parsePattern()) })
		ts.Range = p.rangeFrom(start)
		return ts
	case p.is("{"):
		return p.parseStructPattern(start, segs)
	case p.is("!") && isOpener(p.peek(1)):
		m := p.parseMacroCall(start, segs)
		return &MacroPat{Range: m.Range, Call: m}
	}
	path := &PathExpr{Range: p.rangeFrom(start), Segments: segs}
	if r := p.parseRangePatRest(path); r != nil {
		return r
	}
	return &TupleStructPat{Range: path.Range, Path: segs}
}

func (p *parser) parseTuplePattern() Pattern {
	start := p.tok.Range.Start
	p.next() // (
	if p.got(")") {
		return &TuplePat{Range: p.rangeFrom(start)}
	}
	first := p.parsePattern()
	if p.got(")") {
		if _, isRest := first.(*RestPat); !isRest {
			return &ParenPat{Range: p.rangeFrom(start), Pat: first}
		}
		return &TuplePat{Range: p.rangeFrom(start), Elems: []Pattern{first}}
	}
	tp := &TuplePat{Elems: []Pattern{first}}
	if p.got(",") {
		p.parseCommaList(")", func() { tp.Elems = append(tp.Elems, p.parsePattern()) })
	} else {
		p.closeDelim(")")
	}
	tp.Range = p.rangeFrom(start)
	return tp
}

func (p *parser) parseStructPattern(start int, segs []PathSegment) Pattern {
	p.next() // {
	sp := &StructPat{Path: segs}
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		p.parseOuterAttrs()
		if p.got("..") {
			sp.Rest = true
			break
		}
		fstart := p.tok.Range.Start
		ref, mut := p.got("ref"), p.got("mut")
		name := p.tok
		if name.Kind != Ident && name.Kind != Int || name.Text == "_" {
			p.error(errExpected(name, "identifier"))
			p.skipTo(",", "}")
		} else {
			p.next()
			f := &FieldPat{Name: name.Text}
			if !ref && !mut && p.got(":") {
				f.Pat = p.parsePattern()
			} else {
				f.Shorthand = true
				f.Pat = &IdentPat{Range: p.rangeFrom(fstart), Name: name.Text, NameSpan: name.Range, Ref: ref, Mut: mut}
			}
			f.Range = p.rangeFrom(fstart)
			sp.Fields = append(sp.Fields, f)
		}
		if !p.got(",") {
			break
		}
	}
	p.closeDelim("}")
	sp.Range = p.rangeFrom(start)
	return sp
}

// parseRangeBound reads a literal (possibly negated) or a path, the bounds
// a range pattern admits.
func (p *parser) parseRangeBound() Expr {
	t := p.tok
	switch {
	case isTok(t, "-"):
		p.next()
		if p.tok.Kind != Int && p.tok.Kind != Float {
			p.error(errExpected(p.tok, "literal"))
			return &BadExpr{Range: p.rangeFrom(t.Range.Start)}
		}
		lit := p.parseLiteral()
		return &UnaryExpr{Range: p.rangeFrom(t.Range.Start), Op: "-", X: lit}
	case t.Kind == Int || t.Kind == Float || t.Kind == String || t.Kind == Char || t.Kind == Byte ||
		t.Kind == ByteString || isTok(t, "true") || isTok(t, "false"):
		return p.parseLiteral()
	case isPathSegmentTok(t), isTok(t, "::"):
		segs := p.parsePathSegments(true)
		return &PathExpr{Range: p.rangeFrom(t.Range.Start), Segments: segs}
	}
	p.error(errExpected(t, "literal"))
	return &BadExpr{Range: p.missing()}
}

// parseRangePatRest finishes `lo..=hi`, `lo..hi` or `lo..` after lo, or
// returns nil when no range operator follows.
func (p *parser) parseRangePatRest(lo Expr) Pattern {
	if !p.isRangeOp() {
		return nil
	}
	if p.is("...") {
		p.error(errMisplaced(p.tok, "`...` range patterns are deprecated"))
	}
	inclusive := !p.is("..")
	p.next()
	r := &RangePat{Lo: lo, Inclusive: inclusive}
	t := p.tok
	if inclusive || isTok(t, "-") || t.Kind == Int || t.Kind == Float || t.Kind == Char || isPathSegmentTok(t) {
		r.Hi = p.parseRangeBound()
	}
	r.Range = p.rangeFrom(lo.Span().Start)
	return r
}

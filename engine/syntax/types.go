package syntax

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
)

func isPathSegmentTok(t Token) bool {
	switch t.Kind {
	case Ident:
		return t.Text != "_"
	case Keyword:
		switch t.Text {
		case "self", "Self", "super", "crate":
			return true
		}
	}
	return false
}

// parsePathSegments reads `a::b::<G>::c` (expr set: generics need the
// turbofish) or `a::b<G>::c` and `Fn(A) -> B` (types). A leading `::` is
// dropped.
func (p *parser) parsePathSegments(expr bool) []PathSegment {
	var segs []PathSegment
	p.got("::")
	for {
		t := p.tok
		if !isPathSegmentTok(t) {
			p.error(errExpected(t, "identifier"))
			return segs
		}
		p.next()
		seg := PathSegment{Range: t.Range, Name: t.Text}
		if p.is("::") && (isTok(p.peek(1), "<") || isTok(p.peek(1), "<<")) {
			p.next()
			seg.Generics = p.parseGenericArgs()
		} else if !expr {
			switch {
			case p.is("<") || p.is("<<"):
				seg.Generics = p.parseGenericArgs()
			case p.is("(") && t.Kind == Ident:
				p.parseFnSugar(&seg)
			}
		}
		seg.Range.End = p.prevEnd
		segs = append(segs, seg)
		if p.is("::") && isPathSegmentTok(p.peek(1)) {
			p.next()
			continue
		}
		return segs
	}
}

// parseFnSugar reads the `(A, B) -> R` of `Fn(A, B) -> R`.
func (p *parser) parseFnSugar(seg *PathSegment) {
	seg.FnSugar = true
	p.next() // (
	p.parseCommaList(")", func() { seg.FnArgs = append(seg.FnArgs, p.parseType()) })
	if p.got("->") {
		seg.FnResult = p.parseType()
	}
}

// parseQualifiedPrefix reads `<QSelf as QTrait>::` (or `<QSelf>::`).
func (p *parser) parseQualifiedPrefix() (qself, qtrait *Type) {
	if p.is("<<") {
		p.splitFirst()
	} else {
		p.next()
	}
	qself = p.parseType()
	if p.got("as") {
		qtrait = p.parseType()
	}
	p.expectGT()
	p.expect("::")
	return qself, qtrait
}

// parseGenericArgs reads `<2, Int>`, `<'a, T>`, `<Output = T>`; the
// current token is `<` (or `<<`, split).
func (p *parser) parseGenericArgs() []GenericArg {
	if p.is("<<") {
		p.splitFirst()
	} else {
		p.next()
	}
	args := []GenericArg{}
	for !p.isGT() && p.tok.Kind != EOF && !isCloser(p.tok) && !p.is(";") {
		args = append(args, p.parseGenericArg())
		if !p.got(",") {
			break
		}
	}
	if !p.gotGT() {
		p.error(errExpected(p.tok, "`,`", "`>`"))
		for !p.isGT() && !isCloser(p.tok) && !p.is(";") && !p.is("{") && p.tok.Kind != EOF {
			p.skipGroup()
		}
		p.gotGT()
	}
	return args
}

func (p *parser) parseGenericArg() GenericArg {
	t := p.tok
	switch {
	case t.Kind == Lifetime:
		p.next()
		return GenericArg{Range: t.Range, Lifetime: t.Text}
	case t.Kind == Int || t.Kind == Float || t.Kind == String || t.Kind == Char || t.Kind == Byte ||
		t.Kind == ByteString || isTok(t, "true") || isTok(t, "false"):
		lit := p.parseLiteral()
		return GenericArg{Range: lit.Range, Const: lit}
	case isTok(t, "-"), t.Kind == OpenInvisible:
		x := p.parseUnary()
		return GenericArg{Range: x.Span(), Const: x}
	case isTok(t, "{"):
		b := p.parseBlock()
		return GenericArg{Range: b.Range, Const: b}
	case t.Kind == Ident && isTok(p.peek(1), "="):
		p.next()
		p.next()
		ty := p.parseType()
		return GenericArg{Range: p.rangeFrom(t.Range.Start), Assoc: t.Text, Type: ty}
	case t.Kind == Ident && isTok(p.peek(1), ":"):
		p.error(errUnsupported(t.Range, "associated type bounds (`Name: Bound`) in generic arguments"))
		p.next()
		p.next()
		p.parseBounds()
		return GenericArg{Range: p.rangeFrom(t.Range.Start), Type: &Type{Kind: TypeBad, Range: p.missing()}}
	}
	ty := p.parseType()
	return GenericArg{Range: ty.Range, Type: ty}
}

// startsBound reports whether a trait or lifetime bound starts here.
func (p *parser) startsBound() bool {
	t := p.tok
	switch {
	case t.Kind == Lifetime, isPathSegmentTok(t):
		return true
	case t.Kind == Punct:
		return t.Text == "?" || t.Text == "(" || t.Text == "::" || t.Text == "<"
	}
	return isTok(t, "for")
}

// parseBounds reads `A + B<C> + 'a + ?Sized`; it may be empty.
func (p *parser) parseBounds() []*Type {
	var bounds []*Type
	for p.startsBound() {
		bounds = append(bounds, p.parseBound())
		if !p.got("+") {
			break
		}
	}
	return bounds
}

func (p *parser) parseBound() *Type {
	p.enter()
	defer p.leave()
	start := p.tok.Range.Start
	var t *Type
	switch {
	case p.tok.Kind == Lifetime:
		t = &Type{Kind: TypeLifetime, Lifetime: p.tok.Text}
		p.next()
	case p.is("?"):
		p.next()
		t = p.parseBound()
		t.Maybe = true
	case p.is("("):
		p.next()
		inner := p.parseBound()
		p.closeDelim(")")
		t = &Type{Kind: TypeParen, Elems: []*Type{inner}}
	case p.is("for"):
		p.next()
		if p.is("<") {
			p.parseGenericParams()
		}
		t = p.parseBound()
	default:
		return p.parseType()
	}
	return p.finishType(t, start)
}

// finishType sets t's range from start and its normalised text.
func (p *parser) finishType(t *Type, start int) *Type {
	t.Range = p.rangeFrom(start)
	t.Text = p.normalizedText(t.Range)
	return t
}

// parseType reads a type.
func (p *parser) parseType() *Type {
	p.enter()
	defer p.leave()
	start := p.tok.Range.Start
	t := &Type{}
	switch {
	case p.isIdent("_"):
		p.next()
		t.Kind = TypeInfer
	case p.is("!"):
		p.next()
		t.Kind = TypeNever
	case p.is("("):
		p.next()
		if p.got(")") {
			t.Kind = TypeTuple
			break
		}
		first := p.parseType()
		if p.got(",") {
			t.Kind = TypeTuple
			t.Elems = []*Type{first}
			p.parseCommaList(")", func() { t.Elems = append(t.Elems, p.parseType()) })
		} else {
			t.Kind = TypeParen
			t.Elems = []*Type{first}
			p.closeDelim(")")
		}
	case p.is("["):
		p.next()
		t.Elems = []*Type{p.parseType()}
		if p.got(";") {
			t.Kind = TypeArray
			old := p.noStruct
			p.noStruct = false
			t.Len = p.parseExpr()
			p.noStruct = old
		} else {
			t.Kind = TypeSlice
		}
		p.closeDelim("]")
	case p.is("&"), p.is("&&"):
		t.Kind = TypeRef
		if p.is("&&") {
			p.splitFirst()
			t.Elems = []*Type{p.parseType()}
			break
		}
		p.next()
		if p.tok.Kind == Lifetime {
			t.Lifetime = p.tok.Text
			p.next()
		}
		t.Mut = p.got("mut")
		t.Elems = []*Type{p.parseType()}
	case p.is("*"):
		p.next()
		t.Kind = TypePtr
		t.Mut = p.got("mut")
		if !t.Mut && !p.got("const") {
			p.error(errExpected(p.tok, "`mut`", "`const`"))
		}
		t.Elems = []*Type{p.parseType()}
	case p.is("fn"), p.is("unsafe"), p.is("extern"):
		p.parseFnPointer(t)
	case p.is("impl"), p.is("dyn"):
		t.Kind = TypeImpl
		if p.is("dyn") {
			t.Kind = TypeDyn
		}
		p.next()
		t.Bounds = p.parseBounds()
		if len(t.Bounds) == 0 {
			p.error(errExpected(p.tok, "trait bound"))
		} else {
			t.Path = t.Bounds[0].Path
		}
	case p.is("for"):
		p.next()
		if p.is("<") {
			p.parseGenericParams()
		}
		inner := p.parseType()
		*t = *inner
	case p.is("<"), p.is("<<"):
		t.Kind = TypePath
		t.QSelf, t.QTrait = p.parseQualifiedPrefix()
		t.Path = p.parsePathSegments(false)
	case p.tok.Kind == Lifetime:
		t.Kind = TypeLifetime
		t.Lifetime = p.tok.Text
		p.next()
	case isPathSegmentTok(p.tok), p.is("::"):
		t.Kind = TypePath
		t.Path = p.parsePathSegments(false)
		if p.is("!") && isOpener(p.peek(1)) {
			t.Kind = TypeMacro
			t.Macro = p.parseMacroCall(start, t.Path)
			t.Path = nil
		}
	default:
		p.error(errExpected(p.tok, "type"))
		return &Type{Kind: TypeBad, Range: p.missing()}
	}
	return p.finishType(t, start)
}

// parseFnPointer reads `[unsafe] [extern "abi"] fn(A, B) -> R`.
func (p *parser) parseFnPointer(t *Type) {
	t.Kind = TypeFn
	p.got("unsafe")
	if p.got("extern") && p.tok.Kind == String {
		p.next()
	}
	if !p.expect("fn") {
		return
	}
	if !p.is("(") {
		p.error(errExpected(p.tok, "`(`"))
		return
	}
	p.next()
	p.parseCommaList(")", func() {
		// Parameters may be named: fn(x: i32).
		if (p.tok.Kind == Ident) && isTok(p.peek(1), ":") {
			p.next()
			p.next()
		}
		t.Elems = append(t.Elems, p.parseType())
	})
	if p.got("->") {
		t.Result = p.parseType()
	}
}

// normalizedText is the source text of r with comments dropped and
// whitespace normalised: `Tensor < 2,Int >` reads "Tensor<2, Int>".
func (p *parser) normalizedText(r source.Range) string {
	r.Start -= p.base
	r.End -= p.base
	if r.Start < 0 || r.End > len(p.src) || r.Start >= r.End {
		return ""
	}
	lx := lexer{src: p.src[:r.End], pos: r.Start, cutoff: r.End + 1}
	var b strings.Builder
	var prev Token
	for {
		t := lx.next()
		if t.Kind == EOF {
			break
		}
		if prev.Kind != EOF && needsSpace(prev, t) {
			b.WriteByte(' ')
		}
		b.WriteString(p.src[t.Range.Start:t.Range.End])
		prev = t
	}
	return b.String()
}

// needsSpace decides the spacing between two tokens of a type or use tree,
// the way rustfmt would lay them out.
func needsSpace(a, b Token) bool {
	word := func(t Token) bool { return t.Kind != Punct }
	switch {
	case a.Kind == Punct && (a.Text == "," || a.Text == ";" || a.Text == ":" || a.Text == "=" || a.Text == "+" || a.Text == "->" || a.Text == "=>"):
		return true
	case b.Kind == Punct && (b.Text == "=" || b.Text == "+" || b.Text == "->" || b.Text == "=>"):
		return true
	case word(a) && word(b):
		return true
	case a.Kind == Punct && a.Text == ">" && word(b):
		return true
	case a.Kind == Punct && a.Text == ")" && word(b):
		return true
	case isTok(a, "dyn") || isTok(a, "impl") || isTok(a, "mut") || isTok(a, "as"):
		return word(b) || b.Text == "(" || b.Text == "&" || b.Text == "*" || b.Text == "[" || b.Text == "<"
	}
	return false
}

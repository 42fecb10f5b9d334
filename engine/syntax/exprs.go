package syntax

import (
	"github.com/dispatch-playground/playground/engine/source"
)

// Binary operator precedences, loosest first (the Rust reference's table).
const (
	precOr     = 3 // ||
	precAnd    = 4 // &&
	precCmp    = 5 // == != < > <= >=, non-associative
	precBitOr  = 6
	precBitXor = 7
	precBitAnd = 8
	precShift  = 9
	precAdd    = 10
	precMul    = 11
	precCast   = 12 // as
)

func binaryPrec(t Token) int {
	if t.Kind == Keyword {
		if t.Text == "as" {
			return precCast
		}
		return 0
	}
	if t.Kind != Punct {
		return 0
	}
	switch t.Text {
	case "||":
		return precOr
	case "&&":
		return precAnd
	case "==", "!=", "<", ">", "<=", ">=":
		return precCmp
	case "|":
		return precBitOr
	case "^":
		return precBitXor
	case "&":
		return precBitAnd
	case "<<", ">>":
		return precShift
	case "+", "-":
		return precAdd
	case "*", "/", "%":
		return precMul
	}
	return 0
}

func isAssignOp(t Token) bool {
	if t.Kind != Punct {
		return false
	}
	switch t.Text {
	case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
		return true
	}
	return false
}

func span(a, b Node) source.Range {
	return source.Range{Start: a.Span().Start, End: b.Span().End}
}

// parseExpr reads a full expression, assignment included.
func (p *parser) parseExpr() Expr {
	p.enter()
	x := p.parseAssignFrom(p.parseRange())
	p.leave()
	return x
}

// parseExprNoStruct reads the head of an if, while, for or match, where
// `Path {` opens the body rather than a struct literal.
func (p *parser) parseExprNoStruct() Expr {
	old := p.noStruct
	p.noStruct = true
	x := p.parseExpr()
	p.noStruct = old
	return x
}

// parseAssignFrom finishes an assignment whose left side is lhs; assignment
// is right-associative.
func (p *parser) parseAssignFrom(lhs Expr) Expr {
	if !isAssignOp(p.tok) {
		return lhs
	}
	op := p.tok.Text
	p.next()
	rhs := p.parseExpr()
	return &AssignExpr{Range: span(lhs, rhs), Op: op, Lhs: lhs, Rhs: rhs}
}

func (p *parser) isRangeOp() bool { return p.is("..") || p.is("..=") || p.is("...") }

// rangeOp consumes `..`, `..=` or the obsolete `...` and tells whether the
// range is inclusive.
func (p *parser) rangeOp() bool {
	if p.is("...") {
		p.error(errMisplaced(p.tok, "unexpected token: `...`"))
	}
	inclusive := p.tok.Text != ".."
	p.next()
	return inclusive
}

// parseRange reads a range or anything binding tighter.
func (p *parser) parseRange() Expr {
	if p.isRangeOp() {
		start := p.tok.Range.Start
		opTok := p.tok
		inclusive := p.rangeOp()
		var hi Expr
		if p.startsExpr() {
			hi = p.parseBinary(precOr)
		} else if inclusive {
			p.error(errMisplaced(opTok, "inclusive range with no end"))
		}
		return &RangeExpr{Range: p.rangeFrom(start), Hi: hi, Inclusive: inclusive}
	}
	return p.parseRangeFrom(p.parseBinary(precOr))
}

// parseRangeFrom finishes a range whose start is lo, if one follows.
func (p *parser) parseRangeFrom(lo Expr) Expr {
	if !p.isRangeOp() {
		return lo
	}
	opTok := p.tok
	inclusive := p.rangeOp()
	var hi Expr
	if p.startsExpr() {
		hi = p.parseBinary(precOr)
	} else if inclusive {
		p.error(errMisplaced(opTok, "inclusive range with no end"))
	}
	return &RangeExpr{Range: p.rangeFrom(lo.Span().Start), Lo: lo, Hi: hi, Inclusive: inclusive}
}

// startsExpr reports whether the current token can begin an expression.
func (p *parser) startsExpr() bool {
	t := p.tok
	switch t.Kind {
	case Ident, Int, Float, String, Char, Byte, ByteString, Lifetime, OpenInvisible:
		return true
	case Keyword:
		switch t.Text {
		case "true", "false", "self", "Self", "super", "crate", "if", "match", "loop", "while", "for",
			"return", "break", "continue", "move", "unsafe", "async", "const", "let", "static":
			return true
		}
	case Punct:
		switch t.Text {
		case "(", "[", "-", "!", "*", "&", "&&", "|", "||", "..", "..=", "<", "<<", "::":
			return true
		case "{":
			return !p.noStruct
		}
	}
	return false
}

func (p *parser) parseBinary(minPrec int) Expr {
	return p.parseBinaryFrom(p.parseUnary(), minPrec)
}

// parseBinaryFrom climbs precedences from lhs: left-associative operators
// loop, tighter ones recurse; a second comparison in a row is an error, as
// in Rust, and is parsed left-associatively to recover.
//
// Each operator nests the tree built so far one level deeper, and the
// evaluator recurses as deep: a chain of operators counts against
// MaxNesting like as many parentheses.
func (p *parser) parseBinaryFrom(lhs Expr, minPrec int) Expr {
	lastWasComparison := false
	chained := 0
	for {
		prec := binaryPrec(p.tok)
		if prec == 0 || prec < minPrec {
			p.depth -= chained
			return lhs
		}
		p.enter()
		chained++
		opTok := p.tok
		p.next()
		if prec == precCast {
			ty := p.parseType()
			lhs = &CastExpr{Range: source.Range{Start: lhs.Span().Start, End: ty.Range.End}, X: lhs, Type: ty}
			continue
		}
		if prec == precCmp && lastWasComparison {
			p.error(errChainedComparison(opTok))
		}
		rhs := p.parseBinary(prec + 1)
		lhs = &BinaryExpr{Range: span(lhs, rhs), Op: opTok.Text, OpSpan: opTok.Range, X: lhs, Y: rhs}
		lastWasComparison = prec == precCmp
	}
}

// parseUnary reads prefix operators, then a primary with its postfixes.
func (p *parser) parseUnary() Expr {
	t := p.tok
	if t.Kind == Punct {
		switch t.Text {
		case "-", "!", "*":
			p.enter()
			p.next()
			x := p.parseUnary()
			p.leave()
			return &UnaryExpr{Range: source.Range{Start: t.Range.Start, End: x.Span().End}, Op: t.Text, X: x}
		case "&", "&&":
			p.enter()
			if t.Text == "&&" {
				p.splitFirst()
			} else {
				p.next()
			}
			// After splitting `&&` the current token is the inner `&`, so
			// `&&mut x` is `&(&mut x)`.
			op := "&"
			if p.got("mut") {
				op = "&mut"
			}
			x := p.parseUnary()
			p.leave()
			return &UnaryExpr{Range: source.Range{Start: t.Range.Start, End: x.Span().End}, Op: op, X: x}
		}
	}
	return p.parsePostfix(p.parsePrimary())
}

// parsePostfix reads `?`, `.field`, `.0`, `.method::<G>(args)`, `.await`,
// calls and indexing after x. Like an operator, each postfix nests x one
// level deeper and counts against MaxNesting.
func (p *parser) parsePostfix(x Expr) Expr {
	chained := 0
	for {
		if p.is("?") || p.is(".") || p.is("(") || p.is("[") {
			p.enter()
			chained++
		}
		switch {
		case p.is("?"):
			p.next()
			x = &TryExpr{Range: p.rangeFrom(x.Span().Start), X: x}
		case p.is("."):
			p.next()
			x = p.parseDotSuffix(x)
		case p.is("("):
			args, parens := p.parseCallArgs()
			x = &CallExpr{Range: p.rangeFrom(x.Span().Start), Fun: x, Args: args, ParenRange: parens}
		case p.is("["):
			p.next()
			old := p.noStruct
			p.noStruct = false
			index := p.parseExpr()
			p.closeDelim("]")
			p.noStruct = old
			x = &IndexExpr{Range: p.rangeFrom(x.Span().Start), X: x, Index: index}
		default:
			p.depth -= chained
			return x
		}
	}
}

func (p *parser) parseDotSuffix(x Expr) Expr {
	t := p.tok
	start := x.Span().Start
	switch {
	case t.Kind == Keyword && t.Text == "await":
		p.next()
		return &AwaitExpr{Range: p.rangeFrom(start), X: x}
	case t.Kind == Ident && t.Text != "_":
		p.next()
		var generics []GenericArg
		if p.is("::") {
			p.next()
			if p.is("<") || p.is("<<") {
				generics = p.parseGenericArgs()
			} else {
				p.error(errExpected(p.tok, "`<`"))
			}
		}
		if p.is("(") {
			args, parens := p.parseCallArgs()
			return &MethodCallExpr{Range: p.rangeFrom(start), Recv: x, Name: t.Text, NameSpan: t.Range,
				Generics: generics, Args: args, ParenRange: parens}
		}
		if generics != nil {
			p.error(errExpected(p.tok, "`(`"))
		}
		return &FieldExpr{Range: source.Range{Start: start, End: t.Range.End}, X: x, Name: t.Text, NameSpan: t.Range}
	case t.Kind == Int:
		p.next()
		if t.Suffix != "" {
			p.error(errMisplaced(t, "suffixes on a tuple index are invalid"))
		}
		return &FieldExpr{Range: p.rangeFrom(start), X: x, Name: t.Value, NameSpan: t.Range}
	}
	p.error(errExpected(t, "identifier"))
	return x
}

// parseCallArgs reads `(a, b, ...)`; the current token is `(`.
func (p *parser) parseCallArgs() ([]Expr, source.Range) {
	start := p.tok.Range.Start
	p.next()
	old := p.noStruct
	p.noStruct = false
	var args []Expr
	p.parseCommaList(")", func() { args = append(args, p.parseExpr()) })
	p.noStruct = old
	return args, p.rangeFrom(start)
}

// parseCommaList reads elements separated by commas up to closer, which it
// consumes; the opener has been consumed. A trailing comma is allowed.
func (p *parser) parseCommaList(closer string, elem func()) {
	for !p.is(closer) && p.tok.Kind != EOF && !isCloser(p.tok) {
		elem()
		if p.got(",") {
			continue
		}
		if p.is(closer) {
			break
		}
		p.error(errExpected(p.tok, "`,`", "`"+closer+"`"))
		p.skipTo(",", closer)
		if !p.got(",") {
			break
		}
	}
	p.closeDelim(closer)
}

// closeDelim consumes closer, skipping whatever stands before it.
func (p *parser) closeDelim(closer string) {
	if p.got(closer) {
		return
	}
	p.error(errExpected(p.tok, "`"+closer+"`"))
	p.skipTo()
	p.got(closer)
}

// parsePrimary reads literals, paths, macro calls, struct literals,
// parenthesised and tuple expressions, arrays, blocks, control flow and
// closures.
func (p *parser) parsePrimary() Expr {
	t := p.tok
	start := t.Range.Start
	switch t.Kind {
	case Int, Float, String, Char, Byte, ByteString:
		return p.parseLiteral()
	case OpenInvisible:
		return p.parseInvisibleGroup()
	case Ident:
		if t.Text == "_" {
			// `_ = expr;` discards a value; `_` means nothing elsewhere.
			if isTok(p.peek(1), "=") {
				p.next()
				return &PathExpr{Range: t.Range, Segments: []PathSegment{{Range: t.Range, Name: "_"}}}
			}
			p.error(errMisplaced(t, "in expressions, `_` can only be used on the left-hand side of an assignment"))
			p.next()
			return &BadExpr{Range: t.Range}
		}
		return p.parsePathExpr()
	case Lifetime:
		if isTok(p.peek(1), ":") {
			p.next()
			p.next()
			return p.parseLabeled(start, t.Text)
		}
	case Keyword:
		switch t.Text {
		case "true", "false":
			return p.parseLiteral()
		case "self", "Self", "super", "crate":
			return p.parsePathExpr()
		case "if":
			return p.parseIf()
		case "match":
			return p.parseMatch()
		case "loop", "while", "for":
			return p.parseLabeled(start, "")
		case "unsafe":
			if isTok(p.peek(1), "{") {
				p.next()
				return p.parseModifiedBlock(start, "unsafe")
			}
		case "const":
			if isTok(p.peek(1), "{") {
				p.next()
				return p.parseModifiedBlock(start, "const")
			}
		case "async":
			return p.parseAsync()
		case "move", "static":
			return p.parseClosure()
		case "return":
			p.next()
			var value Expr
			if p.startsExpr() {
				value = p.parseExpr()
			}
			return &ReturnExpr{Range: p.rangeFrom(start), Value: value}
		case "break":
			p.next()
			b := &BreakExpr{}
			if p.tok.Kind == Lifetime {
				b.Label = p.tok.Text
				p.next()
			}
			if p.startsExpr() {
				b.Value = p.parseExpr()
			}
			b.Range = p.rangeFrom(start)
			return b
		case "continue":
			p.next()
			c := &ContinueExpr{}
			if p.tok.Kind == Lifetime {
				c.Label = p.tok.Text
				p.next()
			}
			c.Range = p.rangeFrom(start)
			return c
		case "let":
			return p.parseMisplacedLet()
		}
	case Punct:
		switch t.Text {
		case "(":
			return p.parseParenOrTuple()
		case "[":
			return p.parseArray()
		case "{":
			return p.parseBlock()
		case "|", "||":
			return p.parseClosure()
		case "<", "<<", "::":
			return p.parsePathExpr()
		}
	}
	p.error(errExpected(t, "expression"))
	return &BadExpr{Range: p.missing()}
}

// parseInvisibleGroup reads a substituted `$e:expr` fragment as one
// operand, whatever its own operators; the current token opens it.
func (p *parser) parseInvisibleGroup() Expr {
	p.next()
	old := p.noStruct
	p.noStruct = false
	x := p.parseExpr()
	p.noStruct = old
	if p.tok.Kind == CloseInvisible {
		p.next()
	} else {
		p.error(errExpected(p.tok, "end of the `expr` fragment"))
	}
	return x
}

// parseMisplacedLet reports `let` used as an expression (a let chain in a
// condition, or a stray `let`) and skips `let pat = expr`.
func (p *parser) parseMisplacedLet() Expr {
	start := p.tok.Range.Start
	if p.noStruct {
		p.error(errUnsupported(p.tok.Range, "let chains (`let` combined with `&&` in a condition)"))
	} else {
		p.error(errMisplaced(p.tok, "expected expression, found `let` statement"))
	}
	p.next()
	p.parsePattern()
	if p.got("=") {
		p.parseBinary(precAnd + 1)
	}
	return &BadExpr{Range: p.rangeFrom(start)}
}

func (p *parser) parseLiteral() *LitExpr {
	t := p.tok
	p.next()
	lit := &LitExpr{Range: t.Range, Text: t.Text, Value: t.Value, Suffix: t.Suffix}
	switch t.Kind {
	case Int:
		lit.Kind = IntLit
	case Float:
		lit.Kind = FloatLit
	case String:
		lit.Kind = StrLit
	case Char:
		lit.Kind = CharLit
	case Byte:
		lit.Kind = ByteLit
	case ByteString:
		lit.Kind = ByteStrLit
	default:
		lit.Kind = BoolLit
		lit.Value = t.Text
	}
	return lit
}

// parsePathExpr reads a path and what a path can open: a macro call or a
// struct literal.
func (p *parser) parsePathExpr() Expr {
	start := p.tok.Range.Start
	var qself, qtrait *Type
	if p.is("<") || p.is("<<") {
		qself, qtrait = p.parseQualifiedPrefix()
	}
	segs := p.parsePathSegments(true)
	if len(segs) == 0 {
		return &BadExpr{Range: p.rangeFrom(start)}
	}
	if qself == nil && p.is("!") && isOpener(p.peek(1)) {
		return p.parseMacro(start, segs)
	}
	if qself == nil && p.is("{") && !p.noStruct {
		return p.parseStructLit(start, segs)
	}
	return &PathExpr{Range: p.rangeFrom(start), Segments: segs, QSelf: qself, QTrait: qtrait}
}

func (p *parser) parseStructLit(start int, segs []PathSegment) Expr {
	p.next() // {
	old := p.noStruct
	p.noStruct = false
	lit := &StructExpr{Path: segs}
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		if p.is("..") {
			p.next()
			if p.is("}") {
				p.error(errExpected(p.tok, "expression"))
			} else {
				lit.Base = p.parseExpr()
			}
			break
		}
		p.parseOuterAttrs()
		name := p.tok
		if name.Kind == Ident && name.Text != "_" || name.Kind == Int {
			p.next()
			field := &FieldInit{Name: name.Text}
			switch {
			case p.got(":"):
				field.Value = p.parseExpr()
			case name.Kind == Ident:
				field.Value = &PathExpr{Range: name.Range, Segments: []PathSegment{{Range: name.Range, Name: name.Text}}}
				field.Shorthand = true
			default:
				p.error(errExpected(p.tok, "`:`"))
			}
			field.Range = p.rangeFrom(name.Range.Start)
			lit.Fields = append(lit.Fields, field)
		} else {
			p.error(errExpected(name, "identifier"))
			p.skipTo(",", "}")
		}
		if p.got(",") {
			continue
		}
		if !p.is("}") {
			p.error(errExpected(p.tok, "`,`", "`}`"))
			p.skipTo(",", "}")
			if p.got(",") {
				continue
			}
		}
		break
	}
	p.closeDelim("}")
	p.noStruct = old
	lit.Range = p.rangeFrom(start)
	return lit
}

func (p *parser) parseParenOrTuple() Expr {
	start := p.tok.Range.Start
	p.next()
	old := p.noStruct
	p.noStruct = false
	defer func() { p.noStruct = old }()
	if p.got(")") {
		return &TupleExpr{Range: p.rangeFrom(start)}
	}
	first := p.parseExpr()
	if p.got(")") {
		return &ParenExpr{Range: p.rangeFrom(start), X: first}
	}
	elems := []Expr{first}
	if p.got(",") {
		p.parseCommaList(")", func() { elems = append(elems, p.parseExpr()) })
	} else {
		p.error(errExpected(p.tok, "`,`", "`)`"))
		p.skipTo(")")
		p.got(")")
	}
	return &TupleExpr{Range: p.rangeFrom(start), Elems: elems}
}

func (p *parser) parseArray() Expr {
	start := p.tok.Range.Start
	p.next()
	old := p.noStruct
	p.noStruct = false
	defer func() { p.noStruct = old }()
	if p.got("]") {
		return &ArrayExpr{Range: p.rangeFrom(start)}
	}
	first := p.parseExpr()
	if p.got(";") {
		n := p.parseExpr()
		p.closeDelim("]")
		return &ArrayRepeatExpr{Range: p.rangeFrom(start), Elem: first, Len: n}
	}
	elems := []Expr{first}
	if p.got(",") {
		p.parseCommaList("]", func() { elems = append(elems, p.parseExpr()) })
	} else {
		p.closeDelim("]")
	}
	return &ArrayExpr{Range: p.rangeFrom(start), Elems: elems}
}

// parseBlock reads `{ stmts }`; the current token is `{`.
func (p *parser) parseBlock() *BlockExpr {
	p.enter()
	start := p.tok.Range.Start
	p.next()
	old := p.noStruct
	p.noStruct = false
	p.skipInnerAttrs()
	b := &BlockExpr{}
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		before := p.tok.Range.Start
		item, stmt := p.parseStmt(false)
		if item != nil {
			b.Stmts = append(b.Stmts, &ItemStmt{Item: item})
		}
		if stmt != nil {
			b.Stmts = append(b.Stmts, stmt)
		}
		if p.tok.Range.Start == before {
			p.syncStmt()
		}
	}
	p.closeDelim("}")
	p.noStruct = old
	p.leave()
	b.Range = p.rangeFrom(start)
	return b
}

// parseBlockExpected reads a block where one is required.
func (p *parser) parseBlockExpected() *BlockExpr {
	if p.is("{") {
		return p.parseBlock()
	}
	p.error(errExpected(p.tok, "`{`"))
	return &BlockExpr{Range: p.missing()}
}

// parseModifiedBlock reads the block of `unsafe {`, `async {`,
// `async move {` or `const {`, whose keywords started at start.
func (p *parser) parseModifiedBlock(start int, modifier string) Expr {
	b := p.parseBlock()
	b.Modifier = modifier
	b.Range.Start = start
	return b
}

func (p *parser) parseAsync() Expr {
	start := p.tok.Range.Start
	next := p.peek(1)
	switch {
	case isTok(next, "{"):
		p.next()
		return p.parseModifiedBlock(start, "async")
	case isTok(next, "move") && isTok(p.peek(2), "{"):
		p.next()
		p.next()
		return p.parseModifiedBlock(start, "async move")
	}
	return p.parseClosure()
}

// parseLabeled reads a loop or block after an optional `'label:`.
func (p *parser) parseLabeled(start int, label string) Expr {
	switch {
	case p.is("loop"):
		p.next()
		body := p.parseBlockExpected()
		return &LoopExpr{Range: p.rangeFrom(start), Body: body, Label: label}
	case p.is("while"):
		p.enter()
		defer p.leave()
		p.next()
		w := &WhileExpr{Label: label}
		w.Let, w.Cond = p.parseCond()
		w.Body = p.parseBlockExpected()
		w.Range = p.rangeFrom(start)
		return w
	case p.is("for"):
		p.enter()
		defer p.leave()
		p.next()
		f := &ForExpr{Label: label}
		f.Pat = p.parsePattern()
		if !p.got("in") {
			p.error(errMisplaced(p.tok, "missing `in` in `for` loop"))
		}
		f.Iter = p.parseExprNoStruct()
		f.Body = p.parseBlockExpected()
		f.Range = p.rangeFrom(start)
		return f
	case p.is("{"):
		b := p.parseBlock()
		b.Label = label
		b.Range.Start = start
		return b
	}
	p.error(errExpected(p.tok, "`loop`", "`while`", "`for`", "`{`"))
	return &BadExpr{Range: p.rangeFrom(start)}
}

func (p *parser) parseIf() Expr {
	p.enter()
	defer p.leave()
	start := p.tok.Range.Start
	p.next()
	e := &IfExpr{}
	e.Let, e.Cond = p.parseCond()
	e.Then = p.parseBlockExpected()
	if p.got("else") {
		if p.is("if") {
			e.Else = p.parseIf()
		} else {
			e.Else = p.parseBlockExpected()
		}
	}
	e.Range = p.rangeFrom(start)
	return e
}

// parseCond reads the condition of if or while: an expression, or
// `let pat = scrutinee`.
func (p *parser) parseCond() (Pattern, Expr) {
	old := p.noStruct
	p.noStruct = true
	defer func() { p.noStruct = old }()
	if !p.got("let") {
		return nil, p.parseExpr()
	}
	pat := p.parsePattern()
	p.expect("=")
	// The scrutinee binds tighter than `&&`, as in rustc.
	x := p.parseBinary(precAnd + 1)
	if p.is("&&") || p.is("||") {
		p.error(errUnsupported(p.tok.Range, "let chains (`let` combined with `&&` in a condition)"))
		x = p.parseBinaryFrom(x, precOr)
	}
	return pat, x
}

func (p *parser) parseMatch() Expr {
	p.enter()
	defer p.leave()
	start := p.tok.Range.Start
	p.next()
	m := &MatchExpr{X: p.parseExprNoStruct()}
	if !p.is("{") {
		p.error(errExpected(p.tok, "`{`"))
		m.Range = p.rangeFrom(start)
		return m
	}
	p.next()
	old := p.noStruct
	p.noStruct = false
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		before := p.tok.Range.Start
		attrs := p.parseOuterAttrs()
		arm := &MatchArm{Attrs: attrs, Pats: p.parseAltPatterns()}
		armStart := arm.Pats[0].Span().Start
		if len(attrs) > 0 {
			armStart = attrs[0].Range.Start
		}
		if p.got("if") {
			arm.Guard = p.parseExpr()
		}
		if !p.expect("=>") {
			p.skipTo(",", "}")
			p.got(",")
			if p.tok.Range.Start == before {
				p.skipGroup()
			}
			continue
		}
		body, blockLike := p.parseStmtExpr()
		arm.Body = body
		arm.Range = p.rangeFrom(armStart)
		m.Arms = append(m.Arms, arm)
		if p.got(",") || blockLike || p.is("}") {
			continue
		}
		p.error(errExpected(p.tok, "`,`", "`}`"))
		p.skipTo(",", "}")
		p.got(",")
	}
	p.closeDelim("}")
	p.noStruct = old
	m.Range = p.rangeFrom(start)
	return m
}

// parseClosure reads `[static] [async] [move] |params| [-> T] body`.
func (p *parser) parseClosure() Expr {
	start := p.tok.Range.Start
	c := &ClosureExpr{}
	if p.is("static") {
		p.error(errUnsupported(p.tok.Range, "`static` closures"))
		p.next()
	}
	if p.is("async") {
		p.error(errUnsupported(p.tok.Range, "`async` closures"))
		p.next()
	}
	c.Move = p.got("move")
	switch {
	case p.got("||"):
	case p.got("|"):
		for !p.is("|") && p.tok.Kind != EOF && !isCloser(p.tok) {
			attrs := p.parseOuterAttrs()
			param := &Param{Attrs: attrs, Pat: p.parsePatternNoAlt()}
			if p.got(":") {
				param.Type = p.parseType()
			}
			param.Range = p.rangeFrom(param.Pat.Span().Start)
			if len(attrs) > 0 {
				param.Range.Start = attrs[0].Range.Start
			}
			c.Params = append(c.Params, param)
			if !p.got(",") {
				break
			}
		}
		if !p.got("|") {
			p.error(errExpected(p.tok, "`|`"))
			return &BadExpr{Range: p.rangeFrom(start)}
		}
	default:
		p.error(errExpected(p.tok, "`|`"))
		return &BadExpr{Range: p.rangeFrom(start)}
	}
	if p.got("->") {
		c.Result = p.parseType()
		c.Body = p.parseBlockExpected()
	} else {
		c.Body = p.parseExpr()
	}
	c.Range = p.rangeFrom(start)
	return c
}

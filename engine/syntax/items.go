package syntax

import (
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
)

// itemContext tells where an item stands; it decides which items may omit
// a body.
type itemContext int

const (
	ctxFree  itemContext = iota // top level or inside a module
	ctxBlock                    // inside a function body
	ctxTrait                    // inside a trait
	ctxImpl                     // inside an impl
)

// startsItem reports whether the current token begins an item rather than
// a statement.
func (p *parser) startsItem() bool {
	t := p.tok
	switch t.Kind {
	case Keyword:
		switch t.Text {
		case "fn", "struct", "enum", "trait", "impl", "use", "mod", "type", "extern", "pub":
			return true
		case "static":
			n := p.peek(1)
			return n.Kind == Ident || isTok(n, "mut")
		case "const":
			n := p.peek(1)
			return n.Kind == Ident || isTok(n, "fn") || isTok(n, "unsafe") || isTok(n, "async") || isTok(n, "extern")
		case "unsafe":
			n := p.peek(1)
			return isTok(n, "fn") || isTok(n, "impl") || isTok(n, "trait") || isTok(n, "extern")
		case "async":
			n := p.peek(1)
			return isTok(n, "fn") || isTok(n, "unsafe") && isTok(p.peek(2), "fn")
		}
	case Ident:
		switch t.Text {
		case "union":
			return p.peek(1).Kind == Ident
		case "auto":
			return isTok(p.peek(1), "trait")
		case "macro_rules":
			return isTok(p.peek(1), "!")
		}
	}
	return false
}

// parseOuterAttrs reads `#[...]` attributes. A misplaced inner attribute
// `#![...]` is reported and skipped.
func (p *parser) parseOuterAttrs() []*Attr {
	var attrs []*Attr
	for p.is("#") {
		next := p.peek(1)
		if isTok(next, "!") {
			p.error(errMisplaced(p.tok, "an inner attribute is not permitted in this context"))
			p.next()
			p.next()
			if p.is("[") {
				p.skipGroup()
			}
			continue
		}
		if !isTok(next, "[") {
			p.next()
			p.error(errExpected(p.tok, "`[`"))
			return attrs
		}
		attrs = append(attrs, p.parseAttr())
	}
	return attrs
}

// parseAttr reads `#[path]`, `#[path(tokens)]` or `#[path = value]`.
func (p *parser) parseAttr() *Attr {
	start := p.tok.Range.Start
	p.next() // #
	depth := p.delims
	p.next() // [
	a := &Attr{}
	var path []string
	for {
		if p.tok.Kind != Ident && p.tok.Kind != Keyword {
			p.error(errExpected(p.tok, "identifier"))
			break
		}
		path = append(path, p.tok.Text)
		p.next()
		if !p.got("::") {
			break
		}
	}
	a.Path = strings.Join(path, "::")
	switch {
	case isOpener(p.tok):
		argsStart := p.tok.Range.Start
		inner := p.delims + 1
		p.next()
		for p.tok.Kind != EOF && !(p.delims == inner && isCloser(p.tok)) {
			a.Args = append(a.Args, p.tok)
			p.next()
		}
		p.next()
		a.ArgsRange = p.rangeFrom(argsStart)
	case p.got("="):
		a.Eq = true
		argsStart := p.tok.Range.Start
		for p.tok.Kind != EOF && !(p.delims == depth+1 && isCloser(p.tok)) {
			a.Args = append(a.Args, p.tok)
			p.next()
		}
		a.ArgsRange = p.rangeFrom(argsStart)
	}
	if !p.got("]") {
		p.error(errExpected(p.tok, "`]`"))
		for p.delims > depth && p.tok.Kind != EOF {
			p.next()
		}
	}
	a.Range = p.rangeFrom(start)
	return a
}

// parseVis reads `pub`, `pub(crate)`, `pub(super)`, `pub(self)` or
// `pub(in path)`.
func (p *parser) parseVis() bool {
	if !p.got("pub") {
		return false
	}
	if p.is("(") {
		inner := p.peek(1)
		if isTok(inner, "in") || (isTok(inner, "crate") || isTok(inner, "super") || isTok(inner, "self")) && isTok(p.peek(2), ")") {
			p.skipGroup()
		}
	}
	return true
}

func (p *parser) expectIdent() (string, source.Range) {
	if p.tok.Kind == Ident && p.tok.Text != "_" {
		t := p.tok
		p.next()
		return t.Text, t.Range
	}
	p.error(errExpected(p.tok, "identifier"))
	return "", p.missing()
}

// parseItem reads an item after its attributes. It returns nil when it
// could not read one or when the item is skipped as unsupported.
func (p *parser) parseItem(attrs []*Attr, ctx itemContext) Item {
	start := p.tok.Range.Start
	if len(attrs) > 0 {
		start = attrs[0].Range.Start
	}
	pub := p.parseVis()
	switch {
	case p.is("use"):
		return p.parseUse(start, attrs, pub)
	case p.is("struct"):
		return p.parseStruct(start, attrs, pub)
	case p.isIdent("union") && p.peek(1).Kind == Ident:
		p.error(errUnsupported(p.tok.Range, "unions"))
		return p.parseStruct(start, attrs, pub)
	case p.is("enum"):
		return p.parseEnum(start, attrs, pub)
	case p.is("trait"), p.is("unsafe") && isTok(p.peek(1), "trait"), p.isIdent("auto") && isTok(p.peek(1), "trait"):
		return p.parseTrait(start, attrs, pub)
	case p.is("impl"), p.is("unsafe") && isTok(p.peek(1), "impl"):
		return p.parseImpl(start, attrs)
	case p.is("mod"):
		return p.parseMod(start, attrs, pub)
	case p.is("type"):
		return p.parseTypeAlias(start, attrs, pub, ctx)
	case p.is("static"), p.is("const") && p.peek(1).Kind == Ident:
		return p.parseConst(start, attrs, pub, ctx)
	case p.isIdent("macro_rules") && isTok(p.peek(1), "!"):
		return p.parseMacroRules(start, attrs)
	case p.is("extern") && isTok(p.peek(1), "crate"):
		return p.parseExternCrate(start, attrs, pub)
	case p.is("extern") && (isTok(p.peek(1), "{") || p.peek(1).Kind == String && isTok(p.peek(2), "{")):
		p.error(errUnsupported(p.tok.Range, "`extern` blocks"))
		p.next()
		if p.tok.Kind == String {
			p.next()
		}
		p.skipGroup()
		return nil
	case p.is("fn"), p.is("const"), p.is("async"), p.is("unsafe"), p.is("extern"):
		return p.parseFn(start, attrs, pub, ctx)
	case p.atMacroCall():
		return p.parseMacroItem(start, attrs)
	}
	p.error(errExpected(p.tok, "item"))
	return nil
}

// parseExternCrate reads `extern crate name [as alias];`; the current token
// is `extern`.
func (p *parser) parseExternCrate(start int, attrs []*Attr, pub bool) Item {
	p.next() // extern
	p.next() // crate
	d := &ExternCrateDecl{Attrs: attrs, Pub: pub}
	if p.tok.Kind != Ident && !p.is("self") {
		p.error(errExpected(p.tok, "identifier"))
		p.skipTo(";")
		p.got(";")
		return nil
	}
	d.Name = p.tok.Text
	p.next()
	if p.got("as") {
		if p.tok.Kind != Ident && !p.is("_") {
			p.error(errExpected(p.tok, "identifier"))
		} else {
			d.Alias = p.tok.Text
			p.next()
		}
	}
	p.expect(";")
	d.Range = p.rangeFrom(start)
	return d
}

// parseItems reads the items of a module up to `}` (consumed) or EOF.
func (p *parser) parseItems(ctx itemContext) []Item {
	var items []Item
	p.skipInnerAttrs()
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		before := p.tok.Range.Start
		attrs := p.parseOuterAttrs()
		if it := p.parseItem(attrs, ctx); it != nil {
			items = append(items, it)
		}
		if p.tok.Range.Start == before {
			p.syncStmt()
		}
	}
	p.closeDelim("}")
	return items
}

func (p *parser) parseUse(start int, attrs []*Attr, pub bool) Item {
	p.next() // use
	d := &UseDecl{Attrs: attrs, Pub: pub}
	treeStart := p.tok.Range.Start
	p.parseUseTree("", d)
	d.Path = p.normalizedText(p.rangeFrom(treeStart))
	if !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	d.Range = p.rangeFrom(start)
	return d
}

// parseUseTree reads one use tree below prefix, adding its leaves to d.
func (p *parser) parseUseTree(prefix string, d *UseDecl) {
	p.enter()
	defer p.leave()
	start := p.tok.Range.Start
	path := prefix
	if p.got("::") && path == "" {
		path = "::"
	}
	join := func(name string) {
		switch path {
		case "":
			path = name
		case "::":
			path += name
		default:
			path += "::" + name
		}
	}
	for {
		switch {
		case p.is("*"):
			p.next()
			join("*")
			d.Leaves = append(d.Leaves, UseLeaf{Range: p.rangeFrom(start), Path: path, Glob: true})
			return
		case p.is("{"):
			p.next()
			p.parseCommaList("}", func() { p.parseUseTree(path, d) })
			return
		case isPathSegmentTok(p.tok):
			name := p.tok.Text
			p.next()
			if name != "self" || path == "" {
				join(name)
			}
			if p.got("::") {
				continue
			}
			leaf := UseLeaf{Path: path}
			if p.got("as") {
				if p.tok.Kind == Ident {
					leaf.Alias = p.tok.Text
					p.next()
				} else {
					p.error(errExpected(p.tok, "identifier"))
				}
			}
			leaf.Range = p.rangeFrom(start)
			d.Leaves = append(d.Leaves, leaf)
			return
		default:
			p.error(errExpected(p.tok, "identifier"))
			return
		}
	}
}

// parseFn reads `[const] [async] [unsafe] [extern "abi"] fn name<G>(params)
// [-> T] [where ...] { body }` or, in a trait, `...;`.
func (p *parser) parseFn(start int, attrs []*Attr, pub bool, ctx itemContext) Item {
	fn := &FnDecl{Attrs: attrs, Pub: pub}
qualifiers:
	for {
		switch {
		case p.got("const"):
			fn.Const = true
		case p.got("async"):
			fn.Async = true
		case p.got("unsafe"):
			fn.Unsafe = true
		case p.is("extern"):
			p.error(errUnsupported(p.tok.Range, "`extern` functions"))
			p.next()
			if p.tok.Kind == String {
				p.next()
			}
		default:
			break qualifiers
		}
	}
	if !p.expect("fn") {
		return nil
	}
	fn.Name, fn.NameSpan = p.expectIdent()
	if p.is("<") {
		fn.Generics = p.parseGenericParams()
	}
	if p.is("(") {
		fn.Params = p.parseParams()
	} else {
		p.error(errExpected(p.tok, "`(`"))
	}
	if p.got("->") {
		fn.Result = p.parseType()
	}
	if p.is("where") {
		fn.Where = p.parseWhere()
	}
	switch {
	case p.is("{"):
		fn.Body = p.parseBlock()
	case p.is(";"):
		semi := p.tok
		p.next()
		switch ctx {
		case ctxFree, ctxBlock:
			p.error(errMisplaced(semi, "free function without a body"))
		case ctxImpl:
			p.error(errMisplaced(semi, "associated function in `impl` without body"))
		}
	default:
		// The signature went wrong somewhere; the body is still worth
		// reading, so that errors inside it are found too.
		p.error(errExpected(p.tok, "`;`", "`{`"))
		p.skipTo("{", ";")
		if p.is("{") {
			fn.Body = p.parseBlock()
		} else {
			p.got(";")
		}
	}
	fn.Range = p.rangeFrom(start)
	return fn
}

func (p *parser) parseParams() []*Param {
	p.next() // (
	old := p.noStruct
	p.noStruct = false
	var params []*Param
	p.parseCommaList(")", func() {
		if param := p.parseParam(); param != nil {
			params = append(params, param)
		}
	})
	p.noStruct = old
	return params
}

// isSelfParam reports whether a `self` parameter starts here: `self`,
// `mut self`, `&self`, `&mut self`, `&'a self`, `&'a mut self`.
func (p *parser) isSelfParam() bool {
	selfAt := func(n int) bool { return isTok(p.peek(n), "self") && !isTok(p.peek(n+1), "::") }
	switch {
	case p.is("self"):
		return !isTok(p.peek(1), "::")
	case p.is("mut"):
		return selfAt(1)
	case p.is("&"):
		n := 1
		if p.peek(1).Kind == Lifetime {
			n = 2
		}
		if isTok(p.peek(n), "mut") {
			n++
		}
		return selfAt(n)
	}
	return false
}

func (p *parser) parseParam() *Param {
	attrs := p.parseOuterAttrs()
	start := p.tok.Range.Start
	if len(attrs) > 0 {
		start = attrs[0].Range.Start
	}
	param := &Param{Attrs: attrs}
	switch {
	case p.isSelfParam():
		param.Self = true
		if p.got("&") {
			param.SelfRef = true
			if p.tok.Kind == Lifetime {
				p.next()
			}
		}
		param.SelfMut = p.got("mut")
		p.next() // self
		if p.got(":") {
			param.Type = p.parseType()
		}
	case p.is("..."):
		p.error(errUnsupported(p.tok.Range, "C-variadic functions"))
		p.next()
		return nil
	default:
		param.Pat = p.parsePatternNoAlt()
		if len(attrs) == 0 {
			start = param.Pat.Span().Start
		}
		if p.expect(":") {
			param.Type = p.parseType()
		}
	}
	param.Range = p.rangeFrom(start)
	return param
}

// parseGenericParams reads `<'a, T: Bound = Default, const N: usize>`.
func (p *parser) parseGenericParams() []*Generic {
	p.next() // <
	var generics []*Generic
	for !p.isGT() && p.tok.Kind != EOF && !isCloser(p.tok) {
		attrs := p.parseOuterAttrs()
		start := p.tok.Range.Start
		if len(attrs) > 0 {
			start = attrs[0].Range.Start
		}
		g := &Generic{}
		switch {
		case p.tok.Kind == Lifetime:
			g.Name, g.Lifetime = p.tok.Text, true
			p.next()
			if p.got(":") {
				g.Bounds = p.parseBounds()
			}
		case p.got("const"):
			g.Const = true
			g.Name, _ = p.expectIdent()
			if p.expect(":") {
				g.Bounds = []*Type{p.parseType()}
			}
			if p.got("=") {
				arg := p.parseGenericArg()
				g.Default = &arg
			}
		case p.tok.Kind == Ident && p.tok.Text != "_":
			g.Name = p.tok.Text
			p.next()
			if p.got(":") {
				g.Bounds = p.parseBounds()
			}
			if p.got("=") {
				ty := p.parseType()
				g.Default = &GenericArg{Range: ty.Range, Type: ty}
			}
		default:
			p.error(errExpected(p.tok, "`>`", "`const`", "identifier", "lifetime"))
			p.skipTo(",", ">")
		}
		g.Range = p.rangeFrom(start)
		generics = append(generics, g)
		if !p.got(",") {
			break
		}
	}
	if !p.gotGT() {
		p.error(errExpected(p.tok, "`,`", "`>`"))
	}
	return generics
}

// parseWhere reads a where-clause up to `{`, `;` or `=`.
func (p *parser) parseWhere() []*WherePredicate {
	p.next() // where
	var preds []*WherePredicate
	for !p.is("{") && !p.is(";") && !p.is("=") && p.tok.Kind != EOF && !isCloser(p.tok) {
		start := p.tok.Range.Start
		w := &WherePredicate{}
		if p.tok.Kind == Lifetime {
			w.Lifetime = p.tok.Text
			p.next()
		} else {
			if p.is("for") {
				p.next()
				if p.is("<") {
					p.parseGenericParams()
				}
			}
			w.Type = p.parseType()
		}
		if p.expect(":") {
			w.Bounds = p.parseBounds()
		}
		w.Range = p.rangeFrom(start)
		if w.Type != nil && w.Type.Range.Start < w.Range.Start {
			// The type was missing: its placeholder sits before start.
			w.Range.Start = w.Type.Range.Start
		}
		preds = append(preds, w)
		if !p.got(",") {
			break
		}
	}
	return preds
}

// parseStruct reads a unit, tuple or named-field struct (or a union).
func (p *parser) parseStruct(start int, attrs []*Attr, pub bool) Item {
	s := &StructDecl{Attrs: attrs, Pub: pub, Union: p.isIdent("union")}
	p.next() // struct / union
	s.Name, s.NameSpan = p.expectIdent()
	if p.is("<") {
		s.Generics = p.parseGenericParams()
	}
	switch {
	case p.is("("):
		s.Shape = TupleShape
		s.Fields = p.parseTupleFields()
		if p.is("where") {
			s.Where = p.parseWhere()
		}
		if !p.got(";") {
			p.error(errMissingSemi(p.tok, p.prevEnd))
		}
	default:
		if p.is("where") {
			s.Where = p.parseWhere()
		}
		switch {
		case p.got(";"):
			s.Shape = UnitShape
		case p.is("{"):
			s.Shape = NamedShape
			s.Fields = p.parseNamedFields()
		default:
			p.error(errExpected(p.tok, "`where`", "`{`", "`(`", "`;`"))
		}
	}
	s.Range = p.rangeFrom(start)
	return s
}

// parseTupleFields reads `(pub A, B)`, naming the fields "0", "1", ...
func (p *parser) parseTupleFields() []*Field {
	p.next() // (
	var fields []*Field
	p.parseCommaList(")", func() {
		attrs := p.parseOuterAttrs()
		start := p.tok.Range.Start
		if len(attrs) > 0 {
			start = attrs[0].Range.Start
		}
		f := &Field{Attrs: attrs, Name: strconv.Itoa(len(fields))}
		f.Pub = p.parseVis()
		f.Type = p.parseType()
		f.Range = p.rangeFrom(start)
		fields = append(fields, f)
	})
	return fields
}

// parseNamedFields reads `{ pub a: A, b: B }`.
func (p *parser) parseNamedFields() []*Field {
	p.next() // {
	var fields []*Field
	p.parseCommaList("}", func() {
		attrs := p.parseOuterAttrs()
		start := p.tok.Range.Start
		if len(attrs) > 0 {
			start = attrs[0].Range.Start
		}
		f := &Field{Attrs: attrs, Shape: UnitShape}
		f.Pub = p.parseVis()
		f.Name, f.NameSpan = p.expectIdent()
		if p.expect(":") {
			f.Type = p.parseType()
		}
		f.Range = p.rangeFrom(start)
		fields = append(fields, f)
	})
	return fields
}

func (p *parser) parseEnum(start int, attrs []*Attr, pub bool) Item {
	e := &StructDecl{Attrs: attrs, Pub: pub, Enum: true, Shape: NamedShape}
	p.next() // enum
	e.Name, e.NameSpan = p.expectIdent()
	if p.is("<") {
		e.Generics = p.parseGenericParams()
	}
	if p.is("where") {
		e.Where = p.parseWhere()
	}
	if !p.is("{") {
		p.error(errExpected(p.tok, "`{`"))
		e.Range = p.rangeFrom(start)
		return e
	}
	p.next()
	p.parseCommaList("}", func() {
		attrs := p.parseOuterAttrs()
		vstart := p.tok.Range.Start
		if len(attrs) > 0 {
			vstart = attrs[0].Range.Start
		}
		p.parseVis()
		v := &Field{Attrs: attrs}
		v.Name, v.NameSpan = p.expectIdent()
		switch {
		case p.is("("):
			v.Shape = TupleShape
			tupleStart := p.tok.Range.Start
			v.Fields = p.parseTupleFields()
			tuple := &Type{Kind: TypeTuple, Range: p.rangeFrom(tupleStart)}
			for _, f := range v.Fields {
				tuple.Elems = append(tuple.Elems, f.Type)
			}
			tuple.Text = p.normalizedText(tuple.Range)
			v.Type = tuple
		case p.is("{"):
			v.Shape = NamedShape
			v.Fields = p.parseNamedFields()
		}
		if p.got("=") {
			v.Discriminant = p.parseExpr()
		}
		v.Range = p.rangeFrom(vstart)
		e.Fields = append(e.Fields, v)
	})
	e.Range = p.rangeFrom(start)
	return e
}

func (p *parser) parseTrait(start int, attrs []*Attr, pub bool) Item {
	t := &TraitDecl{Attrs: attrs, Pub: pub}
	if p.is("unsafe") {
		t.Unsafe = true
		p.error(errUnsupported(source.Range{Start: p.tok.Range.Start, End: p.peek(1).Range.End}, "`unsafe trait`s"))
		p.next()
	}
	if p.isIdent("auto") {
		p.error(errUnsupported(source.Range{Start: p.tok.Range.Start, End: p.peek(1).Range.End}, "auto traits"))
		p.next()
	}
	p.next() // trait
	t.Name, t.NameSpan = p.expectIdent()
	if p.is("<") {
		t.Generics = p.parseGenericParams()
	}
	if p.got(":") {
		t.Supers = p.parseBounds()
	}
	if p.is("=") {
		p.error(errUnsupported(p.tok.Range, "trait aliases"))
		p.skipTo(";")
		p.got(";")
		t.Range = p.rangeFrom(start)
		return t
	}
	if p.is("where") {
		t.Where = p.parseWhere()
	}
	if !p.is("{") {
		p.error(errExpected(p.tok, "`{`"))
		t.Range = p.rangeFrom(start)
		return t
	}
	t.Methods, t.Assoc = p.parseAssocItems(ctxTrait)
	t.Range = p.rangeFrom(start)
	return t
}

func (p *parser) parseImpl(start int, attrs []*Attr) Item {
	im := &ImplDecl{Attrs: attrs}
	if p.is("unsafe") {
		im.Unsafe = true
		p.error(errUnsupported(source.Range{Start: p.tok.Range.Start, End: p.peek(1).Range.End}, "`unsafe impl` blocks"))
		p.next()
	}
	p.next() // impl
	if p.is("<") {
		im.Generics = p.parseGenericParams()
	}
	if p.is("!") {
		p.error(errUnsupported(p.tok.Range, "negative impls"))
		p.next()
	}
	first := p.parseType()
	if p.got("for") {
		im.Trait = first
		im.For = p.parseType()
	} else {
		im.For = first
	}
	if p.is("where") {
		im.Where = p.parseWhere()
	}
	if !p.is("{") {
		p.error(errExpected(p.tok, "`{`"))
		im.Range = p.rangeFrom(start)
		return im
	}
	im.Methods, im.Assoc = p.parseAssocItems(ctxImpl)
	im.Range = p.rangeFrom(start)
	return im
}

// parseAssocItems reads the `{ ... }` of a trait or impl: functions,
// associated types and consts.
func (p *parser) parseAssocItems(ctx itemContext) ([]*FnDecl, []Item) {
	p.next() // {
	methods, assoc := p.parseAssocList(ctx)
	p.closeDelim("}")
	return methods, assoc
}

// parseAssocList reads the members of a trait or impl body up to its `}`
// or the end of the tokens.
func (p *parser) parseAssocList(ctx itemContext) ([]*FnDecl, []Item) {
	p.skipInnerAttrs()
	var methods []*FnDecl
	var assoc []Item
	for !p.is("}") && p.tok.Kind != EOF && !isCloser(p.tok) {
		before := p.tok.Range.Start
		attrs := p.parseOuterAttrs()
		start := p.tok.Range.Start
		if len(attrs) > 0 {
			start = attrs[0].Range.Start
		}
		pub := p.parseVis()
		if p.isIdent("default") && (isTok(p.peek(1), "fn") || isTok(p.peek(1), "type") || isTok(p.peek(1), "const") || isTok(p.peek(1), "unsafe") || isTok(p.peek(1), "async")) {
			p.next() // specialization's `default` changes nothing here
		}
		switch {
		case p.is("type"):
			if it := p.parseTypeAlias(start, attrs, pub, ctx); it != nil {
				assoc = append(assoc, it)
			}
		case p.is("const") && (p.peek(1).Kind == Ident):
			if it := p.parseConst(start, attrs, pub, ctx); it != nil {
				assoc = append(assoc, it)
			}
		case p.is("fn"), p.is("const"), p.is("async"), p.is("unsafe"), p.is("extern"):
			if fn, ok := p.parseFn(start, attrs, pub, ctx).(*FnDecl); ok && fn != nil {
				methods = append(methods, fn)
			}
		case p.atMacroCall():
			assoc = append(assoc, p.parseMacroItem(start, attrs))
		default:
			p.error(errExpected(p.tok, "`fn`", "`type`", "`const`"))
		}
		if p.tok.Range.Start == before {
			p.syncStmt()
		}
	}
	return methods, assoc
}

func (p *parser) parseMod(start int, attrs []*Attr, pub bool) Item {
	m := &ModDecl{Attrs: attrs, Pub: pub}
	p.next() // mod
	m.Name, _ = p.expectIdent()
	switch {
	case p.got(";"):
	case p.is("{"):
		m.Inline = true
		p.next()
		p.enter()
		m.Items = p.parseItems(ctxFree)
		p.leave()
	default:
		p.error(errExpected(p.tok, "`;`", "`{`"))
	}
	m.Range = p.rangeFrom(start)
	return m
}

// parseConst reads `const NAME: T = value;` and `static [mut] NAME: T = value;`.
func (p *parser) parseConst(start int, attrs []*Attr, pub bool, ctx itemContext) Item {
	c := &ConstDecl{Attrs: attrs, Pub: pub, Static: p.is("static")}
	p.next()
	if c.Static {
		c.Mut = p.got("mut")
	}
	if p.isIdent("_") {
		c.Name = "_"
		p.next()
	} else {
		c.Name, _ = p.expectIdent()
	}
	if p.got(":") {
		c.Type = p.parseType()
	} else {
		kind := "const"
		if c.Static {
			kind = "static"
		}
		p.error(errMisplaced(p.tok, "missing type for `"+kind+"` item"))
	}
	if p.got("=") {
		c.Value = p.parseExpr()
	} else if ctx != ctxTrait {
		p.error(errExpected(p.tok, "`=`"))
	}
	if !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	c.Range = p.rangeFrom(start)
	return c
}

// parseTypeAlias reads `type Name<G> = T;`, or in a trait
// `type Name: Bounds [= T];`.
func (p *parser) parseTypeAlias(start int, attrs []*Attr, pub bool, ctx itemContext) Item {
	a := &TypeAliasDecl{Attrs: attrs, Pub: pub}
	p.next() // type
	a.Name, a.NameSpan = p.expectIdent()
	if p.is("<") {
		a.Generics = p.parseGenericParams()
	}
	if p.got(":") {
		a.Bounds = p.parseBounds()
	}
	if p.is("where") {
		p.parseWhere()
	}
	if p.got("=") {
		a.Type = p.parseType()
	} else if ctx != ctxTrait {
		p.error(errExpected(p.tok, "`=`"))
	}
	if p.is("where") {
		p.parseWhere()
	}
	if !p.got(";") {
		p.error(errMissingSemi(p.tok, p.prevEnd))
	}
	a.Range = p.rangeFrom(start)
	return a
}

package main

import (
	"strings"
)

// The item scanner: Rust items at module level and inside impl and trait
// blocks, with their attributes' cfg. Bodies are skipped by matching
// braces; signatures are kept as their normalised source text.

type item struct {
	kind     string // fn, struct, enum, trait, mod, use, impl, macro, const, type
	name     string
	pub      bool // `pub` without a restriction
	cfg      cfg
	line     int
	generics string // `<...>` without the brackets
	params   string // a fn's parameters, without the parentheses
	ret      string // a fn's return type ("" for ())
	where    string // the where clause, without `where`
	receiver string // self, &self, &mut self, mut self; "" for an associated function
	// impl
	implTrait string // the trait of `impl Trait for Type` ("" for inherent impls)
	implType  string // the type's source text
	items     []*item
	// mod
	inline  bool // `mod x { ... }`
	hasBody bool
	// use
	uses []usePath
	// enum
	variants []variant
	// trait
	supertraits string
	// macro
	exported bool // #[macro_export]
	// struct, enum
	derives []string // #[derive(..)]: the last segment of each
	// struct
	fields []field // a struct's named fields (nil for a tuple or unit struct)
}

// field is a named field of a struct: what #[derive(Config)] makes its
// constructor and builders of.
type field struct {
	name   string
	typ    string
	config bool // #[config(..)]: a field with a default, set by with_<name>
}

type variant struct {
	name   string
	fields string // "(..)" or "{..}" text, "" for a unit variant
	cfg    cfg
	line   int
}

// usePath is one leaf of a use tree: a::b::c (as alias), or a::b::*.
type usePath struct {
	path  []string
	alias string
	glob  bool
}

// cfg is an attribute's condition as text (`feature = "std"` becomes
// `std`, all(..) joins with &, not(..) is !x, any(..) joins with |);
// test is cfg(test) anywhere in a conjunction: the item is not compiled.
type cfg struct {
	expr string
	test bool
}

func (c cfg) and(o cfg) cfg {
	out := cfg{test: c.test || o.test}
	var atoms []string
	for _, e := range []string{c.expr, o.expr} {
		if e == "" {
			continue
		}
		for _, a := range splitTop(e, '&') {
			dup := false
			for _, x := range atoms {
				dup = dup || x == a
			}
			if !dup {
				atoms = append(atoms, a)
			}
		}
	}
	out.expr = strings.Join(atoms, "&")
	return out
}

type parser struct {
	src  string
	toks []token
	pos  int
}

func (p *parser) peek(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return token{kind: tPunct, text: "", off: len(p.src), end: len(p.src)}
}

func (p *parser) is(text string) bool {
	t := p.peek(0)
	return t.text == text && (t.kind == tIdent || t.kind == tPunct)
}

func (p *parser) done() bool { return p.pos >= len(p.toks) }

// skipGroup skips a balanced (), [] or {} group starting at the current
// token, which must open it.
func (p *parser) skipGroup() {
	depth := 0
	for !p.done() {
		t := p.toks[p.pos]
		p.pos++
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth <= 0 {
				return
			}
		}
	}
}

// skipAngle skips a balanced <...> starting at the current `<`.
func (p *parser) skipAngle() (start, end int) {
	start = p.peek(0).end
	depth := 0
	for !p.done() {
		t := p.toks[p.pos]
		if t.kind == tPunct {
			switch t.text {
			case "<":
				depth++
			case ">":
				depth--
				if depth == 0 {
					end = t.off
					p.pos++
					return start, end
				}
			case "(", "[", "{":
				p.skipGroup()
				continue
			}
		}
		p.pos++
	}
	return start, len(p.src)
}

// text is the normalised source between two offsets: comments dropped,
// whitespace collapsed, no space inside brackets.
func (p *parser) text(start, end int) string {
	if start >= end {
		return ""
	}
	toks := lex(p.src[start:end])
	var b strings.Builder
	prev := ""
	for i, t := range toks {
		if i > 0 && needSpace(prev, t.text, p.src[start:end], toks[i-1], t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
		prev = t.text
	}
	return strings.TrimSuffix(strings.TrimSpace(b.String()), ",")
}

// needSpace keeps a space where the source had whitespace, except after
// an opening and before a closing bracket or a comma.
func needSpace(prev, cur, src string, a, b token) bool {
	if a.end == b.off {
		return false
	}
	switch prev {
	case "(", "[", "<", "&", "::":
		return false
	}
	switch cur {
	case ")", "]", ">", ",", "::", ";":
		return false
	}
	return true
}

// parseItems reads items until the closing brace of the enclosing block
// (or the end of the file).
func (p *parser) parseItems() []*item {
	var out []*item
	for !p.done() && !p.is("}") {
		start := p.pos
		it := p.parseItem()
		if it != nil {
			out = append(out, it)
		}
		if p.pos == start {
			p.pos++
		}
	}
	return out
}

// parseItem reads one item (or skips one statement-like thing it does
// not need).
func (p *parser) parseItem() *item {
	var c cfg
	exported := false
	var derives []string
	for p.is("#") {
		inner := p.peek(1).text == "!"
		if inner {
			p.pos++
		}
		p.pos++ // #
		if !p.is("[") {
			continue
		}
		open := p.pos
		p.skipGroup()
		attr := p.toks[open+1 : p.pos-1]
		if inner {
			continue
		}
		if len(attr) > 0 && attr[0].text == "cfg" && len(attr) > 1 {
			c = c.and(parseCfg(attr[2 : len(attr)-1]))
		}
		if len(attr) == 1 && attr[0].text == "macro_export" {
			exported = true
		}
		if len(attr) > 2 && attr[0].text == "derive" {
			for i, t := range attr[2 : len(attr)-1] {
				next := ","
				if 2+i+1 < len(attr)-1 {
					next = attr[2+i+1].text
				}
				if t.kind == tIdent && next != "::" {
					derives = append(derives, t.text)
				}
			}
		}
	}
	pub := false
	if p.is("pub") {
		p.pos++
		pub = true
		if p.is("(") {
			pub = false // pub(crate), pub(super), pub(in ..)
			p.skipGroup()
		}
	}
	for p.is("unsafe") || p.is("async") || p.is("default") || p.is("extern") && p.peek(1).kind == tStr {
		if p.is("extern") {
			p.pos++
		}
		p.pos++
	}
	if p.is("const") && p.peek(1).text == "fn" {
		p.pos++
	}
	line := p.peek(0).line
	switch {
	case p.is("fn"):
		it := p.parseFn()
		it.pub, it.cfg, it.line = pub, c, line
		return it
	case p.is("mod"):
		p.pos++
		it := &item{kind: "mod", name: p.peek(0).text, pub: pub, cfg: c, line: line}
		p.pos++
		if p.is("{") {
			p.pos++
			it.inline, it.hasBody = true, true
			it.items = p.parseItems()
			p.pos++ // }
		} else if p.is(";") {
			p.pos++
		}
		return it
	case p.is("use"):
		p.pos++
		it := &item{kind: "use", pub: pub, cfg: c, line: line}
		it.uses = p.parseUseTree(nil)
		if p.is(";") {
			p.pos++
		}
		return it
	case p.is("impl"):
		it := p.parseImpl()
		it.cfg, it.line = c, line
		return it
	case p.is("struct") || p.is("union"):
		p.pos++
		it := &item{kind: "struct", name: p.peek(0).text, pub: pub, cfg: c, line: line, derives: derives}
		p.pos++
		if p.is("<") {
			s, e := p.skipAngle()
			it.generics = p.text(s, e)
		}
		for !p.done() && !p.is("{") && !p.is(";") && !p.is("(") {
			if p.is("<") {
				p.skipAngle()
				continue
			}
			p.pos++
		}
		if p.is("{") {
			it.fields = p.parseFields()
			return it
		}
		p.skipToItemEnd()
		return it
	case p.is("enum"):
		p.pos++
		it := &item{kind: "enum", name: p.peek(0).text, pub: pub, cfg: c, line: line, derives: derives}
		p.pos++
		if p.is("<") {
			s, e := p.skipAngle()
			it.generics = p.text(s, e)
		}
		for !p.done() && !p.is("{") {
			p.pos++
		}
		it.variants = p.parseVariants()
		return it
	case p.is("trait"):
		p.pos++
		it := &item{kind: "trait", name: p.peek(0).text, pub: pub, cfg: c, line: line}
		p.pos++
		if p.is("<") {
			s, e := p.skipAngle()
			it.generics = p.text(s, e)
		}
		if p.is(":") {
			p.pos++
			s := p.peek(0).off
			for !p.done() && !p.is("{") && !p.is("where") {
				if p.is("<") {
					p.skipAngle()
					continue
				}
				p.pos++
			}
			it.supertraits = p.text(s, p.peek(0).off)
		}
		for !p.done() && !p.is("{") {
			p.pos++
		}
		p.pos++
		it.items = p.parseItems()
		p.pos++
		return it
	case p.is("macro_rules") && p.peek(1).text == "!":
		p.pos += 2
		it := &item{kind: "macro", name: p.peek(0).text, pub: exported, exported: exported, cfg: c, line: line}
		p.pos++
		p.skipGroup()
		if p.is(";") {
			p.pos++
		}
		return it
	case p.is("const") || p.is("static") || p.is("type"):
		kind := p.peek(0).text
		p.pos++
		if p.is("mut") {
			p.pos++
		}
		it := &item{kind: kind, name: p.peek(0).text, pub: pub, cfg: c, line: line}
		if kind == "const" && p.is("_") {
			it.name = "_"
		}
		p.skipToItemEnd()
		return it
	}
	// Anything else (a macro invocation at module level, extern crate, ..)
	p.skipToItemEnd()
	return nil
}

// skipToItemEnd skips to the `;` ending an item or past its `{...}` body,
// at bracket depth 0.
func (p *parser) skipToItemEnd() {
	for !p.done() {
		switch {
		case p.is(";"):
			p.pos++
			return
		case p.is("{"):
			p.skipGroup()
			if p.is(";") {
				p.pos++
			}
			return
		case p.is("(") || p.is("["):
			p.skipGroup()
		case p.is("<"):
			p.skipAngle()
		case p.is("}"):
			return
		default:
			p.pos++
		}
	}
}

func (p *parser) parseFn() *item {
	p.pos++ // fn
	it := &item{kind: "fn", name: p.peek(0).text}
	p.pos++
	if p.is("<") {
		s, e := p.skipAngle()
		it.generics = p.text(s, e)
	}
	if p.is("(") {
		open := p.pos
		p.skipGroup()
		it.params = p.text(p.toks[open].end, p.toks[p.pos-1].off)
		it.receiver = receiverOf(p.toks[open+1 : p.pos-1])
	}
	if p.is("->") {
		p.pos++
		s := p.peek(0).off
		for !p.done() && !p.is("where") && !p.is("{") && !p.is(";") {
			switch {
			case p.is("<"):
				p.skipAngle()
			case p.is("(") || p.is("["):
				p.skipGroup()
			default:
				p.pos++
			}
		}
		it.ret = p.text(s, p.peek(0).off)
	}
	if p.is("where") {
		p.pos++
		s := p.peek(0).off
		for !p.done() && !p.is("{") && !p.is(";") {
			switch {
			case p.is("<"):
				p.skipAngle()
			case p.is("(") || p.is("["):
				p.skipGroup()
			default:
				p.pos++
			}
		}
		it.where = p.text(s, p.peek(0).off)
	}
	if p.is(";") {
		p.pos++
	} else if p.is("{") {
		p.skipGroup()
		it.hasBody = true
	}
	return it
}

// receiverOf is the self parameter of a parameter list, if any.
func receiverOf(params []token) string {
	var words []string
	for _, t := range params {
		if t.text == "," || t.text == ":" {
			break
		}
		words = append(words, t.text)
		if t.text == "self" {
			s := strings.Join(words, " ")
			return strings.ReplaceAll(s, "& ", "&")
		}
		if len(words) > 3 {
			break
		}
	}
	return ""
}

func (p *parser) parseImpl() *item {
	p.pos++ // impl
	it := &item{kind: "impl"}
	if p.is("<") {
		s, e := p.skipAngle()
		it.generics = p.text(s, e)
	}
	// The header up to `for`, `where` or `{` at depth 0.
	s := p.peek(0).off
	var forAt = -1
	for !p.done() && !p.is("{") && !p.is("where") {
		switch {
		case p.is("<"):
			p.skipAngle()
		case p.is("(") || p.is("["):
			p.skipGroup()
		case p.is("for") && forAt < 0:
			forAt = p.pos
			p.pos++
		default:
			p.pos++
		}
	}
	end := p.peek(0).off
	if forAt >= 0 {
		it.implTrait = p.text(s, p.toks[forAt].off)
		it.implType = p.text(p.toks[forAt].end, end)
	} else {
		it.implType = p.text(s, end)
	}
	if p.is("where") {
		p.pos++
		ws := p.peek(0).off
		for !p.done() && !p.is("{") {
			switch {
			case p.is("<"):
				p.skipAngle()
			case p.is("(") || p.is("["):
				p.skipGroup()
			default:
				p.pos++
			}
		}
		it.where = p.text(ws, p.peek(0).off)
	}
	if p.is("{") {
		p.pos++
		it.items = p.parseItems()
		p.pos++
	}
	return it
}

// parseFields reads a struct's `{ .. }` of named fields, past its close.
func (p *parser) parseFields() []field {
	p.pos++ // {
	var out []field
	for !p.done() && !p.is("}") {
		f := field{}
		for p.is("#") {
			p.pos++
			if !p.is("[") {
				continue
			}
			open := p.pos
			p.skipGroup()
			if attr := p.toks[open+1 : p.pos-1]; len(attr) > 0 && attr[0].text == "config" {
				f.config = true
			}
		}
		if p.is("pub") {
			p.pos++
			if p.is("(") {
				p.skipGroup()
			}
		}
		if p.is("}") || p.peek(0).kind != tIdent {
			if !p.is("}") {
				p.pos++
			}
			continue
		}
		f.name = p.peek(0).text
		p.pos++
		if p.is(":") {
			p.pos++
		}
		start := p.peek(0).off
		for !p.done() && !p.is(",") && !p.is("}") {
			switch {
			case p.is("<"):
				p.skipAngle()
			case p.is("(") || p.is("[") || p.is("{"):
				p.skipGroup()
			default:
				p.pos++
			}
		}
		f.typ = p.text(start, p.peek(0).off)
		if p.is(",") {
			p.pos++
		}
		out = append(out, f)
	}
	p.pos++ // }
	return out
}

func (p *parser) parseVariants() []variant {
	if !p.is("{") {
		return nil
	}
	p.pos++
	var out []variant
	for !p.done() && !p.is("}") {
		var c cfg
		for p.is("#") {
			p.pos++
			if !p.is("[") {
				continue
			}
			open := p.pos
			p.skipGroup()
			attr := p.toks[open+1 : p.pos-1]
			if len(attr) > 1 && attr[0].text == "cfg" {
				c = c.and(parseCfg(attr[2 : len(attr)-1]))
			}
		}
		if p.is("}") {
			break
		}
		v := variant{name: p.peek(0).text, cfg: c, line: p.peek(0).line}
		p.pos++
		if p.is("(") || p.is("{") {
			open := p.pos
			p.skipGroup()
			v.fields = p.text(p.toks[open].off, p.toks[p.pos-1].end)
		}
		for !p.done() && !p.is(",") && !p.is("}") {
			if p.is("(") || p.is("[") || p.is("{") {
				p.skipGroup()
				continue
			}
			p.pos++
		}
		if p.is(",") {
			p.pos++
		}
		out = append(out, v)
	}
	p.pos++
	return out
}

// parseUseTree reads a use tree after `use` (or inside braces), each leaf
// with the full path.
func (p *parser) parseUseTree(prefix []string) []usePath {
	var out []usePath
	path := append([]string{}, prefix...)
	for !p.done() {
		switch {
		case p.is("::"):
			p.pos++
		case p.is("*"):
			p.pos++
			return append(out, usePath{path: path, glob: true})
		case p.is("{"):
			p.pos++
			for !p.done() && !p.is("}") {
				out = append(out, p.parseUseTree(path)...)
				if p.is(",") {
					p.pos++
				}
			}
			p.pos++
			return out
		case p.peek(0).kind == tIdent:
			path = append(path, p.peek(0).text)
			p.pos++
			if p.is("as") {
				p.pos++
				alias := p.peek(0).text
				p.pos++
				return append(out, usePath{path: path, alias: alias})
			}
			if !p.is("::") {
				return append(out, usePath{path: path})
			}
		default:
			return out
		}
	}
	return out
}

// parseCfg renders a cfg predicate's tokens.
func parseCfg(toks []token) cfg {
	expr, test, _ := cfgExpr(toks, 0)
	return cfg{expr: expr, test: test}
}

func cfgExpr(toks []token, i int) (string, bool, int) {
	if i >= len(toks) {
		return "", false, i
	}
	t := toks[i]
	switch {
	case t.text == "test" && (i+1 >= len(toks) || toks[i+1].text != "="):
		return "test", true, i + 1
	case (t.text == "all" || t.text == "any" || t.text == "not") && i+1 < len(toks) && toks[i+1].text == "(":
		j := i + 2
		var parts []string
		test := false
		for j < len(toks) && toks[j].text != ")" {
			s, tt, k := cfgExpr(toks, j)
			if s != "" {
				parts = append(parts, s)
			}
			if t.text != "not" && t.text != "any" {
				test = test || tt
			}
			j = k
			if j < len(toks) && toks[j].text == "," {
				j++
			}
		}
		j++ // )
		switch t.text {
		case "not":
			if len(parts) == 1 {
				return "!" + parts[0], false, j
			}
			return "!(" + strings.Join(parts, "&") + ")", false, j
		case "any":
			if len(parts) == 1 {
				return parts[0], false, j
			}
			return "(" + strings.Join(parts, "|") + ")", false, j
		}
		return strings.Join(parts, "&"), test, j
	case i+2 < len(toks) && toks[i+1].text == "=" && toks[i+2].kind == tStr:
		if t.text == "feature" {
			return toks[i+2].value, false, i + 3
		}
		return t.text + "=" + toks[i+2].value, false, i + 3
	}
	return t.text, false, i + 1
}

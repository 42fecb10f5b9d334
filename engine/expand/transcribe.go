package expand

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// outTok is one transcribed token. arg is set for a token copied from the
// invocation (a fragment's token); the others come from the macro's own
// body. text, when set, replaces the token's spelling in the generated
// text (`$crate` is written `crate`).
type outTok struct {
	tok  syntax.Token
	arg  bool
	text string
}

// transcriber is rustc's transcribe: it walks the rule's right-hand side,
// substituting metavariables and repeating `$( ... )` as many times as the
// metavariables inside it matched.
type transcriber struct {
	x     *expander
	binds map[string]*binding
	out   []outTok
	ok    bool
}

// size guesses the length of the output, to allocate it once: the
// body, and twice the arguments.
func (x *expander) transcribe(r *rule, binds map[string]*binding, size int) ([]outTok, bool) {
	t := &transcriber{x: x, binds: binds, ok: true, out: make([]outTok, 0, min(size, MaxTokens))}
	t.trees(r.transcriber, nil)
	return t.out, t.ok
}

func (t *transcriber) emit(tok syntax.Token, arg bool) {
	if len(t.out) >= MaxTokens || t.x.tokens+len(t.out) >= MaxTokens {
		if t.ok {
			t.x.add(errExpansionTooLarge(t.x.callRange))
		}
		t.ok = false
		return
	}
	t.out = append(t.out, outTok{tok: tok, arg: arg})
}

func (t *transcriber) trees(ts []*tree, idx []int) {
	for _, tr := range ts {
		if !t.ok {
			return
		}
		switch tr.kind {
		case tToken:
			t.emit(tr.tok, false)
		case tDelimited:
			t.emit(tr.open, false)
			t.trees(tr.kids, idx)
			t.emit(tr.close, false)
		case tCrate:
			t.out = append(t.out, outTok{tok: syntax.Token{Kind: syntax.Keyword, Text: "crate", Range: tr.span}, text: "crate"})
		case tMetaVar:
			t.metaVar(tr, idx)
		case tSequence:
			t.sequence(tr, idx)
		}
	}
}

// lookup finds a binding at the current repetition indices.
func lookup(b *binding, idx []int) *binding {
	for _, i := range idx {
		if !b.isSeq {
			return b
		}
		if i >= len(b.seq) {
			return nil
		}
		b = b.seq[i]
	}
	return b
}

func (t *transcriber) metaVar(tr *tree, idx []int) {
	b, ok := t.binds[tr.name]
	if !ok {
		t.x.add(errUnboundMetaVar(tr.span, tr.name))
		t.ok = false
		return
	}
	b = lookup(b, idx)
	if b == nil || b.isSeq {
		t.x.add(errStillRepeating(tr.span, tr.name))
		t.ok = false
		return
	}
	f := b.frag
	if f.kind == "expr" || f.kind == "expr_2021" {
		// rustc keeps a substituted expression whole: `$e * 2` with
		// `1 + 1` is (1 + 1) * 2.
		first, last := f.toks[0].Range, f.toks[len(f.toks)-1].Range
		t.emit(syntax.Token{Kind: syntax.OpenInvisible, Range: source.Range{Start: first.Start, End: first.Start}}, true)
		for _, tok := range f.toks {
			t.emit(tok, true)
		}
		t.emit(syntax.Token{Kind: syntax.CloseInvisible, Range: source.Range{Start: last.End, End: last.End}}, true)
		return
	}
	for _, tok := range f.toks {
		t.emit(tok, true)
	}
}

// sequence transcribes `$( ... ) sep op`.
func (t *transcriber) sequence(tr *tree, idx []int) {
	n, name, constrained := -1, "", false
	var walk func(ts []*tree)
	walk = func(ts []*tree) {
		for _, k := range ts {
			if !t.ok {
				return
			}
			switch k.kind {
			case tMetaVar:
				b, ok := t.binds[k.name]
				if !ok {
					continue
				}
				if b = lookup(b, idx); b == nil || !b.isSeq {
					continue
				}
				if !constrained {
					n, name, constrained = len(b.seq), k.name, true
				} else if len(b.seq) != n {
					t.x.add(errRepeatMismatch(k.span, name, n, k.name, len(b.seq)))
					t.ok = false
				}
			case tDelimited, tSequence:
				walk(k.kids)
			}
		}
	}
	walk(tr.kids)
	if !t.ok {
		return
	}
	span := source.Range{Start: tr.tok.Range.Start, End: tr.tok.Range.End}
	if !constrained {
		t.x.add(errNoRepeatingVars(span))
		t.ok = false
		return
	}
	if n == 0 && tr.op == "+" {
		t.x.add(errMustRepeat(span))
		t.ok = false
		return
	}
	for i := 0; i < n && t.ok; i++ {
		if i > 0 && tr.sep.Kind != syntax.EOF {
			t.emit(tr.sep, false)
		}
		// The indices are only read below, so one slice serves every
		// iteration.
		t.trees(tr.kids, append(idx, i))
	}
}

// ---- hygiene ----

// hygiene renames the local variables that the macro's own body binds, and
// their uses in the body, so that they neither capture nor shadow the
// caller's names (rustc's mixed-site hygiene for locals). The bindings it
// sees are those of `let` (also in `if let` and `while let`), `for`
// loops, function parameters and closure parameters. Names that came from
// the invocation are the caller's and stay. The new name is the old one
// with `#n` appended, which no program can write; the generated text keeps
// the old spelling.
func (x *expander) hygiene(out []outTok) {
	h := hygieneScan{out: out, encl: enclosing(out), decl: map[int]bool{}}
	for i := range out {
		if out[i].arg {
			continue
		}
		t := out[i].tok
		switch {
		case t.Kind == syntax.Keyword && t.Text == "let":
			h.pattern(i+1, map[string]bool{"=": true, ";": true, ":": true, "else": true}, false)
		case t.Kind == syntax.Keyword && t.Text == "for":
			h.pattern(i+1, map[string]bool{"in": true}, true)
		case t.Kind == syntax.Keyword && t.Text == "fn":
			h.params(i + 1)
		case isPunct(t, "|") && closureStart(out, i):
			h.closure(i + 1)
		}
	}
	if len(h.decl) == 0 {
		return
	}
	bound := map[string]bool{}
	for i := range h.decl {
		bound[out[i].tok.Text] = true
	}
	x.hygieneN++
	suffix := "#" + strconv.Itoa(x.hygieneN)
	for i := range out {
		o := &out[i]
		if o.arg || o.tok.Kind != syntax.Ident || !bound[o.tok.Text] {
			continue
		}
		if !h.decl[i] && !h.refersToLocal(i) {
			continue
		}
		if o.text == "" {
			o.text = x.src.Slice(o.tok.Range)
		}
		o.tok.Text += suffix
	}
}

type hygieneScan struct {
	out  []outTok
	encl []byte // the innermost open delimiter around each token
	decl map[int]bool
}

// enclosing finds the innermost open delimiter around each token.
func enclosing(out []outTok) []byte {
	encl := make([]byte, len(out))
	var stack []byte
	for i, o := range out {
		if len(stack) > 0 {
			encl[i] = stack[len(stack)-1]
		}
		switch t := o.tok; {
		case isOpen(t):
			stack = append(stack, t.Text[0])
		case isClose(t) && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	return encl
}

// pattern records the bindings of a pattern that starts at i and ends at
// one of stop (outside delimiters). A loop pattern counts only when its
// `in` is found: `impl T for U` and `for<'a>` bind nothing.
func (h *hygieneScan) pattern(i int, stop map[string]bool, loop bool) {
	var names []int
	depth := 0
	for j := i; j < len(h.out); j++ {
		t := h.out[j].tok
		if depth == 0 && stop[t.Text] && (t.Kind == syntax.Punct || t.Kind == syntax.Keyword) {
			for _, n := range names {
				h.decl[n] = true
			}
			return
		}
		if depth == 0 && loop && (isPunct(t, "{") || isPunct(t, ";") || isPunct(t, "<")) {
			return
		}
		switch {
		case isOpen(t):
			depth++
		case isClose(t):
			depth--
		}
		if depth < 0 {
			break
		}
		if !h.out[j].arg && h.binds(j) {
			names = append(names, j)
		}
	}
	if !loop {
		for _, n := range names {
			h.decl[n] = true
		}
	}
}

// params records a function's parameter bindings: `fn name<..>(pat: T, ..)`.
func (h *hygieneScan) params(i int) {
	for ; i < len(h.out) && !isPunct(h.out[i].tok, "("); i++ {
		if isPunct(h.out[i].tok, "{") || isPunct(h.out[i].tok, ";") {
			return
		}
	}
	depth, inType := 0, false
	for j := i; j < len(h.out); j++ {
		t := h.out[j].tok
		switch {
		case isOpen(t):
			depth++
			continue
		case isClose(t):
			depth--
			if depth == 0 {
				return
			}
			continue
		}
		if depth == 1 {
			switch {
			case isPunct(t, ":"):
				inType = true
				continue
			case isPunct(t, ","):
				inType = false
				continue
			}
		}
		if !inType && !h.out[j].arg && h.binds(j) {
			h.decl[j] = true
		}
	}
}

// closure records a closure's parameter bindings: `|pat: T, ..|`.
func (h *hygieneScan) closure(i int) {
	depth, inType := 0, false
	for j := i; j < len(h.out); j++ {
		t := h.out[j].tok
		switch {
		case isOpen(t):
			depth++
		case isClose(t):
			depth--
			if depth < 0 {
				return
			}
		case depth == 0 && isPunct(t, "|"):
			return
		case depth == 0 && isPunct(t, ":"):
			inType = true
		case depth == 0 && isPunct(t, ","):
			inType = false
		}
		if !inType && !h.out[j].arg && h.binds(j) {
			h.decl[j] = true
		}
	}
}

// closureStart reports whether the `|` at i opens a closure's parameters
// rather than being an operator: it follows something that cannot end an
// operand.
func closureStart(out []outTok, i int) bool {
	if i == 0 {
		return true
	}
	p := out[i-1].tok
	if p.Kind == syntax.Keyword {
		return p.Text == "move" || p.Text == "return" || p.Text == "in" || p.Text == "else"
	}
	if p.Kind != syntax.Punct {
		return false
	}
	switch p.Text {
	case ")", "]", "}", "?":
		return false
	}
	return true
}

// binds reports whether the identifier at i in a pattern binds a
// variable: a lowercase name that is not a path, a call, a macro or a
// struct field's name.
func (h *hygieneScan) binds(i int) bool {
	t := h.out[i].tok
	if t.Kind != syntax.Ident || t.Text == "_" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.Text)
	if unicode.IsUpper(r) {
		return false
	}
	if i+1 < len(h.out) {
		n := h.out[i+1].tok
		if isPunct(n, "::") || isPunct(n, "(") || isPunct(n, "{") || isPunct(n, "!") {
			return false
		}
	}
	if i > 0 && isPunct(h.out[i-1].tok, "::") {
		return false
	}
	return !h.fieldName(i)
}

// fieldName reports whether the identifier at i names a struct field in
// a literal or pattern: `{ name: ..` or `, name: ..` inside braces.
func (h *hygieneScan) fieldName(i int) bool {
	return i > 0 && i+1 < len(h.out) && h.encl[i] == '{' && isPunct(h.out[i+1].tok, ":") &&
		(isPunct(h.out[i-1].tok, "{") || isPunct(h.out[i-1].tok, ","))
}

// refersToLocal reports whether the identifier at i can name a local
// variable: not a field or method after `.`, not a path segment, not a
// macro, not a struct field's name.
func (h *hygieneScan) refersToLocal(i int) bool {
	if i > 0 {
		p := h.out[i-1].tok
		if isPunct(p, ".") || isPunct(p, "::") {
			return false
		}
		if p.Kind == syntax.Keyword && itemKeywords[p.Text] {
			// The name of an item (`fn args(&self)` in an impl the macro
			// writes): items a macro defines are not hygienic.
			return false
		}
	}
	if i+1 < len(h.out) {
		n := h.out[i+1].tok
		if isPunct(n, "::") || isPunct(n, "!") {
			return false
		}
	}
	return !h.fieldName(i)
}

// itemKeywords introduce the name of an item.
var itemKeywords = map[string]bool{"fn": true, "struct": true, "enum": true, "union": true, "trait": true,
	"type": true, "mod": true, "const": true, "static": true}

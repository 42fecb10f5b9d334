package expand

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// layout writes transcribed tokens out as a region of generated text (see
// source.File.Generate) and returns them re-addressed there, ready for the
// parser. Tokens that touched in their origin touch in the text; the others
// are one space apart. The region's call site is the invocation, and the
// tokens copied from the invocation's arguments are pieces that point back
// at themselves, so a node made of the macro's own tokens resolves to the
// invocation and a node inside an argument to that argument.
func (x *expander) layout(out []outTok, call source.Range, macro string) syntax.Tokens {
	var b strings.Builder
	b.Grow(8 * len(out))
	toks := make([]syntax.Token, 0, len(out))
	var pieces []source.Piece
	var prev *outTok
	for i := range out {
		o := &out[i]
		t := o.tok
		if t.Kind == syntax.OpenInvisible || t.Kind == syntax.CloseInvisible {
			t.Range = source.Range{Start: b.Len(), End: b.Len()}
			toks = append(toks, t)
			continue
		}
		text := o.text
		if text == "" {
			text = x.src.Slice(t.Range)
		}
		if text == "" {
			text = t.Text
		}
		if prev != nil && spaced(prev, o) {
			b.WriteByte(' ')
		}
		start := b.Len()
		b.WriteString(text)
		if o.arg {
			pieces = append(pieces, source.Piece{Start: start, End: b.Len(), Origin: t.Range})
		}
		t.Range = source.Range{Start: start, End: b.Len()}
		toks = append(toks, t)
		prev = o
	}
	g := x.src.Generate(b.String(), call, pieces)
	g.Macro = macro
	for i := range toks {
		toks[i].Range.Start += g.Base
		toks[i].Range.End += g.Base
	}
	x.tokens += len(toks)
	return syntax.Tokens{Toks: toks, Text: g.Text, Base: g.Base, Macros: x.names}
}

// spaced decides the space between two laid out tokens: none when they
// touched where they came from, else as rustc's printer does, so that the
// text reads as stringify! prints it.
func spaced(prev, o *outTok) bool {
	if prev.arg == o.arg && prev.tok.Range.End == o.tok.Range.Start && prev.tok.Range.Start < prev.tok.Range.End {
		return false
	}
	a, b := prev.tok, o.tok
	// Tokens from different places never count as touching.
	a.Range, b.Range = source.Range{}, source.Range{Start: 1, End: 1}
	return syntax.SpaceBetween(a, b) || gluable(a, b)
}

// gluable reports whether two tokens written without a space would lex as
// something else: two operators (`-` `>`), a word after a word or a
// number.
func gluable(a, b syntax.Token) bool {
	word := func(t syntax.Token) bool {
		return t.Kind == syntax.Ident || t.Kind == syntax.Keyword || t.Kind == syntax.Int || t.Kind == syntax.Float || t.Kind == syntax.Lifetime
	}
	punct := func(t syntax.Token) bool { return t.Kind == syntax.Punct && !isOpen(t) && !isClose(t) }
	return word(a) && word(b) || punct(a) && punct(b) || (a.Kind == syntax.Int || a.Kind == syntax.Float) && isPunct(b, ".")
}

// tokensAt wraps tokens that already have a place (an invocation's
// arguments) with the text they index.
func (x *expander) tokensAt(toks []syntax.Token, at int) syntax.Tokens {
	text, base := x.src.TextAt(at)
	return syntax.Tokens{Toks: toks, Text: text, Base: base, Macros: x.names}
}

package expand

import (
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A macro_rules! side (matcher or transcriber) as a tree, rustc's
// mbe::TokenTree: tokens, delimited groups, repetitions `$( ... ) sep op`,
// metavariable declarations `$x:kind` (matchers) and uses `$x`
// (transcribers).
type treeKind int

const (
	tToken treeKind = iota
	tDelimited
	tSequence
	tMetaVarDecl
	tMetaVar
	tCrate // `$crate`
)

type tree struct {
	kind treeKind
	tok  syntax.Token // tToken; the `$` of the others
	// tDelimited: open and close are the delimiters.
	open, close syntax.Token
	kids        []*tree
	// tSequence: sep is the separator (Kind EOF for none), op the Kleene
	// operator ("*", "+" or "?"), captures the metavariable declarations
	// inside (matchers).
	sep      syntax.Token
	op       string
	captures int
	// tMetaVarDecl and tMetaVar: name; frag is a declaration's fragment
	// kind. span covers `$name` or `$name:kind`.
	name, frag string
	span       source.Range
}

// rule is one compiled `(matcher) => { transcriber }`.
type rule struct {
	locs        []loc
	transcriber []*tree
	// binds names every metavariable the matcher declares.
	binds map[string]bool
	// size is the body's length, the start of a guess at a
	// transcription's.
	size int
}

// fragments are the fragment specifiers rustc knows.
var fragments = map[string]bool{
	"block": true, "expr": true, "expr_2021": true, "ident": true, "item": true, "lifetime": true,
	"literal": true, "meta": true, "pat": true, "pat_param": true, "path": true, "stmt": true,
	"tt": true, "ty": true, "vis": true,
}

// compileRules reads a macro_rules! definition. It reports what rustc
// rejects in a definition and returns the rules that compiled.
func (x *expander) compileRules(d *syntax.MacroRulesDecl) []*rule {
	var out []*rule
	for _, r := range d.Rules {
		m, ok := x.parseTrees(r.Matcher, true)
		if !ok {
			continue
		}
		t, ok := x.parseTrees(r.Transcriber, false)
		if !ok {
			continue
		}
		cr := &rule{transcriber: t, binds: map[string]bool{}, size: len(r.Transcriber) + 16}
		cr.locs = computeLocs(m)
		for _, l := range cr.locs {
			if l.kind == locMetaVar {
				if cr.binds[l.name] {
					x.add(errDuplicateBinding(l.span, l.name))
					ok = false
				}
				cr.binds[l.name] = true
			}
		}
		if ok {
			out = append(out, cr)
		}
	}
	return out
}

// parseTrees builds the trees of one side of a rule.
func (x *expander) parseTrees(toks []syntax.Token, matcher bool) ([]*tree, bool) {
	p := &treeParser{x: x, toks: toks, matcher: matcher, ok: true}
	trees := p.seq(len(toks))
	return trees, p.ok
}

type treeParser struct {
	x       *expander
	toks    []syntax.Token
	i       int
	matcher bool
	ok      bool
}

func isPunct(t syntax.Token, text string) bool { return t.Kind == syntax.Punct && t.Text == text }

func isOpen(t syntax.Token) bool {
	return t.Kind == syntax.Punct && (t.Text == "(" || t.Text == "[" || t.Text == "{")
}

func isClose(t syntax.Token) bool {
	return t.Kind == syntax.Punct && (t.Text == ")" || t.Text == "]" || t.Text == "}")
}

// groupEnd is the index just past the group that opens at i.
func groupEnd(toks []syntax.Token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case isOpen(toks[j]) || toks[j].Kind == syntax.OpenInvisible:
			depth++
		case isClose(toks[j]) || toks[j].Kind == syntax.CloseInvisible:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(toks)
}

func (p *treeParser) seq(end int) []*tree {
	var out []*tree
	for p.i < end {
		t := p.toks[p.i]
		switch {
		case isPunct(t, "$") && p.i+1 < end:
			out = append(out, p.dollar(end))
		case isOpen(t):
			ge := groupEnd(p.toks, p.i)
			d := &tree{kind: tDelimited, open: t, close: p.toks[ge-1]}
			p.i++
			d.kids = p.seq(ge - 1)
			p.i = ge
			out = append(out, d)
		default:
			out = append(out, &tree{kind: tToken, tok: t})
			p.i++
		}
	}
	return out
}

// dollar reads what follows a `$`: a repetition, a metavariable, or
// `$crate`.
func (p *treeParser) dollar(end int) *tree {
	dollar := p.toks[p.i]
	next := p.toks[p.i+1]
	switch {
	case isPunct(next, "("):
		p.i++
		ge := groupEnd(p.toks, p.i)
		s := &tree{kind: tSequence, tok: dollar, sep: syntax.Token{Kind: syntax.EOF}}
		p.i++
		s.kids = p.seq(ge - 1)
		p.i = ge
		s.captures = countCaptures(s.kids)
		p.kleene(s, end)
		return s
	case next.Kind == syntax.Keyword && next.Text == "crate" && !p.matcher:
		p.i += 2
		return &tree{kind: tCrate, tok: dollar, span: source.Range{Start: dollar.Range.Start, End: next.Range.End}}
	case next.Kind == syntax.Ident || next.Kind == syntax.Keyword:
		p.i += 2
		mv := &tree{kind: tMetaVar, tok: dollar, name: next.Text, span: source.Range{Start: dollar.Range.Start, End: next.Range.End}}
		if !p.matcher {
			return mv
		}
		mv.kind = tMetaVarDecl
		if p.i+1 < end && isPunct(p.toks[p.i], ":") && (p.toks[p.i+1].Kind == syntax.Ident || p.toks[p.i+1].Kind == syntax.Keyword) {
			frag := p.toks[p.i+1]
			p.i += 2
			mv.frag = frag.Text
			mv.span.End = frag.Range.End
			if !fragments[frag.Text] {
				p.x.add(errInvalidFragment(frag.Range, frag.Text))
				p.ok = false
			}
			return mv
		}
		p.x.add(errMissingFragment(mv.span))
		p.ok = false
		return mv
	}
	p.i++
	return &tree{kind: tToken, tok: dollar}
}

// kleene reads a repetition's separator and operator.
func (p *treeParser) kleene(s *tree, end int) {
	op := func(t syntax.Token) bool {
		return t.Kind == syntax.Punct && (t.Text == "*" || t.Text == "+" || t.Text == "?")
	}
	if p.i < end && op(p.toks[p.i]) {
		s.op = p.toks[p.i].Text
		p.i++
		return
	}
	if p.i+1 < end && !isOpen(p.toks[p.i]) && !isClose(p.toks[p.i]) && op(p.toks[p.i+1]) {
		s.sep = p.toks[p.i]
		s.op = p.toks[p.i+1].Text
		if s.op == "?" {
			p.x.add(errQuestionSeparator(p.toks[p.i+1].Range))
			p.ok = false
		}
		p.i += 2
		return
	}
	at := s.tok.Range
	if p.i < len(p.toks) {
		at = p.toks[p.i].Range
	}
	p.x.add(errMissingKleene(at))
	p.ok = false
	s.op = "*"
}

func countCaptures(ts []*tree) int {
	n := 0
	for _, t := range ts {
		switch t.kind {
		case tMetaVarDecl:
			n++
		case tSequence:
			n += t.captures
		case tDelimited:
			n += countCaptures(t.kids)
		}
	}
	return n
}

// ---- the flattened matcher (rustc's MatcherLoc) ----

type locKind int

const (
	locToken locKind = iota
	locDelimited
	locSequence
	locKleeneNoSep
	locSep
	locKleeneAfterSep
	locMetaVar
	locEOF
)

type loc struct {
	kind locKind
	tok  syntax.Token // locToken; locSep: the separator
	op   string       // locSequence, locKleeneNoSep
	// locSequence: the first loc after the sequence, its metavariables
	// (count and first index) and its nesting depth.
	idxFirstAfter, numMetavars, nextMetavar, depth int
	// locKleeneNoSep and locKleeneAfterSep: the sequence's first loc.
	idxFirst int
	// locMetaVar: the declaration; nextMetavar is its index and depth its
	// nesting depth.
	name, frag string
	span       source.Range
}

func computeLocs(trees []*tree) []loc {
	var locs []loc
	next := 0
	var inner func(ts []*tree, depth int)
	inner = func(ts []*tree, depth int) {
		for _, t := range ts {
			switch t.kind {
			case tToken, tMetaVar, tCrate:
				locs = append(locs, loc{kind: locToken, tok: t.tok})
			case tDelimited:
				locs = append(locs, loc{kind: locDelimited})
				locs = append(locs, loc{kind: locToken, tok: t.open})
				inner(t.kids, depth)
				locs = append(locs, loc{kind: locToken, tok: t.close})
			case tSequence:
				seqAt := len(locs)
				locs = append(locs, loc{})
				first := next
				idxFirst := len(locs)
				inner(t.kids, depth+1)
				if t.sep.Kind != syntax.EOF {
					locs = append(locs, loc{kind: locSep, tok: t.sep})
					locs = append(locs, loc{kind: locKleeneAfterSep, idxFirst: idxFirst})
				} else {
					locs = append(locs, loc{kind: locKleeneNoSep, op: t.op, idxFirst: idxFirst})
				}
				locs[seqAt] = loc{kind: locSequence, op: t.op, idxFirstAfter: len(locs),
					numMetavars: t.captures, nextMetavar: first, depth: depth}
			case tMetaVarDecl:
				locs = append(locs, loc{kind: locMetaVar, name: t.name, frag: t.frag, span: t.span, nextMetavar: next, depth: depth})
				next++
			}
		}
	}
	inner(trees, 0)
	return append(locs, loc{kind: locEOF})
}

// describe names a matcher location the way rustc's "while trying to
// match ..." note does.
func (l loc) describe() string {
	switch l.kind {
	case locToken, locSep:
		return l.tok.String()
	case locMetaVar:
		return "meta-variable `$" + l.name + ":" + l.frag + "`"
	case locEOF:
		return "end of macro"
	case locDelimited:
		return "delimiter"
	case locSequence:
		return "sequence start"
	}
	return "sequence end"
}

// defHead is the `macro_rules! name` head of a definition, where rustc's
// "when calling this macro" label points.
func defHead(d *syntax.MacroRulesDecl) source.Range {
	return source.Range{Start: d.Range.Start, End: d.NameSpan.End}
}

package expand

import (
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The matcher is rustc's macro_parser: an NFA over the flattened matcher
// (locs) that walks the input a token at a time with a set of matcher
// positions. Positions waiting for a token advance over it; positions at a
// `$x:kind` wait for the "black box" parser, which is called only when it
// is the single way on, and which commits to the fragment it reads;
// repetitions are epsilon moves. Two ways on at once around a fragment is
// rustc's "local ambiguity" error.

// match is one metavariable's binding: a fragment, or a sequence of
// bindings (one per repetition). While matching, sequences are built as
// persistent lists, newest first, so that positions can share them.
type binding struct {
	frag  fragment
	seq   []*binding // after matching
	items *cons      // while matching, newest first
	isSeq bool
}

type cons struct {
	b    *binding
	next *cons
}

// fragment is what a metavariable matched: its kind and its tokens.
type fragment struct {
	kind string
	toks []syntax.Token
}

type mpos struct {
	idx     int
	matches []*binding
}

// push records a binding for metavariable idx at sequence depth depth, as
// rustc's MatcherPos::push_match: at depth 0 it is the metavariable's own
// binding; deeper, it is appended to the innermost open sequence.
func (mp *mpos) push(idx, depth int, b *binding) {
	ms := make([]*binding, len(mp.matches), len(mp.matches)+1)
	copy(ms, mp.matches)
	if depth == 0 {
		ms = append(ms, b)
	} else {
		ms[idx] = pushAt(ms[idx], depth-1, b)
	}
	mp.matches = ms
}

func pushAt(cur *binding, depth int, b *binding) *binding {
	if depth == 0 {
		return &binding{isSeq: true, items: &cons{b, cur.items}}
	}
	last := cur.items.b
	return &binding{isSeq: true, items: &cons{pushAt(last, depth-1, b), cur.items.next}}
}

// finish turns the persistent lists into slices, oldest first.
func (b *binding) finish() *binding {
	if !b.isSeq {
		return b
	}
	var items []*binding
	for c := b.items; c != nil; c = c.next {
		items = append(items, c.b.finish())
	}
	for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	return &binding{isSeq: true, seq: items}
}

// matchResult is the outcome of matching one rule.
type matchResult int

const (
	matched matchResult = iota
	failed
	// reported: an error was reported (a fragment did not parse, an
	// ambiguity); no other rule is tried.
	reported
)

// failure is where a rule stopped: the input position, the token there,
// and the matcher location it was trying.
type failure struct {
	pos  int
	tok  syntax.Token
	want loc
}

// maxPositions bounds the matcher's live positions on one token: nested
// repetitions can multiply them.
const maxPositions = 10_000

// input is an invocation's tokens with the text they index.
type input struct {
	toks syntax.Tokens
	// eof stands for the end of the input: the invocation's closing
	// delimiter, with an empty range at its start.
	eof syntax.Token
}

func (in input) at(i int) syntax.Token {
	if i < len(in.toks.Toks) {
		return in.toks.Toks[i]
	}
	return in.eof
}

// matchRule runs the NFA of one rule over the input.
func (x *expander) matchRule(name string, r *rule, in input) (map[string]*binding, matchResult, failure) {
	cur := []*mpos{{idx: 0}}
	pos := 0
	// tried is the matcher location the failure note names: as rustc's
	// tracker has it, the furthest location tried at the furthest input
	// position, end-of-matcher only when nothing else was tried.
	tried, triedPos, eofLoc := -1, -1, len(r.locs)-1
	try := func(idx int) {
		if pos > triedPos || pos == triedPos && idx > tried {
			tried, triedPos = idx, pos
		}
	}
	for {
		tok := in.at(pos)
		var next, bb, eof []*mpos
		for len(cur) > 0 {
			if len(cur)+len(next)+len(bb) > maxPositions {
				x.add(errMatcherTooComplex(x.callRange, name))
				return nil, reported, failure{}
			}
			mp := cur[len(cur)-1]
			cur = cur[:len(cur)-1]
			l := r.locs[mp.idx]
			switch l.kind {
			case locToken:
				try(mp.idx)
				if tokensEqual(l.tok, tok) {
					mp.idx++
					next = append(next, mp)
				}
			case locDelimited:
				mp.idx++
				cur = append(cur, mp)
			case locSequence:
				for mv := l.nextMetavar; mv < l.nextMetavar+l.numMetavars; mv++ {
					mp.push(mv, l.depth, &binding{isSeq: true})
				}
				if l.op == "*" || l.op == "?" {
					cur = append(cur, &mpos{idx: l.idxFirstAfter, matches: mp.matches})
				}
				mp.idx++
				cur = append(cur, mp)
			case locKleeneNoSep:
				cur = append(cur, &mpos{idx: mp.idx + 1, matches: mp.matches})
				if l.op != "?" {
					mp.idx = l.idxFirst
					cur = append(cur, mp)
				}
			case locSep:
				try(mp.idx)
				cur = append(cur, &mpos{idx: mp.idx + 2, matches: mp.matches})
				if tokensEqual(l.tok, tok) {
					mp.idx++
					next = append(next, mp)
				}
			case locKleeneAfterSep:
				mp.idx = l.idxFirst
				cur = append(cur, mp)
			case locMetaVar:
				try(mp.idx)
				if mayBegin(l.frag, tok) {
					bb = append(bb, mp)
				}
			case locEOF:
				if tok.Kind == syntax.EOF {
					eof = append(eof, mp)
				}
			}
		}
		want := eofLoc
		if tried >= 0 {
			want = tried
		}
		if tok.Kind == syntax.EOF {
			switch len(eof) {
			case 1:
				out := map[string]*binding{}
				for _, l := range r.locs {
					if l.kind == locMetaVar && l.nextMetavar < len(eof[0].matches) {
						out[l.name] = eof[0].matches[l.nextMetavar].finish()
					}
				}
				return out, matched, failure{}
			case 0:
				return nil, failed, failure{pos: pos, tok: tok, want: r.locs[want]}
			}
			x.add(errAmbiguousParses(tok.Range))
			return nil, reported, failure{}
		}
		if len(bb) > 0 && len(next) > 0 || len(bb) > 1 {
			x.add(errLocalAmbiguity(tok.Range, name, r.locs, bb, len(next)))
			return nil, reported, failure{}
		}
		if len(bb) == 0 && len(next) == 0 {
			return nil, failed, failure{pos: pos, tok: tok, want: r.locs[want]}
		}
		if len(next) > 0 {
			cur = next
			pos++
			continue
		}
		mp := bb[0]
		l := r.locs[mp.idx]
		n, ok := x.parseFragment(l.frag, in, pos)
		if !ok {
			return nil, reported, failure{}
		}
		mp.push(l.nextMetavar, l.depth, &binding{frag: fragment{kind: l.frag, toks: in.toks.Toks[pos : pos+n]}})
		mp.idx++
		cur = []*mpos{mp}
		pos += n
	}
}

// tokensEqual compares a matcher token with an input token: by kind and
// spelling, as rustc's token_name_eq does (no hygiene).
func tokensEqual(a, b syntax.Token) bool {
	if a.Kind == syntax.Ident || a.Kind == syntax.Keyword {
		return (b.Kind == syntax.Ident || b.Kind == syntax.Keyword) && a.Text == b.Text
	}
	return a.Kind == b.Kind && a.Text == b.Text && a.Kind != syntax.EOF
}

// mayBegin is rustc's nonterminal_may_begin_with: whether a fragment of
// the kind can start with the token, which decides whether the black box
// parser is tried at all.
func mayBegin(kind string, t syntax.Token) bool {
	if t.Kind == syntax.EOF {
		return false
	}
	kw := func(words ...string) bool {
		if t.Kind != syntax.Keyword {
			return false
		}
		for _, w := range words {
			if t.Text == w {
				return true
			}
		}
		return false
	}
	punct := func(ps ...string) bool {
		if t.Kind != syntax.Punct {
			return false
		}
		for _, p := range ps {
			if t.Text == p {
				return true
			}
		}
		return false
	}
	literal := t.Kind == syntax.Int || t.Kind == syntax.Float || t.Kind == syntax.String ||
		t.Kind == syntax.Char || t.Kind == syntax.Byte || t.Kind == syntax.ByteString
	switch kind {
	case "expr", "expr_2021":
		return t.Kind == syntax.Ident && t.Text != "_" || literal || t.Kind == syntax.Lifetime || t.Kind == syntax.OpenInvisible ||
			kw("true", "false", "self", "Self", "super", "crate", "if", "match", "loop", "while", "for", "return",
				"break", "continue", "move", "unsafe", "async", "const", "static") ||
			punct("(", "[", "{", "-", "!", "*", "&", "&&", "|", "||", "..", "..=", "<", "<<", "::", "#")
	case "ty":
		return t.Kind == syntax.Ident || t.Kind == syntax.Lifetime ||
			kw("fn", "unsafe", "extern", "impl", "dyn", "for", "Self", "self", "super", "crate") ||
			punct("(", "[", "!", "*", "&", "&&", "?", "<", "<<", "::")
	case "pat", "pat_param":
		return t.Kind == syntax.Ident || literal || t.Kind == syntax.OpenInvisible ||
			kw("ref", "mut", "box", "true", "false", "self", "Self", "super", "crate") ||
			punct("(", "[", "&", "&&", "-", "..", "..=", "::", "<", "<<") || kind == "pat" && punct("|")
	case "path", "meta":
		return t.Kind == syntax.Ident || kw("self", "Self", "super", "crate") || punct("::", "<", "<<")
	case "block":
		return punct("{")
	case "stmt", "item", "tt":
		return !isClose(t) && t.Kind != syntax.CloseInvisible
	case "vis":
		return true
	case "ident":
		return t.Kind == syntax.Ident && t.Text != "_" || t.Kind == syntax.Keyword
	case "lifetime":
		return t.Kind == syntax.Lifetime
	case "literal":
		return literal || kw("true", "false") || punct("-")
	}
	return false
}

// parseFragment reads one fragment at pos and reports how many tokens it
// took. A fragment that does not parse is an error of the invocation, as
// in rustc: the matcher has committed to it.
func (x *expander) parseFragment(kind string, in input, pos int) (int, bool) {
	toks := in.toks.Toks[pos:]
	switch kind {
	case "ident", "lifetime":
		return 1, true
	case "tt":
		if isOpen(toks[0]) || toks[0].Kind == syntax.OpenInvisible {
			return groupEnd(toks, 0), true
		}
		return 1, true
	case "literal":
		if isPunct(toks[0], "-") {
			if len(toks) > 1 && (toks[1].Kind == syntax.Int || toks[1].Kind == syntax.Float) {
				return 2, true
			}
			x.add(errExpectedLiteral(toks[0]))
			return 0, false
		}
		return 1, true
	}
	sub := in.toks
	sub.Toks = toks
	n, ok, diags := syntax.ParseFragment(kind, sub)
	if diags.HasErrors() {
		for _, d := range diags {
			if d.Severity == diag.Error {
				x.add(d)
				break
			}
		}
		return 0, false
	}
	if !ok || n == 0 && kind != "vis" {
		x.add(errFragmentSplit(toks[0].Range, kind))
		return 0, false
	}
	return n, true
}

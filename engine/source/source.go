// Package source holds positions and spans in the user's text.
//
// Inside the engine a position is a byte offset into one file. Line and column
// (1-based, columns counted in Unicode code points) are computed at the edge,
// when a span is rendered for the Result, by a File that knows the text.
package source

import (
	"sort"
	"unicode/utf8"
)

// Pos is a rendered position: 1-based line and column (in code points) and a
// 0-based byte offset.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"offset"`
}

// Span is a rendered half-open range [Start, End).
type Span struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// Range is the engine's internal form of a span: byte offsets into one file.
type Range struct {
	Start, End int
}

// Len is the length in bytes.
func (r Range) Len() int { return r.End - r.Start }

// Join returns the smallest range covering both r and o.
func (r Range) Join(o Range) Range {
	if o.Start < r.Start {
		r.Start = o.Start
	}
	if o.End > r.End {
		r.End = o.End
	}
	return r
}

// File is one named text with a line table.
//
// A File may also hold generated text: the output of a macro expansion,
// which has no place in the user's text. Generated text is addressed by
// offsets past the end of Text, one region after another, and every region
// knows where it came from; Resolve maps a range in it back to the user's
// text, and Position, Span and Slice accept both kinds of range.
type File struct {
	Name  string
	Text  string
	lines []int // byte offset of the start of each line

	generated []*Generated
	end       int // where the next generated region starts

	segments []Segment // the files of a crate, see segments.go
}

// NewFile indexes text for position look-ups.
func NewFile(name, text string) *File {
	f := &File{Name: name, Text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// Position renders a byte offset. An offset in generated text is first
// resolved to the user's text; offsets outside the text are clamped.
func (f *File) Position(offset int) Pos {
	if offset > len(f.Text) && len(f.generated) > 0 {
		offset = f.Resolve(Range{Start: offset, End: offset}).Start
	}
	if offset < 0 {
		offset = 0
	}
	if offset > len(f.Text) {
		offset = len(f.Text)
	}
	line := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > offset }) - 1
	start := f.lines[line]
	col := utf8.RuneCountInString(f.Text[start:offset]) + 1
	return Pos{Line: line + 1, Column: col, Offset: offset}
}

// Span renders a range, resolved to the user's text.
func (f *File) Span(r Range) Span {
	r = f.Resolve(r)
	return Span{Start: f.Position(r.Start), End: f.Position(r.End)}
}

// Line returns the text of the 1-based line n without its newline.
func (f *File) Line(n int) string {
	if n < 1 || n > len(f.lines) {
		return ""
	}
	start := f.lines[n-1]
	end := len(f.Text)
	if n < len(f.lines) {
		end = f.lines[n] - 1
	}
	if end > start && f.Text[end-1] == '\r' {
		end--
	}
	return f.Text[start:end]
}

// Slice returns the text a range covers, clamped to the file. A range in
// generated text reads that text.
func (f *File) Slice(r Range) string {
	if r.End > len(f.Text) {
		if g := f.region(r.Start); g != nil {
			text, base := g.Text, g.Base
			s, e := r.Start-base, min(r.End-base, len(text))
			if s < 0 || s > e {
				return ""
			}
			return text[s:e]
		}
	}
	s, e := r.Start, r.End
	if s < 0 {
		s = 0
	}
	if e > len(f.Text) {
		e = len(f.Text)
	}
	if s > e {
		return ""
	}
	return f.Text[s:e]
}

// Generated is one region of generated text. Base is its first offset in
// the File; CallSite is the range that produced it (a macro invocation, in
// the user's text or in generated text before it). Pieces map stretches of
// the region that were copied from elsewhere (a macro's arguments) back to
// their origin; everything else stands for CallSite.
type Generated struct {
	Base     int
	Text     string
	CallSite Range
	Pieces   []Piece
	// Macro names the macro whose expansion the region is, for notes.
	Macro string
}

// Piece says that Text[Start:End] of a region came from Origin.
type Piece struct {
	Start, End int // relative to the region's Base
	Origin     Range
}

// Range is the region's range in the File's offsets.
func (g *Generated) Range() Range { return Range{Start: g.Base, End: g.Base + len(g.Text)} }

// Generate adds a region of generated text and returns it; its Base is
// past the end of the text and of every region added before. pieces must
// be sorted by Start and must not overlap.
func (f *File) Generate(text string, callSite Range, pieces []Piece) *Generated {
	if f.end < len(f.Text)+1 {
		f.end = len(f.Text) + 1
	}
	g := &Generated{Base: f.end, Text: text, CallSite: callSite, Pieces: pieces}
	f.generated = append(f.generated, g)
	// One byte of gap keeps an empty region's range apart from the next.
	f.end += len(text) + 1
	return g
}

// IsGenerated reports whether r lies in generated text.
func (f *File) IsGenerated(r Range) bool { return r.Start > len(f.Text) || r.End > len(f.Text) }

// region finds the generated region that holds offset, or nil.
func (f *File) region(offset int) *Generated {
	i := sort.Search(len(f.generated), func(i int) bool { return f.generated[i].Base > offset }) - 1
	if i < 0 {
		return nil
	}
	g := f.generated[i]
	if offset > g.Base+len(g.Text) {
		return nil
	}
	return g
}

// Resolve maps a range to the user's text. A range inside the text is
// itself. A range in generated text maps to the origin of its pieces when
// both its ends lie in copied stretches (an argument of a macro points at
// itself in the invocation), and to the region's call site otherwise; a
// call site that is itself generated is resolved in turn.
func (f *File) Resolve(r Range) Range {
	for depth := 0; r.End > len(f.Text) || r.Start > len(f.Text); depth++ {
		g := f.region(r.Start)
		if g == nil || depth > len(f.generated) {
			return Range{Start: len(f.Text), End: len(f.Text)}
		}
		r = g.resolve(r)
	}
	return r
}

// resolve maps r, which starts in g, one step back towards its origin.
func (g *Generated) resolve(r Range) Range {
	s, e := r.Start-g.Base, r.End-g.Base
	if e > len(g.Text) || e < s {
		return g.CallSite
	}
	first, last := g.piece(s, true), g.piece(e, false)
	if s == e {
		last = first
	}
	if first == nil || last == nil {
		return g.CallSite
	}
	out := Range{Start: first.Origin.Start + (s - first.Start), End: last.Origin.Start + (e - last.Start)}
	if first == last && (first.Origin.Len() != first.End-first.Start) {
		out = first.Origin
	}
	if out.Start > out.End || !sameRegion(first.Origin, last.Origin) {
		return g.CallSite
	}
	return out
}

// sameRegion is a cheap guard against joining origins from different
// places: an end that comes before the start.
func sameRegion(a, b Range) bool { return a.Start <= b.End }

// piece finds the piece holding relative offset off: for a start, the one
// with Start <= off < End (or an empty range at its Start); for an end,
// the one with Start < off <= End.
func (g *Generated) piece(off int, start bool) *Piece {
	i := sort.Search(len(g.Pieces), func(i int) bool { return g.Pieces[i].End >= off })
	for ; i < len(g.Pieces) && g.Pieces[i].Start <= off; i++ {
		p := &g.Pieces[i]
		if start && (off < p.End || off == p.Start) || !start && off > p.Start && off <= p.End {
			return p
		}
	}
	return nil
}

// TextAt returns the text that holds offset and the offset its first byte
// has: the file's own text with base 0, or a generated region.
func (f *File) TextAt(offset int) (text string, base int) {
	if offset <= len(f.Text) {
		return f.Text, 0
	}
	if g := f.region(offset); g != nil {
		return g.Text, g.Base
	}
	return "", offset
}

// Macro names the macro in whose own text r lies: r is generated and does
// not come from the arguments of that macro's call. It is empty for the
// user's text and for a range copied from the user's arguments.
func (f *File) Macro(r Range) string {
	for depth := 0; r.End > len(f.Text) || r.Start > len(f.Text); depth++ {
		g := f.region(r.Start)
		if g == nil || depth > len(f.generated) {
			return ""
		}
		next := g.resolve(r)
		if next == g.CallSite {
			return g.Macro
		}
		r = next
	}
	return ""
}

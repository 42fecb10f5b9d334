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
type File struct {
	Name  string
	Text  string
	lines []int // byte offset of the start of each line
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

// Position renders a byte offset. Offsets outside the text are clamped.
func (f *File) Position(offset int) Pos {
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

// Span renders a range.
func (f *File) Span(r Range) Span {
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

// Slice returns the text a range covers, clamped to the file.
func (f *File) Slice(r Range) string {
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

package source

import "sort"

// A File may be a crate of several files laid end to end: each file of
// the crate is a segment of the File's Text at its own base offset, so that
// one offset names one place in the crate and the phases between the
// parser and the Result need no file names. Locate maps an offset back to
// the file it lies in.

// Segment is one file of a crate inside a File.
type Segment struct {
	// File is the file itself, with its own name, text and line table.
	File *File
	// Base is the offset of the file's first byte in the crate's File.
	Base int
}

// AddSegment records that text, named name, occupies Text[base:base+len]
// of f. Segments are added in increasing order of base and do not overlap.
func (f *File) AddSegment(name string, base int, text string) *File {
	seg := NewFile(name, text)
	f.segments = append(f.segments, Segment{File: seg, Base: base})
	return seg
}

// Segments are the files of a crate File, in order; nil for a single file.
func (f *File) Segments() []Segment { return f.segments }

// Locate maps an offset of f to the file of the crate it lies in and the
// offset there. An offset in generated text is first resolved to the
// user's text. A File without segments is its own file.
func (f *File) Locate(offset int) (*File, int) {
	if len(f.segments) == 0 {
		return f, offset
	}
	if offset > len(f.Text) && len(f.generated) > 0 {
		offset = f.Resolve(Range{Start: offset, End: offset}).Start
	}
	i := sort.Search(len(f.segments), func(i int) bool { return f.segments[i].Base > offset }) - 1
	if i < 0 {
		i = 0
	}
	seg := f.segments[i]
	local := offset - seg.Base
	local = max(0, min(local, len(seg.File.Text)))
	return seg.File, local
}

// LocateRange maps a range of f to one file of the crate: the file its
// start lies in, its end clamped to that file.
func (f *File) LocateRange(r Range) (*File, Range) {
	if len(f.segments) == 0 {
		return f, r
	}
	r = f.Resolve(r)
	file, start := f.Locate(r.Start)
	end := start + (r.End - r.Start)
	end = max(start, min(end, len(file.Text)))
	return file, Range{Start: start, End: end}
}

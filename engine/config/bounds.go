package config

import (
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// Bounds on what Parse hands to go-toml. go-toml's parser recurses once per
// level of nested arrays and inline tables (up to 10,000 levels), and its
// decoder builds one map per part of a dotted key: 15,000 nested inline
// tables grew the stack of the WebAssembly guest past 16 MiB, and whether
// that fitted under the sandbox's memory limit depended on what the runs
// before had left in the heap. Text past these bounds is refused before
// the parser sees it, with a diagnostic that depends on the text alone.
const (
	// MaxBytes is the largest Cargo.toml Parse reads (engine.MaxConfigBytes
	// refuses a larger one before Parse is called).
	MaxBytes = 64 << 10
	// MaxNesting is how deep tables, arrays and inline tables may nest.
	// The root table is level 0; a [header]'s table is at the level of its
	// number of parts; the tables a dotted key names, and an array or
	// inline table it holds, one level per part below the key's table; a
	// container in an array one level below the array. Scalars are no
	// level. `[package.metadata.playground]` is at level three, and the
	// array of its `hardware = { wgpu = [...] }` at five. Real manifests
	// use a handful.
	MaxNesting = 64
)

// checkBounds reports the diagnostic of a text past MaxBytes or
// MaxNesting.
func checkBounds(text string) (diag.Diagnostic, bool) {
	if len(text) > MaxBytes {
		return errTooLarge(len(text)), false
	}
	if at, deep := tooDeep(text); deep {
		return errNestingTooDeep(at), false
	}
	return diag.Diagnostic{}, true
}

// tooDeep scans text for TOML's lexical structure (strings, comments,
// brackets and the dots of keys) without parsing it, and reports the first
// place where it nests past MaxNesting. On valid TOML the levels it counts
// are the levels go-toml builds; on invalid TOML it only has to stop, which
// it does in one pass: whatever it misreads there, the parser refuses.
func tooDeep(text string) (source.Range, bool) {
	s := nestingScanner{text: text, expressionStart: true}
	for s.i < len(text) {
		if r, deep := s.step(); deep {
			return r, true
		}
	}
	return source.Range{}, false
}

// container is an open array or inline table and the level it sits at.
type container struct {
	table bool
	level int
}

type nestingScanner struct {
	text string
	i    int
	// open holds the arrays and inline tables not yet closed; it never
	// grows past MaxNesting.
	open []container
	// section is the level of the current [header]'s table.
	section int
	// inKey: a key is being read, and parts counts its dotted parts.
	inKey bool
	parts int
	// inHeader: a [header] or [[header]] is being read.
	inHeader bool
	// expressionStart: at the top level, only blanks since the last line.
	expressionStart bool
}

// base is the level of the table that a key read now belongs to.
func (s *nestingScanner) base() int {
	if n := len(s.open); n > 0 {
		return s.open[n-1].level
	}
	return s.section
}

func (s *nestingScanner) deepAt(at int) (source.Range, bool) {
	return source.Range{Start: at, End: at + 1}, true
}

// step consumes one token, or one byte of anything else.
func (s *nestingScanner) step() (source.Range, bool) {
	text, at := s.text, s.i
	c := text[at]
	switch c {
	case ' ', '\t', '\r':
		s.i++
		return source.Range{}, false
	case '\n':
		s.i++
		if len(s.open) == 0 {
			s.expressionStart, s.inKey, s.inHeader = true, false, false
		}
		return source.Range{}, false
	case '#':
		for s.i < len(text) && text[s.i] != '\n' {
			s.i++
		}
		return source.Range{}, false
	}
	wasStart := s.expressionStart
	s.expressionStart = false
	switch {
	case c == '"' || c == '\'':
		s.skipString()
		s.beginKeyPart(wasStart)
	case c == '[' && wasStart:
		// A table header; [[name]] is an array of tables.
		s.i++
		if s.i < len(text) && text[s.i] == '[' {
			s.i++
		}
		s.inHeader, s.parts = true, 1
	case c == ']' && s.inHeader:
		s.i++
		if s.i < len(text) && text[s.i] == ']' {
			s.i++
		}
		s.inHeader, s.section = false, s.parts
	case c == '.' && (s.inKey || s.inHeader):
		s.i++
		s.parts++
		// A header's parts name tables from the root, the last one at
		// the level of its number of parts; a dotted key's parts before
		// the last name tables below the key's table.
		level := s.parts
		if !s.inHeader {
			level += s.base() - 1
		}
		if level > MaxNesting {
			return s.deepAt(at)
		}
	case c == '=' && s.inKey:
		s.i++
		s.inKey = false
	case c == '[' || c == '{':
		s.i++
		level := s.valueLevel()
		if level > MaxNesting {
			return s.deepAt(at)
		}
		s.open = append(s.open, container{table: c == '{', level: level})
		if c == '{' {
			s.inKey, s.parts = true, 0
		}
	case c == ']' || c == '}':
		s.i++
		if n := len(s.open); n > 0 {
			s.open = s.open[:n-1]
		}
		s.inKey = false
	case c == ',':
		s.i++
		if n := len(s.open); n > 0 && s.open[n-1].table {
			s.inKey, s.parts = true, 0
		}
	default:
		s.i++
		s.beginKeyPart(wasStart)
	}
	return source.Range{}, false
}

// beginKeyPart notes the first part of a key at the start of a top-level
// expression or of an inline table's entry; later parts are counted at
// their dots.
func (s *nestingScanner) beginKeyPart(expressionStart bool) {
	if expressionStart {
		s.inKey, s.parts = true, 0
	}
	if s.inKey && s.parts == 0 {
		s.parts = 1
	}
}

// valueLevel is the level of an array or inline table that opens now: one
// below the array it is an element of, or the level its key names.
func (s *nestingScanner) valueLevel() int {
	if n := len(s.open); n > 0 && !s.open[n-1].table {
		return s.open[n-1].level + 1
	}
	return s.base() + max(s.parts, 1)
}

// skipString consumes a basic or literal string, single- or multi-line.
// A single-line string ends at the end of its line, as TOML requires.
func (s *nestingScanner) skipString() {
	text := s.text
	quote := text[s.i]
	if s.i+2 < len(text) && text[s.i+1] == quote && text[s.i+2] == quote {
		s.i += 3
		for s.i < len(text) {
			switch {
			case text[s.i] == '\\' && quote == '"':
				s.i += 2
			case text[s.i] == quote && s.i+2 < len(text) && text[s.i+1] == quote && text[s.i+2] == quote:
				// Up to two quotes may stand just inside the closing ones.
				s.i += 3
				for extra := 0; extra < 2 && s.i < len(text) && text[s.i] == quote; extra++ {
					s.i++
				}
				return
			default:
				s.i++
			}
		}
		return
	}
	s.i++
	for s.i < len(text) {
		switch text[s.i] {
		case '\\':
			if quote == '"' {
				s.i++
			}
		case quote:
			s.i++
			return
		case '\n':
			return
		}
		s.i++
	}
}

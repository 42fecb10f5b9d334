package abi

import (
	"errors"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/source"
)

// Encode writes a Result exactly as json.Marshal does (field order, nulls
// for nil slices, HTML-safe escaping, compacted raw records), without
// reflection and eight bytes at a time through text that needs no escaping.
//
// Why not json.Marshal: inside the sandbox, wazero's WithCloseOnContextDone
// makes every backward jump of the guest a call out to the host, about 30 ns
// each, and Go compiles every jump between basic blocks as a branch to one
// loop header. encoding/json takes several such jumps per byte, so encoding
// a 12 KB Result took about 3 ms there, as long as the run itself; this
// encoder takes about one jump per eight bytes of text. Tests compare it
// with json.Marshal on every example and on fuzzed Results.
//
// A diagnostic's Record must be valid JSON, as json.Marshal requires; the
// engine takes it from the catalog, whose records are checked when loaded,
// so it is compacted and escaped here but not validated again.
func encodeResult(res *engine.Result) ([]byte, error) {
	e := encoder{buf: make([]byte, 0, sizeHint(res))}
	e.raw(`{"status":`)
	e.str(res.Status)
	e.raw(`,"panic":`)
	e.panic(res.Panic)
	e.raw(`,"diagnostics":`)
	if res.Diagnostics == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i := range res.Diagnostics {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.diagnostic(&res.Diagnostics[i])
		}
		e.buf = append(e.buf, ']')
	}
	e.raw(`,"trace":`)
	if res.Trace == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i := range res.Trace {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.traceEntry(&res.Trace[i])
		}
		e.buf = append(e.buf, ']')
	}
	e.raw(`,"output":`)
	e.str(res.Output)
	e.raw(`,"tests":`)
	if res.Tests == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i := range res.Tests {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.testResult(&res.Tests[i])
		}
		e.buf = append(e.buf, ']')
	}
	if res.Complete {
		e.raw(`,"complete":true`)
	} else {
		e.raw(`,"complete":false`)
	}
	e.raw(`,"hints":`)
	if res.Hints == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, h := range res.Hints {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"file":`)
			e.str(h.File)
			e.raw(`,"span":`)
			e.span(h.Span)
			e.raw(`,"label":`)
			e.str(h.Label)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.raw(`,"engine":{"version":`)
	e.str(res.Engine.Version)
	e.raw(`,"burn":`)
	e.str(res.Engine.Burn)
	e.raw("}}")
	return e.buf, e.err
}

func (e *encoder) panic(p *engine.Panic) {
	if p == nil {
		e.raw("null")
		return
	}
	e.raw(`{"message":`)
	e.str(p.Message)
	e.raw(`,"location":`)
	e.str(p.Location)
	e.raw(`,"rendered":`)
	e.str(p.Rendered)
	e.raw(`,"code":`)
	e.str(p.Code)
	e.raw(`,"span":`)
	e.span(p.Span)
	e.buf = append(e.buf, '}')
}

type encoder struct {
	buf []byte
	err error
}

// sizeHint guesses the size of a Result's JSON from its largest parts, so
// that the buffer is allocated once for most Results: in the sandbox every
// regrowth is a copy and an allocation the collector must pace.
func sizeHint(res *engine.Result) int {
	n := 1024 + len(res.Output) + len(res.Output)/8 + 256*len(res.Trace) + 160*len(res.Hints)
	for i := range res.Tests {
		n += 384 + len(res.Tests[i].Output)
	}
	for i := range res.Diagnostics {
		n += 512 + len(res.Diagnostics[i].Record)
	}
	return n
}

func (e *encoder) raw(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) int(n int) { e.buf = strconv.AppendInt(e.buf, int64(n), 10) }

func (e *encoder) span(s source.Span) {
	e.raw(`{"start":`)
	e.pos(s.Start)
	e.raw(`,"end":`)
	e.pos(s.End)
	e.buf = append(e.buf, '}')
}

func (e *encoder) pos(p source.Pos) {
	e.raw(`{"line":`)
	e.int(p.Line)
	e.raw(`,"column":`)
	e.int(p.Column)
	e.raw(`,"offset":`)
	e.int(p.Offset)
	e.buf = append(e.buf, '}')
}

func (e *encoder) diagnostic(d *engine.Diagnostic) {
	e.raw(`{"code":`)
	e.str(d.Code)
	e.raw(`,"severity":`)
	e.str(d.Severity)
	e.raw(`,"phase":`)
	e.str(d.Phase)
	e.raw(`,"message":`)
	e.str(d.Message)
	e.raw(`,"file":`)
	e.str(d.File)
	e.raw(`,"span":`)
	e.span(d.Span)
	e.raw(`,"labels":`)
	if d.Labels == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, l := range d.Labels {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"file":`)
			e.str(l.File)
			e.raw(`,"span":`)
			e.span(l.Span)
			e.raw(`,"message":`)
			e.str(l.Message)
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	if len(d.Help) > 0 {
		e.raw(`,"help":[`)
		for i, h := range d.Help {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(h)
		}
		e.buf = append(e.buf, ']')
	}
	e.raw(`,"record":`)
	e.rawMessage(d.Record)
	e.raw(`,"fixes":`)
	if d.Fixes == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, f := range d.Fixes {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.raw(`{"title":`)
			e.str(f.Title)
			e.raw(`,"edits":`)
			if f.Edits == nil {
				e.raw("null")
			} else {
				e.buf = append(e.buf, '[')
				for j, ed := range f.Edits {
					if j > 0 {
						e.buf = append(e.buf, ',')
					}
					e.raw(`{"file":`)
					e.str(ed.File)
					e.raw(`,"span":`)
					e.span(ed.Span)
					e.raw(`,"newText":`)
					e.str(ed.NewText)
					e.buf = append(e.buf, '}')
				}
				e.buf = append(e.buf, ']')
			}
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	e.buf = append(e.buf, '}')
}

func (e *encoder) testResult(t *engine.TestResult) {
	e.raw(`{"name":`)
	e.str(t.Name)
	e.raw(`,"status":`)
	e.str(t.Status)
	e.raw(`,"panic":`)
	e.panic(t.Panic)
	e.raw(`,"output":`)
	e.str(t.Output)
	if t.ShouldPanic {
		e.raw(`,"shouldPanic":true}`)
	} else {
		e.raw(`,"shouldPanic":false}`)
	}
}

func (e *encoder) traceEntry(t *engine.TraceEntry) {
	e.raw(`{"span":`)
	e.span(t.Span)
	if t.File != "" {
		e.raw(`,"file":`)
		e.str(t.File)
	}
	e.raw(`,"op":`)
	e.str(t.Op)
	e.raw(`,"backend":`)
	e.str(t.Backend)
	e.raw(`,"device":`)
	e.str(t.Device)
	if t.Autodiff {
		e.raw(`,"autodiff":true`)
	} else {
		e.raw(`,"autodiff":false`)
	}
	e.raw(`,"kind":`)
	e.str(t.Kind)
	e.raw(`,"shape":`)
	if t.Shape == nil {
		e.raw("null")
	} else {
		e.buf = append(e.buf, '[')
		for i, n := range t.Shape {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = strconv.AppendInt(e.buf, n, 10)
		}
		e.buf = append(e.buf, ']')
	}
	if t.Note != "" {
		e.raw(`,"note":`)
		e.str(t.Note)
	}
	if t.Module != "" {
		e.raw(`,"module":`)
		e.str(t.Module)
	}
	e.buf = append(e.buf, '}')
}

// SWAR constants: a byte repeated in each of the eight lanes of a uint64.
const (
	lanes = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroLane sets the high bit of the lowest lane of x that is zero, and
// possibly of lanes above it, never of lanes below it.
func zeroLane(x uint64) uint64 { return (x - lanes) &^ x & highs }

// firstSpecial is the index, 0 to 7, of the first of the eight bytes of x
// (the lowest lane first) that cannot be copied into a JSON string as it
// is: a control character, '"', '\\', '<', '>', '&' or a byte outside
// ASCII; 8 if there is none.
func firstSpecial(x uint64) int {
	special := (x - lanes*0x20) &^ x & highs // a byte below 0x20
	special |= zeroLane(x ^ lanes*'"')
	special |= zeroLane(x ^ lanes*'\\')
	special |= zeroLane(x ^ lanes*'<')
	special |= zeroLane(x ^ lanes*'>')
	special |= zeroLane(x ^ lanes*'&')
	special |= x & highs
	return bits.TrailingZeros64(special) >> 3
}

func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// nextSpecial returns the index of the first byte at or after i that
// firstSpecial would stop at, looking eight bytes at a time; near the end
// of s, where fewer than eight are left, it returns i.
func nextSpecial(s string, i int) int {
	for i+8 <= len(s) {
		k := firstSpecial(load8(s, i))
		i += k
		if k < 8 {
			break
		}
	}
	return i
}

const hexDigits = "0123456789abcdef"

// str appends s as a JSON string the way encoding/json does with HTML
// escaping: invalid UTF-8 becomes \ufffd, U+2028 and U+2029 are escaped.
// Runs of bytes that need nothing are skipped eight at a time.
func (e *encoder) str(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		i = nextSpecial(s, i)
		if i == len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++ // a plain byte among the last seven
				continue
			}
			e.buf = append(e.buf, s[start:i]...)
			switch b {
			case '\\', '"':
				e.buf = append(e.buf, '\\', b)
			case '\b':
				e.buf = append(e.buf, '\\', 'b')
			case '\f':
				e.buf = append(e.buf, '\\', 'f')
			case '\n':
				e.buf = append(e.buf, '\\', 'n')
			case '\r':
				e.buf = append(e.buf, '\\', 'r')
			case '\t':
				e.buf = append(e.buf, '\\', 't')
			default:
				e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, `\ufffd`...)
			start = i + size
		case c == '\u2028' || c == '\u2029':
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			start = i + size
		}
		i += size
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

var errEmptyRecord = errors.New("abi: a diagnostic's record is empty, not JSON")

// rawMessage appends valid JSON compacted and HTML-escaped, as json.Marshal
// does with a json.RawMessage: whitespace outside strings is dropped; inside
// strings '<', '>', '&', U+2028 and U+2029 become \u escapes and every other
// byte, escapes included, is kept. Inside strings, runs of bytes that need
// nothing are skipped eight at a time, as in str.
func (e *encoder) rawMessage(m []byte) {
	if m == nil {
		e.raw("null")
		return
	}
	if len(m) == 0 {
		e.err = errEmptyRecord
		return
	}
	if catalog.IsEncodedJSON(m) {
		// A catalog record, already in the form this function writes.
		e.buf = append(e.buf, m...)
		return
	}
	// m is read, never kept: no copy of it is needed.
	s := unsafe.String(unsafe.SliceData(m), len(m))
	inString := false
	start := 0
	for i := 0; i < len(s); {
		if inString {
			if i = nextSpecial(s, i); i == len(s) {
				break
			}
		}
		c := s[i]
		switch {
		case inString && c == '\\':
			i += 2 // the escaped byte is kept whatever it is
			continue
		case c == '"':
			inString = !inString
		case inString && (c == '<' || c == '>' || c == '&'):
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			start = i + 1
		case inString && c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xF])
			i += 3
			start = i
			continue
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			e.buf = append(e.buf, s[start:i]...)
			start = i + 1
		}
		i++
	}
	if start < len(s) {
		e.buf = append(e.buf, s[start:]...)
	}
}

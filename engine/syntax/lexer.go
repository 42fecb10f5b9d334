package syntax

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// lexer turns main.rs into tokens on demand. Comments, doc comments and
// whitespace are skipped. When report is set it reports lexical errors;
// Parse lexes twice (once to check delimiters and report, once to parse) and
// only the first pass reports.
type lexer struct {
	src    string
	pos    int
	report func(diag.Diagnostic)
	// afterDot is set after a lone `.` so that `t.0.1` lexes as a tuple
	// index chain rather than `t` `.` `0.1`.
	afterDot bool
	// cutoff is the start of the first unterminated literal or comment:
	// everything after it was swallowed, so parse errors there are noise.
	cutoff int
	// errOffsets holds the byte offsets of lexical errors, to keep the
	// parser from piling its own complaints onto the same line.
	errOffsets []int
}

func newLexer(src string, report func(diag.Diagnostic)) lexer {
	lx := lexer{src: src, report: report, cutoff: len(src) + 1}
	lx.pos = shebangEnd(src)
	return lx
}

// shebangEnd skips a byte order mark and a `#!interpreter` first line, as
// rustc does; `#![attr]` is an inner attribute and stays.
func shebangEnd(src string) int {
	start := 0
	if strings.HasPrefix(src, "\uFEFF") {
		start = len("\uFEFF")
	}
	if !strings.HasPrefix(src[start:], "#!") {
		return start
	}
	trimmed := strings.TrimLeft(src[start+2:], " \t\r\n")
	if strings.HasPrefix(trimmed, "[") {
		return start
	}
	if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
		return start + i
	}
	return len(src)
}

func (lx *lexer) errorAt(d diag.Diagnostic) {
	lx.errOffsets = append(lx.errOffsets, d.Range.Start)
	if lx.report != nil {
		lx.report(d)
	}
}

func (lx *lexer) rangeFrom(start int) source.Range { return source.Range{Start: start, End: lx.pos} }

// peekIdent returns the next token's text when it is an identifier, without
// consuming it or reporting anything.
func (lx *lexer) peekIdent() string {
	c := *lx
	c.report, c.errOffsets = nil, nil
	if t := c.next(); t.Kind == Ident {
		return t.Text
	}
	return ""
}

// next returns the next token; at the end it returns EOF tokens forever.
func (lx *lexer) next() Token {
	for {
		lx.skipTrivia()
		afterDot := lx.afterDot
		lx.afterDot = false
		start := lx.pos
		if start >= len(lx.src) {
			return Token{Kind: EOF, Range: source.Range{Start: len(lx.src), End: len(lx.src)}}
		}
		c := lx.src[start]
		switch {
		case c == 'b' && start+1 < len(lx.src) && (lx.src[start+1] == '\'' || lx.src[start+1] == '"' ||
			(lx.src[start+1] == 'r' && start+2 < len(lx.src) && (lx.src[start+2] == '"' || lx.src[start+2] == '#'))):
			if t, ok := lx.prefixedLiteral(start); ok {
				return t
			}
			return lx.identifier(start)
		case c == 'r' && start+1 < len(lx.src) && (lx.src[start+1] == '"' || lx.src[start+1] == '#'):
			if t, ok := lx.prefixedLiteral(start); ok {
				return t
			}
			return lx.identifier(start)
		case isASCIIIdentStart(c):
			return lx.identifier(start)
		case c >= '0' && c <= '9':
			return lx.number(start, afterDot)
		case c == '"':
			lx.pos++
			return lx.quoted(start, String)
		case c == '\'':
			return lx.charOrLifetime(start)
		case c < utf8.RuneSelf:
			if t, ok := lx.punct(start); ok {
				if t.Text == "." {
					lx.afterDot = true
				}
				return t
			}
			lx.pos++
			lx.errorAt(errUnknownToken(lx.rangeFrom(start), rune(c)))
		default:
			r, size := utf8.DecodeRuneInString(lx.src[start:])
			if isIdentStart(r) {
				return lx.identifier(start)
			}
			lx.pos += size
			lx.errorAt(errUnknownToken(lx.rangeFrom(start), r))
		}
	}
}

// skipTrivia skips whitespace, comments and invalid UTF-8 (reported).
func (lx *lexer) skipTrivia() {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			lx.pos++
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '/':
			end := strings.IndexByte(src[lx.pos:], '\n')
			if end < 0 {
				end = len(src) - lx.pos
			}
			lx.checkUTF8(lx.pos, lx.pos+end)
			lx.pos += end
		case c == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*':
			lx.blockComment()
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[lx.pos:])
			if r == utf8.RuneError && size == 1 {
				lx.invalidUTF8Run()
				continue
			}
			if !isRustWhitespace(r) {
				return
			}
			lx.pos += size
		default:
			return
		}
	}
}

// invalidUTF8Run reports a run of bytes that are not UTF-8 once and skips it.
func (lx *lexer) invalidUTF8Run() {
	start := lx.pos
	first := lx.src[start]
	for lx.pos < len(lx.src) {
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if r != utf8.RuneError || size != 1 {
			break
		}
		lx.pos++
	}
	lx.errorAt(errInvalidUTF8(lx.rangeFrom(start), first))
}

// checkUTF8 reports invalid UTF-8 inside a comment or literal.
func (lx *lexer) checkUTF8(start, end int) {
	s := lx.src[start:end]
	if utf8.ValidString(s) {
		return
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			j := i
			for j < len(s) {
				r2, size2 := utf8.DecodeRuneInString(s[j:])
				if r2 != utf8.RuneError || size2 != 1 {
					break
				}
				j++
			}
			lx.errorAt(errInvalidUTF8(source.Range{Start: start + i, End: start + j}, s[i]))
			i = j
			continue
		}
		i += size
	}
}

// blockComment skips a (nestable) block comment starting at lx.pos.
func (lx *lexer) blockComment() {
	start := lx.pos
	depth := 0
	src := lx.src
	for lx.pos < len(src) {
		switch {
		case src[lx.pos] == '/' && lx.pos+1 < len(src) && src[lx.pos+1] == '*':
			depth++
			lx.pos += 2
		case src[lx.pos] == '*' && lx.pos+1 < len(src) && src[lx.pos+1] == '/':
			depth--
			lx.pos += 2
			if depth == 0 {
				lx.checkUTF8(start, lx.pos)
				return
			}
		default:
			lx.pos++
		}
	}
	lx.checkUTF8(start, lx.pos)
	lx.unterminated(source.Range{Start: start, End: start + 2}, "block comment")
}

func (lx *lexer) unterminated(r source.Range, what string) {
	if r.Start < lx.cutoff {
		lx.cutoff = r.Start
	}
	lx.errorAt(errUnterminated(r, what))
}

func (lx *lexer) identifier(start int) Token {
	src := lx.src
	i := start
	raw := false
	if strings.HasPrefix(src[i:], "r#") && i+2 < len(src) {
		if r, _ := utf8.DecodeRuneInString(src[i+2:]); isIdentStart(r) {
			raw = true
			i += 2
		}
	}
	nameStart := i
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if !isASCIIIdentContinue(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if !isIdentContinue(r) {
			break
		}
		i += size
	}
	lx.pos = i
	text := src[nameStart:i]
	kind := Ident
	if !raw && isKeyword(text) {
		kind = Keyword
	}
	return Token{Kind: kind, Text: text, Range: source.Range{Start: start, End: i}}
}

// prefixedLiteral lexes b'x', b"...", br"...", r"..." and r#"..."#. It
// reports false for an identifier that merely starts with b or r.
func (lx *lexer) prefixedLiteral(start int) (Token, bool) {
	src := lx.src
	i := start
	isByte := false
	if src[i] == 'b' {
		isByte = true
		i++
	}
	if src[i] == '\'' {
		lx.pos = i + 1
		return lx.byteChar(start), true
	}
	if src[i] == '"' {
		lx.pos = i + 1
		return lx.quoted(start, ByteString), true
	}
	// src[i] == 'r'
	i++
	hashes := 0
	for i < len(src) && src[i] == '#' {
		hashes++
		i++
	}
	if i >= len(src) || src[i] != '"' {
		return Token{}, false
	}
	kind := String
	if isByte {
		kind = ByteString
	}
	closing := "\"" + strings.Repeat("#", hashes)
	body := i + 1
	end := strings.Index(src[body:], closing)
	if end < 0 {
		lx.pos = len(src)
		lx.checkUTF8(body, len(src))
		what := "raw string"
		if isByte {
			what = "raw byte string"
		}
		lx.unterminated(source.Range{Start: start, End: body}, what)
		return Token{Kind: kind, Text: src[start:], Range: lx.rangeFrom(start), Value: src[body:]}, true
	}
	lx.pos = body + end + len(closing)
	value := src[body : body+end]
	lx.checkUTF8(body, body+end)
	if isByte {
		for j := 0; j < len(value); j++ {
			if value[j] >= utf8.RuneSelf {
				lx.errorAt(errLex(source.Range{Start: body + j, End: body + j + 1}, "non-ASCII character in raw byte string literal"))
				break
			}
		}
	}
	t := Token{Kind: kind, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: value}
	lx.literalSuffix(&t)
	return t, true
}

// literalSuffix rejects a suffix glued to a string or char literal.
func (lx *lexer) literalSuffix(t *Token) {
	if lx.pos >= len(lx.src) {
		return
	}
	r, _ := utf8.DecodeRuneInString(lx.src[lx.pos:])
	if !isIdentStart(r) {
		return
	}
	start := lx.pos
	for lx.pos < len(lx.src) {
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if !isIdentContinue(r) {
			break
		}
		lx.pos += size
	}
	lx.errorAt(errLex(lx.rangeFrom(start), "suffixes on string literals are invalid"))
	t.Range.End = lx.pos
	t.Text = lx.src[t.Range.Start:lx.pos]
}

// escapeMode tells which escapes a literal admits.
type escapeMode int

const (
	escStr escapeMode = iota
	escChar
	escByte
	escByteStr
)

func (m escapeMode) bytes() bool { return m == escByte || m == escByteStr }

// quoted lexes the rest of a "..." or b"..." literal; lx.pos is just past
// the opening quote.
func (lx *lexer) quoted(start int, kind TokenKind) Token {
	src := lx.src
	mode := escStr
	what := "double quote string"
	if kind == ByteString {
		mode = escByteStr
		what = "double quote byte string"
	}
	bodyStart := lx.pos
	var b *strings.Builder
	chunk := lx.pos
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == '"':
			value := src[bodyStart:lx.pos]
			if b != nil {
				b.WriteString(src[chunk:lx.pos])
				value = b.String()
			}
			lx.pos++
			t := Token{Kind: kind, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: value}
			lx.literalSuffix(&t)
			return t
		case c == '\\':
			if b == nil {
				b = &strings.Builder{}
			}
			b.WriteString(src[chunk:lx.pos])
			lx.escape(b, mode)
			chunk = lx.pos
		case c == '\r' && !(lx.pos+1 < len(src) && src[lx.pos+1] == '\n'):
			lx.errorAt(errLex(source.Range{Start: lx.pos, End: lx.pos + 1}, "bare CR not allowed in string, use `\\r` instead"))
			lx.pos++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[lx.pos:])
			if r == utf8.RuneError && size == 1 {
				runStart := lx.pos
				lx.invalidUTF8Run()
				if b == nil {
					b = &strings.Builder{}
				}
				b.WriteString(src[chunk:runStart])
				b.WriteRune(utf8.RuneError)
				chunk = lx.pos
				continue
			}
			if mode.bytes() {
				lx.errorAt(errLex(source.Range{Start: lx.pos, End: lx.pos + size}, "non-ASCII character in byte string literal"))
			}
			lx.pos += size
		default:
			lx.pos++
		}
	}
	lx.unterminated(source.Range{Start: start, End: bodyStart}, what)
	value := src[bodyStart:]
	if b != nil {
		b.WriteString(src[chunk:])
		value = b.String()
	}
	return Token{Kind: kind, Text: src[start:], Range: lx.rangeFrom(start), Value: value}
}

// escape decodes one escape sequence at lx.pos (on the backslash) into b.
func (lx *lexer) escape(b *strings.Builder, mode escapeMode) {
	src := lx.src
	start := lx.pos
	lx.pos++ // backslash
	if lx.pos >= len(src) {
		return
	}
	c := src[lx.pos]
	lx.pos++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case '\\':
		b.WriteByte('\\')
	case '0':
		b.WriteByte(0)
	case '\'':
		b.WriteByte('\'')
	case '"':
		b.WriteByte('"')
	case '\n', '\r':
		if mode == escChar || mode == escByte {
			lx.errorAt(errLex(lx.rangeFrom(start), "unknown character escape: `"+escapeRune(rune(c))+"`"))
			return
		}
		// A line continuation skips the newline and the next line's indent.
		for lx.pos < len(src) && (src[lx.pos] == ' ' || src[lx.pos] == '\t' || src[lx.pos] == '\n' || src[lx.pos] == '\r') {
			lx.pos++
		}
	case 'x':
		digits := 0
		v := 0
		for digits < 2 && lx.pos < len(src) && isHexDigit(src[lx.pos]) {
			v = v*16 + hexValue(src[lx.pos])
			lx.pos++
			digits++
		}
		switch {
		case digits < 2:
			lx.errorAt(errLex(lx.rangeFrom(start), "numeric character escape is too short"))
		case v > 0x7f && !mode.bytes():
			lx.errorAt(errLex(lx.rangeFrom(start), "out of range hex escape"))
		case mode.bytes():
			b.WriteByte(byte(v))
		default:
			b.WriteRune(rune(v))
		}
	case 'u':
		lx.unicodeEscape(b, mode, start)
	default:
		r, size := utf8.DecodeRuneInString(src[lx.pos-1:])
		lx.pos += size - 1
		lx.errorAt(errLex(lx.rangeFrom(start), "unknown character escape: `"+escapeRune(r)+"`"))
	}
}

func (lx *lexer) unicodeEscape(b *strings.Builder, mode escapeMode, start int) {
	src := lx.src
	if lx.pos >= len(src) || src[lx.pos] != '{' {
		lx.errorAt(errLex(lx.rangeFrom(start), "incorrect unicode escape sequence"))
		return
	}
	lx.pos++
	v, digits := 0, 0
	for lx.pos < len(src) && (isHexDigit(src[lx.pos]) || src[lx.pos] == '_') {
		if src[lx.pos] != '_' {
			if digits < 7 {
				v = v*16 + hexValue(src[lx.pos])
			}
			digits++
		}
		lx.pos++
	}
	if lx.pos >= len(src) || src[lx.pos] != '}' {
		lx.errorAt(errLex(lx.rangeFrom(start), "unterminated unicode escape"))
		return
	}
	lx.pos++
	switch {
	case digits == 0:
		lx.errorAt(errLex(lx.rangeFrom(start), "empty unicode escape"))
	case digits > 6:
		lx.errorAt(errLex(lx.rangeFrom(start), "overlong unicode escape"))
	case mode.bytes():
		lx.errorAt(errLex(lx.rangeFrom(start), "unicode escape in byte string"))
	case v > unicode.MaxRune || (v >= 0xd800 && v <= 0xdfff):
		lx.errorAt(errLex(lx.rangeFrom(start), "invalid unicode character escape"))
	default:
		b.WriteRune(rune(v))
	}
}

// charOrLifetime lexes 'x', '\n' or a lifetime 'a.
func (lx *lexer) charOrLifetime(start int) Token {
	src := lx.src
	i := start + 1
	if i >= len(src) {
		lx.pos = len(src)
		lx.unterminated(source.Range{Start: start, End: len(src)}, "character literal")
		return Token{Kind: Char, Text: src[start:], Range: lx.rangeFrom(start)}
	}
	if src[i] == '\\' {
		lx.pos = i
		return lx.charBody(start, escChar)
	}
	if src[i] == '\'' {
		if i+1 < len(src) && src[i+1] == '\'' {
			lx.pos = i + 2
			lx.errorAt(errLex(lx.rangeFrom(start), "character constant must be escaped: `'`"))
			return Token{Kind: Char, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: "'"}
		}
		lx.pos = i + 1
		lx.errorAt(errLex(lx.rangeFrom(start), "empty character literal"))
		return Token{Kind: Char, Text: src[start:lx.pos], Range: lx.rangeFrom(start)}
	}
	r, size := utf8.DecodeRuneInString(src[i:])
	if i+size < len(src) && src[i+size] == '\'' {
		lx.pos = i
		return lx.charBody(start, escChar)
	}
	if isIdentStart(r) {
		lx.pos = i
		name := lx.identifier(i)
		if lx.pos < len(src) && src[lx.pos] == '\'' {
			lx.pos++
			lx.errorAt(errLex(lx.rangeFrom(start), "character literal may only contain one codepoint"))
			return Token{Kind: Char, Text: src[start:lx.pos], Range: lx.rangeFrom(start)}
		}
		return Token{Kind: Lifetime, Text: "'" + name.Text, Range: lx.rangeFrom(start)}
	}
	lx.pos = i
	return lx.charBody(start, escChar)
}

// byteChar lexes the rest of b'x'; lx.pos is past the quote.
func (lx *lexer) byteChar(start int) Token { return lx.charBody(start, escByte) }

// charBody lexes one (possibly escaped) character and the closing quote.
func (lx *lexer) charBody(start int, mode escapeMode) Token {
	src := lx.src
	kind := Char
	what := "character literal"
	if mode == escByte {
		kind = Byte
		what = "byte constant"
	}
	var b strings.Builder
	switch {
	case lx.pos >= len(src):
	case src[lx.pos] == '\\':
		lx.escape(&b, mode)
	default:
		r, size := utf8.DecodeRuneInString(src[lx.pos:])
		switch {
		case r == utf8.RuneError && size == 1:
			lx.invalidUTF8Run()
			b.WriteRune(utf8.RuneError)
			size = 0
		case r == '\n' || r == '\r' || r == '\t':
			lx.errorAt(errLex(source.Range{Start: lx.pos, End: lx.pos + size}, "character constant must be escaped: `"+escapeRune(r)+"`"))
		case mode == escByte && r >= utf8.RuneSelf:
			lx.errorAt(errLex(source.Range{Start: lx.pos, End: lx.pos + size}, "non-ASCII character in byte literal"))
		}
		if size > 0 {
			b.WriteRune(r)
		}
		lx.pos += size
	}
	if lx.pos < len(src) && src[lx.pos] == '\'' {
		lx.pos++
		t := Token{Kind: kind, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: b.String()}
		lx.literalSuffix(&t)
		return t
	}
	// More than one character before a quote on the same line, or none at all.
	if end := strings.IndexAny(src[lx.pos:], "'\n"); end >= 0 && src[lx.pos+end] == '\'' {
		lx.pos += end + 1
		lx.errorAt(errLex(lx.rangeFrom(start), what+" may only contain one codepoint"))
		return Token{Kind: kind, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: b.String()}
	}
	lx.unterminated(source.Range{Start: start, End: lx.pos}, what)
	return Token{Kind: kind, Text: src[start:lx.pos], Range: lx.rangeFrom(start), Value: b.String()}
}

var intSuffixes = [...]string{"u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"}

func isIntSuffix(s string) bool {
	for _, x := range intSuffixes {
		if s == x {
			return true
		}
	}
	return false
}

func isFloatSuffix(s string) bool { return s == "f32" || s == "f64" || s == "f16" || s == "f128" }

// number lexes an integer or float literal with its suffix.
func (lx *lexer) number(start int, afterDot bool) Token {
	src := lx.src
	i := start
	kind := Int
	base := 10
	if !afterDot && src[i] == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'o' || src[i+1] == 'b') {
		switch src[i+1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		default:
			base = 2
		}
		i += 2
		digits := 0
		for i < len(src) && (isHexDigit(src[i]) && (base == 16 || src[i] <= '9') || src[i] == '_') {
			if src[i] != '_' {
				digits++
				if base != 16 && int(src[i]-'0') >= base {
					lx.errorAt(errLex(source.Range{Start: i, End: i + 1},
						"invalid digit for a base "+strconv.Itoa(base)+" literal"))
				}
			}
			i++
		}
		if digits == 0 {
			lx.errorAt(errLex(source.Range{Start: start, End: i}, "no valid digits found for number"))
		}
	} else {
		for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
			i++
		}
		if !afterDot {
			if i < len(src) && src[i] == '.' && !(i+1 < len(src) && (src[i+1] == '.' || startsIdent(src[i+1:]))) {
				i++
				kind = Float
				if i < len(src) && isDigit(src[i]) {
					for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
						i++
					}
				}
			}
			if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
				j := i + 1
				if j < len(src) && (src[j] == '+' || src[j] == '-') {
					j++
				}
				k := j
				for k < len(src) && src[k] == '_' {
					k++
				}
				if k < len(src) && isDigit(src[k]) {
					i = k
					for i < len(src) && (isDigit(src[i]) || src[i] == '_') {
						i++
					}
					kind = Float
				}
			}
		}
	}
	numEnd := i
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if !isASCIIIdentContinue(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if !isIdentContinue(r) {
			break
		}
		i += size
	}
	lx.pos = i
	suffix := src[numEnd:i]
	if suffix != "" {
		switch {
		case kind == Int && isIntSuffix(suffix):
		case kind == Int && base == 10 && isFloatSuffix(suffix):
			kind = Float
		case kind == Float && isFloatSuffix(suffix):
		case kind == Float:
			lx.errorAt(errLex(source.Range{Start: numEnd, End: i}, "invalid suffix `"+suffix+"` for float literal"))
		default:
			lx.errorAt(errLex(source.Range{Start: numEnd, End: i}, "invalid suffix `"+suffix+"` for number literal"))
		}
	}
	value := src[start:numEnd]
	if strings.IndexByte(value, '_') >= 0 {
		value = strings.ReplaceAll(value, "_", "")
	}
	return Token{Kind: kind, Text: src[start:i], Range: lx.rangeFrom(start), Value: value, Suffix: suffix}
}

// punct lexes Rust's punctuation, longest match first.
func (lx *lexer) punct(start int) (Token, bool) {
	rest := lx.src[start:]
	at := func(i int) byte {
		if i < len(rest) {
			return rest[i]
		}
		return 0
	}
	n := 0
	switch c, c1, c2 := rest[0], at(1), at(2); c {
	case '(', ')', '[', ']', '{', '}', ',', ';', '@', '#', '$', '?', '~':
		n = 1
	case ':':
		n = 1 + b2i(c1 == ':')
	case '.':
		switch {
		case c1 == '.' && (c2 == '.' || c2 == '='):
			n = 3
		case c1 == '.':
			n = 2
		default:
			n = 1
		}
	case '<', '>':
		switch {
		case c1 == c && c2 == '=':
			n = 3
		case c1 == c || c1 == '=':
			n = 2
		default:
			n = 1
		}
	case '-':
		n = 1 + b2i(c1 == '>' || c1 == '=')
	case '=':
		n = 1 + b2i(c1 == '>' || c1 == '=')
	case '&', '|':
		n = 1 + b2i(c1 == c || c1 == '=')
	case '+', '*', '/', '%', '^', '!':
		n = 1 + b2i(c1 == '=')
	default:
		return Token{}, false
	}
	lx.pos = start + n
	return Token{Kind: Punct, Text: rest[:n], Range: lx.rangeFrom(start)}, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

func hexValue(c byte) int {
	if isDigit(c) {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

func isASCIIIdentStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isASCIIIdentContinue(c byte) bool { return isASCIIIdentStart(c) || isDigit(c) }

// isIdentStart approximates Unicode's XID_Start plus `_`.
func isIdentStart(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIIdentStart(byte(r))
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

// isIdentContinue approximates Unicode's XID_Continue.
func isIdentContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIIdentContinue(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nl, unicode.Pc)
}

func startsIdent(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isIdentStart(r)
}

// isRustWhitespace is Rust's Pattern_White_Space beyond ASCII.
func isRustWhitespace(r rune) bool {
	switch r {
	case 0x85, 0x200e, 0x200f, 0x2028, 0x2029:
		return true
	}
	return false
}

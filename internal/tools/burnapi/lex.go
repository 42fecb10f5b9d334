package main

import (
	"strings"
)

// A token of Rust source, as far as an item scanner needs: identifiers
// (keywords too), punctuation, literals and lifetimes. Comments are dropped;
// doc comments are comments here (`///` lines never carry a signature).
type token struct {
	kind  tokKind
	text  string // an identifier, a punctuation, or a literal's source text
	off   int    // byte offset of the token in the file
	end   int    // byte offset after it
	line  int    // 1-based
	value string // a string literal's value (escapes kept as written)
}

type tokKind int

const (
	tIdent tokKind = iota
	tPunct
	tStr
	tChar
	tNum
	tLifetime
)

// lex splits src into tokens. It knows Rust's comments (nested block
// comments too), strings, raw strings (r"..", r#".."#, br".."), byte
// strings, chars and lifetimes; anything else is a one-character
// punctuation, except `::`, `->` and `=>`.
func lex(src string) []token {
	var out []token
	line := 1
	i := 0
	n := len(src)
	emit := func(k tokKind, start, end int, startLine int) {
		out = append(out, token{kind: k, text: src[start:end], off: start, end: end, line: startLine})
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			depth := 0
			for i < n {
				if src[i] == '/' && i+1 < n && src[i+1] == '*' {
					depth++
					i += 2
					continue
				}
				if src[i] == '*' && i+1 < n && src[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
					continue
				}
				if src[i] == '\n' {
					line++
				}
				i++
			}
		case c == '"' || ((c == 'b' || c == 'c') && i+1 < n && src[i+1] == '"'):
			start, startLine := i, line
			if c != '"' {
				i++
			}
			i++
			for i < n && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				if i < n && src[i] == '\n' {
					line++
				}
				i++
			}
			i++
			if i > n {
				i = n
			}
			emit(tStr, start, i, startLine)
			out[len(out)-1].value = unquote(src[start:i])
		case isRawStringStart(src, i):
			start, startLine := i, line
			for src[i] != 'r' {
				i++
			}
			i++
			hashes := 0
			for i < n && src[i] == '#' {
				hashes++
				i++
			}
			i++ // the opening quote
			closing := "\"" + strings.Repeat("#", hashes)
			j := strings.Index(src[i:], closing)
			if j < 0 {
				j = n - i
			}
			line += strings.Count(src[i:i+j], "\n")
			i += j + len(closing)
			if i > n {
				i = n
			}
			emit(tStr, start, i, startLine)
		case c == '\'':
			start, startLine := i, line
			// A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
			if i+2 < n && src[i+1] == '\\' {
				j := i + 3
				for j < n && src[j] != '\'' {
					j++
				}
				i = j + 1
				emit(tChar, start, i, startLine)
				continue
			}
			if i+2 < n && src[i+2] == '\'' {
				i += 3
				emit(tChar, start, i, startLine)
				continue
			}
			j := i + 1
			for j < n && isIdentByte(src[j]) {
				j++
			}
			if j < n && src[j] == '\'' && j > i+1 {
				// a multi-byte char such as 'é'
				i = j + 1
				emit(tChar, start, i, startLine)
				continue
			}
			if j == i+1 {
				// a non-ASCII char literal: up to the closing quote
				k := strings.IndexByte(src[j:], '\'')
				if k >= 0 && k < 8 {
					i = j + k + 1
					emit(tChar, start, i, startLine)
					continue
				}
				i++
				emit(tPunct, start, i, startLine)
				continue
			}
			i = j
			emit(tLifetime, start, i, startLine)
		case isIdentStart(c):
			start := i
			for i < n && isIdentByte(src[i]) {
				i++
			}
			emit(tIdent, start, i, line)
		case c >= '0' && c <= '9':
			start := i
			for i < n && (isIdentByte(src[i]) || (src[i] == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9')) {
				i++
			}
			emit(tNum, start, i, line)
		default:
			start := i
			if i+1 < n {
				two := src[i : i+2]
				if two == "::" || two == "->" || two == "=>" {
					i += 2
					emit(tPunct, start, i, line)
					continue
				}
			}
			if c >= 0x80 {
				// a non-ASCII character outside a literal: skip it whole
				i++
				for i < n && src[i]&0xC0 == 0x80 {
					i++
				}
				continue
			}
			i++
			emit(tPunct, start, i, line)
		}
	}
	return out
}

func isRawStringStart(src string, i int) bool {
	j := i
	if j < len(src) && src[j] == 'b' {
		j++
	}
	if j >= len(src) || src[j] != 'r' {
		return false
	}
	j++
	for j < len(src) && src[j] == '#' {
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return false
	}
	// r"..", r#".."#: not an identifier that merely starts with r.
	return i == 0 || !isIdentByte(src[i-1])
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// unquote is a plain string literal's contents; the scanner only reads
// cfg feature names, which have no escapes.
func unquote(s string) string {
	s = strings.TrimLeft(s, "bc")
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

package syntax

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/source"
)

// TokenKind classifies a token.
type TokenKind int

const (
	EOF TokenKind = iota
	Ident
	Lifetime // 'a
	Int
	Float
	String // "..." and r"..." / r#"..."#
	Char
	Punct // operators and delimiters, Text holds the punctuation
	Keyword
	Byte       // b'x'
	ByteString // b"..." and br"..." / br#"..."#
	// OpenInvisible and CloseInvisible are the invisible delimiters that
	// macro expansion puts around a substituted `$e:expr` fragment, as
	// rustc does, so that `$e * 2` multiplies all of `1 + 1`. They have no
	// text and an empty range; only token streams built by expansion hold
	// them.
	OpenInvisible
	CloseInvisible
)

// Token is one lexical token.
//
// Text is the token's source text, except for a raw identifier (`r#type`),
// whose Text is the bare name. Value holds the decoded contents of string,
// byte string, char and byte literals (escapes resolved) and the digits of a
// number without `_` separators or suffix ("0x1F", "1000", "1.5e3"). Suffix
// is a number's type suffix ("u64", "f32"), empty when there is none.
type Token struct {
	Kind   TokenKind
	Text   string
	Range  source.Range
	Value  string
	Suffix string
}

// String names the token the way rustc does in "expected X, found Y".
func (t Token) String() string {
	switch t.Kind {
	case EOF:
		return "`<eof>`"
	case OpenInvisible, CloseInvisible:
		return "`expr` metavariable"
	case Keyword:
		return "keyword `" + t.Text + "`"
	case Lifetime:
		return "lifetime `" + t.Text + "`"
	case String, ByteString:
		if len(t.Text) > 32 {
			return "string literal"
		}
	case Ident:
		if t.Text == "_" {
			return "reserved identifier `_`"
		}
	}
	return "`" + t.Text + "`"
}

// isKeyword reports whether word is a strict or reserved Rust keyword
// (edition 2021). Contextual keywords such as `union` or `default` are
// identifiers.
func isKeyword(word string) bool {
	switch word {
	case "as", "break", "const", "continue", "crate", "else", "enum", "extern",
		"false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
		"move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct",
		"super", "trait", "true", "type", "unsafe", "use", "where", "while",
		"async", "await", "dyn",
		"abstract", "become", "box", "do", "final", "macro", "override", "priv",
		"typeof", "unsized", "virtual", "yield", "try":
		return true
	}
	return false
}

// TokensText prints a token stream the way rustc's stringify! does: tokens
// that touch in the source touch in the text, and between the others a
// space, except where rustc's printer leaves it out (`x,`, `f(`, `a.b`,
// `m!`, `#[`, inside parentheses and brackets).
func TokensText(toks []Token) string {
	var b strings.Builder
	var prev Token
	first := true
	for _, t := range toks {
		if t.Kind == OpenInvisible || t.Kind == CloseInvisible {
			continue
		}
		if !first && SpaceBetween(prev, t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
		prev, first = t, false
	}
	return b.String()
}

// SpaceBetween decides whether a space separates two consecutive tokens in
// TokensText: tokens that touch in the source touch, the others follow
// rustc's printer.
func SpaceBetween(a, b Token) bool {
	if a.Range.End == b.Range.Start && a.Range.Start < a.Range.End && b.Range.Start < b.Range.End {
		return false
	}
	// An operator; delimiters are not (rustc prints them as groups).
	punct := func(t Token) bool { return t.Kind == Punct && !isOpener(t) && !isCloser(t) }
	switch {
	case isTok(a, "(") || isTok(a, "["):
		return false
	case isTok(b, ")") || isTok(b, "]"):
		return false
	case isTok(a, "{"):
		return !isTok(b, "}")
	case isTok(b, "}"):
		return true
	case isTok(a, ".") && !punct(b):
		return false
	case isTok(a, "$") && (b.Kind == Ident || b.Kind == Keyword):
		return false
	case !punct(a) && (isTok(b, ",") || isTok(b, ";") || isTok(b, ".")):
		return false
	case a.Kind == Ident && isTok(b, "!"):
		return false
	case isTok(b, "("):
		return !(a.Kind == Ident || isTok(a, "fn") || isTok(a, "Self") || isTok(a, "pub"))
	case isTok(a, "#") && isTok(b, "["):
		return false
	}
	return true
}

package syntax

import "github.com/dispatch-playground/playground/engine/source"

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

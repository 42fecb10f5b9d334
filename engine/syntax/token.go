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
)

// Token is one lexical token.
type Token struct {
	Kind  TokenKind
	Text  string
	Range source.Range
}

package syntax

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

type diagnostic = diag.Diagnostic

// lexAll lexes src, reporting into the returned list.
func lexAll(src string) ([]Token, []string) {
	var errs []string
	lx := newLexer(src, func(d diagnostic) { errs = append(errs, d.Code+" "+d.Message) })
	var toks []Token
	for {
		t := lx.next()
		if t.Kind == EOF {
			return toks, errs
		}
		toks = append(toks, t)
	}
}

func TestLexTokens(t *testing.T) {
	type tok struct {
		kind        TokenKind
		text, value string
		suffix      string
	}
	tests := []struct {
		src  string
		want []tok
	}{
		{"3u64", []tok{{Int, "3u64", "3", "u64"}}},
		{"1_000usize", []tok{{Int, "1_000usize", "1000", "usize"}}},
		{"0x1F 0b101 0o17 0xFFu8", []tok{{Int, "0x1F", "0x1F", ""}, {Int, "0b101", "0b101", ""}, {Int, "0o17", "0o17", ""}, {Int, "0xFFu8", "0xFF", "u8"}}},
		{"1. 1.0e-3 2f32 1e5 1.5E+10f64 1e_3", []tok{{Float, "1.", "1.", ""}, {Float, "1.0e-3", "1.0e-3", ""}, {Float, "2f32", "2", "f32"}, {Float, "1e5", "1e5", ""}, {Float, "1.5E+10f64", "1.5E+10", "f64"}, {Float, "1e_3", "1e3", ""}}},
		{"t.0.1", []tok{{Ident, "t", "", ""}, {Punct, ".", "", ""}, {Int, "0", "0", ""}, {Punct, ".", "", ""}, {Int, "1", "1", ""}}},
		{"1..2 1.max", []tok{{Int, "1", "1", ""}, {Punct, "..", "", ""}, {Int, "2", "2", ""}, {Int, "1", "1", ""}, {Punct, ".", "", ""}, {Ident, "max", "", ""}}},
		{`"a\nb\t\"\\\0"`, []tok{{String, `"a\nb\t\"\\\0"`, "a\nb\t\"\\\x00", ""}}},
		{`"\u{1F600}\x41\u{e9}"`, []tok{{String, `"\u{1F600}\x41\u{e9}"`, "😀Aé", ""}}},
		{"\"line\\\n      cont\"", []tok{{String, "\"line\\\n      cont\"", "linecont", ""}}},
		{`r#"raw "quoted""#`, []tok{{String, `r#"raw "quoted""#`, `raw "quoted"`, ""}}},
		{`r"x\n"`, []tok{{String, `r"x\n"`, `x\n`, ""}}},
		{`b"by\xfftes" br"raw"`, []tok{{ByteString, `b"by\xfftes"`, "by\xfftes", ""}, {ByteString, `br"raw"`, "raw", ""}}},
		{`b'a' b'\n'`, []tok{{Byte, "b'a'", "a", ""}, {Byte, `b'\n'`, "\n", ""}}},
		{`'x' '\'' '\u{e9}' 'é'`, []tok{{Char, "'x'", "x", ""}, {Char, `'\''`, "'", ""}, {Char, `'\u{e9}'`, "é", ""}, {Char, "'é'", "é", ""}}},
		{"'a 'static '_", []tok{{Lifetime, "'a", "", ""}, {Lifetime, "'static", "", ""}, {Lifetime, "'_", "", ""}}},
		{"r#type r#fn raw", []tok{{Ident, "type", "", ""}, {Ident, "fn", "", ""}, {Ident, "raw", "", ""}}},
		{"let union Self self _ größe", []tok{{Keyword, "let", "", ""}, {Ident, "union", "", ""}, {Keyword, "Self", "", ""}, {Keyword, "self", "", ""}, {Ident, "_", "", ""}, {Ident, "größe", "", ""}}},
		{"..= ... >>= :: -> => <<", []tok{{Punct, "..=", "", ""}, {Punct, "...", "", ""}, {Punct, ">>=", "", ""}, {Punct, "::", "", ""}, {Punct, "->", "", ""}, {Punct, "=>", "", ""}, {Punct, "<<", "", ""}}},
		{"a /* b /* nested */ c */ d // e\n f", []tok{{Ident, "a", "", ""}, {Ident, "d", "", ""}, {Ident, "f", "", ""}}},
		{"/// doc\n//! inner doc\n/** block doc */ x", []tok{{Ident, "x", "", ""}}},
		{"#!/usr/bin/env run-cargo-script\nx", []tok{{Ident, "x", "", ""}}},
		{"\uFEFF#!/bin/x\ny", []tok{{Ident, "y", "", ""}}},
		{"\uFEFFz", []tok{{Ident, "z", "", ""}}},
		{"#![allow(x)]", []tok{{Punct, "#", "", ""}, {Punct, "!", "", ""}, {Punct, "[", "", ""}, {Ident, "allow", "", ""}, {Punct, "(", "", ""}, {Ident, "x", "", ""}, {Punct, ")", "", ""}, {Punct, "]", "", ""}}},
		{"a\u2028b\u0085c", []tok{{Ident, "a", "", ""}, {Ident, "b", "", ""}, {Ident, "c", "", ""}}},
	}
	for _, tt := range tests {
		toks, errs := lexAll(tt.src)
		if len(errs) > 0 {
			t.Errorf("%q: unexpected errors %v", tt.src, errs)
		}
		if len(toks) != len(tt.want) {
			t.Errorf("%q: got %d tokens %v, want %d", tt.src, len(toks), toks, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			g := toks[i]
			if g.Kind != w.kind || g.Text != w.text || g.Value != w.value || g.Suffix != w.suffix {
				t.Errorf("%q token %d: got {%v %q %q %q}, want {%v %q %q %q}", tt.src, i, g.Kind, g.Text, g.Value, g.Suffix, w.kind, w.text, w.value, w.suffix)
			}
			if g.Kind != Ident && g.Kind != Lifetime && tt.src[g.Range.Start:g.Range.End] != g.Text {
				t.Errorf("%q token %d: range %v covers %q, not its text %q", tt.src, i, g.Range, tt.src[g.Range.Start:g.Range.End], g.Text)
			}
		}
	}
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		src, code, msg string
		r              source.Range
	}{
		{`x = "abc`, CodeUnterminatedString, "unterminated double quote string", source.Range{Start: 4, End: 5}},
		{`b"abc`, CodeUnterminatedString, "unterminated double quote byte string", source.Range{Start: 0, End: 2}},
		{`r#"abc"`, CodeUnterminatedString, "unterminated raw string", source.Range{Start: 0, End: 3}},
		{"/* abc", CodeUnterminatedComment, "unterminated block comment", source.Range{Start: 0, End: 2}},
		{"a /* b /* c */", CodeUnterminatedComment, "unterminated block comment", source.Range{Start: 2, End: 4}},
		{"'1", CodeUnterminatedString, "unterminated character literal", source.Range{Start: 0, End: 2}},
		{"''", CodeSyntaxError, "empty character literal", source.Range{Start: 0, End: 2}},
		{"'ab'", CodeSyntaxError, "character literal may only contain one codepoint", source.Range{Start: 0, End: 4}},
		{"'\t'", CodeSyntaxError, "character constant must be escaped: `\\t`", source.Range{Start: 1, End: 2}},
		{`"\q"`, CodeSyntaxError, "unknown character escape: `q`", source.Range{Start: 1, End: 3}},
		{`"\x80"`, CodeSyntaxError, "out of range hex escape", source.Range{Start: 1, End: 5}},
		{`"\x4"`, CodeSyntaxError, "numeric character escape is too short", source.Range{Start: 1, End: 4}},
		{`"\u{110000}"`, CodeSyntaxError, "invalid unicode character escape", source.Range{Start: 1, End: 11}},
		{`"\u{d800}"`, CodeSyntaxError, "invalid unicode character escape", source.Range{Start: 1, End: 9}},
		{`"\u1234"`, CodeSyntaxError, "incorrect unicode escape sequence", source.Range{Start: 1, End: 3}},
		{`b"\u{41}"`, CodeSyntaxError, "unicode escape in byte string", source.Range{Start: 2, End: 8}},
		{`b"é"`, CodeSyntaxError, "non-ASCII character in byte string literal", source.Range{Start: 2, End: 4}},
		{"0b102", CodeSyntaxError, "invalid digit for a base 2 literal", source.Range{Start: 4, End: 5}},
		{"0x", CodeSyntaxError, "no valid digits found for number", source.Range{Start: 0, End: 2}},
		{"1foo", CodeSyntaxError, "invalid suffix `foo` for number literal", source.Range{Start: 1, End: 4}},
		{"1.0u8", CodeSyntaxError, "invalid suffix `u8` for float literal", source.Range{Start: 3, End: 5}},
		{`"a"x`, CodeSyntaxError, "suffixes on string literals are invalid", source.Range{Start: 3, End: 4}},
		{"\"a\rb\"", CodeSyntaxError, "bare CR not allowed in string, use `\\r` instead", source.Range{Start: 2, End: 3}},
		{"a\xffb", CodeInvalidUTF8, "stream did not contain valid UTF-8: invalid byte 0xFF", source.Range{Start: 1, End: 2}},
		{"\xff\xfe\xfd", CodeInvalidUTF8, "stream did not contain valid UTF-8: invalid byte 0xFF", source.Range{Start: 0, End: 3}},
		{"// \xc0\n", CodeInvalidUTF8, "stream did not contain valid UTF-8: invalid byte 0xC0", source.Range{Start: 3, End: 4}},
		{"\"\xe0\"", CodeInvalidUTF8, "stream did not contain valid UTF-8: invalid byte 0xE0", source.Range{Start: 1, End: 2}},
		{"a \x00", CodeSyntaxError, "unknown start of token: \\u{0}", source.Range{Start: 2, End: 3}},
		{"😀", CodeSyntaxError, "unknown start of token: 😀", source.Range{Start: 0, End: 4}},
		{"a\u00a0b", CodeSyntaxError, "unknown start of token: \u00a0", source.Range{Start: 1, End: 3}},
	}
	for _, tt := range tests {
		var got []diagnostic
		lx := newLexer(tt.src, func(d diagnostic) { got = append(got, d) })
		for lx.next().Kind != EOF {
		}
		if len(got) != 1 {
			t.Errorf("%q: want 1 diagnostic, got %d: %+v", tt.src, len(got), got)
			continue
		}
		d := got[0]
		if d.Code != tt.code || d.Message != tt.msg || d.Range != tt.r {
			t.Errorf("%q: got %s %q %v, want %s %q %v", tt.src, d.Code, d.Message, d.Range, tt.code, tt.msg, tt.r)
		}
	}
}

func TestDelimiterErrors(t *testing.T) {
	tests := []struct {
		src   string
		msgs  []string
		start []int
	}{
		{"foo(a];", []string{"mismatched closing delimiter: `]`"}, []int{5}},
		{"fn main() {\n    let x = 1;\n", []string{"unclosed delimiter"}, []int{10}},
		{"a)", []string{"unexpected closing delimiter: `)`"}, []int{1}},
		{"{ ( }", []string{"mismatched closing delimiter: `}`"}, []int{4}},
		{"fn f() { g(]; }", []string{"mismatched closing delimiter: `]`"}, []int{11}},
		{"([{", []string{"unclosed delimiter", "unclosed delimiter", "unclosed delimiter"}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		f, diags := Parse(tt.src)
		if len(f.Items)+len(f.Stmts) != 0 {
			t.Errorf("%q: unbalanced delimiters should leave the file empty, got %s", tt.src, f)
		}
		if len(diags) != len(tt.msgs) {
			t.Errorf("%q: got %d diagnostics %+v, want %v", tt.src, len(diags), diags, tt.msgs)
			continue
		}
		for i, d := range diags {
			if d.Message != tt.msgs[i] || d.Range.Start != tt.start[i] || d.Code != CodeSyntaxError {
				t.Errorf("%q: diagnostic %d is %s %q at %d, want %q at %d", tt.src, i, d.Code, d.Message, d.Range.Start, tt.msgs[i], tt.start[i])
			}
		}
	}
	// The mismatch names the delimiter it leaves open.
	_, diags := Parse("foo(a];")
	if len(diags[0].Labels) != 2 || diags[0].Labels[0].Range != (source.Range{Start: 3, End: 4}) || diags[0].Labels[0].Message != "unclosed delimiter" {
		t.Errorf("mismatch labels: %+v", diags[0].Labels)
	}
}

func TestLexEchoesAreNotRepeatedByTheParser(t *testing.T) {
	// The emoji is reported by the lexer; the parser then sees `let x = 1 2;`
	// on the same line and must not add "expected `;`".
	_, diags := Parse("let x = 1 😀 2;\nlet y = 2;")
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Message, "unknown start of token") {
		t.Errorf("got %+v", diags)
	}
	// Everything after an unterminated string is swallowed by it.
	_, diags = Parse("let s = \"abc;\nlet t = 1;\n")
	if len(diags) != 1 || diags[0].Code != CodeUnterminatedString {
		t.Errorf("got %+v", diags)
	}
}

package syntax

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// Diagnostic codes of the parse phase.
const (
	CodeSyntaxError         = "syntax-error"
	CodeUnsupportedSyntax   = "unsupported-syntax"
	CodeInvalidUTF8         = "invalid-utf8"
	CodeUnterminatedString  = "unterminated-string"
	CodeUnterminatedComment = "unterminated-comment"
	CodeNestingTooDeep      = "nesting-too-deep"
)

// Limits that keep Parse fast and its stack shallow on hostile input.
const (
	// MaxNesting is how deep expressions, types, patterns and blocks may
	// nest before Parse reports nesting-too-deep instead of recursing.
	MaxNesting = 256
	// MaxDiagnostics caps the errors of one Parse; it stops at the cap.
	MaxDiagnostics = 50
)

// Every parse diagnostic is built by one of the functions below, so that
// the messages read as a set. Their wording follows rustc's.

func parseError(code string, r source.Range, msg string) diag.Diagnostic {
	return diag.Diagnostic{
		Code:     code,
		Severity: diag.Error,
		Phase:    diag.Parse,
		Message:  msg,
		File:     diag.MainRS,
		Range:    r,
	}
}

func label(r source.Range, msg string) diag.Label {
	return diag.Label{File: diag.MainRS, Range: r, Message: msg}
}

// describeExpected renders a list of expected things the way rustc does:
// "`;`", "one of `)` or `,`", "one of `)`, `,`, or `.`".
func describeExpected(want []string) string {
	switch len(want) {
	case 0:
		return "something else"
	case 1:
		return want[0]
	case 2:
		return "one of " + want[0] + " or " + want[1]
	}
	return "one of " + strings.Join(want[:len(want)-1], ", ") + ", or " + want[len(want)-1]
}

func errExpected(found Token, want ...string) diag.Diagnostic {
	return parseError(CodeSyntaxError, found.Range,
		fmt.Sprintf("expected %s, found %s", describeExpected(want), found))
}

// errUnsupported names valid Rust outside the subset; constructs is a
// plural noun phrase ("`unsafe impl` blocks", "unions").
func errUnsupported(r source.Range, constructs string) diag.Diagnostic {
	d := parseError(CodeUnsupportedSyntax, r, constructs+" are not supported by the playground")
	d.Help = []string{"the playground runs a subset of Rust: the statements, items and macros of Burn user code"}
	return d
}

func errNestingTooDeep(r source.Range) diag.Diagnostic {
	d := parseError(CodeNestingTooDeep, r,
		fmt.Sprintf("nesting exceeds the playground's limit of %d levels", MaxNesting))
	d.Help = []string{"split the deeply nested code into several statements or functions"}
	return d
}

func errInvalidUTF8(r source.Range, b byte) diag.Diagnostic {
	return parseError(CodeInvalidUTF8, r, fmt.Sprintf("stream did not contain valid UTF-8: invalid byte 0x%02X", b))
}

func errUnterminated(r source.Range, what string) diag.Diagnostic {
	code := CodeUnterminatedString
	if what == "block comment" {
		code = CodeUnterminatedComment
	}
	return parseError(code, r, "unterminated "+what)
}

func errUnknownToken(r source.Range, c rune) diag.Diagnostic {
	return parseError(CodeSyntaxError, r, "unknown start of token: "+escapeRune(c))
}

func errLex(r source.Range, msg string) diag.Diagnostic {
	return parseError(CodeSyntaxError, r, msg)
}

func errMismatchedDelimiter(closer, opener Token) diag.Diagnostic {
	d := parseError(CodeSyntaxError, closer.Range, "mismatched closing delimiter: `"+closer.Text+"`")
	d.Labels = []diag.Label{
		label(opener.Range, "unclosed delimiter"),
		label(closer.Range, "mismatched closing delimiter"),
	}
	return d
}

func errUnexpectedCloser(closer Token) diag.Diagnostic {
	d := parseError(CodeSyntaxError, closer.Range, "unexpected closing delimiter: `"+closer.Text+"`")
	d.Labels = []diag.Label{label(closer.Range, "unexpected closing delimiter")}
	return d
}

func errUnclosedDelimiter(opener Token, end int) diag.Diagnostic {
	d := parseError(CodeSyntaxError, opener.Range, "unclosed delimiter")
	d.Labels = []diag.Label{
		label(opener.Range, "unclosed delimiter"),
		label(source.Range{Start: end, End: end}, "the file ends before `"+opener.Text+"` is closed"),
	}
	return d
}

func errChainedComparison(op Token) diag.Diagnostic {
	d := parseError(CodeSyntaxError, op.Range, "comparison operators cannot be chained")
	d.Help = []string{"split the comparison into two and join them with `&&`"}
	return d
}

func errMisplaced(t Token, msg string) diag.Diagnostic {
	return parseError(CodeSyntaxError, t.Range, msg)
}

// escapeRune prints a character the way Rust's escape_debug does for the
// characters that need it.
func escapeRune(c rune) string {
	switch c {
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	}
	if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0xfeff || c == 0x200b {
		return fmt.Sprintf(`\u{%x}`, c)
	}
	return string(c)
}

// errMissingSemi offers the fix rustc suggests: a `;` after the statement.
func errMissingSemi(found Token, after int) diag.Diagnostic {
	d := errExpected(found, "`;`")
	d.Fixes = []diag.Fix{{
		Title: "add `;` here",
		Edits: []diag.Edit{{File: diag.MainRS, Range: source.Range{Start: after, End: after}, NewText: ";"}},
	}}
	return d
}

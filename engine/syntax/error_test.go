package syntax

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/diag"
)

// Files in testdata/errors carry their expected diagnostics inline, as Go's
// go/parser/error_test.go does:
//
//	let /* ERROR "expected `;`" */ b = 2;
//
// expects a diagnostic whose message matches the regular expression and
// whose range starts at the token just before the comment.
// `/* ERROR HERE "rx" */` expects it at the token just after the comment
// instead, and a kebab-case word before the pattern (`/* ERROR
// unsupported-syntax "rx" */`) also pins the code (default syntax-error).
// Every diagnostic must be expected.
var errorMarker = regexp.MustCompile(`/\* ERROR (HERE )?([a-z0-9-]+ )?"((?:[^"\\]|\\.)*)" \*/`)

type expectedError struct {
	offset int
	code   string
	rx     *regexp.Regexp
	line   int
}

func expectedErrors(t *testing.T, src string) []expectedError {
	t.Helper()
	tokens := allTokens(src)
	var want []expectedError
	for _, m := range errorMarker.FindAllStringSubmatchIndex(src, -1) {
		start, end := m[0], m[1]
		here := m[2] >= 0
		code := CodeSyntaxError
		if m[4] >= 0 {
			code = strings.TrimSpace(src[m[4]:m[5]])
		}
		rx, err := regexp.Compile(strings.ReplaceAll(src[m[6]:m[7]], `\"`, `"`))
		if err != nil {
			t.Fatalf("bad ERROR pattern at offset %d: %v", start, err)
		}
		offset := -1
		if here {
			for _, tok := range tokens {
				if tok.Range.Start >= end {
					offset = tok.Range.Start
					break
				}
			}
		} else {
			for _, tok := range tokens {
				if tok.Range.End <= start {
					offset = tok.Range.Start
				}
			}
		}
		if offset < 0 {
			t.Fatalf("ERROR comment at offset %d has no token beside it", start)
		}
		want = append(want, expectedError{offset: offset, code: code, rx: rx, line: strings.Count(src[:start], "\n") + 1})
	}
	return want
}

// allTokens lexes src silently, EOF included.
func allTokens(src string) []Token {
	lx := newLexer(src, nil)
	var tokens []Token
	for {
		t := lx.next()
		tokens = append(tokens, t)
		if t.Kind == EOF {
			return tokens
		}
	}
}

func TestErrorMarkers(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.rs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no error test files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			want := expectedErrors(t, src)
			f, diags := Parse(src)
			checkRanges(t, src, f)
			matched := make([]bool, len(diags))
			for _, w := range want {
				found := false
				for i, d := range diags {
					if !matched[i] && d.Range.Start == w.offset && d.Code == w.code && w.rx.MatchString(d.Message) {
						matched[i], found = true, true
						break
					}
				}
				if !found {
					t.Errorf("line %d: missing %s %q at offset %d; got:%s", w.line, w.code, w.rx, w.offset, describeDiags(src, diags))
				}
			}
			for i, d := range diags {
				checkDiagShape(t, src, d)
				if !matched[i] {
					t.Errorf("line %d: unexpected %s %q", lineOf(src, d.Range.Start), d.Code, d.Message)
				}
			}
		})
	}
}

// checkDiagShape asserts what every parse diagnostic promises.
func checkDiagShape(t *testing.T, src string, d diag.Diagnostic) {
	t.Helper()
	if d.Phase != diag.Parse || d.File != diag.MainRS || d.Severity != diag.Error {
		t.Errorf("diagnostic %q has phase %q, file %q, severity %q", d.Message, d.Phase, d.File, d.Severity)
	}
	if d.Range.Start < 0 || d.Range.End > len(src) || d.Range.Start > d.Range.End {
		t.Errorf("diagnostic %q has range %v outside [0, %d]", d.Message, d.Range, len(src))
	}
	if d.Message == "" || d.Code == "" {
		t.Errorf("diagnostic without message or code: %+v", d)
	}
}

func lineOf(src string, offset int) int {
	if offset > len(src) {
		offset = len(src)
	}
	return strings.Count(src[:offset], "\n") + 1
}

func describeDiags(src string, diags diag.List) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString("\n\tline " + strconv.Itoa(lineOf(src, d.Range.Start)) + " offset " + strconv.Itoa(d.Range.Start) + ": " + d.Code + " " + d.Message)
	}
	return b.String()
}

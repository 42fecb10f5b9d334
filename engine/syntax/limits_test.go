package syntax

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// These tests bound the parser's work without reading a clock: runaway
// recursion would overflow the stack or hit the test binary's timeout,
// and quadratic work shows in the allocation counts that
// TestManyStatementsParseInLinearTime compares.

func TestDeepNestingIsReportedNotRecursed(t *testing.T) {
	const n = 10000
	tests := map[string]string{
		"parens":    "let x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";",
		"brackets":  "let x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + ";",
		"blocks":    "fn main() " + strings.Repeat("{", n) + strings.Repeat("}", n),
		"unary":     "let x = " + strings.Repeat("-", n) + "1;",
		"refs":      "let x = " + strings.Repeat("&&", n) + "y;",
		"closures":  "let f = " + strings.Repeat("|x| ", n) + "x;",
		"assign":    strings.Repeat("a = ", n) + "b;",
		"returns":   strings.Repeat("return ", n) + ";",
		"else-if":   "if a {}" + strings.Repeat(" else if a {}", n),
		"types":     "let x: " + strings.Repeat("Vec<", n) + "u8" + strings.Repeat(">", n) + " = y;",
		"ref types": "let x: " + strings.Repeat("&", n) + "u8 = y;",
		"patterns":  "let " + strings.Repeat("(", n) + "x" + strings.Repeat(")", n) + " = y;",
		"modules":   strings.Repeat("mod m { ", n) + strings.Repeat("}", n),
		"generics":  "let x = f::<" + strings.Repeat("Vec<", n) + "u8" + strings.Repeat(">", n) + ">();",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			src += "\nlet after = 1;"
			f, diags := Parse(src)
			deep := 0
			for _, d := range diags {
				if d.Code == CodeNestingTooDeep {
					deep++
				}
			}
			if deep != 1 {
				t.Fatalf("want one nesting-too-deep diagnostic, got %d of %d: %v", deep, len(diags), diags)
			}
			// The parser recovers after the deep construct.
			last := f.Stmts[len(f.Stmts)-1]
			if let, ok := last.(*LetStmt); !ok || let.Pat.(*IdentPat).Name != "after" {
				t.Errorf("the statement after the deep one was lost; last is %s", Dump(last, false))
			}
			checkRanges(t, src, f)
		})
	}
}

func TestNestingJustUnderTheLimitParses(t *testing.T) {
	// Each parenthesis costs one level; the statement and the `let` take a
	// few more.
	n := MaxNesting - 8
	src := "let x = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";"
	if _, diags := Parse(src); len(diags) != 0 {
		t.Fatalf("%d nested parentheses: %v", n, diags)
	}
}

func TestRandomBytesGiveBoundedDiagnostics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	_, diags := Parse(string(buf))
	if len(diags) == 0 || len(diags) > MaxDiagnostics {
		t.Errorf("got %d diagnostics, want between 1 and %d", len(diags), MaxDiagnostics)
	}
}

func TestRandomTokensGiveBoundedDiagnostics(t *testing.T) {
	// Random but lexically valid input, with balanced delimiters, reaches
	// the parser proper.
	words := []string{"let", "x", "=", "+", "1", "fn", "if", "match", "=>", ",", ";", "()", "[]", "{}", "|", ".", "::", "<", ">", "as", "&", "'a", "\"s\"", "!", "?", "..", "#", "impl", "for", "while", "mut"}
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	src := b.String()
	f, diags := Parse(src)
	if len(diags) == 0 || len(diags) > MaxDiagnostics {
		t.Errorf("got %d diagnostics, want between 1 and %d", len(diags), MaxDiagnostics)
	}
	checkRanges(t, src, f)
}

func TestDiagnosticsAreCapped(t *testing.T) {
	src := strings.Repeat("let = 1;\n", 500)
	_, diags := Parse(src)
	if len(diags) != MaxDiagnostics {
		t.Errorf("got %d diagnostics, want the cap %d", len(diags), MaxDiagnostics)
	}
}

func TestManyStatementsParseInLinearTime(t *testing.T) {
	stmts := func(n int) string {
		return strings.Repeat("let x = a.b(1) + [2, 3][0];\n", n)
	}
	allocs := func(src string) float64 {
		f, diags := Parse(src)
		if len(diags) != 0 || len(f.Stmts) == 0 {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
		return testing.AllocsPerRun(2, func() { Parse(src) })
	}
	small, large := allocs(stmts(10000)), allocs(stmts(100000))
	// Ten times the input may allocate about ten times as much; a
	// quadratic parser would allocate far more.
	if large > 12*small {
		t.Errorf("10^4 statements: %.0f allocations, 10^5 statements: %.0f: not linear", small, large)
	}
	if testing.Short() {
		return
	}
	const million = 1000000
	f, diags := Parse(strings.Repeat("x;\n", million))
	if len(diags) != 0 || len(f.Stmts) != million {
		t.Errorf("10^6 statements: %d statements, %d diagnostics", len(f.Stmts), len(diags))
	}
}

package syntax

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// parseWithin parses src and fails when it takes longer than limit, a
// generous bound meant to catch runaway recursion or quadratic work rather
// than to benchmark.
func parseWithin(t *testing.T, src string, limit time.Duration) (*File, []diagnostic) {
	t.Helper()
	start := time.Now()
	f, diags := Parse(src)
	if elapsed := time.Since(start); elapsed > limit {
		t.Errorf("parsing %d bytes took %v, more than %v", len(src), elapsed, limit)
	}
	return f, diags
}

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
			f, diags := parseWithin(t, src, 2*time.Second)
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

func TestRandomBytesReturnQuickly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	_, diags := parseWithin(t, string(buf), 2*time.Second)
	if len(diags) == 0 || len(diags) > MaxDiagnostics {
		t.Errorf("got %d diagnostics, want between 1 and %d", len(diags), MaxDiagnostics)
	}
}

func TestRandomTokensReturnQuickly(t *testing.T) {
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
	f, diags := parseWithin(t, src, 2*time.Second)
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
	best := func(src string) time.Duration {
		min := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			f, diags := Parse(src)
			if d := time.Since(start); d < min {
				min = d
			}
			if len(diags) != 0 || len(f.Stmts) == 0 {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
		}
		return min
	}
	small, large := best(stmts(10000)), best(stmts(100000))
	// Ten times the input may take ten times as long; a quadratic parser
	// would take a hundred times. Leave room for a noisy machine.
	if large > 30*small {
		t.Errorf("10^4 statements: %v, 10^5 statements: %v: not linear", small, large)
	}
	if testing.Short() {
		return
	}
	const million = 1000000
	f, diags := parseWithin(t, strings.Repeat("x;\n", million), 20*time.Second)
	if len(diags) != 0 || len(f.Stmts) != million {
		t.Errorf("10^6 statements: %d statements, %d diagnostics", len(f.Stmts), len(diags))
	}
}

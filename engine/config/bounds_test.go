package config

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/dispatch-playground/playground/engine/diag"
)

// nestingCases are manifests nested past MaxNesting in each way TOML
// nests, with the offset of the bracket or dot that crosses the limit.
var nestingCases = []struct {
	name, text string
	at         int
}{
	// The 65th `{`: "a = " and 64 times "{b=" before it.
	{"15,000 inline tables", "a = " + strings.Repeat("{b=", 15000) + "1" + strings.Repeat("}", 15000) + "\n", 4 + 64*3},
	{"30,000 arrays", "a = " + strings.Repeat("[", 30000) + strings.Repeat("]", 30000) + "\n", 4 + 64},
	{"unclosed arrays", "a = " + strings.Repeat("[", 30000), 4 + 64},
	// The 65th dot: the 65th part of the key names a table at level 65.
	{"a dotted key of 20,001 parts", "a" + strings.Repeat(".a", 20000) + " = 1\n", 1 + 64*2},
	// The 64th dot announces a header's 65th part.
	{"a header of 20,001 parts", "[a" + strings.Repeat(".a", 20000) + "]\n", 2 + 63*2},
	// [a.b] is at level 2, the key's 63 parts name tables down to level
	// 64, and its array is at 65.
	{"a header, a key and an array", "[a.b]\nc" + strings.Repeat(".c", 62) + " = [1]\n", 6 + 1 + 62*2 + 3},
	{"arrays of inline tables", "x = " + strings.Repeat("[{y=", 40) + "1" + strings.Repeat("}]", 40) + "\n", 4 + 32*4},
}

func TestNestingBound(t *testing.T) {
	for _, tt := range nestingCases {
		t.Run(tt.name, func(t *testing.T) {
			c, diags := Parse(tt.text)
			if len(diags) != 1 {
				t.Fatalf("%d diagnostics, want 1: %+v", len(diags), diags)
			}
			d := diags[0]
			if d.Code != CodeNestingTooDeep || d.Severity != diag.Error || d.Phase != diag.Config || d.File != diag.CargoToml {
				t.Fatalf("got %s %s %s %s: %s", d.Code, d.Severity, d.Phase, d.File, d.Message)
			}
			if want := fmt.Sprintf("nesting exceeds the playground's limit of %d levels", MaxNesting); d.Message != want {
				t.Errorf("message %q, want %q", d.Message, want)
			}
			if d.Range.Start != tt.at || d.Range.End != tt.at+1 {
				t.Errorf("span %v (%q), want the byte at %d (%q)", d.Range, tt.text[d.Range.Start:d.Range.End], tt.at, tt.text[tt.at:tt.at+1])
			}
			if !c.Dispatch.Features["burn/default"] || c.BurnDeclared {
				t.Error("the config of a manifest nested too deep is not the default one")
			}
			checkInvariants(t, tt.name, tt.text, c, diags)
		})
	}
}

// TestNestingBoundComesFirst: the bound is checked before go-toml reads
// the text, so a manifest past it costs a scan, not the parser's recursion:
// on 15,000 inline tables go-toml allocated 5 MB and grew the stack to
// 8 MB before it stopped at its own limit of 10,000 levels.
func TestNestingBoundComesFirst(t *testing.T) {
	for _, tt := range nestingCases[:2] {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		Parse(tt.text)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: Parse allocated %d KiB", tt.name, n>>10)
		}
	}
}

// TestNestingAtTheLimit: MaxNesting levels are read, one more is not.
func TestNestingAtTheLimit(t *testing.T) {
	forms := map[string]func(levels int) string{
		"arrays": func(n int) string { return "a = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" },
		"inline tables": func(n int) string {
			return "a = " + strings.Repeat("{b=", n-1) + "{}" + strings.Repeat("}", n-1) + "\n"
		},
		"dotted key":   func(n int) string { return "a" + strings.Repeat(".a", n-1) + ".z = 1\n" },
		"header":       func(n int) string { return "[a" + strings.Repeat(".a", n-1) + "]\n" },
		"header + key": func(n int) string { return "[a.b]\n" + "k" + strings.Repeat(".k", n-3) + ".z = 1\n" },
		"header + key + arrays": func(n int) string {
			return "[a]\nk.k = " + strings.Repeat("[", n-2) + strings.Repeat("]", n-2) + "\n"
		},
	}
	for name, form := range forms {
		if _, diags := Parse(form(MaxNesting)); diags.HasErrors() || hasCode(diags, CodeNestingTooDeep) {
			t.Errorf("%s, %d levels: %+v", name, MaxNesting, diags)
		}
		if _, diags := Parse(form(MaxNesting + 1)); len(diags) != 1 || diags[0].Code != CodeNestingTooDeep {
			t.Errorf("%s, %d levels: %+v, want %s", name, MaxNesting+1, diags, CodeNestingTooDeep)
		}
	}
}

// TestNestingIgnoresStringsAndComments: brackets and dots in strings,
// quoted keys and comments are text, not levels.
func TestNestingIgnoresStringsAndComments(t *testing.T) {
	deep := strings.Repeat("[{.", 1000)
	for name, text := range map[string]string{
		"basic string":       "a = \"" + deep + "\\\"" + deep + "\"\n",
		"literal string":     "a = '" + deep + "\\'\nb = 1\n",
		"multi-line basic":   "a = \"\"\"\n" + deep + "\\\"\"\"" + deep + "\n\"\"\"\"\"\n",
		"multi-line literal": "a = '''" + deep + "\n''" + deep + "'''''\n",
		"quoted key":         "\"" + deep + "\".'" + deep + "' = 1\n",
		"quoted header":      "[\"" + deep + "\"]\n",
		"comment":            "# " + deep + "\na = [ # " + deep + "\n 1, # " + deep + "\n]\n",
		"floats and dates":   "a = [" + strings.Repeat("1.5, 1979-05-27T07:32:00.999Z, ", 500) + "]\n",
	} {
		_, diags := Parse(text)
		if diags.HasErrors() || hasCode(diags, CodeNestingTooDeep) {
			t.Errorf("%s: %+v", name, diags)
		}
	}
}

// TestNestingMatchesTheParser compares tooDeep with the levels of the
// documents go-toml's parser reads, on random documents nested around the
// limit, full of strings, comments and keys that hold brackets and dots.
func TestNestingMatchesTheParser(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	parsed, deep := 0, 0
	for i := range 3000 {
		g := &tomlGenerator{rng: rng, target: MaxNesting - 6 + rng.Intn(12)}
		text := g.document()
		levels, ok := parserLevels(text)
		if !ok {
			continue
		}
		parsed++
		_, flagged := tooDeep(text)
		if want := levels > MaxNesting; flagged != want {
			t.Fatalf("document %d, %d levels: tooDeep says %v\n%s", i, levels, flagged, text)
		}
		if flagged {
			deep++
		}
	}
	t.Logf("%d documents parsed, %d of them past the limit", parsed, deep)
	if parsed < 2000 || deep < 300 || parsed-deep < 300 {
		t.Errorf("%d documents parsed, %d past the limit: the generator no longer tests the bound", parsed, deep)
	}
}

// parserLevels is the deepest level of a document, counted on go-toml's
// syntax tree as MaxNesting counts, or false when go-toml's parser refuses
// the text.
func parserLevels(text string) (int, bool) {
	var p unstable.Parser
	p.Reset([]byte(text))
	deepest, section := 0, 0
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			section = countParts(e.Key())
			deepest = max(deepest, section)
		case unstable.KeyValue:
			deepest = max(deepest, keyValueLevels(e, section))
		}
	}
	return deepest, p.Error() == nil
}

func countParts(it unstable.Iterator) int {
	n := 0
	for it.Next() {
		n++
	}
	return n
}

// keyValueLevels: the parts of the key but the last name tables below the
// table at level base; a container value sits one level per part below it.
func keyValueLevels(kv *unstable.Node, base int) int {
	parts := countParts(kv.Key())
	return max(base+parts-1, valueLevels(kv.Value(), base+parts))
}

func valueLevels(v *unstable.Node, level int) int {
	switch v.Kind {
	case unstable.Array:
		deepest := level
		for it := v.Children(); it.Next(); {
			deepest = max(deepest, valueLevels(it.Node(), level+1))
		}
		return deepest
	case unstable.InlineTable:
		deepest := level
		for it := v.Children(); it.Next(); {
			deepest = max(deepest, keyValueLevels(it.Node(), level))
		}
		return deepest
	}
	return 0 // a scalar is no level
}

// tomlGenerator writes random TOML documents whose nesting wanders around
// target.
type tomlGenerator struct {
	rng    *rand.Rand
	target int
	b      strings.Builder
	n      int // keys written, so that none repeats
}

func (g *tomlGenerator) document() string {
	for range 1 + g.rng.Intn(4) {
		if g.rng.Intn(2) == 0 {
			g.b.WriteString(g.header())
		}
		for range 1 + g.rng.Intn(3) {
			g.b.WriteString(g.key(1+g.rng.Intn(4)) + " = ")
			g.value(1 + g.rng.Intn(g.target))
			g.comment()
			g.b.WriteString("\n")
		}
	}
	return g.b.String()
}

func (g *tomlGenerator) header() string {
	open, close := "[", "]"
	if g.rng.Intn(3) == 0 {
		open, close = "[[", "]]"
	}
	parts := 1 + g.rng.Intn(g.target/2)
	if g.rng.Intn(6) == 0 {
		parts = g.target
	}
	return open + g.key(parts) + close + "\n"
}

// key is a key of parts parts, bare or quoted, some holding dots and
// brackets inside their quotes.
func (g *tomlGenerator) key(parts int) string {
	var b strings.Builder
	for i := range parts {
		if i > 0 {
			b.WriteString([]string{".", " . ", "."}[g.rng.Intn(3)])
		}
		g.n++
		switch g.rng.Intn(4) {
		case 0:
			fmt.Fprintf(&b, "\"k.%d[{\"", g.n)
		case 1:
			fmt.Fprintf(&b, "'k.%d]}'", g.n)
		default:
			fmt.Fprintf(&b, "k%d", g.n)
		}
	}
	return b.String()
}

// value writes a value with about depth levels of containers.
func (g *tomlGenerator) value(depth int) {
	if depth <= 0 {
		g.b.WriteString(g.scalar())
		return
	}
	if g.rng.Intn(2) == 0 {
		g.b.WriteString("[")
		for i := range 1 + g.rng.Intn(2) {
			if i > 0 {
				g.b.WriteString(", ")
			}
			if g.rng.Intn(4) == 0 {
				g.b.WriteString("# a comment [{.\n")
			}
			if i == 0 {
				g.value(depth - 1)
			} else {
				g.b.WriteString(g.scalar())
			}
		}
		g.b.WriteString("]")
		return
	}
	g.b.WriteString("{ ")
	for i := range 1 + g.rng.Intn(2) {
		if i > 0 {
			g.b.WriteString(", ")
		}
		parts := 1 + g.rng.Intn(2)
		g.b.WriteString(g.key(parts) + " = ")
		if i == 0 {
			g.value(depth - parts)
		} else {
			g.b.WriteString(g.scalar())
		}
	}
	g.b.WriteString(" }")
}

func (g *tomlGenerator) scalar() string {
	return []string{
		"1", "1.5", "-3e2", "true", "1979-05-27T07:32:00Z", "07:32:00.5",
		`"[{.\"#"`, `'[{.#'`, "\"\"\"a\n[{\"\".\"\"\"\"", "'''b\n}]''.'''''", `""`, `''`,
	}[g.rng.Intn(12)]
}

func (g *tomlGenerator) comment() {
	if g.rng.Intn(3) == 0 {
		g.b.WriteString(" # ]] {{ a.b.c")
	}
}

func TestTooLargeIsRefusedBeforeTheParser(t *testing.T) {
	text := "[dependencies]\nburn = \"0.22\"\n#" + strings.Repeat("[", MaxBytes)
	c, diags := Parse(text)
	if len(diags) != 1 || diags[0].Code != CodeTooLarge || diags[0].Phase != diag.Config || diags[0].File != diag.CargoToml {
		t.Fatalf("%+v", diags)
	}
	if want := fmt.Sprintf("Cargo.toml is %d bytes; the playground takes at most %d", len(text), MaxBytes); diags[0].Message != want {
		t.Errorf("message %q, want %q", diags[0].Message, want)
	}
	if c.BurnDeclared {
		t.Error("a manifest over the limit was read")
	}
	if _, diags := Parse(text[:MaxBytes]); len(diags) != 0 {
		t.Errorf("a manifest of %d bytes: %+v", MaxBytes, diags)
	}
}

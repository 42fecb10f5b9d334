package engine

// TestCoverage ties Burn's panic table (engine/catalog/panics.tsv) to the
// examples: every row a user can reach (user_reachable starting with "yes")
// needs an example that reproduces it or a line in examples/unreachable.tsv
// saying why no snippet can. It writes the result to examples/COVERAGE.md:
//
//	go test ./engine -run TestCoverage -update-coverage
//
// and fails when the committed file differs from what it would write. The
// flag has its own name because engine_test.go, in package engine_test,
// already declares -update for the examples' want sections.

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/examples"
)

var updateCoverage = flag.Bool("update-coverage", false, "rewrite examples/COVERAGE.md from the panic table, the examples and examples/unreachable.tsv")

const (
	panicTablePath  = "catalog/panics.tsv"
	unreachablePath = "../examples/unreachable.tsv"
	coveragePath    = "../examples/COVERAGE.md"

	// envelopeKind is the kind of the one row that is not a condition but
	// the text every failed TensorCheck is wrapped in (check.rs:1436).
	envelopeKind = "panic (format)"
	// checkKind is the kind of the rows whose text the envelope wraps.
	checkKind = "panic (TensorCheck)"
)

// panicRow is one row of panics.tsv.
type panicRow struct {
	ID, File, Line, Kind, Message, Cfg, Scenario, Reachable string
}

func (r panicRow) userReachable() bool { return strings.HasPrefix(r.Reachable, "yes") }

func readPanicTable(t *testing.T) []panicRow {
	t.Helper()
	data, err := os.ReadFile(panicTablePath)
	if err != nil {
		t.Fatal(err)
	}
	var rows []panicRow
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 {
			if cols[0] != "id" || cols[len(cols)-1] != "user_reachable" {
				t.Fatalf("%s: unexpected header %q", panicTablePath, line)
			}
			continue
		}
		if len(cols) != 8 {
			t.Fatalf("%s:%d: %d columns, want 8", panicTablePath, i+1, len(cols))
		}
		rows = append(rows, panicRow{cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7]})
	}
	return rows
}

// readReasons reads examples/unreachable.tsv: `id<TAB>reason` lines, with
// blank lines and `#` comments allowed.
func readReasons(t *testing.T, byID map[string]panicRow) map[string]string {
	t.Helper()
	file, err := os.Open(unreachablePath)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	reasons := map[string]string{}
	scanner := bufio.NewScanner(file)
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, ok := strings.Cut(line, "\t")
		reason = strings.TrimSpace(reason)
		row, known := byID[id]
		switch {
		case !ok || reason == "":
			t.Errorf("%s:%d: want `id<TAB>reason`, got %q", unreachablePath, n, line)
		case !known:
			t.Errorf("%s:%d: %s is not a row of the panic table", unreachablePath, n, id)
		case !row.userReachable():
			t.Errorf("%s:%d: %s is marked %q, not reachable: it needs no reason", unreachablePath, n, id, row.Reachable)
		case reasons[id] != "":
			t.Errorf("%s:%d: %s has a second reason", unreachablePath, n, id)
		case !strings.HasSuffix(reason, "."):
			t.Errorf("%s:%d: the reason for %s is not one finished sentence", unreachablePath, n, id)
		default:
			reasons[id] = reason
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return reasons
}

// reproduces reports whether a run shows the row: the run panics with it
// (or re-raises it from Burn's device-runner thread) and check reported it
// first, or the program never ran because the config
// or check phase stopped it with that row (a compile-time or config error).
func reproduces(res Result, detail Detail, id string) bool {
	if !slices.Contains(detail.CheckPanicIDs, id) {
		return false
	}
	if detail.RunPanicID == id || slices.Contains(detail.RunCauseIDs, id) {
		return true
	}
	return res.Status == StatusRejected && res.Panic == nil
}

func TestCoverage(t *testing.T) {
	rows := readPanicTable(t)
	byID := map[string]panicRow{}
	for _, r := range rows {
		if _, dup := byID[r.ID]; dup {
			t.Fatalf("%s: duplicate id %s", panicTablePath, r.ID)
		}
		byID[r.ID] = r
	}
	reasons := readReasons(t, byID)

	reproducedBy := map[string][]string{}
	for _, ex := range examples.All() {
		if len(ex.Rows) == 0 {
			continue
		}
		res, detail := runDetailed(Request{Config: ex.Config, Snippet: ex.Snippet})
		for _, id := range ex.Rows {
			row, known := byID[id]
			switch {
			case !known:
				t.Errorf("%s: Rows names %s, which is not a row of the panic table", ex.File(), id)
			case !reproduces(res, detail, id):
				t.Errorf("%s: Rows names %s but the example does not reproduce it: status %s, run panic %q, check ids %v",
					ex.File(), id, res.Status, detail.RunPanicID, detail.CheckPanicIDs)
			default:
				reproducedBy[id] = append(reproducedBy[id], ex.Name)
				if row.Kind == checkKind {
					for _, r := range rows {
						if r.Kind == envelopeKind && !slices.Contains(reproducedBy[r.ID], ex.Name) {
							reproducedBy[r.ID] = append(reproducedBy[r.ID], ex.Name)
						}
					}
				}
			}
		}
	}

	var missing []string
	for _, r := range rows {
		_, reasoned := reasons[r.ID]
		reproduced := len(reproducedBy[r.ID]) > 0
		switch {
		case reproduced && reasoned:
			t.Errorf("%s is reproduced by %v and also has a reason in %s: drop the reason", r.ID, reproducedBy[r.ID], unreachablePath)
		case r.userReachable() && !reproduced && !reasoned:
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d reachable rows have neither a reproducing example nor a reason in %s:\n  %s",
			len(missing), unreachablePath, strings.Join(missing, "\n  "))
	}

	got := coverageReport(rows, reproducedBy, reasons)
	if *updateCoverage {
		if err := os.WriteFile(coveragePath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(coveragePath)
	if err != nil || string(want) != got {
		t.Errorf("%s is not what the table and the examples give (go test ./engine -run TestCoverage -update-coverage rewrites it)", coveragePath)
	}
}

// coverageReport renders examples/COVERAGE.md.
func coverageReport(rows []panicRow, reproducedBy map[string][]string, reasons map[string]string) string {
	reachable, reproduced, reasoned := 0, 0, 0
	for _, r := range rows {
		if !r.userReachable() {
			continue
		}
		reachable++
		if len(reproducedBy[r.ID]) > 0 {
			reproduced++
		} else if reasons[r.ID] != "" {
			reasoned++
		}
	}
	percent := 0.0
	if reachable > 0 {
		percent = 100 * float64(reproduced) / float64(reachable)
	}

	var b strings.Builder
	b.WriteString("# Coverage of Burn's panic table\n\n")
	b.WriteString("Generated by `go test ./engine -run TestCoverage -update-coverage` from `engine/catalog/panics.tsv` ")
	b.WriteString("(Burn at 2c06be35), the `// Rows:` lines of the examples and `examples/unreachable.tsv`. Do not edit it by hand.\n\n")
	b.WriteString("A row is reproduced when an example names it in `// Rows:`, the example's run panics with that row ")
	b.WriteString("and its check phase reported the same row first (for a row the config or check phase raises before ")
	b.WriteString("anything runs, when that phase reports it). The check envelope (`bt-check-format`) is reproduced by ")
	b.WriteString("every example that reproduces a TensorCheck row.\n\n")
	b.WriteString("| rows | count |\n|---|---:|\n")
	fmt.Fprintf(&b, "| in the panic table | %d |\n", len(rows))
	fmt.Fprintf(&b, "| reachable from user code | %d |\n", reachable)
	fmt.Fprintf(&b, "| reproduced by an example | %d (%.1f%%) |\n", reproduced, percent)
	fmt.Fprintf(&b, "| with a reason no snippet reaches them | %d |\n", reasoned)
	fmt.Fprintf(&b, "| with neither | %d |\n\n", reachable-reproduced-reasoned)
	b.WriteString("| id | location | kind | message | reachable | status |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n",
			r.ID, markdownText(location(r)), markdownText(r.Kind), markdownText(truncate(strings.Join(strings.Fields(r.Message), " "), 80)),
			markdownText(r.Reachable), status(r, reproducedBy[r.ID], reasons[r.ID]))
	}
	return b.String()
}

// maxLinks bounds the examples a status cell lists: the envelope row is
// reproduced by every TensorCheck example.
const maxLinks = 3

func status(r panicRow, examples []string, reason string) string {
	switch {
	case len(examples) > 0:
		var links []string
		for _, name := range examples[:min(len(examples), maxLinks)] {
			links = append(links, fmt.Sprintf("[%s](%s.txtar)", name, name))
		}
		if more := len(examples) - maxLinks; more > 0 {
			links = append(links, fmt.Sprintf("and %d more", more))
		}
		return strings.Join(links, ", ")
	case reason != "":
		// Reasons are written for this table: their code spans stay.
		return strings.ReplaceAll(reason, "|", `\|`)
	case r.Reachable == "internal":
		return "internal"
	case !r.userReachable():
		return "not reachable"
	}
	return "**missing**"
}

// location is file:line, with only the first line of a row that lists
// many sites.
func location(r panicRow) string {
	line, rest, many := strings.Cut(r.Line, ",")
	if many && rest != "" {
		line += ",…"
	}
	return r.File + ":" + line
}

func truncate(s string, n int) string {
	runes := []rune(s)
	if len(runes) <= n {
		return s
	}
	return strings.TrimRight(string(runes[:n-1]), " ") + "…"
}

// markdownText escapes what a table cell would otherwise read as markup.
var markdownText = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;",
).Replace

package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTitlesHaveNoPlaceholders holds every record's title to text written
// for people: no "…" standing in for a placeholder, no placeholder itself.
func TestTitlesHaveNoPlaceholders(t *testing.T) {
	for _, r := range All() {
		if strings.Contains(r.Title, "…") || placeholder.MatchString(r.Title) {
			t.Errorf("%s: title %q has a placeholder; give it a row in titles.tsv", r.Code, r.Title)
		}
		if strings.TrimSpace(r.Title) == "" {
			t.Errorf("%s: empty title", r.Code)
		}
	}
}

// TestTitleTable checks titles.tsv row by row: each names a record, once,
// with a short title that is not a sentence ending in a period.
func TestTitleTable(t *testing.T) {
	lines := strings.Split(strings.TrimRight(titleTable, "\n"), "\n")
	if lines[0] != "code\ttitle" {
		t.Fatalf("titles.tsv: header %q, want %q", lines[0], "code\ttitle")
	}
	if len(lines) < 2 {
		t.Fatal("titles.tsv has no rows")
	}
	seen := map[string]int{}
	for n, line := range lines[1:] {
		row := n + 2
		f := strings.Split(line, "\t")
		if len(f) != 2 {
			t.Errorf("titles.tsv:%d: %d fields, want 2", row, len(f))
			continue
		}
		code, title := f[0], f[1]
		if first, dup := seen[code]; dup {
			t.Errorf("titles.tsv:%d: %s is already on line %d", row, code, first)
		}
		seen[code] = row
		if _, ok := ByCode(code); !ok {
			t.Errorf("titles.tsv:%d: no record %q", row, code)
		}
		switch {
		case strings.TrimSpace(title) == "":
			t.Errorf("titles.tsv:%d: %s has an empty title", row, code)
		case title != strings.TrimSpace(title):
			t.Errorf("titles.tsv:%d: %s: title %q has surrounding space", row, code, title)
		case strings.HasSuffix(title, "."):
			t.Errorf("titles.tsv:%d: %s: title %q ends with a period", row, code, title)
		case utf8.RuneCountInString(title) > 90:
			t.Errorf("titles.tsv:%d: %s: title %q is longer than 90 characters", row, code, title)
		case strings.Contains(title, "…") || placeholder.MatchString(title):
			t.Errorf("titles.tsv:%d: %s: title %q has a placeholder", row, code, title)
		}
	}
	if _, err := parseTitles(titleTable); err != nil {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	for code, row := range seen {
		if r, _ := ByCode(code); r.Title != strings.Split(lines[row-1], "\t")[1] {
			t.Errorf("%s: Title %q, not the title of titles.tsv:%d", code, r.Title, row)
		}
	}
}

func TestParseTitlesRejectsBadTables(t *testing.T) {
	for name, table := range map[string]string{
		"no header":  "err\tA title\n",
		"one column": "code\ttitle\nerr\n",
		"empty":      "code\ttitle\nerr\t\n",
		"duplicate":  "code\ttitle\nerr\tOne\nerr\tTwo\n",
	} {
		if _, err := parseTitles(table); err == nil {
			t.Errorf("%s: parseTitles accepted %q", name, table)
		}
	}
}

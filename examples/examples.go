// Package examples holds the playground's example programs, one txtar file
// each, embedded at build time and parsed once.
//
// A file starts with comment lines `// Title: ...`, `// Group: ...` and,
// for an example that reproduces rows of Burn's panic table, `// Rows: ...`;
// `// Entry: tests` makes the golden test run its #[test] functions, as
// `cargo test` does, instead of main (the Request's entry);
// it holds the sections `Cargo.toml` and `main.rs`, the program as a user would
// paste it; `want`, the expected Result excerpt checked by the engine's
// golden test; and, for a program that fails, `fixed/main.rs` (and
// `fixed/Cargo.toml` when the fix is in the config) which must run clean.
package examples

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/txtar"
)

//go:embed *.txtar
var files embed.FS

// Example is one example program.
type Example struct {
	Name  string // file name without .txtar
	Title string
	Group string // "tour", "backends", "autodiff", "remote", "errors", ...
	// Rows lists the ids of Burn's panic table (shared/burn/panics.tsv)
	// that the example reproduces, from its `// Rows:` line.
	Rows []string
	// Entry is the Request's entry its golden test runs, from its
	// `// Entry:` line: empty for main, "tests" for its tests.
	Entry string
	// Config and Snippet are the Cargo.toml and main.rs sections.
	Config  string
	Snippet string
	// Want is the expected Result excerpt, empty if the file has none.
	Want string
	// FixedConfig and FixedSnippet are the repaired program; HasFix
	// reports whether the file has one.
	FixedConfig  string
	FixedSnippet string
	HasFix       bool
}

var load = sync.OnceValues(func() ([]Example, error) {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var all []Example
	for _, e := range entries {
		data, err := files.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		ex, err := Parse(strings.TrimSuffix(e.Name(), ".txtar"), data)
		if err != nil {
			return nil, err
		}
		all = append(all, ex)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all, nil
})

// All returns every example, sorted by name. It panics if an embedded file
// is malformed, which the package's tests rule out.
func All() []Example {
	all, err := load()
	if err != nil {
		panic(err)
	}
	return all
}

// ByName returns the example with the given name.
func ByName(name string) (Example, bool) {
	for _, ex := range All() {
		if ex.Name == name {
			return ex, true
		}
	}
	return Example{}, false
}

// Parse reads one example from txtar data.
func Parse(name string, data []byte) (Example, error) {
	ar := txtar.Parse(data)
	ex := Example{Name: name}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		key, value, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "//"), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Title":
			ex.Title = strings.TrimSpace(value)
		case "Group":
			ex.Group = strings.TrimSpace(value)
		case "Entry":
			ex.Entry = strings.TrimSpace(value)
		case "Rows":
			for _, id := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' }) {
				ex.Rows = append(ex.Rows, id)
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range ar.Files {
		seen[f.Name] = true
		text := string(f.Data)
		switch f.Name {
		case "Cargo.toml":
			ex.Config = text
		case "main.rs":
			ex.Snippet = text
		case "want":
			ex.Want = text
		case "fixed/main.rs":
			ex.FixedSnippet = text
			ex.HasFix = true
		case "fixed/Cargo.toml":
			ex.FixedConfig = text
			ex.HasFix = true
		}
	}
	if ex.Title == "" {
		return ex, fmt.Errorf("%s: missing `// Title:` line", name)
	}
	if !seen["main.rs"] {
		return ex, fmt.Errorf("%s: missing main.rs section", name)
	}
	if ex.HasFix {
		if !seen["fixed/Cargo.toml"] {
			ex.FixedConfig = ex.Config
		}
		if !seen["fixed/main.rs"] {
			ex.FixedSnippet = ex.Snippet
		}
	}
	return ex, nil
}

// File returns the path of the example's source file, relative to the
// repository root, for messages and for -update.
func (ex Example) File() string { return path.Join("examples", ex.Name+".txtar") }

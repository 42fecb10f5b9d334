package syntax

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedDir is the team's reference folder, beside the repository.
const sharedDir = "../../../shared"

// rustBlock is one ```rust fenced block of a markdown file.
type rustBlock struct {
	name string // file, section and ordinal, for test names
	code string
}

// readRustBlocks returns the ```rust blocks of the sections of a markdown
// file in the shared folder whose headings start with one of prefixes
// ("## 11.", "### 1.6").
func readRustBlocks(file string, prefixes ...string) ([]rustBlock, error) {
	data, err := os.ReadFile(filepath.Join(sharedDir, file))
	if err != nil {
		return nil, err
	}
	var blocks []rustBlock
	var section string
	inSection, inCode := false, false
	var code strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case inCode && strings.HasPrefix(line, "```"):
			inCode = false
			blocks = append(blocks, rustBlock{name: file + " " + section + " #" + strconv.Itoa(len(blocks)+1), code: code.String()})
		case inCode:
			code.WriteString(line)
			code.WriteByte('\n')
		case strings.HasPrefix(line, "#"):
			level := len(line) - len(strings.TrimLeft(line, "#"))
			if inSection && level <= 3 || !inSection {
				inSection = false
				for _, p := range prefixes {
					if strings.HasPrefix(line, p) {
						inSection = true
						section = strings.TrimSpace(strings.TrimLeft(line, "#"))
						if i := strings.IndexByte(section, ' '); i > 0 {
							section = section[:i]
						}
					}
				}
			}
		case inSection && strings.HasPrefix(line, "```rust"):
			inCode = true
			code.Reset()
		}
	}
	return blocks, nil
}

// readSpecSnippets reads the snippets the playground must accept: spec.md
// section 11 and extensions.md sections 1.6 and 4.
func readSpecSnippets() ([]rustBlock, error) {
	spec, err := readRustBlocks("burn/spec.md", "## 11.")
	if err != nil {
		return nil, err
	}
	ext, err := readRustBlocks("burn/extensions.md", "### 1.6", "## 4.", "### 4.")
	if err != nil {
		return nil, err
	}
	return append(spec, ext...), nil
}

// specDir holds the repository's copy of those snippets, one file each: its
// first line names the block, the rest is the block.
const specDir = "testdata/spec"

var updateSpec = flag.Bool("update-spec", false, "copy the spec's snippets from ../shared into testdata/spec")

// readSpecCopies reads the snippets kept in testdata/spec.
func readSpecCopies(t *testing.T) []rustBlock {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(specDir, "*.rs"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []rustBlock
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, code, ok := strings.Cut(string(data), "\n")
		if !ok || !strings.HasPrefix(name, "// ") {
			t.Fatalf("%s: the first line must be // and the block's name", f)
		}
		blocks = append(blocks, rustBlock{name: strings.TrimPrefix(name, "// "), code: code})
	}
	return blocks
}

// TestSpecSnippetsAreCurrent compares the copies with the shared reference
// when it stands beside the repository (-update-spec rewrites them).
func TestSpecSnippetsAreCurrent(t *testing.T) {
	blocks, err := readSpecSnippets()
	if err != nil {
		t.Skipf("the shared reference is not beside the repository, so the copies in %s are not compared: %v", specDir, err)
	}
	if *updateSpec {
		old, _ := filepath.Glob(filepath.Join(specDir, "*.rs"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(specDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, b := range blocks {
			path := filepath.Join(specDir, fmt.Sprintf("%03d.rs", i+1))
			if err := os.WriteFile(path, []byte("// "+b.name+"\n"+b.code), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	copies := readSpecCopies(t)
	if len(copies) != len(blocks) {
		t.Fatalf("%s has %d snippets, the shared reference %d; run with -update-spec", specDir, len(copies), len(blocks))
	}
	for i := range blocks {
		if copies[i] != blocks[i] {
			t.Errorf("%s/%03d.rs differs from %s; run with -update-spec", specDir, i+1, blocks[i].name)
		}
	}
}

func TestSpecSnippetsParse(t *testing.T) {
	blocks := readSpecCopies(t)
	if len(blocks) < 20 {
		t.Fatalf("found only %d rust blocks in %s", len(blocks), specDir)
	}
	for _, b := range blocks {
		t.Run(b.name, func(t *testing.T) {
			f, diags := Parse(b.code)
			for _, d := range diags {
				t.Errorf("%s at %d..%d (%q): %s", d.Code, d.Range.Start, d.Range.End, slice(b.code, d.Range.Start, d.Range.End), d.Message)
			}
			if len(f.Items)+len(f.Stmts) == 0 {
				t.Errorf("parsed to an empty file:\n%s", b.code)
			}
			checkRanges(t, b.code, f)
		})
	}
}

func slice(s string, start, end int) string {
	if start < 0 || end > len(s) || start > end {
		return "<out of range>"
	}
	return s[start:end]
}

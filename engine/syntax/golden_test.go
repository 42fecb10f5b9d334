package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/parse")

// TestGolden parses each testdata/parse/*.rs and compares the dump of its
// tree and its diagnostics with the .golden file beside it. Run with
// -update to rewrite the golden files after an intended change.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*.rs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f, diags := Parse(src)
			checkRanges(t, src, f)
			var b strings.Builder
			b.WriteString(f.String())
			b.WriteString("\n")
			for _, d := range diags {
				b.WriteString("-- " + d.Code + " line " + strconv.Itoa(lineOf(src, d.Range.Start)) + ": " + d.Message + "\n")
			}
			got := b.String()
			golden := strings.TrimSuffix(file, ".rs") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("dump differs from %s (run with -update if intended):\n%s", golden, got)
			}
		})
	}
}

// BenchmarkParse parses the golden inputs, typical snippets of a few dozen
// lines each.
func BenchmarkParse(b *testing.B) {
	files, _ := filepath.Glob("testdata/parse/*.rs")
	var srcs []string
	size := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, string(data))
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Parse(src)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

func TestTestPrintsCargosReport(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "three-tests.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "test", filepath.Join("testdata", "three-tests.txtar"))
	if code != exitFailed || out != string(want) || errOut != "" {
		t.Fatalf("exit %d (want %d), stderr %q\n--- got\n%s--- want (cargo test)\n%s", code, exitFailed, errOut, out, want)
	}
}

func TestTestJSONIsTheResult(t *testing.T) {
	path := filepath.Join("testdata", "three-tests.txtar")
	req, err := readProgram(path, "")
	if err != nil {
		t.Fatal(err)
	}
	req.Entry = engine.EntryTests
	want, _ := abi.HandleRequest(req)
	code, out, _ := cli(t, "test", path, "--json")
	if code != exitFailed || out != string(want)+"\n" || !strings.Contains(out, `"tests":[{"name":"tests::adds","status":"ok"`) {
		t.Fatalf("exit %d\ngot  %s\nwant %s", code, out, want)
	}
}

// writeCrate writes a crate folder with the given files.
func writeCrate(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestTestCrateFolder(t *testing.T) {
	const toml = "[package]\nname = \"c\"\nversion = \"0.1.0\"\n"
	passing := "#[test]\nfn one() { assert_eq!(1 + 1, 2); }\n"
	report := func(name string) string {
		return "\nrunning 1 test\ntest " + name + " ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
	}
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"lib.rs": {map[string]string{"Cargo.toml": toml, "src/lib.rs": passing}, report("one")},
		// cargo test runs the library's harness, then the binary's, then
		// each integration test's.
		"main.rs": {map[string]string{"Cargo.toml": toml, "src/main.rs": "fn main() {}\n" + passing, "src/lib.rs": "#[test]\nfn other() {}\n"},
			report("other") + report("one")},
		"tests": {map[string]string{"Cargo.toml": toml, "src/lib.rs": "pub fn two() -> i32 { 2 }\n", "tests/b.rs": "#[test]\nfn later() {}\n",
			"tests/a.rs": "#[test]\nfn uses_the_lib() { assert_eq!(c::two(), 2); }\n"},
			"\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n" + report("uses_the_lib") + report("later")},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := cli(t, "test", writeCrate(t, c.files))
			if code != exitOK || out != c.want {
				t.Fatalf("exit %d, stderr %q, stdout %q, want %q", code, errOut, out, c.want)
			}
		})
	}
}

func TestTestRejectedAndUsage(t *testing.T) {
	bad := writeCrate(t, map[string]string{"Cargo.toml": "", "src/main.rs": "#[test]\nfn takes(x: i32) {}\n"})
	code, out, _ := cli(t, "test", bad)
	if code != exitFailed || !strings.Contains(out, "error[invalid-test-function]: functions used as tests can not have any arguments") ||
		!strings.HasSuffix(out, "status: rejected\n") {
		t.Fatalf("exit %d, text:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"test"},
		{"test", "a", "b"},
		{"test", writeCrate(t, map[string]string{"Cargo.toml": ""})},
		{"test", writeCrate(t, map[string]string{"src/main.rs": ""})},
		{"test", "--config", "Cargo.toml", writeCrate(t, map[string]string{"Cargo.toml": "", "src/main.rs": ""})},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

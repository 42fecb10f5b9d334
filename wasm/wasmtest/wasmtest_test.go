package wasmtest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// The tests must build engine.wasm exactly as `go tool task build:wasm` does.
func TestBuildFlagsMatchTheTaskfile(t *testing.T) {
	root, err := wasmtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	taskfile, err := os.ReadFile(filepath.Join(root, "Taskfile.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*WASM_FLAGS:\s*(.+)$`).FindSubmatch(taskfile)
	if m == nil {
		t.Fatal("Taskfile.yml has no WASM_FLAGS")
	}
	// The Taskfile's shell needs the quotes that exec.Command does not.
	got := strings.ReplaceAll(strings.TrimSpace(string(m[1])), "'", "")
	if want := strings.Join(wasmtest.BuildFlags(), " "); got != want {
		t.Errorf("Taskfile.yml builds with %q, the tests with %q", got, want)
	}
	if !strings.Contains(string(taskfile), "go build {{.WASM_FLAGS}} -o {{.WASM}} "+wasmtest.GuestPackage+"\n") {
		t.Errorf("build:wasm does not build %s with WASM_FLAGS", wasmtest.GuestPackage)
	}
}

func TestBuildGivesAReactorModule(t *testing.T) {
	module := wasmtest.Build(t)
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		t.Fatalf("not a wasm module: %q", module[:min(8, len(module))])
	}
	for _, export := range []string{"alloc", "free", "run", "_initialize"} {
		if !strings.Contains(string(module), export) {
			t.Errorf("no export %q", export)
		}
	}
	if again := wasmtest.Build(t); &again[0] != &module[0] {
		t.Error("the module was built twice in one test binary")
	}
}

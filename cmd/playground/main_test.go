package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// cli runs the command line and returns its exit status and output.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeExample writes an example as a .txtar, with an extra section that
// must be ignored.
func writeExample(t *testing.T, ex examples.Example) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ex.Name+".txtar")
	data := txtar.Format(&txtar.Archive{Comment: []byte("// Title: test\n"), Files: []txtar.File{
		{Name: "Cargo.toml", Data: []byte(ex.Config)},
		{Name: "main.rs", Data: []byte(ex.Snippet)},
		{Name: "want", Data: []byte("ignored\n")},
	}})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// anExample returns an example whose Result has the given status.
func anExample(t *testing.T, status string) (examples.Example, engine.Request) {
	t.Helper()
	for _, ex := range examples.All() {
		req := engine.Request{Config: ex.Config, Snippet: ex.Snippet}
		if engine.Run(req).Status == status {
			return ex, req
		}
	}
	t.Skipf("no example has status %s", status)
	return examples.Example{}, engine.Request{}
}

func TestRunJSONIsTheCanonicalResult(t *testing.T) {
	for _, c := range []struct {
		status string
		exit   int
	}{{engine.StatusOK, exitOK}, {engine.StatusPanicked, exitFailed}, {engine.StatusRejected, exitFailed}} {
		t.Run(c.status, func(t *testing.T) {
			ex, req := anExample(t, c.status)
			code, out, errOut := cli(t, "run", "--json", writeExample(t, ex))
			want, _ := abi.HandleRequest(req)
			if code != c.exit || out != string(want)+"\n" {
				t.Fatalf("exit %d (want %d), stderr %q\ngot  %s\nwant %s", code, c.exit, errOut, out, want)
			}
		})
	}
}

func TestRunTextAndFlagsAfterTheFile(t *testing.T) {
	ex, req := anExample(t, engine.StatusPanicked)
	code, out, _ := cli(t, "run", writeExample(t, ex))
	res := engine.Run(req)
	if code != exitFailed || !strings.Contains(out, "error["+res.Diagnostics[0].Code+"]: ") ||
		!strings.Contains(out, res.Panic.Rendered) || !strings.HasSuffix(out, "status: panicked\n") {
		t.Fatalf("exit %d, text:\n%s", code, out)
	}
	code2, out2, _ := cli(t, "run", writeExample(t, ex), "--json")
	if code2 != exitFailed || !strings.HasPrefix(out2, `{"status":"panicked"`) {
		t.Fatalf("--json after the file: exit %d %s", code2, out2)
	}
}

func TestRunRustFileWithConfig(t *testing.T) {
	ex, req := anExample(t, engine.StatusPanicked)
	dir := t.TempDir()
	rs, toml := filepath.Join(dir, "main.rs"), filepath.Join(dir, "Cargo.toml")
	_ = os.WriteFile(rs, []byte(ex.Snippet), 0o644)
	_ = os.WriteFile(toml, []byte(ex.Config), 0o644)
	_, out, _ := cli(t, "run", "--json", "--config", toml, rs)
	want, _ := abi.HandleRequest(req)
	if out != string(want)+"\n" {
		t.Fatalf("got %s\nwant %s", out, want)
	}
	_, out, _ = cli(t, "run", "--json", rs)
	if want, _ := abi.HandleRequest(engine.Request{Snippet: ex.Snippet}); out != string(want)+"\n" {
		t.Fatalf("without --config: %s", out)
	}
}

func TestRunSandboxGivesTheSameBytes(t *testing.T) {
	module := filepath.Join(t.TempDir(), "engine.wasm")
	if err := os.WriteFile(module, wasmtest.Build(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, req := anExample(t, engine.StatusPanicked)
	code, out, errOut := cli(t, "run", "--json", "--sandbox", "--wasm", module, "--cache-dir", "", writeExample(t, ex))
	want, _ := abi.HandleRequest(req)
	if code != exitFailed || out != string(want)+"\n" {
		t.Fatalf("exit %d, stderr %q\nsandbox %s\nnative  %s", code, errOut, out, want)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	noMain, rs := filepath.Join(dir, "x.txtar"), filepath.Join(dir, "main.rs")
	_ = os.WriteFile(noMain, []byte("-- Cargo.toml --\n[dependencies]\n"), 0o644)
	_ = os.WriteFile(rs, []byte("fn main() {}\n"), 0o644)
	for _, args := range [][]string{
		{"run"},
		{"run", "a.rs", "b.rs"},
		{"run", filepath.Join(dir, "missing.rs")},
		{"run", noMain},
		{"run", "--config", noMain, noMain},
		{"run", "--no-such-flag", noMain},
		{"run", "--sandbox", "--wasm", filepath.Join(dir, "missing.wasm"), rs},
		{"run", "--sandbox", "--wasm", rs, rs}, // not a module
		{"request"},
		{"catalog", "extra"},
		{"serve", "--log-format", "xml"},
		{"frobnicate"},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, _, _ := cli(t, "run", "-h"); code != exitOK {
		t.Errorf("-h: exit %d", code)
	}
}

func TestRequestPrintsTheRequest(t *testing.T) {
	ex, req := anExample(t, engine.StatusOK)
	code, out, _ := cli(t, "request", writeExample(t, ex))
	var got engine.Request
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK || !reflect.DeepEqual(got, req) {
		t.Fatalf("exit %d, %q: %v", code, out, err)
	}
}

func TestCatalogAndVersion(t *testing.T) {
	_, out, _ := cli(t, "catalog", "--json")
	var records []json.RawMessage
	if err := json.Unmarshal([]byte(out), &records); err != nil || len(records) != len(catalog.All()) {
		t.Fatalf("catalog --json: %d records, %v", len(records), err)
	}
	_, out, _ = cli(t, "catalog")
	first := catalog.All()[0]
	if !strings.HasPrefix(out, first.Code+"\n    "+first.Title+"\n") {
		t.Fatalf("catalog text starts %q", out[:min(len(out), 200)])
	}
	code, out, _ := cli(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "playground "+engine.Version+" (Burn "+engine.BurnCommit) {
		t.Fatalf("version: %q", out)
	}
}

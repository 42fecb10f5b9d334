package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestRunSaysWhatWasNotChecked: the text of an incomplete run ends with
// what was not checked, never with "status: ok"; its JSON has complete
// false; a complete run still ends "status: ok".
func TestRunSaysWhatWasNotChecked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		src := "use burn::tensor::Tensor;\nfn main() {\n    let device = Default::default();\n" + body + "}\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	unchecked := write("unchecked.rs", "    let big = Tensor::<2>::ones([2000, 2000], &device);\n"+
		"    let s: f32 = big.sum().into_scalar();\n    assert_eq!(s, 1.0);\n")
	checked := write("checked.rs", "    let t = Tensor::<1>::from_data([1.0, 2.0], &device);\n"+
		"    let s: f32 = t.sum().into_scalar();\n    assert_eq!(s, 3.0);\n")

	code, out, _ := cli(t, "run", unchecked)
	if code != exitOK || !strings.HasSuffix(out, "status: ran; 1 thing was not checked (not complete)\n") ||
		!strings.Contains(out, "warning[playground-unchecked]: `assert_eq!` was not checked") {
		t.Errorf("exit %d, text:\n%s", code, out)
	}
	code, out, _ = cli(t, "run", "--json", unchecked)
	var res engine.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Complete || !strings.Contains(out, `"complete":false`) {
		t.Errorf("exit %d, complete %v (%v):\n%s", code, res.Complete, err, out)
	}
	code, out, _ = cli(t, "run", checked)
	if code != exitOK || !strings.HasSuffix(out, "status: ok\n") || strings.Contains(out, "not checked") {
		t.Errorf("exit %d, text:\n%s", code, out)
	}
	code, out, _ = cli(t, "run", "--json", checked)
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || !res.Complete {
		t.Errorf("exit %d, complete %v (%v)", code, res.Complete, err)
	}
}

// TestTestSaysWhatWasNotChecked: `playground test` prints what was not
// checked before libtest's report and ends saying the run is not
// complete, so a test's "ok" on an unknown value is not read as a pass.
func TestTestSaysWhatWasNotChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tests.rs")
	src := "use burn::tensor::Tensor;\n\n#[test]\nfn fails() {\n    assert_eq!(1, 2);\n}\n\n#[test]\nfn unknown() {\n" +
		"    let device = Default::default();\n    let big = Tensor::<2>::ones([2000, 2000], &device);\n" +
		"    let s: f32 = big.sum().into_scalar();\n    assert_eq!(s, 5.0);\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := cli(t, "test", path)
	if code != exitFailed || !strings.HasPrefix(out, "warning[playground-unchecked]: `assert_eq!` was not checked") ||
		!strings.Contains(out, "test unknown ... ok\n") || !strings.HasSuffix(out, "status: panicked; 1 thing was not checked (not complete)\n") {
		t.Errorf("exit %d, text:\n%s", code, out)
	}
}

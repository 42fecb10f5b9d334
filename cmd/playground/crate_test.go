package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestRunCrateFolder runs a crate folder's binaries as cargo run does: its
// modules read from their files, the library linked by the package's name,
// --bin choosing a target, and locations in the file they lie in.
func TestRunCrateFolder(t *testing.T) {
	dir := writeCrate(t, map[string]string{
		"Cargo.toml":       "[package]\nname = \"my-app\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\n",
		"src/lib.rs":       "pub mod util;\n",
		"src/util.rs":      "pub fn size() -> usize {\n    4\n}\npub fn boom() {\n    panic!(\"boom\");\n}\n",
		"src/main.rs":      "fn main() {\n    println!(\"{}\", my_app::util::size());\n}\n",
		"src/bin/train.rs": "fn main() {\n    my_app::util::boom();\n}\n",
	})
	code, out, errOut := cli(t, "run", dir)
	if code != exitOK || !strings.HasPrefix(out, "4\n") {
		t.Fatalf("run DIR: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	code, out, _ = cli(t, "run", "--json", dir, "--bin", "train")
	var res engine.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitFailed {
		t.Fatalf("run --bin: exit %d, %v: %s", code, err, out)
	}
	if res.Status != engine.StatusPanicked || res.Panic.Location != "src/util.rs:5:5" {
		t.Errorf("run --bin: %s %+v", res.Status, res.Panic)
	}
	for _, args := range [][]string{
		{"run", dir, "--bin", "nope"},
		{"run", dir, "--bin", "train", "--example", "x"},
		{"run", filepath.Join(dir, "src", "main.rs"), "--bin", "train"},
	} {
		if code, _, _ := cli(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestRunTxtarCrate: a txtar's sections named like a crate's files make
// it a crate.
func TestRunTxtarCrate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crate.txtar")
	txtar := "-- Cargo.toml --\n[package]\nname = \"c\"\nversion = \"0.1.0\"\n-- main.rs --\nmod model;\nfn main() {\n    model::check();\n}\n" +
		"-- src/model.rs --\npub fn check() {\n    assert_eq!(1, 2);\n}\n"
	if err := os.WriteFile(path, []byte(txtar), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := cli(t, "run", path)
	if code != exitFailed || !strings.Contains(out, "panicked at src/model.rs:2:5") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestRunWorkspaceMember runs a crate of a workspace as cargo run does in
// it: the workspace root's manifest gives what `workspace = true`
// inherits, and a path dependency's manifest and library are read from
// its folder (its binaries are not), so its items run and its requests of
// burn are on.
func TestRunWorkspaceMember(t *testing.T) {
	root := writeCrate(t, map[string]string{
		"Cargo.toml":                "[workspace]\nmembers = [\"apps/*\", \"libs/*\"]\n\n[workspace.dependencies]\nburn = { version = \"0.22\", default-features = false }\n",
		"apps/trainer/Cargo.toml":   "[package]\nname = \"trainer\"\n\n[dependencies]\nburn = { workspace = true, features = [\"std\"] }\nmodels = { path = \"../../libs/models\" }\n",
		"apps/trainer/src/main.rs":  "fn main() {\n    let device = burn::tensor::Device::default();\n    println!(\"{:?}\", models::size(&device));\n}\n",
		"libs/models/Cargo.toml":    "[package]\nname = \"models\"\n\n[dependencies]\nburn = { workspace = true, features = [\"ndarray\"] }\n",
		"libs/models/src/lib.rs":    "mod shapes;\npub use shapes::size;\n",
		"libs/models/src/shapes.rs": "pub fn size(device: &burn::tensor::Device) -> [usize; 2] {\n    burn::tensor::Tensor::<2>::zeros([2, 3], device).dims()\n}\n",
		"libs/models/src/bin/x.rs":  "fn main() { this does not parse }\n",
	})
	code, out, errOut := cli(t, "run", "--json", filepath.Join(root, "apps", "trainer"))
	var res engine.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v, stderr %q: %s", code, err, errOut, out)
	}
	if res.Output != "[2, 3]\n" || !res.Complete || len(res.Trace) == 0 || res.Trace[0].Device != "NdArray(Cpu)" {
		t.Errorf("output %q complete %v trace %+v diagnostics %+v", res.Output, res.Complete, res.Trace, res.Diagnostics)
	}
	if res.Trace[0].File != "../../libs/models/src/shapes.rs" {
		t.Errorf("trace file = %q", res.Trace[0].File)
	}
}

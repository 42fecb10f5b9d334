package engine

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/source"
)

const crateConfig = `[package]
name = "my-app"
version = "0.1.0"
edition = "2024"

[dependencies]
burn = "0.22"
`

// TestCrates runs Requests of contract version 2: a crate's modules are
// read from their files, a binary reaches the library by the package's
// name, and every span names its file.
func TestCrates(t *testing.T) {
	files := map[string]string{
		"src/lib.rs": "pub mod model;\npub fn version() -> u32 { 2 }\n",
		"src/model.rs": `use burn::tensor::{Device, Tensor};

pub struct Model { pub scale: f32 }

impl Model {
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        x.mul_scalar(self.scale)
    }
}

pub fn input(device: &Device) -> Tensor<2> {
    Tensor::<2>::ones([2, 2], device)
}
`,
		"src/data/mod.rs":   "pub mod batch;\npub fn size() -> usize { batch::SIZE * 2 }\n",
		"src/data/batch.rs": "pub const SIZE: usize = 4;\n",
		"src/bin/train.rs": `use my_app::model::{input, Model};
use burn::tensor::Device;

fn main() {
    let device = Device::default();
    let y = Model { scale: 3.0 }.forward(input(&device));
    println!("{} {}", my_app::version(), y.into_scalar_sum());
}
`,
	}
	main := "mod data;\nfn main() { println!(\"{} {}\", data::size(), my_app::version()); }\n"

	res := Run(Request{Config: crateConfig, Snippet: main, Files: files})
	if res.Status != StatusOK || res.Output != "8 2\n" {
		t.Fatalf("main: status %s output %q diagnostics %+v", res.Status, res.Output, res.Diagnostics)
	}

	bin := files["src/bin/train.rs"]
	bin = strings.Replace(bin, "y.into_scalar_sum()", "y.sum().into_scalar()", 1)
	res = Run(Request{Config: crateConfig, Snippet: bin, Files: files, Entry: "src/bin/train.rs"})
	if res.Status != StatusOK || res.Output != "2 12\n" {
		t.Fatalf("bin: status %s output %q diagnostics %+v", res.Status, res.Output, res.Diagnostics)
	}
	var ones, mul *TraceEntry
	for i := range res.Trace {
		switch res.Trace[i].Op {
		case "float_ones":
			ones = &res.Trace[i]
		case "float_mul_scalar":
			mul = &res.Trace[i]
		}
	}
	if ones == nil || ones.File != "src/model.rs" || ones.Span.Start.Line != 12 {
		t.Errorf("ones: %+v, want src/model.rs line 12", ones)
	}
	if mul == nil || mul.File != "src/model.rs" || mul.Span.Start.Line != 7 {
		t.Errorf("mul_scalar: %+v, want src/model.rs line 7", mul)
	}

	// An error in a module's file names that file, with its own lines.
	broken := map[string]string{}
	for k, v := range files {
		broken[k] = v
	}
	broken["src/data/batch.rs"] = "pub const SIZE: usize = 4;\npub fn f() { undefined_helper(); }\n"
	res = Run(Request{Config: crateConfig, Snippet: main, Files: broken})
	if res.Status != StatusRejected || len(res.Diagnostics) == 0 {
		t.Fatalf("broken: %s %+v", res.Status, res.Diagnostics)
	}
	d := res.Diagnostics[0]
	if d.File != "src/data/batch.rs" || d.Span.Start.Line != 2 || d.Span.Start.Column != 14 || d.Message != "cannot find function `undefined_helper` in this scope" {
		t.Errorf("diagnostic %s %d:%d %q", d.File, d.Span.Start.Line, d.Span.Start.Column, d.Message)
	}

	// A module without its file is rustc's E0583.
	res = Run(Request{Config: crateConfig, Snippet: "mod missing;\nfn main() {}\n", Files: map[string]string{"src/lib.rs": ""}})
	if res.Status != StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != CodeModuleFile ||
		res.Diagnostics[0].Message != "file not found for module `missing`" || res.Diagnostics[0].File != "src/main.rs" {
		t.Errorf("missing module: %+v", res.Diagnostics)
	}

	// A panic in a module's file is located there.
	panicking := map[string]string{"src/util.rs": "pub fn boom() {\n    panic!(\"boom\");\n}\n"}
	res = Run(Request{Config: crateConfig, Snippet: "mod util;\nfn main() { util::boom(); }\n", Files: panicking})
	if res.Status != StatusPanicked || res.Panic.Location != "src/util.rs:2:5" {
		t.Errorf("panic: %s %+v", res.Status, res.Panic)
	}
}

// TestVersionOneRequestsAreUnchanged: without files the one file is
// main.rs and trace entries carry no file.
func TestVersionOneRequestsAreUnchanged(t *testing.T) {
	res := Run(Request{Config: crateConfig, Snippet: "use burn::tensor::{Device, Tensor};\nfn main() { let t = Tensor::<1>::ones([2], &Device::default()); }\n"})
	if res.Status != StatusOK || len(res.Trace) != 1 || res.Trace[0].File != "" {
		t.Fatalf("%s %+v", res.Status, res.Trace)
	}
}

// FuzzCrate runs crates of three files: whatever their texts, the Result is
// well formed and every span lies in the file it names.
func FuzzCrate(f *testing.F) {
	f.Add("mod m;\nfn main() { m::f(); my_app::g(); }\n", "pub fn f() { let x = 1; }\n", "pub fn g() {}\n")
	f.Add("mod m;\nmod gone;\nfn main() {}\n", "pub mod inner;\n", "pub mod model;\n")
	f.Add("mod m;\nfn main() { m::boom(); }\n", "pub fn boom() {\n    panic!(\"boom\");\n}\n", "")
	f.Add("#[path = \"m.rs\"]\nmod x;\nfn main() {}\n", "macro_rules! a { () => {} }\na!();\n", "extern crate alloc;\nuse crate::*;\n")
	f.Fuzz(func(t *testing.T, main, module, lib string) {
		req := Request{Config: crateConfig, Snippet: main, Files: map[string]string{"src/m.rs": module, "src/lib.rs": lib}}
		res := Run(req)
		switch res.Status {
		case StatusOK, StatusPanicked, StatusRejected:
		default:
			t.Fatalf("status %q", res.Status)
		}
		size := map[string]int{"src/main.rs": len(main), "src/m.rs": len(module), "src/lib.rs": len(lib), "Cargo.toml": len(crateConfig)}
		inFile := func(what, file string, sp source.Span) {
			n, ok := size[file]
			if !ok {
				t.Errorf("%s names unknown file %q", what, file)
				return
			}
			if sp.Start.Offset < 0 || sp.End.Offset > n || sp.Start.Offset > sp.End.Offset {
				t.Errorf("%s span %+v outside %s (%d bytes)", what, sp, file, n)
			}
		}
		for _, d := range res.Diagnostics {
			if d.Code == "playground-internal-error" {
				t.Fatalf("internal error: %s", d.Message)
			}
			inFile("diagnostic "+d.Code, d.File, d.Span)
			for _, l := range d.Labels {
				inFile("label of "+d.Code, l.File, l.Span)
			}
		}
		for _, tr := range res.Trace {
			inFile("trace "+tr.Op, tr.File, tr.Span)
		}
	})
}

// TestCargoTestRunsEveryHarness runs a crate's tests as `cargo test` does:
// the library's unit tests, then the binary's, then each integration test
// against the library by its crate name, stopping after the first harness
// that fails.
func TestCargoTestRunsEveryHarness(t *testing.T) {
	lib := "pub fn double(x: i32) -> i32 { x * 2 }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn doubles() { assert_eq!(double(2), 4); }\n}\n"
	main := "fn main() { println!(\"{}\", my_app::double(21)); }\n#[test]\nfn main_test() {}\n"
	api := "use my_app::double;\n#[test]\nfn api_ok() { assert_eq!(double(3), 6); }\n#[test]\nfn api_bad() { assert_eq!(double(3), 7); }\n"
	later := "#[test]\nfn never_runs() {}\n"
	names := func(r Result) []string {
		var out []string
		for _, tr := range r.Tests {
			out = append(out, tr.Name+":"+tr.Status)
		}
		return out
	}

	res := Run(Request{Config: crateConfig, Snippet: main, Entry: EntryTests,
		Files: map[string]string{"src/lib.rs": lib, "tests/api.rs": api, "tests/z_later.rs": later}})
	if got, want := strings.Join(names(res), " "), "tests::doubles:ok main_test:ok api_bad:failed api_ok:ok"; got != want {
		t.Fatalf("tests = %s, want %s", got, want)
	}
	if res.Status != StatusPanicked || res.Panic == nil || res.Panic.Span.Start.Line != 5 {
		t.Fatalf("status %s, panic %+v: want the failing integration test's panic", res.Status, res.Panic)
	}
	if n := strings.Count(res.Output, "\nrunning "); n != 3 {
		t.Errorf("%d libtest reports, want one per harness that ran (3):\n%s", n, res.Output)
	}
	if !strings.Contains(res.Output, "panicked at tests/api.rs:5:") {
		t.Errorf("the failing test's panic should name tests/api.rs:\n%s", res.Output)
	}

	// An integration test reaches the library only by the crate's name.
	res = Run(Request{Config: crateConfig, Snippet: main, Entry: EntryTests,
		Files: map[string]string{"src/lib.rs": lib, "tests/api.rs": "#[test]\nfn t() { assert_eq!(double(3), 6); }\n"}})
	if res.Status != StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].File != "tests/api.rs" {
		t.Fatalf("status %s, diagnostics %+v: `double` is not in scope in tests/api.rs", res.Status, res.Diagnostics)
	}

	// Every harness passing is an ok run of all of them.
	res = Run(Request{Config: crateConfig, Snippet: main, Entry: EntryTests,
		Files: map[string]string{"src/lib.rs": lib, "tests/z_later.rs": later}})
	if got, want := strings.Join(names(res), " "), "tests::doubles:ok main_test:ok never_runs:ok"; res.Status != StatusOK || got != want {
		t.Fatalf("status %s, tests %s, want ok and %s", res.Status, got, want)
	}
}

// TestPathDependencyCrate: a path dependency whose manifest and library the
// Request carries is linked in by its name, its modules read from its own
// folder, and what it turns on in burn is on for the whole build, as Cargo
// unifies features. Its spans name its files.
func TestPathDependencyCrate(t *testing.T) {
	member := "[package]\nname = \"trainer\"\nversion.workspace = true\n\n[dependencies]\nburn = { workspace = true, features = [\"autodiff\"] }\nmodels = { path = \"../models\" }\n"
	files := map[string]string{
		"../Cargo.toml":          "[workspace]\nmembers = [\"trainer\", \"models\"]\n\n[workspace.package]\nversion = \"0.3.0\"\n\n[workspace.dependencies]\nburn = { version = \"0.22\", default-features = false }\n",
		"../models/Cargo.toml":   "[package]\nname = \"models\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = { workspace = true, features = [\"ndarray\"] }\n",
		"../models/src/lib.rs":   "pub mod scale;\n",
		"../models/src/scale.rs": "use burn::tensor::{Device, Tensor};\n\npub fn doubled(device: &Device) -> Tensor<1> {\n    crate::scale::ones(device).mul_scalar(2.0)\n}\n\nfn ones(device: &Device) -> Tensor<1> {\n    Tensor::<1>::ones([3], device)\n}\n",
	}
	main := "use burn::tensor::Device;\nuse models::scale::doubled;\n\nfn main() {\n    let device = Device::ndarray();\n    println!(\"{} {}\", env!(\"CARGO_PKG_VERSION\"), doubled(&device).sum().into_scalar::<f32>());\n}\n"
	res := Run(Request{Config: member, Snippet: main, Files: files})
	if res.Status != StatusOK || !res.Complete || res.Output != "0.3.0 6\n" {
		t.Fatalf("status %s complete %v output %q:\n%+v", res.Status, res.Complete, res.Output, res.Diagnostics)
	}
	var inModels bool
	for _, e := range res.Trace {
		inModels = inModels || e.File == "../models/src/scale.rs" && e.Op != "" && e.Span.Start.Line == 8
	}
	if !inModels {
		t.Errorf("no trace entry at ../models/src/scale.rs:8: %+v", res.Trace)
	}

	// Without the dependency's manifest, its crate is not known: its
	// items are a boundary, and ndarray is not known to be on.
	delete(files, "../models/Cargo.toml")
	res = Run(Request{Config: member, Snippet: main, Files: files})
	if res.Complete || res.Status == StatusOK && res.Output == "0.3.0 6\n" {
		t.Errorf("without models' manifest: status %s complete %v output %q", res.Status, res.Complete, res.Output)
	}

	// An error in the dependency's manifest is reported in it.
	files["../models/Cargo.toml"] = "[package]\nname = \"models\"\n\n[dependencies]\nburn = { workspace = true, features = [\"ndarry\"] }\n"
	res = Run(Request{Config: member, Snippet: main, Files: files})
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Code == "unknown-feature" && d.File == "../models/Cargo.toml" && d.Span.Start.Line == 5
	}
	if !found {
		t.Errorf("no unknown-feature diagnostic in ../models/Cargo.toml:5: %+v", res.Diagnostics)
	}
}

// TestModuleFileItemMacros: a module's file holds items only, so a macro
// call at its top level is an item macro, in its place among the items
// (burn's kernel_source!, a program's macro_rules!); any other statement
// there is rustc's error.
func TestModuleFileItemMacros(t *testing.T) {
	config := "[package]\nname = \"k\"\n\n[dependencies]\nburn = { version = \"0.22\", features = [\"wgpu\", \"template\"] }\nderive-new = \"0.7\"\n"
	files := map[string]string{
		"src/kernels.rs": "use burn::backend::wgpu::kernel_source;\n\nmacro_rules! unit {\n    ($name:ident) => { pub struct $name; impl $name { pub fn id(&self) -> u32 { 7 } } };\n}\n\nkernel_source!(Raw, \"./kernel.wgsl\");\nunit!(Seven);\n\npub fn raw() -> Raw {\n    Raw::new()\n}\n",
	}
	main := "mod kernels;\n\nfn main() {\n    let _ = kernels::raw();\n    println!(\"{}\", kernels::Seven.id());\n}\n"
	res := Run(Request{Config: config, Snippet: main, Files: files})
	if res.Status != StatusOK || res.Output != "7\n" {
		t.Fatalf("status %s output %q:\n%+v", res.Status, res.Output, res.Diagnostics)
	}
	files["src/kernels.rs"] += "let x = 3;\n"
	res = Run(Request{Config: config, Snippet: main, Files: files})
	if res.Status != StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].Message != "expected item, found keyword `let`" ||
		res.Diagnostics[0].File != "src/kernels.rs" || res.Diagnostics[0].Span.Start.Line != 13 {
		t.Errorf("a statement in a module's file: status %s, %d diagnostics", res.Status, len(res.Diagnostics))
	}
}

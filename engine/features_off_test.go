package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestPackageFeaturesOffNote: an example that picks its backend with a
// feature of its own package runs nothing without it, as cargo run does;
// the note names the features that are off, and its fix turns the first
// on, after which the program runs its tensor operations.
func TestPackageFeaturesOffNote(t *testing.T) {
	cargo := "[package]\nname = \"ex\"\nversion = \"0.1.0\"\n\n[features]\ndefault = []\nflex = [\"burn/flex\"]\nwgpu = [\"burn/wgpu\"]\n\n[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"std\"] }\n"
	src := `use burn::tensor::{Device, Tensor};
fn run(device: Device) {
    let t = Tensor::<1>::ones([2], &device);
    println!("{}", t.sum());
}
#[cfg(feature = "flex")]
mod flex {
    pub fn run() { super::run(burn::tensor::Device::flex()); }
}
fn main() {
    #[cfg(feature = "flex")]
    flex::run();
    #[cfg(feature = "wgpu")]
    super_run_wgpu();
}
`
	res := run(t, engine.Request{Config: cargo, Snippet: src})
	ds := diagsOf(res, "playground-package-features-off")
	if res.Status != engine.StatusOK || len(res.Trace) != 0 || len(ds) != 1 {
		t.Fatalf("status %s, %d ops:\n%s", res.Status, len(res.Trace), Summary(res))
	}
	d := ds[0]
	if d.Message != "no tensor operation ran, and this build leaves out the code behind the features `flex` and `wgpu` of this package, which are off" ||
		spanOf(src, d) != "main" || len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 {
		t.Fatalf("note %q at %q, fixes %+v", d.Message, spanOf(src, d), d.Fixes)
	}
	e := d.Fixes[0].Edits[0]
	fixed := cargo[:e.Span.Start.Offset] + e.NewText + cargo[e.Span.End.Offset:]
	if !strings.Contains(fixed, "default = [\"flex\"]") {
		t.Fatalf("the fix wrote:\n%s", fixed)
	}
	res = run(t, engine.Request{Config: fixed, Snippet: src})
	if res.Status != engine.StatusOK || len(res.Trace) == 0 || len(diagsOf(res, "playground-package-features-off")) != 0 {
		t.Errorf("after the fix: status %s, %d ops:\n%s", res.Status, len(res.Trace), Summary(res))
	}
}

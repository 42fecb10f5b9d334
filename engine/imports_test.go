package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestUseOfAPathBurnDoesNotExport: burn-tensor exports PadMode only from
// its ops module (crates/burn-tensor/src/tensor/mod.rs:41-44), so `use
// burn::tensor::PadMode` is rustc's E0432 with its suggestion, while the
// paths Burn does export (ops::PadMode, the prelude, a glob) run.
func TestUseOfAPathBurnDoesNotExport(t *testing.T) {
	body := "fn main() {\n    let device = Default::default();\n    let t = Tensor::<2>::ones([2, 2], &device);\n    let p = t.pad([(1, 1), (1, 1)], PadMode::Constant(0.0));\n    println!(\"{}\", p);\n}\n"
	src := "use burn::tensor::Tensor;\nuse burn::tensor::PadMode;\n" + body
	res := engine.Run(engine.Request{Snippet: src})
	ds := diagsOf(res, "unresolved-import")
	if res.Status != "rejected" || len(ds) != 1 {
		t.Fatalf("use burn::tensor::PadMode: status %s, diagnostics %+v", res.Status, res.Diagnostics)
	}
	d := ds[0]
	if d.Message != "unresolved import `burn::tensor::PadMode`" || spanOf(src, d) != "burn::tensor::PadMode" {
		t.Errorf("diagnostic %q at %q", d.Message, spanOf(src, d))
	}
	if !strings.Contains(strings.Join(d.Help, "\n"), "consider importing this enum instead: `burn::tensor::ops::PadMode`") {
		t.Errorf("help %q", d.Help)
	}
	if len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 || d.Fixes[0].Edits[0].NewText != "burn::tensor::ops::PadMode" {
		t.Errorf("fixes %+v", d.Fixes)
	}
	// In a `{..}` tree the span is the leaf's, and no edit rewrites it.
	nested := "use burn::tensor::{Tensor, PadMode};\n" + body
	res = engine.Run(engine.Request{Snippet: nested})
	if ds := diagsOf(res, "unresolved-import"); len(ds) != 1 || ds[0].Message != "unresolved import `burn::tensor::PadMode`" {
		t.Errorf("nested import: %+v", res.Diagnostics)
	}
	for _, imports := range []string{
		"use burn::tensor::Tensor;\nuse burn::tensor::ops::PadMode;\n",
		"use burn::tensor::{Tensor, ops::PadMode};\n",
		"use burn::prelude::*;\nuse burn::tensor::ops::*;\n",
		"use burn_tensor::{Tensor, ops::PadMode};\n",
	} {
		res := engine.Run(engine.Request{Snippet: imports + body})
		if res.Status != "ok" || len(diagsOf(res, "unresolved-import")) != 0 {
			t.Errorf("%s: status %s, %+v", imports, res.Status, res.Diagnostics)
		}
	}
}

package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestMoveFixesGoBothWays: two tensors on two devices in one operation are
// offered both moves, the other operand to the receiver's device first;
// each runs clean, and an operand that is an expression is parenthesized.
func TestMoveFixesGoBothWays(t *testing.T) {
	const config = "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"wgpu\"] }\n[package.metadata.playground]\nhardware = { cuda = 1, wgpu = [\"DiscreteGpu\"] }\n"
	const snippet = `use burn::tensor::{Device, Tensor};

fn main() {
    let a = Tensor::<2>::ones([2, 3], &Device::cuda(0));
    let b = Tensor::<2>::ones([2, 3], &Device::wgpu(Default::default()));
    let c = a.clone() * 2.0 + (b.clone() - 1.0);
    println!("{:?}", c.dims());
}
`
	req := engine.Request{Config: config, Snippet: snippet}
	res := engine.Run(req)
	if res.Status != engine.StatusPanicked {
		t.Fatalf("status %s", res.Status)
	}
	var fixes []engine.Fix
	for _, d := range res.Diagnostics {
		if d.Phase == "run" && d.Code == res.Panic.Code {
			fixes = d.Fixes
		}
	}
	if len(fixes) != 2 {
		t.Fatalf("%d fixes, want 2: %+v", len(fixes), fixes)
	}
	wants := []string{
		"a.clone() * 2.0 + (b.clone() - 1.0).to_device(&(a.clone() * 2.0).device())",
		"(a.clone() * 2.0).to_device(&(b.clone() - 1.0).device()) + (b.clone() - 1.0)",
	}
	for i, fix := range fixes {
		fixed := engine.ApplyFix(req, fix)
		if !strings.Contains(fixed.Snippet, "let c = "+wants[i]+";") {
			t.Errorf("fix %d %q gives\n%s", i, fix.Title, fixed.Snippet)
		}
		if r := engine.Run(fixed); r.Status != engine.StatusOK {
			t.Errorf("fix %d %q leaves status %s", i, fix.Title, r.Status)
		}
	}
}

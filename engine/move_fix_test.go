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

// TestAutodiffDeviceFix: an operation that needs an autodiff tensor, on a
// tensor of a device the program made plain, is offered .autodiff() on
// that Device constructor, however the program wrote its path; the fixed
// program runs clean. A plain tensor taken out of an autodiff one
// (inner()) is not: its device's constructor made an autodiff device.
func TestAutodiffDeviceFix(t *testing.T) {
	const snippet = `fn main() {
    let device = burn::tensor::Device::default();
    let w = burn::tensor::Tensor::<2>::ones([2, 2], &device).require_grad();
    let grads = w.clone().sum().backward();
    println!("{:?}", w.grad(&grads).map(|g| g.dims()));
}
`
	req := engine.Request{Snippet: snippet}
	res := engine.Run(req)
	fix, ok := firstRunFix(res)
	if res.Status != engine.StatusPanicked || !ok || fix.Title != "Make the device an autodiff device" {
		t.Fatalf("status %s, fix %+v", res.Status, fix)
	}
	fixed := engine.ApplyFix(req, fix)
	if !strings.Contains(fixed.Snippet, "let device = burn::tensor::Device::default().autodiff();") {
		t.Errorf("fixed program:\n%s", fixed.Snippet)
	}
	if res := engine.Run(fixed); res.Status != engine.StatusOK || res.Output != "Some([2, 2])\n" {
		t.Errorf("fixed: status %s output %q", res.Status, res.Output)
	}

	inner := "use burn::tensor::{Device, Tensor};\nfn main() {\n    let device = Device::default().autodiff();\n    let w = Tensor::<2>::ones([2, 2], &device).require_grad();\n    let plain = w.clone().inner();\n    let grads = w.sum().backward();\n    let _ = plain.grad(&grads);\n}\n"
	res = engine.Run(engine.Request{Snippet: inner})
	if fix, ok := firstRunFix(res); res.Status != engine.StatusPanicked || ok && fix.Title == "Make the device an autodiff device" {
		t.Errorf("inner(): status %s, fix %+v", res.Status, fix)
	}
}

// firstRunFix is the first fix of the run's panic diagnostic.
func firstRunFix(res engine.Result) (engine.Fix, bool) {
	for _, d := range res.Diagnostics {
		if res.Panic != nil && d.Phase == "run" && d.Code == res.Panic.Code && len(d.Fixes) > 0 {
			return d.Fixes[0], true
		}
	}
	return engine.Fix{}, false
}

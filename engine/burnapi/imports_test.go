package burnapi

import (
	"slices"
	"strings"
	"testing"
)

// TestUnexported: burn-tensor exports PadMode only from its ops module
// (crates/burn-tensor/src/tensor/mod.rs:41-44, `pub mod ops { pub use
// burn_std::ops::*; }`), so `use burn::tensor::PadMode` is rustc's E0432,
// while every path Burn does export, or that the table cannot decide, is
// left alone.
func TestUnexported(t *testing.T) {
	tab := Default()
	split := func(p string) []string { return strings.Split(p, "::") }
	instead, ok := tab.Unexported(split("burn::tensor::PadMode"))
	if !ok || !slices.Equal(instead, []Import{{Path: "burn::tensor::ops::PadMode", Kind: "enum"}}) {
		t.Errorf("burn::tensor::PadMode: %v %v", instead, ok)
	}
	if instead, ok := tab.Unexported(split("burn_tensor::InterpolateMode")); !ok || len(instead) != 1 || instead[0].Path != "burn_tensor::ops::InterpolateMode" {
		t.Errorf("burn_tensor::InterpolateMode: %v %v", instead, ok)
	}
	if instead, ok := tab.Unexported(split("burn::tensor::ops::NoSuchOptions")); !ok || len(instead) != 0 {
		t.Errorf("a name under ops the table does not have: %v %v", instead, ok)
	}
	for _, p := range []string{
		"burn::tensor::ops::PadMode", "burn::tensor::Tensor", "burn_tensor::Tensor", "burn::tensor::linalg",
		"burn::tensor::activation::relu", "burn::tensor::Shape", "burn::tensor::s", "burn::prelude::Module",
		"burn::prelude::PadMode", "burn::nn::Linear", "burn::tensor::backend::Backend",
		// The root's cubecl-zspace globs may export a name the table does not know.
		"burn::tensor::AsIndex", "burn::tensor::Nope",
		"burn::tensor::Tensor::ones", "std::vec::Vec",
		// The crate itself, imported as a module.
		"burn::tensor", "burn_tensor",
	} {
		if instead, ok := tab.Unexported(split(p)); ok {
			t.Errorf("%s: refused, instead %v", p, instead)
		}
	}
}

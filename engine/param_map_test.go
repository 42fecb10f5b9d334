package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// Param::map (burn-core module/param/base.rs:390) gives the program's
// closure the Param's tensor and keeps what it returns, with the
// closure's tensor's require_grad, as Burn's modern-lstm example sets a
// Linear's forget-gate bias.
func TestParamMapKeepsTheClosuresTensor(t *testing.T) {
	res := run(t, engine.Request{
		Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"autodiff\"] }\n",
		Snippet: `use burn::prelude::*;
use burn::nn::LinearConfig;

fn main() {
    let device = Device::flex().autodiff();
    let mut linear = LinearConfig::new(2, 3).init(&device);
    let bias = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device).require_grad();
    linear.bias = linear.bias.map(|p| p.map(|_t| bias));
    let b = linear.bias.clone().unwrap();
    assert!(b.is_require_grad());
    assert_eq!(b.val().into_data().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
    let out = linear.forward(Tensor::<2>::zeros([1, 2], &device));
    assert_eq!(out.into_data().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
    let frozen = LinearConfig::new(2, 3).init(&device).weight.map(|t| t.set_require_grad(false));
    assert!(!frozen.is_require_grad());
}
`})
	if res.Status != engine.StatusOK || !res.Complete {
		t.Fatalf("status %s complete %v, want a complete ok:\n%s", res.Status, res.Complete, Summary(res))
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "Param::map") {
			t.Errorf("Param::map reported: %s", d.Message)
		}
	}
}

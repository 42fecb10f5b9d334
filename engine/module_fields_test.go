package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// TestAssignToAFieldOfABurnModule: a Burn module's pub fields can be
// written (`linear.bias = ..`, as modern-lstm's example sets its gates'
// biases), the forward uses the new value, and a clone made before keeps
// its own.
func TestAssignToAFieldOfABurnModule(t *testing.T) {
	src := `use burn::prelude::*;
use burn::nn::{Linear, LinearConfig};
use burn::module::Param;
fn main() {
    let device = Device::default();
    let mut lin: Linear = LinearConfig::new(2, 3).with_bias(false).init(&device);
    let before = lin.clone();
    lin.bias = Some(Param::from_tensor(Tensor::<1>::from_data([1.0, 2.0, 3.0], &device)));
    let y = lin.forward(Tensor::<2>::zeros([1, 2], &device));
    println!("{:?} {}", y.into_data().to_vec::<f32>().unwrap(), before.bias.is_none());
}
`
	res := run(t, engine.Request{Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\"] }\n", Snippet: src})
	if res.Status != engine.StatusOK || strings.TrimSpace(res.Output) != "[1.0, 2.0, 3.0] true" {
		t.Errorf("status %s output %q:\n%s", res.Status, res.Output, Summary(res))
	}
}

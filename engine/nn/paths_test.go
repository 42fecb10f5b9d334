package nn_test

import (
	"strings"
	"testing"
)

// TestTransformerModulePaths: inside a TransformerEncoder the program
// holds, each op is tagged with the path of the Burn submodule it runs
// in, as the program's own modules' are (encoder.rs:166, 264; mha.rs:212;
// pwff.rs:105).
func TestTransformerModulePaths(t *testing.T) {
	src := `use burn::prelude::*;
use burn::nn::transformer::{TransformerEncoder, TransformerEncoderConfig, TransformerEncoderInput};

#[derive(Module, Debug)]
pub struct Model {
    encoder: TransformerEncoder,
}

impl Model {
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        self.encoder.forward(TransformerEncoderInput::new(x))
    }
}

fn main() {
    let d = Device::flex();
    let d = d.autodiff();
    let model = Model { encoder: TransformerEncoderConfig::new(4, 8, 2, 2).init(&d) };
    let y = model.forward(Tensor::<3>::ones([1, 3, 4], &d));
    let s = y.sum();
}
`
	res := run(t, src)
	first := map[string]string{} // module -> its first op
	var modules []string
	for _, e := range res.Trace {
		if _, ok := first[e.Module]; !ok {
			first[e.Module] = e.Op
			modules = append(modules, e.Module)
		}
	}
	want := []string{
		"model.encoder.layers.0.mha.query", "model.encoder.layers.0.mha.key", "model.encoder.layers.0.mha.value",
		"model.encoder.layers.0.mha", "model.encoder.layers.0.mha.dropout", "model.encoder.layers.0.mha.output",
		"model.encoder.layers.0.dropout", "model.encoder.layers.0", "model.encoder.layers.0.norm_1",
		"model.encoder.layers.0.pwff.linear_inner", "model.encoder.layers.0.pwff.activation",
		"model.encoder.layers.0.pwff.linear_outer", "model.encoder.layers.0.norm_2",
		"model.encoder.layers.1.mha.query", "model.encoder.layers.1.mha", "model.encoder.layers.1.pwff.linear_outer",
		"model.encoder.layers.1.norm_2",
	}
	for _, m := range want {
		if _, ok := first[m]; !ok {
			t.Errorf("no op tagged %q; modules in order: %s", m, strings.Join(modules, ", "))
		}
	}
	// The scores' matmul is the attention's own; the last op, y.sum(), is
	// outside any module.
	for _, e := range res.Trace {
		if e.Op == "float_matmul" && strings.HasSuffix(e.Module, ".mha") && !strings.HasPrefix(e.Module, "model.encoder.layers.") {
			t.Errorf("matmul tagged %q", e.Module)
		}
		if strings.HasPrefix(e.Module, "model.encoder.layers.1.mha.query") && e.Op != "float_matmul" && e.Op != "float_add" &&
			e.Op != "float_reshape" && e.Op != "float_random" && e.Op != "float_set_require_grad" {
			t.Errorf("op %s in the query projection", e.Op)
		}
	}
	if last := res.Trace[len(res.Trace)-1]; last.Module != "" {
		t.Errorf("y.sum() tagged %q, want no module", last.Module)
	}
	matmuls := 0
	for _, e := range res.Trace {
		if e.Op == "float_matmul" && e.Module == "model.encoder.layers.1.mha" {
			matmuls++
		}
	}
	if matmuls != 2 {
		t.Errorf("%d matmuls in layers.1.mha itself, want 2 (scores and context)", matmuls)
	}
}

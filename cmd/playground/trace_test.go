package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// traceModel is a model of the program's own (a Linear and a Vec of
// Linears) whose forward runs between two operations outside any module.
const traceModel = `use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Model {
    input: Linear,
    blocks: Vec<Linear>,
}

impl Model {
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let mut x = self.input.forward(x).exp();
        for block in &self.blocks {
            x = block.forward(x);
        }
        x
    }
}

fn main() {
    let device = Device::default();
    let model = Model {
        input: LinearConfig::new(4, 3).init(&device),
        blocks: vec![LinearConfig::new(3, 3).init(&device), LinearConfig::new(3, 2).init(&device)],
    };
    let y = model.forward(Tensor::<2>::ones([2, 4], &device));
    let s = y.sum();
}
`

func TestRunTraceGroupsByModule(t *testing.T) {
	rs := filepath.Join(t.TempDir(), "main.rs")
	if err := os.WriteFile(rs, []byte(traceModel), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "run", "--trace", rs)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "trace: ") {
			start = i + 1
		}
	}
	if start < 0 || lines[len(lines)-1] != "status: ok" {
		t.Fatalf("no trace summary, or no status at the end:\n%s", out)
	}
	// Each heading, then how the operations under it are indented.
	var got []string
	for _, l := range lines[start : len(lines)-1] {
		switch {
		case strings.HasPrefix(l, "    "):
			if len(got) == 0 || !strings.HasSuffix(got[len(got)-1], "operations") && !strings.HasSuffix(got[len(got)-1], "operation") {
				t.Errorf("an indented operation under no heading: %q", l)
			}
		case strings.HasSuffix(l, " operations") || strings.HasSuffix(l, " operation"):
			got = append(got, strings.TrimSpace(l))
		default:
			f := strings.Fields(l)
			if len(f) < 2 {
				t.Fatalf("not an operation line: %q", l)
			}
			got = append(got, "outside: "+f[1])
		}
	}
	want := []string{
		"outside: float_ones",
		"model.input: 7 operations",
		"model: 1 operation",
		"model.blocks.0: 7 operations",
		"model.blocks.1: 7 operations",
		"outside: float_sum",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trace's groups:\n%s\nwant:\n%s\noutput:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
	if !strings.Contains(out, "    3  float_set_require_grad") {
		t.Errorf("operation 3 is not listed, indented, under its module:\n%s", out)
	}

	_, plain, _ := cli(t, "run", rs)
	if strings.Contains(plain, "float_ones") || !strings.Contains(plain, "trace: 24 operations") {
		t.Errorf("without --trace: the summary only, got:\n%s", plain)
	}
}

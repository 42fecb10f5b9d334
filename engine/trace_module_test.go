package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// moduleProgram is a two-layer model of the program's own: a Module
// struct holding a Linear and a Vec of Linears, its forward called as
// model.forward(x), with ops before and after it outside any module.
const moduleProgram = `use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Model {
    input: Linear,
    blocks: Vec<Linear>,
}

fn double(x: Tensor<2>) -> Tensor<2> {
    x * 2.0
}

impl Model {
    pub fn new(device: &Device) -> Self {
        Model {
            input: LinearConfig::new(4, 3).init(device),
            blocks: vec![LinearConfig::new(3, 3).init(device), LinearConfig::new(3, 2).init(device)],
        }
    }

    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let x = self.input.forward(x);
        let x = double(x);
        let scale = |t: Tensor<2>| t.exp();
        let mut x = scale(x);
        for block in self.blocks.iter() {
            x = block.forward(x);
        }
        x.neg()
    }

    pub fn last(&self, x: Tensor<2>) -> Tensor<2> {
        self.blocks[1].forward(x)
    }
}

fn main() {
    let device = Device::default();
    let model = Model::new(&device);
    let x = Tensor::<2>::ones([2, 4], &device);
    let y = model.forward(x);
    let z = model.last(Tensor::<2>::ones([2, 3], &device));
    let s = y.sum() + z.sum();
}
`

// moduleRuns are the module of each trace entry in order, runs of one
// module collapsed to one "module xN" item ("-" for none).
func moduleRuns(trace []engine.TraceEntry) []string {
	var out []string
	var last string
	n := 0
	flush := func() {
		if n > 0 {
			name := last
			if name == "" {
				name = "-"
			}
			out = append(out, fmt.Sprintf("%s x%d", name, n))
		}
	}
	for i, e := range trace {
		if i == 0 || e.Module != last {
			flush()
			last, n = e.Module, 0
		}
		n++
	}
	flush()
	return out
}

func TestTraceModulePaths(t *testing.T) {
	res := engine.Run(engine.Request{Snippet: moduleProgram})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	var ops []string
	for _, e := range res.Trace {
		ops = append(ops, e.Op+"@"+e.Module)
	}
	got := strings.Join(moduleRuns(res.Trace), ", ")
	// Linear's Params are drawn on first use, inside its forward (random
	// and set_require_grad for the weight and the bias), then matmul,
	// the bias's reshape and add. double and the closure keep Model::forward's module.
	want := "- x1, model.input x7, model x2, model.blocks.0 x7, model.blocks.1 x7, model x1, " +
		"- x1, model.blocks.1 x3, - x3"
	if got != want {
		t.Errorf("modules of the trace:\n got %s\nwant %s\nops: %s", got, want, strings.Join(ops, " "))
	}
	for _, e := range res.Trace {
		if e.Op == "float_exp" && e.Module != "model" {
			t.Errorf("the closure's exp ran in %q, want the caller's module model", e.Module)
		}
		if e.Op == "float_neg" && e.Module != "model" {
			t.Errorf("Model::forward's own neg ran in %q, want model", e.Module)
		}
	}
}

func TestTraceModuleJSON(t *testing.T) {
	res := engine.Run(engine.Request{Snippet: moduleProgram})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Trace []map[string]any `json:"trace"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Trace) == 0 || len(raw.Trace) != len(res.Trace) {
		t.Fatalf("%d trace entries in the JSON, %d in the Result", len(raw.Trace), len(res.Trace))
	}
	inside, outside := 0, 0
	for i, e := range raw.Trace {
		m, ok := e["module"]
		if res.Trace[i].Module == "" {
			outside++
			if ok {
				t.Errorf("entry %d (%s) outside any module has \"module\": %v", i, res.Trace[i].Op, m)
			}
			continue
		}
		inside++
		if m != res.Trace[i].Module {
			t.Errorf("entry %d: \"module\" is %v, want %q", i, m, res.Trace[i].Module)
		}
	}
	if inside == 0 || outside == 0 {
		t.Errorf("%d entries inside a module, %d outside: the program has both", inside, outside)
	}
}

// A module's method called in another module's, a trait's method on the
// model (TrainStep's step is the model's), field chains from the variable
// the program named, and a module the program named by no variable (its
// type in snake case).
func TestTraceModuleNested(t *testing.T) {
	const src = `use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Block {
    fc: Linear,
    act: Relu,
}

impl Block {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.act.forward(self.fc.forward(x))
    }
}

#[derive(Module, Debug)]
pub struct Encoder {
    layers: Vec<Block>,
    head: Option<Linear>,
}

#[derive(Module, Debug)]
pub struct Net {
    encoder: Encoder,
}

trait Step {
    fn step(&self, x: Tensor<2>) -> Tensor<2>;
}

impl Step for Net {
    fn step(&self, x: Tensor<2>) -> Tensor<2> {
        let mut x = x;
        for (i, layer) in self.encoder.layers.iter().enumerate() {
            x = layer.forward(x);
        }
        match &self.encoder.head {
            Some(h) => h.forward(x),
            None => x,
        }
    }
}

fn main() {
    let d = Device::default();
    let block = || Block { fc: LinearConfig::new(2, 2).init(&d), act: Relu::new() };
    let net = Net { encoder: Encoder { layers: vec![block(), block()], head: Some(LinearConfig::new(2, 1).init(&d)) } };
    let x = Tensor::<2>::ones([1, 2], &d);
    let y = net.step(x.clone());
    let z = net.encoder.layers[1].forward(x.clone());
    let w = block().forward(x);
}
`
	res := engine.Run(engine.Request{Snippet: src})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	got := strings.Join(moduleRuns(res.Trace), ", ")
	want := "- x1, net.encoder.layers.0.fc x7, net.encoder.layers.0.act x1, net.encoder.layers.1.fc x7, " +
		"net.encoder.layers.1.act x1, net.encoder.head x7, net.encoder.layers.1.fc x3, net.encoder.layers.1.act x1, " +
		"block.fc x7, block.act x1"
	if got != want {
		var ops []string
		for _, e := range res.Trace {
			ops = append(ops, e.Op+"@"+e.Module)
		}
		t.Errorf("modules of the trace:\n got %s\nwant %s\nops: %s", got, want, strings.Join(ops, " "))
	}
}

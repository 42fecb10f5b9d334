package train_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// twoBatchers batches numbers into a Tensor<2> and, through it, into a
// Pair: the learner's loaders are of its steps' Input (PARAM), so the
// impl of Batcher<f32, Pair> is the one that runs (paradigm.rs:71), as
// Burn's text-generation example relies on.
const twoBatchers = `use burn::{
    data::{dataloader::{DataLoaderBuilder, batcher::Batcher}, dataset::InMemDataset},
    nn::{Linear, LinearConfig, loss::{MseLoss, Reduction}},
    optim::AdamConfig,
    prelude::*,
    train::{InferenceStep, Learner, RegressionOutput, SupervisedTraining, TrainOutput, TrainStep},
};

#[derive(Clone)]
struct NumberBatcher;

#[derive(Clone, Debug)]
pub struct Pair {
    x: Tensor<2>,
    y: Tensor<2>,
}

impl Batcher<f32, Tensor<2>> for NumberBatcher {
    fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<2> {
        Tensor::<2>::ones([items.len(), 3], device)
    }
}

impl Batcher<f32, Pair> for NumberBatcher {
    fn batch(&self, items: Vec<f32>, device: &Device) -> Pair {
        let all: Tensor<2> = self.batch(items, device);
        Pair { x: all.clone().slice([0..2, 0..2]), y: all.slice([0..2, 1..3]) }
    }
}

#[derive(Module, Debug)]
pub struct Model {
    linear: Linear,
}

impl TrainStep for Model {
    type Input = Pair;
    type Output = RegressionOutput;

    fn step(&self, item: PARAM) -> TrainOutput<RegressionOutput> {
        let output = self.linear.forward(item.x);
        let loss = MseLoss::new().forward(output.clone(), item.y.clone(), Reduction::Mean);
        let out = RegressionOutput::new(loss, output, item.y);
        TrainOutput::new(self, out.loss.backward(), out)
    }
}

impl InferenceStep for Model {
    type Input = Pair;
    type Output = RegressionOutput;

    fn step(&self, item: PARAM) -> RegressionOutput {
        let output = self.linear.forward(item.x);
        RegressionOutput::new(MseLoss::new().forward(output.clone(), item.y.clone(), Reduction::Mean), output, item.y)
    }
}

fn main() {
    let device = Device::default().autodiff();
    let loader = DataLoaderBuilder::new(NumberBatcher)
        .batch_size(2)
        .build(InMemDataset::new(vec![1.0f32, 2.0]));
    let training = SupervisedTraining::new("/tmp/two", loader.clone(), loader);
    let result = training.launch(Learner::new(Model { linear: LinearConfig::new(2, 2).init(&device) }, AdamConfig::new().init(), 1e-3));
}
`

func TestLoaderBatchesTheStepsInput(t *testing.T) {
	for _, param := range []string{"Pair", "Self::Input"} {
		t.Run(param, func(t *testing.T) {
			src := strings.ReplaceAll(twoBatchers, "PARAM", param)
			res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
			if res.Status != engine.StatusOK {
				t.Fatalf("status %s, want ok; diagnostics %+v", res.Status, res.Diagnostics)
			}
			// Each pass's batch is the Pair: its x sliced to [2, 2] from
			// the ones [2, 3] the other impl made, then the forward's
			// matmul of the training and of the validation step.
			slices, matmuls := 0, 0
			for _, e := range res.Trace {
				switch {
				case e.Op == "float_slice" && len(e.Shape) == 2 && e.Shape[0] == 2 && e.Shape[1] == 2:
					slices++
				case e.Op == "float_matmul":
					matmuls++
				}
			}
			if slices < 4 || matmuls < 2 {
				t.Errorf("%d slices to [2, 2] and %d matmuls, want the Pair's two slices and a forward in each pass:\n%+v", slices, matmuls, res.Trace)
			}
		})
	}
}

// A metric's pad token or a count the program reads from outside (its
// tokenizer, a file) is unknown: the builder goes on with it (the
// training runs and traces), and rustc's type checks still apply to the
// metric.
func TestBuilderTakesUnknownArguments(t *testing.T) {
	init := "Model { linear: LinearConfig::new(2, 2).init(&device) }"
	const outside = `std::fs::read("n").unwrap().len()`
	for _, build := range []string{".num_epochs(" + outside + ")", ".grads_accumulation(" + outside + ")"} {
		t.Run(build, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: smallConfig, Snippet: smallProgram(linearModel, init, linearStep, build)})
			if res.Status != engine.StatusOK || len(res.Trace) == 0 {
				t.Fatalf("status %s, %d traced, want the training run: %+v", res.Status, len(res.Trace), res.Diagnostics)
			}
			launched := false
			for _, d := range res.Diagnostics {
				if d.Code == "playground-unmodelled" && strings.HasPrefix(d.Message, "`SupervisedTraining::launch` writes its logs") {
					launched = true
				}
			}
			if !launched {
				t.Errorf("launch did not run: %+v", res.Diagnostics)
			}
		})
	}
	src := smallProgram(linearModel, init, linearStep, ".metrics((AccuracyMetric::new().with_pad_token("+outside+"), LossMetric::new()))")
	res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
	for _, d := range res.Diagnostics {
		if d.Severity == "error" && d.Message == "the trait bound `RegressionOutput: Adaptor<AccuracyInput>` is not satisfied" {
			return
		}
	}
	t.Errorf("status %s, want the accuracy metric's adaptor error with an unknown pad token: %+v", res.Status, res.Diagnostics)
}

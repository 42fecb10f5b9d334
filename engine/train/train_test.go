package train_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"golang.org/x/tools/txtar"
)

// guide is testdata/guide.txtar: the guide's training code on a small
// model and an in-memory dataset.
func guide(t *testing.T) (config, snippet string) {
	t.Helper()
	data, err := os.ReadFile("testdata/guide.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range txtar.Parse(data).Files {
		switch f.Name {
		case "Cargo.toml":
			config = string(f.Data)
		case "main.rs":
			snippet = string(f.Data)
		}
	}
	return config, snippet
}

// lineOf is the 1-based line of the first line of snippet containing s.
func lineOf(t *testing.T, snippet, s string) int {
	t.Helper()
	for i, l := range strings.Split(snippet, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line contains %q", s)
	return 0
}

func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("the snippet has no %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

// TestGuideTraining runs the guide's training: launch forks the model to
// the autodiff device, one training iteration calls the program's
// TrainStep::step on a batch its Batcher built on that device (forward,
// loss, backward), the optimizer steps the parameters, and one validation
// iteration calls InferenceStep::step on the valid model with a batch on
// the inner device. The rest is not run, and a warning says so.
func TestGuideTraining(t *testing.T) {
	config, snippet := guide(t)
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v, diagnostics %+v", res.Status, res.Panic, res.Diagnostics)
	}
	if res.Complete {
		t.Errorf("complete: the iterations after the first were not run, and the Result should say so")
	}
	batchLine := lineOf(t, snippet, "Tensor::<1>::from_floats")
	forwardLine := lineOf(t, snippet, "self.linear2.forward(x)")
	lossLine := lineOf(t, snippet, "let loss = CrossEntropyLossConfig::new()")
	backwardLine := lineOf(t, snippet, "item.loss.backward()")
	launchLine := lineOf(t, snippet, "training.launch(")

	type seen struct{ trainBatch, validBatch, trainForward, validForward, loss, backward, optimizer, accuracy bool }
	var s seen
	backwardAt := -1
	for i, e := range res.Trace {
		line := e.Span.Start.Line
		if e.Device != "Flex(Cpu)" {
			t.Errorf("trace %d: %s on %s, want every op on Flex(Cpu)", i, e.Op, e.Device)
		}
		switch {
		case line == batchLine && e.Op == "float_from_data":
			// The training batch is made on the autodiff device, the
			// validation batch on the inner one (single/strategy.rs:54-56).
			if backwardAt < 0 {
				s.trainBatch = s.trainBatch || e.Autodiff
				if !e.Autodiff {
					t.Errorf("trace %d: the training batch was made off the autodiff device", i)
				}
			} else {
				s.validBatch = s.validBatch || !e.Autodiff
				if e.Autodiff {
					t.Errorf("trace %d: the validation batch was made on the autodiff device", i)
				}
			}
		case line == forwardLine && e.Op == "float_matmul":
			if backwardAt < 0 {
				s.trainForward = s.trainForward || e.Autodiff
			} else {
				s.validForward = s.validForward || !e.Autodiff
			}
		case line == lossLine && e.Op == "log_softmax" && backwardAt < 0:
			s.loss = e.Autodiff
		case line == backwardLine && e.Op == "backward":
			s.backward, backwardAt = true, i
		case line == launchLine && e.Op == "float_sub" && backwardAt >= 0:
			// Adam's update of a parameter (engine/optim) at launch.
			s.optimizer = true
		case line == launchLine && e.Op == "float_argmax" && backwardAt >= 0:
			// AccuracyMetric::update on the synced output, off the tape
			// (acc.rs:53, classification.rs:38).
			s.accuracy = !e.Autodiff && len(e.Shape) == 2
		}
	}
	want := seen{true, true, true, true, true, true, true, true}
	if s != want {
		t.Errorf("trace: got %+v, want %+v", s, want)
	}
	warned := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Code == engine.CodeUnmodelled && d.Span.Start.Line == launchLine {
			warned[d.Message] = true
		}
	}
	if warned["`AccuracyMetric::update` computes its metric on each step's output, which the playground does not model"] {
		t.Errorf("the accuracy metric's update is modelled, and should not be warned about")
	}
	for _, msg := range []string{
		"`SupervisedTraining::launch` runs the training iterations after the first, which repeat the same operations on other batches: they were not run, and are not checked",
		"`SupervisedTraining::launch` runs the validation iterations after the first, which repeat the same operations on other batches: they were not run, and are not checked",
		"`SupervisedTraining::launch` runs the epochs after epoch 1, which repeat the same operations on the same loaders: they were not run, and the trained model's values are unknown",
		"`SupervisedTraining::launch` writes its logs, metrics and checkpoints to files under the artifact directory, which the playground does not write",
	} {
		if !warned[msg] {
			t.Errorf("no warning at the launch: %q; got %v", msg, warned)
		}
	}
	if res.Output != "[Device<Flex(Cpu)>]\n" {
		t.Errorf("output %q: the trained model should be on the model's device", res.Output)
	}
}

// TestOneBatchOneEpochIsComplete: with one epoch of one batch each, the
// whole training runs: no iteration is left unrun, and the trained
// weights, one Adam step from the initial ones, are known and print.
func TestOneBatchOneEpochIsComplete(t *testing.T) {
	config, snippet := guide(t)
	snippet = replace(t, snippet, ".num_epochs(3)", ".num_epochs(1)")
	snippet = strings.ReplaceAll(snippet, ".batch_size(2)", ".batch_size(4)")
	snippet = replace(t, snippet, `println!("{:?}", result.model.devices());`, `println!("{}", result.model.linear2.weight.val());`)
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v", res.Status, res.Panic)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "were not run") || d.Code == engine.CodeUnchecked {
			t.Errorf("%s: %q: every iteration ran", d.Code, d.Message)
		}
	}
	if !strings.HasPrefix(res.Output, "Tensor {\n  data:\n[[") {
		t.Errorf("output %q: the trained weights should print", res.Output)
	}
}

// TestStepMovesTheBatchToAnotherDevice: a TrainStep that takes its batch
// off the model's device panics where Burn's dispatch does, in check and
// run alike: moved to the GPU, at the move (the batch is on the CPU's
// autodiff device, and an autodiff tensor does not change backends);
// combined with a tensor made on the GPU, at that op.
func TestStepMovesTheBatchToAnotherDevice(t *testing.T) {
	config, snippet := guide(t)
	config = replace(t, config, `features = ["train"]`, `features = ["train", "flex", "cuda"]`) +
		"\n[package.metadata.playground]\nhardware = { cuda = 1 }\n"
	snippet = replace(t, snippet, "let device = Device::default();", "let device = Device::flex();")
	cases := []struct{ inputs, message, at string }{
		{"batch.inputs.to_device(&Device::cuda(0))", "Cannot move between autodiff and non-autodiff instances.", "batch.inputs.to_device("},
		{"batch.inputs.to_device(&Device::cuda(0).autodiff())", "not implemented: Autodiff tensor cannot be moved between backends.", "batch.inputs.to_device("},
		{"batch.inputs + Tensor::<2>::zeros([2, 4], &Device::cuda(0).autodiff())", "=== Tensor Operation Error ===\n  Operation: 'Add'\n  Reason:\n    1. The provided tensors are not on the same device.", "batch.inputs + Tensor"},
	}
	for _, c := range cases {
		t.Run(c.inputs, func(t *testing.T) {
			src := replace(t, snippet, "let item = self.forward_classification(batch.inputs, batch.targets);",
				"let item = self.forward_classification("+c.inputs+", batch.targets);")
			res := engine.Run(engine.Request{Config: config, Snippet: src})
			if res.Status != engine.StatusPanicked || res.Panic == nil {
				t.Fatalf("status %s, want a panic; diagnostics %+v", res.Status, res.Diagnostics)
			}
			if !strings.HasPrefix(res.Panic.Message, c.message) {
				t.Errorf("panic %q, want %q", res.Panic.Message, c.message)
			}
			if want := lineOf(t, src, c.at); res.Panic.Span.Start.Line != want {
				t.Errorf("panic at line %d, want %d", res.Panic.Span.Start.Line, want)
			}
			checked := false
			for _, d := range res.Diagnostics {
				checked = checked || d.Phase == "check" && d.Severity == "error" && d.Code == res.Panic.Code && d.Span == res.Panic.Span
			}
			if !checked {
				t.Errorf("the check did not report the panic")
			}
		})
	}
}

// small is a training of a model whose TrainStep and InferenceStep are
// its own, on a loader of four numbers: MODEL is its struct's body, INIT
// the value launch trains, STEP the TrainStep's body, BUILD the builder
// calls after SupervisedTraining::new.
const small = `use burn::{
    data::{dataloader::{DataLoaderBuilder, batcher::Batcher}, dataset::InMemDataset},
    nn::{Linear, LinearConfig, Relu, loss::{MseLoss, Reduction}},
    optim::AdamConfig,
    prelude::*,
    train::{
        ClassificationOutput, InferenceStep, Learner, RegressionOutput, SupervisedTraining, TrainOutput, TrainStep,
        metric::{AccuracyMetric, CudaMetric, LossMetric, PrecisionMetric},
    },
};

#[derive(Clone)]
struct NumberBatcher;

impl Batcher<f32, Tensor<2>> for NumberBatcher {
    fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<2> {
        Tensor::<2>::ones([items.len(), 2], device)
    }
}

#[derive(Module, Debug)]
pub struct Model {
MODEL
}

impl TrainStep for Model {
    type Input = Tensor<2>;
    type Output = RegressionOutput;

    fn step(&self, x: Tensor<2>) -> TrainOutput<RegressionOutput> {
STEP
    }
}

impl InferenceStep for Model {
    type Input = Tensor<2>;
    type Output = RegressionOutput;

    fn step(&self, x: Tensor<2>) -> RegressionOutput {
        let output = x.clone();
        RegressionOutput::new(MseLoss::new().forward(output.clone(), x.clone(), Reduction::Mean), output, x)
    }
}

fn main() {
    let device = Device::default().autodiff();
    let loader = DataLoaderBuilder::new(NumberBatcher)
        .batch_size(2)
        .build(InMemDataset::new(vec![1.0f32, 2.0, 3.0, 4.0]));
    let training = SupervisedTraining::new("/tmp/small", loader.clone(), loader)BUILD;
    let result = training.launch(Learner::new(INIT, AdamConfig::new().init(), 1e-3));
}
`

const linearModel = "    linear: Linear,"

const linearStep = `        let output = self.linear.forward(x.clone());
        let loss = MseLoss::new().forward(output.clone(), x.clone(), Reduction::Mean);
        let item = RegressionOutput::new(loss, output, x);
        TrainOutput::new(self, item.loss.backward(), item)`

func smallProgram(model, init, step, build string) string {
	return strings.NewReplacer("MODEL", model, "INIT", init, "STEP", step, "BUILD", build).Replace(small)
}

const smallConfig = "[dependencies]\nburn = { version = \"0.22\", features = [\"train\"] }\n"

// TestModelWithoutParams: launch takes the device of the model's first
// parameter (paradigm.rs:411); a model with none panics there, as
// indexing an empty Vec does.
func TestModelWithoutParams(t *testing.T) {
	src := smallProgram("    activation: Relu,", "Model { activation: Relu::new() }", "        unimplemented!()", "")
	res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
	if res.Panic == nil {
		t.Fatalf("status %s, want a panic; diagnostics %+v", res.Status, res.Diagnostics)
	}
	if res.Panic.Message != "index out of bounds: the len is 0 but the index is 0" ||
		res.Panic.Location != "crates/burn-train/src/learner/supervised/paradigm.rs:411" {
		t.Errorf("panic %q at %s", res.Panic.Message, res.Panic.Location)
	}
	if want := lineOf(t, src, "training.launch("); res.Panic.Span.Start.Line != want {
		t.Errorf("panic at line %d, want the launch at %d", res.Panic.Span.Start.Line, want)
	}
}

// TestMetrics: the metrics construct and register as Burn's builders
// decide; the compile errors of a wrong registration and Burn's panics in
// the constructors.
func TestMetrics(t *testing.T) {
	init := "Model { linear: LinearConfig::new(2, 2).init(&device) }"
	cases := []struct {
		name, build string
		// code is the error's (check) or the panic's code; message its text.
		code, message string
		panics        bool
	}{
		{name: "loss metrics", build: ".metric_train_numeric(LossMetric::new()).metric_valid_numeric(LossMetric::new())"},
		{name: "a non-numeric metric as a text metric", build: ".metric_train(CudaMetric::new())"},
		{name: "a non-numeric metric as numeric", build: ".metric_train_numeric(CudaMetric::new())",
			code: "trait-not-implemented", message: "the trait bound `CudaMetric: Numeric` is not satisfied"},
		{name: "accuracy on a regression output", build: ".metrics((AccuracyMetric::new().with_pad_token(0), LossMetric::new()))",
			code: "trait-not-implemented", message: "the trait bound `RegressionOutput: Adaptor<AccuracyInput>` is not satisfied"},
		{name: "precision with top_k 0", build: ".metric_valid_numeric(PrecisionMetric::multiclass(0, burn::train::metric::ClassReduction::Macro))",
			code: "top-k-must-be-non-zero", message: "top_k must be non-zero", panics: true},
		{name: "a metric that is not one", build: ".metric_train(3)", code: "trait-not-implemented", message: "the trait bound `i32: Metric` is not satisfied"},
		{name: "the book's metrics of an older Burn", build: ".devices(vec![device.clone()])",
			code: "unknown-method", message: "no method named `devices` found for struct `SupervisedTraining` in the current scope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := smallProgram(linearModel, init, linearStep, c.build)
			res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
			if c.code == "" {
				if res.Status != engine.StatusOK {
					t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
				}
				return
			}
			if c.panics {
				if res.Panic == nil || res.Panic.Message != c.message || res.Panic.Code != c.code {
					t.Fatalf("status %s, panic %+v: want %q", res.Status, res.Panic, c.message)
				}
				return
			}
			if res.Status != engine.StatusRejected {
				t.Fatalf("status %s, want rejected; %+v", res.Status, res.Diagnostics)
			}
			for _, d := range res.Diagnostics {
				if d.Severity == "error" && d.Code == c.code && d.Message == c.message {
					return
				}
			}
			t.Errorf("no %s error %q in %+v", c.code, c.message, res.Diagnostics)
		})
	}
}

// TestEvaluator: the evaluator moves each test loader to the trained
// model's device (evaluator/base.rs:53), the model's inner device after
// valid() (the loader was set to the autodiff device), and runs
// InferenceStep::step on one batch of it.
func TestEvaluator(t *testing.T) {
	init := "Model { linear: LinearConfig::new(2, 2).init(&device) }"
	src := smallProgram(linearModel, init, linearStep, "")
	src = replace(t, src, "    let result = training.launch(", `    let test = DataLoaderBuilder::new(NumberBatcher)
        .batch_size(2)
        .set_device(&device)
        .build(InMemDataset::new(vec![5.0f32, 6.0]));
    let result = training.launch(`)
	src = replace(t, src, "AdamConfig::new().init(), 1e-3));\n", `AdamConfig::new().init(), 1e-3));
    let mut renderer = burn::train::EvaluatorBuilder::new("/tmp/small")
        .renderer(result.renderer)
        .metrics((LossMetric::new(),))
        .summary()
        .build(result.model.clone())
        .eval_all(vec![("test".to_string(), test)]);
    renderer.manual_close();
`)
	res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	batcher := lineOf(t, src, "Tensor::<2>::ones([items.len(), 2], device)")
	inference := lineOf(t, src, "RegressionOutput::new(MseLoss::new().forward(output.clone(), x.clone(), Reduction::Mean), output, x)")
	var batches []bool // each batch's autodiff flag, in order
	steps := 0
	for _, e := range res.Trace {
		if e.Span.Start.Line == batcher && e.Op == "float_ones" {
			if e.Device != "Flex(Cpu)" {
				t.Errorf("a batch on %s", e.Device)
			}
			batches = append(batches, e.Autodiff)
		}
		if e.Span.Start.Line == inference && e.Op == "float_sub" {
			steps++
		}
	}
	// Training on the autodiff device; validation and evaluation on the
	// inner one, each running InferenceStep::step once.
	if want := []bool{true, false, false}; !slices.Equal(batches, want) || steps != 2 {
		t.Errorf("batches made with autodiff %v, want %v; inference steps %d, want 2", batches, want, steps)
	}
}

// TestPanics: burn-train's panics on these paths, each with Burn's message
// at its site, in check and run alike.
func TestPanics(t *testing.T) {
	linear := "Model { linear: LinearConfig::new(2, 2).init(&device) }"
	cases := []struct {
		name, model, init, build, main string
		message, location              string
	}{
		{name: "main_device of no device", model: linearModel, init: linear,
			main:    "let _ = burn::train::ExecutionStrategy::multi(vec![], burn::train::MultiDeviceOptim::OptimMainDevice).main_device();",
			message: "index out of bounds: the len is 0 but the index is 0", location: "crates/burn-train/src/learner/supervised/strategies/base.rs:48"},
		{name: "a multi-device strategy of no device", model: linearModel, init: linear,
			build:   ".with_training_strategy(burn::train::ExecutionStrategy::multi(vec![], burn::train::MultiDeviceOptim::OptimMainDevice).into())",
			message: "called `Option::unwrap()` on a `None` value", location: "crates/burn-train/src/learner/supervised/strategies/multi/strategy.rs:29"},
		{name: "evaluating a model with no parameter", model: "    activation: Relu,", init: "",
			main:    `let _ = burn::train::EvaluatorBuilder::new("/tmp/small").build(Model { activation: Relu::new() }).eval("test", loader_eval);`,
			message: "called `Option::unwrap()` on a `None` value", location: "crates/burn-train/src/evaluator/base.rs:53"},
		{name: "recall with top_k 0", model: linearModel, init: linear,
			build:   ".metric_valid_numeric(burn::train::metric::RecallMetric::multiclass(0, burn::train::metric::ClassReduction::Macro))",
			message: "top_k must be non-zero", location: "crates/burn-train/src/metric/recall.rs:63"},
		{name: "F-beta with top_k 0", model: linearModel, init: linear,
			build:   ".metric_valid_numeric(burn::train::metric::FBetaScoreMetric::multiclass(1.0, 0, burn::train::metric::ClassReduction::Macro))",
			message: "top_k must be non-zero", location: "crates/burn-train/src/metric/fbetascore.rs:74"},
		{name: "BLEU of order 0", model: linearModel, init: linear,
			main:    "let _ = burn::train::metric::BleuScore::with_max_n(0);",
			message: "max_n must be at least 1", location: "crates/burn-train/src/metric/bleu.rs:102"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := smallProgram(c.model, c.init, linearStep, c.build)
			if c.model != linearModel {
				src = smallProgram(c.model, "Model { activation: Relu::new() }", "        unimplemented!()", c.build)
			}
			if c.main != "" {
				src = replace(t, src, "    let loader = DataLoaderBuilder::new(NumberBatcher)", "    let loader_eval = DataLoaderBuilder::new(NumberBatcher).batch_size(2).build(InMemDataset::new(vec![1.0f32]));\n    "+c.main+"\n    let loader = DataLoaderBuilder::new(NumberBatcher)")
			}
			res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
			if res.Panic == nil || res.Panic.Message != c.message || res.Panic.Location != c.location {
				t.Fatalf("status %s, panic %+v; want %q at %s", res.Status, res.Panic, c.message, c.location)
			}
			checked := false
			for _, d := range res.Diagnostics {
				checked = checked || d.Phase == "check" && d.Severity == "error" && d.Code == res.Panic.Code && d.Span == res.Panic.Span
			}
			if !checked {
				t.Errorf("the check did not report the panic")
			}
		})
	}
}

// TestSingleDeviceStrategy: with_training_strategy(ExecutionStrategy::
// SingleDevice(d).into()) trains where the strategy says, not where the
// model was made: launch forks the model to d's autodiff device and the
// loaders make their batches there (paradigm.rs:431-441). A model made
// on the first GPU trains on the second; one made on the CPU's autodiff
// device panics at the fork, since an autodiff tensor does not change
// backends (param/tensor.rs:174 through Dispatch's to_device).
func TestSingleDeviceStrategy(t *testing.T) {
	config, snippet := guide(t)
	config = replace(t, config, `features = ["train"]`, `features = ["train", "flex", "cuda"]`) +
		"\n[package.metadata.playground]\nhardware = { cuda = 2 }\n"
	snippet = replace(t, snippet, "use burn::{", "use burn::train::ExecutionStrategy;\nuse burn::{")
	snippet = replace(t, snippet, ".num_epochs(3)", ".num_epochs(3)\n        .with_training_strategy(ExecutionStrategy::SingleDevice(Device::cuda(1)).into())")

	t.Run("from another GPU", func(t *testing.T) {
		src := replace(t, snippet, "let device = Device::default();", "let device = Device::cuda(0);")
		res := engine.Run(engine.Request{Config: config, Snippet: src})
		if res.Status != engine.StatusOK {
			t.Fatalf("status %s, panic %+v", res.Status, res.Panic)
		}
		forward := lineOf(t, src, "self.linear2.forward(x)")
		batch := lineOf(t, src, "Tensor::<1>::from_floats")
		var train, valid int
		for _, e := range res.Trace {
			if e.Span.Start.Line != forward && e.Span.Start.Line != batch {
				continue
			}
			switch {
			case e.Device != "Cuda(Cuda(1))":
				t.Errorf("%s on %s: the step should run on the strategy's device", e.Op, e.Device)
			case e.Autodiff:
				train++
			default:
				valid++
			}
		}
		if train == 0 || valid == 0 {
			t.Errorf("ops of the training step on Cuda(1) autodiff: %d, of the validation step on Cuda(1): %d", train, valid)
		}
		if res.Output != "[Device<Cuda(Cuda(1))>]\n" {
			t.Errorf("output %q: the trained model is on the strategy's device", res.Output)
		}
	})
	t.Run("from the CPU", func(t *testing.T) {
		src := replace(t, snippet, "let device = Device::default();", "let device = Device::flex();")
		res := engine.Run(engine.Request{Config: config, Snippet: src})
		if res.Panic == nil || res.Panic.Message != "not implemented: Autodiff tensor cannot be moved between backends." {
			t.Fatalf("status %s, panic %+v", res.Status, res.Panic)
		}
		if want := lineOf(t, src, "training.launch("); res.Panic.Span.Start.Line != want {
			t.Errorf("panic at line %d, want the launch's fork at %d", res.Panic.Span.Start.Line, want)
		}
	})
}

// TestGradsAccumulation: with grads_accumulation(2) the optimizer does not
// step after the first iteration (epoch.rs:111-121): the trace has the
// step's backward and the metrics, and no parameter update.
func TestGradsAccumulation(t *testing.T) {
	config, snippet := guide(t)
	snippet = replace(t, snippet, ".num_epochs(3)", ".num_epochs(3)\n        .grads_accumulation(2)")
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v", res.Status, res.Panic)
	}
	backward, launch := lineOf(t, snippet, "item.loss.backward()"), lineOf(t, snippet, "training.launch(")
	var backwards, updates, metrics int
	for _, e := range res.Trace {
		switch {
		case e.Span.Start.Line == backward && e.Op == "backward":
			backwards++
		case e.Span.Start.Line == launch && e.Op == "float_sub":
			updates++
		case e.Span.Start.Line == launch && e.Op == "float_argmax":
			metrics++
		}
	}
	if backwards != 1 || updates != 0 || metrics != 2 {
		t.Errorf("backward passes %d, parameter updates %d, accuracy updates %d; want 1, 0, 2 (training and validation)", backwards, updates, metrics)
	}
}

// TestUnknownStepOutput: when the engine does not know what the step gave
// (here its loss is scaled by the length of a file's text), it does not know
// the gradients nor the parameters the optimizer makes of them: even a
// training of one batch and one epoch leaves the trained weights unknown
// (their shape and device kept).
func TestUnknownStepOutput(t *testing.T) {
	config, snippet := guide(t)
	snippet = replace(t, snippet, ".num_epochs(3)", ".num_epochs(1)")
	snippet = strings.ReplaceAll(snippet, ".batch_size(2)", ".batch_size(4)")
	snippet = replace(t, snippet, "TrainOutput::new(self, item.loss.backward(), item)",
		`let scale = std::fs::read_to_string("scale.txt").map(|s| s.len()).unwrap_or(1);
        let loss = item.loss.clone() * (scale as f32);
        TrainOutput::new(self, loss.backward(), item)`)
	snippet = replace(t, snippet, `println!("{:?}", result.model.devices());`, `println!("{}", result.model.linear2.weight.val());`)
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v, %+v", res.Status, res.Panic, res.Diagnostics)
	}
	// The print of a tensor whose values are unknown is not checked: nothing
	// is printed, and the warning says why.
	unchecked := false
	for _, d := range res.Diagnostics {
		unchecked = unchecked || d.Code == "playground-unchecked" && strings.Contains(d.Message, "`println!` was not checked")
	}
	if res.Output != "" || !unchecked || res.Complete {
		t.Errorf("the trained weights printed %q (unchecked %v, complete %v): their values are not known", res.Output, unchecked, res.Complete)
	}
}

// TestSequenceOutputAccuracy: AccuracyMetric on a SequenceOutput computes
// on its flat logits and targets (sequence.rs:38-48, 89-93).
func TestSequenceOutputAccuracy(t *testing.T) {
	src := `use burn::{
    data::{dataloader::{DataLoaderBuilder, batcher::Batcher}, dataset::InMemDataset},
    nn::{Linear, LinearConfig},
    optim::SgdConfig,
    prelude::*,
    train::{InferenceStep, Learner, SequenceOutput, SupervisedTraining, TrainOutput, TrainStep, metric::AccuracyMetric},
};

#[derive(Clone)]
struct TokensBatcher;

impl Batcher<f32, Tensor<3>> for TokensBatcher {
    fn batch(&self, items: Vec<f32>, device: &Device) -> Tensor<3> {
        Tensor::<3>::ones([items.len(), 3, 4], device)
    }
}

#[derive(Module, Debug)]
pub struct Model {
    linear: Linear,
}

impl Model {
    fn sequence(&self, x: Tensor<3>) -> SequenceOutput {
        let [batch, seq, _] = x.dims();
        let logits = self.linear.forward(x);
        let loss = logits.clone().mean();
        let targets = Tensor::<2, Int>::zeros([batch, seq], &logits.device());
        SequenceOutput::new(loss, logits, None, targets)
    }
}

impl TrainStep for Model {
    type Input = Tensor<3>;
    type Output = SequenceOutput;

    fn step(&self, x: Tensor<3>) -> TrainOutput<SequenceOutput> {
        let item = self.sequence(x);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl InferenceStep for Model {
    type Input = Tensor<3>;
    type Output = SequenceOutput;

    fn step(&self, x: Tensor<3>) -> SequenceOutput {
        self.sequence(x)
    }
}

fn main() {
    let device = Device::default().autodiff();
    let loader = DataLoaderBuilder::new(TokensBatcher).batch_size(2).build(InMemDataset::new(vec![1.0f32, 2.0]));
    let training = SupervisedTraining::new("/tmp/seq", loader.clone(), loader).metric_train_numeric(AccuracyMetric::new());
    let model = Model { linear: LinearConfig::new(4, 4).init(&device) };
    let _ = training.launch(Learner::new(model, SgdConfig::new().init(), 1e-2));
}
`
	res := engine.Run(engine.Request{Config: smallConfig, Snippet: src})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v, %+v", res.Status, res.Panic, res.Diagnostics)
	}
	launch := lineOf(t, src, "training.launch(")
	var flat, argmax bool
	for _, e := range res.Trace {
		if e.Span.Start.Line != launch {
			continue
		}
		flat = flat || e.Op == "float_reshape" && slices.Equal(e.Shape, []int64{6, 4})
		argmax = argmax || e.Op == "float_argmax" && slices.Equal(e.Shape, []int64{6, 1})
	}
	if !flat || !argmax {
		t.Errorf("the flat logits [6, 4]: %v, their argmax [6, 1]: %v", flat, argmax)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "AccuracyMetric::update") {
			t.Errorf("warning %q: the accuracy on a sequence output is modelled", d.Message)
		}
	}
}

// TestPerplexity: PerplexityMetric computes on the synced output as
// perplexity.rs:202-234 does: log_softmax, the targets' log probabilities
// gathered, the pad token masked out.
func TestPerplexity(t *testing.T) {
	config, snippet := guide(t)
	snippet = replace(t, snippet, ".metrics((AccuracyMetric::new(), LossMetric::new()))",
		".metric_train_numeric(burn::train::metric::PerplexityMetric::new().with_pad_token(1))")
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v", res.Status, res.Panic)
	}
	launch := lineOf(t, snippet, "training.launch(")
	var ops []string
	for _, e := range res.Trace {
		if e.Span.Start.Line == launch && (e.Op == "log_softmax" || e.Op == "float_gather" || e.Op == "int_not_equal_elem" || e.Op == "float_mask_fill") {
			ops = append(ops, e.Op)
		}
	}
	if want := []string{"log_softmax", "float_gather", "int_not_equal_elem", "float_mask_fill"}; !slices.Equal(ops, want) {
		t.Errorf("the metric's ops at the launch: %v, want %v (the training split only)", ops, want)
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "PerplexityMetric::update") {
			t.Errorf("warning %q: the perplexity is modelled", d.Message)
		}
	}
}

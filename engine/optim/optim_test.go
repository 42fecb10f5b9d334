package optim_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const cargo = "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"ndarray\", \"autodiff\", \"train\"] }\n"

// TestConfigs builds and prints burn-optim's configs as #[derive(Config)]
// does: f32 defaults as f32, serde's order (Options before defaults).
func TestConfigs(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"AdamConfig with weight decay and clipping",
			`let c = AdamConfig::new().with_weight_decay(Some(WeightDecayConfig::new(5e-5))).with_grad_clipping(Some(GradientClippingConfig::Value(1.0)));
println!("{c}"); println!("{:?}", c);`,
			"{\n  \"weight_decay\": {\n    \"penalty\": 0.00005\n  },\n  \"grad_clipping\": {\n    \"Value\": 1.0\n  },\n  \"beta_1\": 0.9,\n  \"beta_2\": 0.999,\n  \"epsilon\": 0.00001,\n  \"amsgrad\": false\n}\n" +
				"AdamConfig { beta_1: 0.9, beta_2: 0.999, epsilon: 1e-5, amsgrad: false, weight_decay: Some(WeightDecayConfig { penalty: 5e-5 }), grad_clipping: Some(Value(1.0)) }\n"},
		{"AdamWConfig's defaults", `println!("{:?}", AdamWConfig::new().with_weight_decay(0.01));`,
			"AdamWConfig { beta_1: 0.9, beta_2: 0.999, epsilon: 1e-5, weight_decay: 0.01, cautious_weight_decay: false, amsgrad: false, grad_clipping: None }\n"},
		{"SgdConfig with momentum", `println!("{}", SgdConfig::new().with_momentum(Some(MomentumConfig::new().with_nesterov(true))));`,
			"{\n  \"weight_decay\": null,\n  \"momentum\": {\n    \"momentum\": 0.9,\n    \"dampening\": 0.1,\n    \"nesterov\": true\n  },\n  \"gradient_clipping\": null\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "use burn::optim::{AdamConfig, AdamWConfig, SgdConfig, momentum::MomentumConfig, decay::WeightDecayConfig, GradientClippingConfig};\nfn main() {\n" + c.body + "\n}\n"
			res := engine.Run(engine.Request{Config: cargo, Snippet: src})
			if res.Status != engine.StatusOK || !res.Complete {
				t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
			}
			if res.Output != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, c.want)
			}
		})
	}
}

// run runs a program whose main is body and returns its output.
func run(t *testing.T, imports, body string) string {
	t.Helper()
	src := imports + "\nfn main() {\n" + body + "\n}\n"
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK || !res.Complete {
		t.Fatalf("status %s complete %v: %+v\noutput: %s", res.Status, res.Complete, res.Diagnostics, res.Output)
	}
	return res.Output
}

// floats reads the `{:?}` of Vec<f32>s printed on one line.
func floats(t *testing.T, line string) [][]float32 {
	t.Helper()
	var out [][]float32
	for _, part := range strings.Split(line, "] [") {
		part = strings.Trim(part, "[] ")
		var v []float32
		for _, f := range strings.Split(part, ", ") {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil {
				t.Fatalf("not a float: %q in %q", f, line)
			}
			v = append(v, float32(x))
		}
		out = append(out, v)
	}
	return out
}

const stepImports = `use burn::prelude::*;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{AdamConfig, SgdConfig, GradientsParams, momentum::MomentumConfig};`

// stepLoop prints, for each of three steps, the weight and its gradient,
// then the final weight: a tiny Linear trained on a squared loss, so the
// gradients change from step to step.
func stepLoop(optim string) string {
	return `let device = Device::default().autodiff();
    let mut model: Linear = LinearConfig::new(2, 1).init(&device);
    let mut optim = ` + optim + `.init();
    let x = Tensor::<2>::from_data([[1.0, -2.0], [0.5, 3.0]], &device);
    for _ in 0..3 {
        let loss = model.forward(x.clone()).powi_scalar(2).sum();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        let w = model.weight.val().into_data().to_vec::<f32>().unwrap();
        let g = grads.get::<2>(model.weight.id).unwrap().into_data().to_vec::<f32>().unwrap();
        println!("{:?} {:?}", w, g);
        model = optim.step(0.1, model, grads);
    }
    println!("{:?}", model.weight.val().into_data().to_vec::<f32>().unwrap());`
}

func near(a, b float32) bool {
	return math.Abs(float64(a-b)) <= 2e-7*math.Max(1, math.Abs(float64(b)))
}

// checkSteps compares each printed weight with ref(previous weight, its
// gradient, step), the optimizer computed naively in f32.
func checkSteps(t *testing.T, out string, ref func(w, g []float32, step int) []float32) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("output %q", out)
	}
	for i := 0; i < 3; i++ {
		cur := floats(t, lines[i])
		want := ref(cur[0], cur[1], i+1)
		got := floats(t, lines[i+1])[0]
		for j := range want {
			if !near(got[j], want[j]) {
				t.Errorf("step %d: weight[%d] = %v, want %v (weight %v, grad %v)", i+1, j, got[j], want[j], cur[0], cur[1])
			}
		}
	}
}

// TestAdamStep: Adam's moments and bias correction (adam.rs:149-211)
// persist in the optimizer from step to step.
func TestAdamStep(t *testing.T) {
	out := run(t, stepImports, stepLoop("AdamConfig::new()"))
	var m1, m2 []float32
	b1, b2, eps := float32(0.9), float32(0.999), float32(1e-5)
	checkSteps(t, out, func(w, g []float32, step int) []float32 {
		if m1 == nil {
			m1, m2 = make([]float32, len(g)), make([]float32, len(g))
			for i := range g {
				m1[i] = g[i] * (1 - b1)
				m2[i] = g[i] * g[i] * (1 - b2)
			}
		} else {
			for i := range g {
				m1[i] = m1[i]*b1 + g[i]*(1-b1)
				m2[i] = m2[i]*b2 + g[i]*g[i]*(1-b2)
			}
		}
		pb1, pb2 := float32(1), float32(1)
		for k := 0; k < step; k++ {
			pb1 *= b1
			pb2 *= b2
		}
		bc2 := float32(math.Sqrt(float64(1 - pb2)))
		factor := bc2 / (1 - pb1)
		out := make([]float32, len(w))
		for i := range w {
			delta := m1[i] * factor / (float32(math.Sqrt(float64(m2[i]))) + eps*bc2)
			out[i] = w[i] - delta*float32(0.1)
		}
		return out
	})
}

// TestSgdMomentumStep: SGD with momentum (momentum.rs:58-77): the
// velocity is kept between steps, dampened.
func TestSgdMomentumStep(t *testing.T) {
	out := run(t, stepImports, stepLoop("SgdConfig::new().with_momentum(Some(MomentumConfig::new()))"))
	var v []float32
	checkSteps(t, out, func(w, g []float32, step int) []float32 {
		if v == nil {
			v = append([]float32{}, g...)
		} else {
			for i := range g {
				v[i] = g[i]*float32(0.9) + v[i]*float32(0.9)
			}
		}
		out := make([]float32, len(w))
		for i := range w {
			out[i] = w[i] - v[i]*float32(0.1)
		}
		return out
	})
}

const schedImports = `use burn::optim::lr_scheduler::{linear::LinearLrSchedulerConfig, cosine::CosineAnnealingLrSchedulerConfig,
    exponential::ExponentialLrSchedulerConfig, step::StepLrSchedulerConfig, composed::{ComposedLrSchedulerConfig, SchedulerReduction},
    sequential::SequentialLrSchedulerConfig};`

// lrs prints n learning rates of a scheduler config's init, each with
// {:?} (the shortest round-trip digits).
func lrs(t *testing.T, config string, n int) []float64 {
	t.Helper()
	out := run(t, schedImports, "let mut s = "+config+".init().unwrap();\n    for _ in 0.."+strconv.Itoa(n)+` { println!("{:?}", s.step().base()); }`)
	var got []float64
	for _, l := range strings.Fields(out) {
		x, err := strconv.ParseFloat(l, 64)
		if err != nil {
			t.Fatalf("not an f64: %q", l)
		}
		got = append(got, x)
	}
	if len(got) != n {
		t.Fatalf("output %q", out)
	}
	return got
}

// TestSchedulers: each scheduler's learning rates against its formula
// (linear.rs:72-76, exponential.rs:64-68, step.rs:87-98, composed.rs:112-130,
// sequential.rs:103-112), exactly, in f64.
func TestSchedulers(t *testing.T) {
	check := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s step %d: lr %v, want %v", name, i+1, got[i], want[i])
			}
		}
	}
	// Variables, not constants: Go folds constant expressions exactly,
	// Rust computes in f64.
	lo, hi, mid, c3, c5, half := 0.01, 0.1, 0.04, 0.3, 0.5, 0.5
	var want []float64
	step := (lo - hi) / 4.0
	for i := 1; i <= 6; i++ {
		remaining := max(5-i, 0)
		want = append(want, lo-step*float64(remaining))
	}
	check("linear", lrs(t, "LinearLrSchedulerConfig::new(0.1, 0.01, 4)", 6), want)

	want = want[:0]
	gamma := 0.9
	prev := c5 / gamma
	for i := 0; i < 4; i++ {
		prev *= gamma
		want = append(want, prev)
	}
	check("exponential", lrs(t, "ExponentialLrSchedulerConfig::new(0.5, 0.9)", 4), want)

	want = want[:0]
	for i := 0; i < 7; i++ {
		g := 1.0
		for k := 0; k < i/3; k++ {
			g *= half
		}
		want = append(want, 0.2*g)
	}
	check("step", lrs(t, "StepLrSchedulerConfig::new(0.2, 3).with_gamma(0.5)", 7), want)

	// A composed sum of a linear and a constant; a sequential linear then
	// exponential, switching at the milestone.
	want = want[:0]
	linStep := (mid - hi) / 2
	for i := 1; i <= 3; i++ {
		want = append(want, (mid-linStep*float64(max(3-i, 0)))+c5)
	}
	check("composed", lrs(t, "ComposedLrSchedulerConfig::new().linear(LinearLrSchedulerConfig::new(0.1, 0.04, 2)).constant(0.5).with_reduction(SchedulerReduction::Sum)", 3), want)
	e := c3 / half
	want = []float64{mid - linStep*2, mid - linStep*1}
	for i := 0; i < 3; i++ {
		e *= half
		want = append(want, e)
	}
	check("sequential", lrs(t, "SequentialLrSchedulerConfig::new(vec![LinearLrSchedulerConfig::new(0.1, 0.04, 2).into(), ExponentialLrSchedulerConfig::new(0.3, 0.5).into()], vec![2])", 5), want)
}

// TestCosineAndNoam: cosine annealing (cosine.rs:87-99, its counter
// starting at usize::MAX so the first rate is the initial one) and Noam
// (noam.rs:65-73) against their formulas, to an ulp (Burn takes cos and
// powf from libm).
func TestCosineAndNoam(t *testing.T) {
	closeTo := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 4e-16*math.Abs(want[i]) {
				t.Errorf("%s step %d: lr %v, want %v", name, i+1, got[i], want[i])
			}
		}
	}
	var want []float64
	for i := 0; i < 6; i++ {
		want = append(want, 0.01+0.5*(0.2-0.01)*(1+math.Cos(float64(i)/4*math.Pi)))
	}
	closeTo("cosine", lrs(t, "CosineAnnealingLrSchedulerConfig::new(0.2, 4).with_min_lr(0.01)", 6), want)
	want = want[:0]
	for i := 1; i <= 5; i++ {
		s := float64(i)
		want = append(want, 2.0*math.Pow(16, -0.5)*math.Min(math.Pow(s, -0.5), s*math.Pow(3, -1.5)))
	}
	out := run(t, "use burn::optim::lr_scheduler::noam::NoamLrSchedulerConfig;", `let mut s = NoamLrSchedulerConfig::new(2.0).with_warmup_steps(3).with_model_size(16).init().unwrap();
    for _ in 0..5 { println!("{:?}", s.step().base()); }`)
	var got []float64
	for _, l := range strings.Fields(out) {
		x, _ := strconv.ParseFloat(l, 64)
		got = append(got, x)
	}
	if len(got) != 5 {
		t.Fatalf("output %q", out)
	}
	closeTo("noam", got, want)
}

// TestSchedulerErrors: init is a Result whose Err is build's message;
// build itself is pub(crate).
func TestSchedulerErrors(t *testing.T) {
	res := engine.Run(engine.Request{Config: cargo, Snippet: schedImports + "\nfn main() {\n    let s = LinearLrSchedulerConfig::new(0.1, 0.01, 4).build();\n}\n"})
	if res.Status != engine.StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].Message != "method `build` is private" {
		t.Errorf("build: status %s, %+v", res.Status, res.Diagnostics)
	}
	cases := map[string]string{
		"LinearLrSchedulerConfig::new(0.0, 0.01, 4)":                                                         "Initial learning rate must be greater than 0 and at most 1",
		"CosineAnnealingLrSchedulerConfig::new(0.1, 0)":                                                      "Number of iterations must be at least 1",
		"StepLrSchedulerConfig::new(0.1, 0)":                                                                 "Step size must be greater than 0",
		"SequentialLrSchedulerConfig::new(vec![LinearLrSchedulerConfig::new(0.1, 0.04, 2).into()], vec![3])": "The number of milestones must be one less than the number of schedulers",
	}
	for config, want := range cases {
		out := run(t, schedImports, "match "+config+".init() { Ok(_) => println!(\"ok\"), Err(e) => println!(\"{e}\") }")
		if strings.TrimSpace(out) != want {
			t.Errorf("%s: %q, want %q", config, out, want)
		}
	}
}

// TestGradsOnAnotherDevice: a gradient on another device than its param
// moves the param to the gradient's device (module_optimizer.rs:431-435).
// The gradients are plain tensors and the param an autodiff one, so
// Dispatch's to_device panics, as in Burn; the trace ends with the
// param's move.
func TestGradsOnAnotherDevice(t *testing.T) {
	src := stepImports + `
fn main() {
    let device = Device::flex().autodiff();
    let mut model: Linear = LinearConfig::new(2, 1).init(&device);
    let mut optim = SgdConfig::new().init();
    let x = Tensor::<2>::from_data([[1.0, -2.0], [0.5, 3.0]], &device);
    let grads = GradientsParams::from_grads(model.forward(x).sum().backward(), &model);
    let grads = grads.to_device(&Device::ndarray(), &model);
    model = optim.step(0.1, model, grads);
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusPanicked || res.Panic == nil {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	if res.Panic.Message != "Cannot move between autodiff and non-autodiff instances." {
		t.Errorf("panic %q", res.Panic.Message)
	}
	var moves []string
	for _, e := range res.Trace {
		if e.Op == "float_to_device" {
			moves = append(moves, fmt.Sprintf("%s autodiff=%v", e.Device, e.Autodiff))
		}
	}
	// Both gradients moved to NdArray, then the weight's move from Flex.
	want := []string{"NdArray(Cpu) autodiff=false", "NdArray(Cpu) autodiff=false", "Flex(Cpu) autodiff=true"}
	if strings.Join(moves, "; ") != strings.Join(want, "; ") {
		t.Errorf("moves %v, want %v", moves, want)
	}
}

// TestStepTrace: Adam's first step runs on the param's device as the
// backend's ops: inner, the moments, the update, from_inner and
// require_grad, and a param without a gradient is left as it is.
func TestStepTrace(t *testing.T) {
	src := stepImports + `
fn main() {
    let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 1).init(&device);
    let mut optim = AdamConfig::new().init();
    let x = Tensor::<2>::from_data([[1.0, -2.0], [0.5, 3.0]], &device);
    let mut grads = GradientsParams::from_grads(model.forward(x).sum().backward(), &model);
    let bias = model.bias.clone().unwrap();
    let b0 = bias.val().into_data().to_vec::<f32>().unwrap();
    grads.remove::<1>(bias.id);
    println!("{}", grads.len());
    let model = optim.step(0.1, model, grads);
    let b1 = model.bias.clone().unwrap().val().into_data().to_vec::<f32>().unwrap();
    println!("{}", b0 == b1);
    println!("{}", model.weight.val().is_require_grad());
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	if res.Output != "1\ntrue\ntrue\n" {
		t.Errorf("output %q", res.Output)
	}
	var ops []string
	started := false
	for _, e := range res.Trace {
		if e.Op == "inner" {
			started = true
		}
		if started {
			if e.Device != "Flex(Cpu)" {
				t.Errorf("%s on %s", e.Op, e.Device)
			}
			ops = append(ops, e.Op)
		}
		if e.Op == "float_set_require_grad" && started {
			break
		}
	}
	want := "inner float_mul_scalar float_powi_scalar float_mul_scalar float_mul_scalar float_sqrt float_add_scalar float_div float_mul_scalar float_sub from_inner float_set_require_grad"
	if strings.Join(ops, " ") != want {
		t.Errorf("ops\n%s\nwant\n%s", strings.Join(ops, " "), want)
	}
}

// TestProgramOptimizer: ModuleOptimizer::from wraps the program's own
// Optimizer, whose step runs on each param's inner tensor and gradient;
// a config's build is the bare optimizer, which from wraps without the
// config's clipping.
func TestProgramOptimizer(t *testing.T) {
	out := run(t, `use burn::prelude::*;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{LearningRate, ModuleOptimizer, Optimizer, SgdConfig, GradientsParams, GradientClippingConfig};

#[derive(Clone)]
pub struct HalfSgd;

impl Optimizer for HalfSgd {
    type State<const D: usize> = ();

    fn step<const D: usize>(&self, lr: LearningRate, tensor: Tensor<D>, grad: Tensor<D>, _state: Option<Self::State<D>>) -> (Tensor<D>, Option<Self::State<D>>) {
        (tensor - grad.mul_scalar(lr / 2.0), None)
    }

    fn to_device<const D: usize>(state: Self::State<D>, _device: &Device) -> Self::State<D> {
        state
    }
}`, `let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 1).init(&device);
    let x = Tensor::<2>::from_data([[1.0, -2.0], [0.5, 3.0]], &device);
    let mut optim = ModuleOptimizer::from(HalfSgd);
    let w0 = model.weight.val().into_data().to_vec::<f32>().unwrap();
    let grads = GradientsParams::from_grads(model.forward(x.clone()).sum().backward(), &model);
    let model = optim.step(0.5, model, grads);
    let w1 = model.weight.val().into_data().to_vec::<f32>().unwrap();
    println!("{:?} {:?}", w0, w1);
    let config = SgdConfig::new().with_gradient_clipping(Some(GradientClippingConfig::Value(0.1)));
    println!("{} {}", config.init().has_gradient_clipping(), ModuleOptimizer::from(config.build()).has_gradient_clipping());
    let clipped = ModuleOptimizer::from(config.build()).with_grad_clipping(burn::optim::grad_clipping::GradientClipping::Norm(2.0));
    println!("{}", clipped.has_gradient_clipping());`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[1] != "true false" || lines[2] != "true" {
		t.Fatalf("output %q", out)
	}
	ws := floats(t, lines[0])
	// The gradient of the summed outputs is the sum of the inputs' rows.
	grad := []float32{1.5, 1.0}
	for i := range grad {
		if want := ws[0][i] - grad[i]*float32(0.25); !near(ws[1][i], want) {
			t.Errorf("weight[%d] = %v, want %v", i, ws[1][i], want)
		}
	}
}

// TestOtherRules: one naive reference each for AdamW (decoupled decay,
// adamw.rs:80-107), centered RMSProp with momentum (rmsprop.rs:86-132),
// AdaGrad with lr decay (adagrad.rs:119-142) and SGD with weight decay
// and clipping by value (decay.rs:45-47, grad_clipping/base.rs:58-65).
func TestOtherRules(t *testing.T) {
	imports := stepImports + "\nuse burn::optim::{AdamWConfig, RmsPropConfig, AdaGradConfig, GradientClippingConfig, decay::WeightDecayConfig};"
	sqrt := func(x float32) float32 { return float32(math.Sqrt(float64(x))) }
	lr := float32(0.1)

	t.Run("AdamW", func(t *testing.T) {
		var m1, m2 []float32
		b1, b2, eps, wd := float32(0.9), float32(0.999), float32(1e-5), float32(0.01)
		checkSteps(t, run(t, imports, stepLoop("AdamWConfig::new().with_weight_decay(0.01)")), func(w, g []float32, step int) []float32 {
			if m1 == nil {
				m1, m2 = make([]float32, len(g)), make([]float32, len(g))
				for i := range g {
					m1[i], m2[i] = g[i]*(1-b1), g[i]*g[i]*(1-b2)
				}
			} else {
				for i := range g {
					m1[i], m2[i] = m1[i]*b1+g[i]*(1-b1), m2[i]*b2+g[i]*g[i]*(1-b2)
				}
			}
			pb1, pb2 := float32(1), float32(1)
			for k := 0; k < step; k++ {
				pb1, pb2 = pb1*b1, pb2*b2
			}
			decay := float64(0.1) * float64(wd)
			out := make([]float32, len(w))
			for i := range w {
				delta := (m1[i] / (1 - pb1)) / (sqrt(m2[i]/(1-pb2)) + eps)
				out[i] = w[i]*float32(1-decay) - delta*lr
			}
			return out
		})
	})
	t.Run("RmsProp centered", func(t *testing.T) {
		var sq, ga, buf []float32
		alpha, mom, eps := float32(0.99), float32(0.9), float32(1e-5)
		checkSteps(t, run(t, imports, stepLoop("RmsPropConfig::new().with_centered(true)")), func(w, g []float32, step int) []float32 {
			out := make([]float32, len(w))
			first := sq == nil
			if first {
				sq, ga, buf = make([]float32, len(g)), make([]float32, len(g)), make([]float32, len(g))
			}
			for i := range g {
				if first {
					sq[i], ga[i] = g[i]*g[i]*(1-alpha), g[i]*(1-alpha)
				} else {
					sq[i], ga[i] = sq[i]*alpha+g[i]*g[i]*(1-alpha), ga[i]*alpha+g[i]*(1-alpha)
				}
				d := g[i] / (sqrt(sq[i]-ga[i]*ga[i]) + eps)
				if first {
					buf[i] = d
				} else {
					buf[i] = buf[i]*mom + d
				}
				out[i] = w[i] - buf[i]*lr
			}
			return out
		})
	})
	t.Run("AdaGrad", func(t *testing.T) {
		var sum []float32
		eps, decay := float32(1e-5), 0.5
		checkSteps(t, run(t, imports, stepLoop("AdaGradConfig::new().with_lr_decay(0.5)")), func(w, g []float32, step int) []float32 {
			if sum == nil {
				sum = make([]float32, len(g))
			}
			newLr := 0.1 / (1 + float64(step-1)*decay)
			out := make([]float32, len(w))
			for i := range g {
				sum[i] += g[i] * g[i]
				out[i] = w[i] - g[i]/(sqrt(sum[i])+eps)*float32(newLr)
			}
			return out
		})
	})
	t.Run("Adan", func(t *testing.T) {
		var m, v, n, neg []float32
		b1, b2, b3, eps := float32(0.98), float32(0.92), float32(0.99), float32(1e-8)
		checkSteps(t, run(t, imports+"\nuse burn::optim::AdanConfig;", stepLoop("AdanConfig::new().with_weight_decay(0.02)")), func(w, g []float32, step int) []float32 {
			out := make([]float32, len(w))
			first := m == nil
			if first {
				m, v, n, neg = make([]float32, len(g)), make([]float32, len(g)), make([]float32, len(g)), make([]float32, len(g))
			}
			p1, p2, p3 := float32(1), float32(1), float32(1)
			for k := 0; k < step; k++ {
				p1, p2, p3 = p1*b1, p2*b2, p3*b3
			}
			for i := range g {
				if first {
					m[i], n[i], v[i] = g[i]*(1-b1), g[i]*g[i]*(1-b3), 0
				} else {
					diff := neg[i] + g[i]
					sq := (diff*b2 + g[i]) * (diff*b2 + g[i])
					m[i], v[i], n[i] = m[i]*b1+g[i]*(1-b1), v[i]*b2+diff*(1-b2), n[i]*b3+sq*(1-b3)
				}
				neg[i] = -g[i]
				denom := sqrt(n[i])/sqrt(1-p3) + eps
				update := m[i]/(1-p1)/denom + v[i]*b2/(1-p2)/denom
				out[i] = (w[i] - update*lr) / float32(1+0.1*float64(float32(0.02)))
			}
			return out
		})
	})
	t.Run("Sgd nesterov and clipping by norm", func(t *testing.T) {
		var v []float32
		checkSteps(t, run(t, imports, stepLoop("SgdConfig::new().with_momentum(Some(MomentumConfig::new().with_nesterov(true).with_dampening(0.0))).with_gradient_clipping(Some(GradientClippingConfig::Norm(1.0)))")), func(w, g []float32, step int) []float32 {
			// grad_clipping/base.rs:67-83: scaled by min(1, max / (norm + 2^-126)).
			var sq float32
			for _, x := range g {
				sq += x * x
			}
			coef := min(float32(1)/(sqrt(sq)+float32(math.Ldexp(1, -126))), 1)
			c := make([]float32, len(g))
			for i := range g {
				c[i] = g[i] * coef
			}
			if v == nil {
				v = append([]float32{}, c...)
			} else {
				for i := range c {
					v[i] = c[i]*1 + v[i]*0.9
				}
			}
			out := make([]float32, len(w))
			for i := range w {
				out[i] = w[i] - (v[i]*0.9+c[i])*lr
			}
			return out
		})
	})
	t.Run("Adam amsgrad", func(t *testing.T) {
		var m1, m2, mx []float32
		b1, b2, eps := float32(0.9), float32(0.999), float32(1e-5)
		checkSteps(t, run(t, imports, stepLoop("AdamConfig::new().with_amsgrad(true).with_beta_2(0.9)")), func(w, g []float32, step int) []float32 {
			b2 = 0.9
			if m1 == nil {
				m1, m2, mx = make([]float32, len(g)), make([]float32, len(g)), make([]float32, len(g))
				for i := range g {
					m1[i], m2[i] = g[i]*(1-b1), g[i]*g[i]*(1-b2)
					mx[i] = m2[i]
				}
			} else {
				for i := range g {
					m1[i], m2[i] = m1[i]*b1+g[i]*(1-b1), m2[i]*b2+g[i]*g[i]*(1-b2)
					mx[i] = max(mx[i], m2[i])
				}
			}
			pb1, pb2 := float32(1), float32(1)
			for k := 0; k < step; k++ {
				pb1, pb2 = pb1*b1, pb2*b2
			}
			bc2 := sqrt(1 - pb2)
			out := make([]float32, len(w))
			for i := range w {
				out[i] = w[i] - m1[i]*(bc2/(1-pb1))/(sqrt(mx[i])+eps*bc2)*lr
			}
			return out
		})
	})
	t.Run("Sgd decay and clipping", func(t *testing.T) {
		checkSteps(t, run(t, imports, stepLoop("SgdConfig::new().with_weight_decay(Some(WeightDecayConfig::new(0.5))).with_gradient_clipping(Some(GradientClippingConfig::Value(0.5)))")), func(w, g []float32, step int) []float32 {
			out := make([]float32, len(w))
			for i := range g {
				c := min(max(g[i], -0.5), 0.5)
				out[i] = w[i] - (w[i]*0.5+c)*lr
			}
			return out
		})
	})
}

// TestAccumulator: GradientsAccumulator sums the gradients of two
// backwards (grad_accum.rs:58-72) and grads() empties it.
func TestAccumulator(t *testing.T) {
	out := run(t, stepImports+"\nuse burn::optim::GradientsAccumulator;", `let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 1).init(&device);
    let mut acc = GradientsAccumulator::new();
    for x in [[1.0, 2.0], [3.0, -1.0]] {
        let input = Tensor::<2>::from_data([x], &device);
        let grads = GradientsParams::from_grads(model.forward(input).sum().backward(), &model);
        acc.accumulate(&model, grads);
    }
    let grads = acc.grads();
    let g = grads.get::<2>(model.weight.id).unwrap().into_data().to_vec::<f32>().unwrap();
    println!("{:?} {} {}", g, grads.len(), acc.grads().len());`)
	if strings.TrimSpace(out) != "[4.0, 1.0] 2 0" {
		t.Errorf("output %q", out)
	}
}

// TestFromGradsSkipsPlainParams: a module off the autodiff device has
// no gradient to take (visitor.rs:37-40), and from_params keeps the ids
// it is given.
func TestFromGradsSkipsPlainParams(t *testing.T) {
	out := run(t, stepImports, `let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 1).init(&device);
    let plain: Linear = LinearConfig::new(2, 1).init(&Device::flex());
    let x = Tensor::<2>::ones([1, 2], &device);
    let grads = GradientsParams::from_grads(model.forward(x.clone()).sum().backward(), &plain);
    println!("{}", grads.len());
    let mut g = model.forward(x).sum().backward();
    let only = GradientsParams::from_params(&mut g, &model, &[model.weight.id]);
    println!("{} {}", only.len(), only.get::<2>(model.weight.id).is_some());`)
	if out != "0\n1 true\n" {
		t.Errorf("output %q", out)
	}
}

// TestMuon: Muon's step (muon.rs:384-421) on a 2x3 weight against a naive
// Newton-Schulz in f32, and its assert on a param of another rank (a
// Linear's bias).
func TestMuon(t *testing.T) {
	imports := stepImports + "\nuse burn::optim::MuonConfig;"
	out := run(t, imports, `let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 3).with_bias(false).init(&device);
    let mut optim = MuonConfig::new().init();
    let x = Tensor::<2>::from_data([[1.0, -2.0], [0.5, 3.0]], &device);
    let grads = GradientsParams::from_grads(model.forward(x).powi_scalar(2).sum().backward(), &model);
    let w = model.weight.val().into_data().to_vec::<f32>().unwrap();
    let g = grads.get::<2>(model.weight.id).unwrap().into_data().to_vec::<f32>().unwrap();
    println!("{:?} {:?}", w, g);
    let model = optim.step(0.1, model, grads);
    println!("{:?}", model.weight.val().into_data().to_vec::<f32>().unwrap());`)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("output %q", out)
	}
	in, got := floats(t, lines[0]), floats(t, lines[1])[0]
	w, g := in[0], in[1]
	// Nesterov momentum on a first step: g*0.95 + g.
	u := make([]float32, 6)
	for i := range g {
		u[i] = g[i]*float32(0.95) + g[i]
	}
	// The weight is [2, 3]: rows <= cols, no transpose.
	var sq float32
	for _, v := range u {
		sq += v * v
	}
	norm := max(float32(math.Sqrt(float64(sq))), float32(1e-7))
	x := make([]float32, 6)
	for i := range u {
		x[i] = u[i] / norm
	}
	mat := func(a []float32, ar, ac int, b []float32, bc int) []float32 {
		out := make([]float32, ar*bc)
		for i := 0; i < ar; i++ {
			for j := 0; j < bc; j++ {
				var s float32
				for k := 0; k < ac; k++ {
					s += a[i*ac+k] * b[k*bc+j]
				}
				out[i*bc+j] = s
			}
		}
		return out
	}
	for step := 0; step < 5; step++ {
		xt := []float32{x[0], x[3], x[1], x[4], x[2], x[5]}
		am := mat(x, 2, 3, xt, 2)
		a2 := mat(am, 2, 2, am, 2)
		bm := make([]float32, 4)
		for i := range bm {
			bm[i] = am[i]*float32(-4.775) + a2[i]*float32(2.0315)
		}
		bx := mat(bm, 2, 2, x, 3)
		for i := range x {
			x[i] = x[i]*float32(3.4445) + bx[i]
		}
	}
	// AdjustLrFn::Original: sqrt(max(2/3, 1)) = 1.
	for i := range w {
		want := w[i] - x[i]*float32(0.1)
		if math.Abs(float64(got[i]-want)) > 1e-5 {
			t.Errorf("weight[%d] = %v, want %v", i, got[i], want)
		}
	}

	res := engine.Run(engine.Request{Config: cargo, Snippet: imports + `
fn main() {
    let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 3).init(&device);
    let mut optim = MuonConfig::new().init();
    let x = Tensor::<2>::ones([1, 2], &device);
    let grads = GradientsParams::from_grads(model.forward(x).sum().backward(), &model);
    let model = optim.step(0.1, model, grads);
}
`})
	if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != "Newton-Schulz iteration requires 2D tensors, got 1D" {
		t.Errorf("bias: status %s, panic %+v", res.Status, res.Panic)
	}
}

// TestMuonConfig: MuonConfig's defaults, its MomentumConfig and tuple
// fields, built and printed as #[derive(Config)] does (muon.rs:125-160).
func TestMuonConfig(t *testing.T) {
	out := run(t, "use burn::optim::{MuonConfig, AdjustLrFn};", `let c = MuonConfig::new().with_ns_coefficients((3.0, -4.0, 2.0)).with_ns_steps(3).with_adjust_lr_fn(AdjustLrFn::MatchRmsAdamW);
    println!("{:?}", c);`)
	want := "MuonConfig { weight_decay: None, momentum: MomentumConfig { momentum: 0.95, dampening: 0.0, nesterov: true }, ns_coefficients: (3.0, -4.0, 2.0), epsilon: 1e-7, ns_steps: 3, adjust_lr_fn: MatchRmsAdamW }\n"
	if out != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
}

// TestStepWithoutStd: without std the step does not ask whether a
// tensor is distributed (module_optimizer.rs:426-427 is cfg(feature =
// "std")), and the step runs.
func TestStepWithoutStd(t *testing.T) {
	src := stepImports + `
fn main() {
    let device = Device::flex().autodiff();
    let model: Linear = LinearConfig::new(2, 1).init(&device);
    let mut optim = SgdConfig::new().init();
    let x = Tensor::<2>::ones([1, 2], &device);
    let w0 = model.weight.val().into_data().to_vec::<f32>().unwrap();
    let grads = GradientsParams::from_grads(model.forward(x).sum().backward(), &model);
    let model = optim.step(0.5, model, grads);
    let w1 = model.weight.val().into_data().to_vec::<f32>().unwrap();
    assert_eq!(w1[0], w0[0] - 0.5);
}
`
	res := engine.Run(engine.Request{Config: "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"flex\", \"autodiff\", \"optim\"] }\n", Snippet: src})
	if res.Status != engine.StatusOK || !res.Complete {
		t.Errorf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
}

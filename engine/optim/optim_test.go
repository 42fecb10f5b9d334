package optim_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const cargo = "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"autodiff\", \"train\"] }\n"

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

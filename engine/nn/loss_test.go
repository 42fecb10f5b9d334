package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const lossUse = "use burn::nn::loss::{BinaryCrossEntropyLossConfig, HuberLossConfig, KLDivLossConfig, PoissonNllLossConfig, SmoothL1LossConfig, CosineEmbeddingLossConfig, CosineEmbeddingLoss, Reduction};\n"

func lossLines(t *testing.T, body string) []string {
	t.Helper()
	return lines(t, lossUse, body)
}

func mean(xs []float64) float64 { return sum(xs) / float64(len(xs)) }

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestBinaryCrossEntropy(t *testing.T) {
	out := lossLines(t, `let d = Device::flex();
let l = BinaryCrossEntropyLossConfig::new().init(&d); println!("{l}");
println!("{}", l.forward(Tensor::<1>::from_data([0.2, 0.7, 0.9], &d), Tensor::<1, Int>::from_data([0, 1, 1], &d)).into_data());
let l = BinaryCrossEntropyLossConfig::new().with_logits(true).with_weights(Some(vec![1.0, 2.0])).with_smoothing(Some(0.1)).init(&d); println!("{l}");
let y = l.forward(Tensor::<2>::from_data([[0.5, -1.0], [2.0, 0.3]], &d), Tensor::<2, Int>::from_data([[1, 0], [0, 1]], &d));
println!("{}", y.into_data());
println!("{}", BinaryCrossEntropyLossConfig::new().with_smoothing(Some(0.2)));`)
	if out[0] != "BinaryCrossEntropyLoss {weights: None, smoothing: None, logits: false}" {
		t.Errorf("Display %q", out[0])
	}
	p, y := []float64{0.2, 0.7, 0.9}, []float64{0, 1, 1}
	var l []float64
	for i := range p {
		l = append(l, (y[i]-1)*math.Max(math.Log1p(-p[i]), -100)-y[i]*math.Max(math.Log(p[i]), -100))
	}
	near(t, "probabilities", floats(t, out[1]), []float64{mean(l)})
	if out[2] != "BinaryCrossEntropyLoss {weights: Tensor {rank: 1, shape: [2]}, smoothing: 0.1, logits: true}" {
		t.Errorf("Display %q", out[2])
	}
	x := []float64{0.5, -1.0, 2.0, 0.3}
	tg := []float64{1, 0, 0, 1}
	wt := []float64{1, 2, 1, 2}
	l = nil
	for i := range x {
		tf := tg[i]*0.9 + 0.1/2
		logSig := -math.Log1p(math.Exp(-x[i]))
		l = append(l, ((1-tf)*x[i]-logSig)*wt[i])
	}
	near(t, "logits, weights, smoothing", floats(t, out[3]), []float64{mean(l)})
	if got := joined(out, 4, 9); got != "{\n  \"weights\": null,\n  \"smoothing\": 0.2,\n  \"logits\": false\n}" {
		t.Errorf("config JSON %s", got)
	}
}

func TestHuberAndSmoothL1(t *testing.T) {
	out := lossLines(t, `let d = Device::flex();
let h = HuberLossConfig::new(0.5).init(); println!("{h}");
let p = Tensor::<1>::from_data([0.0, 1.0, 3.0, -2.0], &d); let y = Tensor::<1>::from_data([0.2, 0.0, 3.1, 1.0], &d);
println!("{}", h.forward(p.clone(), y.clone(), Reduction::Mean).into_data());
println!("{}", h.forward(p.clone(), y.clone(), Reduction::Sum).into_data());
println!("{}", h.forward_no_reduction(p.clone(), y.clone()).into_data());
let s = SmoothL1LossConfig::new().init(); println!("{s}");
println!("{}", s.forward(p.clone(), y.clone()).into_data());
println!("{}", SmoothL1LossConfig::new().with_beta(2.0).init().forward_with_reduction(p, y, Reduction::Auto).into_data());`)
	if out[0] != "HuberLoss {delta: 0.5, lin_bias: 0.125}" {
		t.Errorf("Display %q", out[0])
	}
	p, y := []float64{0, 1, 3, -2}, []float64{0.2, 0, 3.1, 1}
	var hub []float64
	for i := range p {
		r := y[i] - p[i]
		if math.Abs(r) > 0.5 {
			hub = append(hub, 0.5*math.Abs(r)-0.125)
		} else {
			hub = append(hub, 0.5*r*r)
		}
	}
	near(t, "Huber mean", floats(t, out[1]), []float64{mean(hub)})
	near(t, "Huber sum", floats(t, out[2]), []float64{sum(hub)})
	near(t, "Huber unreduced", floats(t, out[3]), hub)
	if strings.Join(out[4:7], "\n") != "SmoothL1Loss {\n  beta: 1\n}" {
		t.Errorf("Display %q", strings.Join(out[4:7], "\n"))
	}
	smooth := func(beta float64) []float64 {
		var l []float64
		for i := range p {
			e := p[i] - y[i]
			if math.Abs(e) < beta {
				l = append(l, 0.5*e*e/beta)
			} else {
				l = append(l, math.Abs(e)-0.5*beta)
			}
		}
		return l
	}
	near(t, "SmoothL1", floats(t, out[7]), smooth(1))
	near(t, "SmoothL1 beta 2, Auto", floats(t, out[8]), []float64{mean(smooth(2))})
}

func TestKLDivAndPoisson(t *testing.T) {
	out := lossLines(t, `let d = Device::flex();
let p = Tensor::<2>::from_data([[-1.0, -2.0], [-0.5, -1.5]], &d); let y = Tensor::<2>::from_data([[0.3, 0.7], [0.0, 1.0]], &d);
let k = KLDivLossConfig::new().init(); println!("{k}");
println!("{}", k.forward(p.clone(), y.clone(), Reduction::BatchMean).into_data());
println!("{}", KLDivLossConfig::new().with_log_target(true).init().forward(p.clone(), y.clone(), Reduction::Mean).into_data());
let n = PoissonNllLossConfig::new().init(); println!("{n}");
println!("{}", n.forward(Tensor::<1>::from_data([0.5, 1.0, -0.2], &d), Tensor::<1>::from_data([1.0, 2.0, 0.0], &d), Reduction::Mean).into_data());
let f = PoissonNllLossConfig::new().with_log_input(false).with_full(true).init();
println!("{}", f.forward(Tensor::<1>::from_data([1.0, 2.0, 3.0], &d), Tensor::<1>::from_data([0.5, 2.0, 4.0], &d), Reduction::Sum).into_data());`)
	if out[0] != "KLDivLoss {log_target: false}" {
		t.Errorf("Display %q", out[0])
	}
	p, y := []float64{-1, -2, -0.5, -1.5}, []float64{0.3, 0.7, 0, 1}
	var kl, klLog []float64
	eps := float64(math.Float32frombits(0x00800000))
	for i := range p {
		kl = append(kl, y[i]*(math.Log(math.Max(y[i], eps))-p[i]))
		klLog = append(klLog, math.Exp(y[i])*(y[i]-p[i]))
	}
	near(t, "KLDiv batch mean", floats(t, out[1]), []float64{sum(kl) / 2})
	near(t, "KLDiv log targets, mean", floats(t, out[2]), []float64{mean(klLog)})
	if out[3] != "PoissonNllLoss {log_input: true, full: false, eps: 0.00000001}" {
		t.Errorf("Display %q", out[3])
	}
	pp, yy := []float64{0.5, 1, -0.2}, []float64{1, 2, 0}
	var pl []float64
	for i := range pp {
		pl = append(pl, math.Exp(pp[i])-yy[i]*pp[i])
	}
	near(t, "Poisson log input", floats(t, out[4]), []float64{mean(pl)})
	pp, yy = []float64{1, 2, 3}, []float64{0.5, 2, 4}
	pl = nil
	for i := range pp {
		v := pp[i] - yy[i]*math.Log(pp[i]+1e-8)
		if yy[i] > 1 {
			v += yy[i]*math.Log(yy[i]) - yy[i] + 0.5*math.Log(2*math.Pi*yy[i])
		}
		pl = append(pl, v)
	}
	near(t, "Poisson full", floats(t, out[5]), []float64{sum(pl)})
}

func TestCosineEmbedding(t *testing.T) {
	out := lossLines(t, `let d = Device::flex();
let a = Tensor::<2>::from_data([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], &d); let b = Tensor::<2>::from_data([[1.0, 1.0], [1.0, 0.5], [0.0, 2.0]], &d);
let y = Tensor::<1, Int>::from_data([1, -1, 1], &d);
let l = CosineEmbeddingLossConfig::new().with_margin(0.2).with_reduction(Reduction::Sum).init(); println!("{l}");
println!("{}", l.forward(a.clone(), b.clone(), y.clone()).into_data());
println!("{}", l.forward_no_reduction(a.clone(), b.clone(), y.clone()).into_data());
println!("{}", CosineEmbeddingLoss::new().forward(a, b, y).into_data());
println!("{}", CosineEmbeddingLossConfig::new());`)
	if out[0] != "CosineEmbeddingLoss {margin: 0.2, reduction: Sum}" {
		t.Errorf("Display %q", out[0])
	}
	a := [][]float64{{1, 0}, {1, 1}, {0, 1}}
	b := [][]float64{{1, 1}, {1, 0.5}, {0, 2}}
	y := []float64{1, -1, 1}
	loss := func(margin float64) []float64 {
		var l []float64
		for i := range a {
			cos := (a[i][0]*b[i][0] + a[i][1]*b[i][1]) / (math.Hypot(a[i][0], a[i][1]) * math.Hypot(b[i][0], b[i][1]))
			if y[i] == 1 {
				l = append(l, 1-cos)
			} else {
				l = append(l, math.Max(0, cos-margin))
			}
		}
		return l
	}
	near(t, "sum", floats(t, out[1]), []float64{sum(loss(0.2))})
	near(t, "unreduced", floats(t, out[2]), loss(0.2))
	near(t, "new(): margin 0, mean", floats(t, out[3]), []float64{mean(loss(0))})
	if got := joined(out, 4, 8); got != "{\n  \"margin\": 0.0,\n  \"reduction\": \"Mean\"\n}" {
		t.Errorf("config JSON %s", got)
	}
}

func TestLossPanics(t *testing.T) {
	const x = "let d = Device::flex(); let a = Tensor::<1>::from_data([1.0, 2.0], &d);\n"
	cases := []struct{ name, body, msg, loc string }{
		{"BCE's smoothing", "let l = BinaryCrossEntropyLossConfig::new().with_smoothing(Some(1.5)).init(&Device::flex());",
			"Alpha of Cross-entropy loss with smoothed labels should be in interval [0, 1]. Got 1.5", "crates/burn-nn/src/loss/binary_cross_entropy.rs:44"},
		{"BCE's weights", "let l = BinaryCrossEntropyLossConfig::new().with_weights(Some(vec![1.0, -1.0])).init(&Device::flex());",
			"Weights of cross-entropy have to be positive.", "crates/burn-nn/src/loss/binary_cross_entropy.rs:50"},
		{"BCE's shapes", x + "let l = BinaryCrossEntropyLossConfig::new().init(&d).forward(a, Tensor::<1, Int>::from_data([1, 0, 1], &d));",
			"Shape of targets ([3]) should correspond to outer shape of logits ([2]).", "crates/burn-nn/src/loss/binary_cross_entropy.rs:141"},
		{"BCE's classes", "let d = Device::flex(); let l = BinaryCrossEntropyLossConfig::new().with_weights(Some(vec![1.0, 2.0, 3.0])).init(&d).forward(Tensor::<2>::ones([1, 2], &d), Tensor::<2, Int>::ones([1, 2], &d));",
			"The number of classes (3) does not match the weights provided (2).", "crates/burn-nn/src/loss/binary_cross_entropy.rs:151"},
		{"Huber's delta", "let h = HuberLossConfig::new(-1.0).init();", "Delta for Huber loss must be a non-negative number.", "crates/burn-nn/src/loss/huber.rs:27"},
		{"Huber's reduction", x + "let y = HuberLossConfig::new(1.0).init().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/huber.rs:95"},
		{"Poisson's eps", "let n = PoissonNllLossConfig::new().with_eps(0.0).init();", "eps for PoissonNllLoss must be a positive number.", "crates/burn-nn/src/loss/poisson.rs:64"},
		{"Poisson's shapes", x + "let y = PoissonNllLossConfig::new().init().forward(a, Tensor::<1>::ones([3], &d), Reduction::Mean);",
			"Shape of targets ([3]) should correspond to outer shape of predictions ([2]).", "crates/burn-nn/src/loss/poisson.rs:189"},
		{"Poisson's negative targets", x + "let y = PoissonNllLossConfig::new().init().forward(a, Tensor::<1>::from_data([1.0, -1.0], &d), Reduction::Mean);",
			"All the values of `targets` must be non-negative.", "crates/burn-nn/src/loss/poisson.rs:193"},
		{"Poisson's negative predictions", x + "let y = PoissonNllLossConfig::new().with_log_input(false).init().forward(a.neg(), Tensor::<1>::ones([2], &d), Reduction::Mean);",
			"When `log_input` is `false`, all the values of `predictions` must be non-negative.", "crates/burn-nn/src/loss/poisson.rs:202"},
		{"Poisson's reduction", x + "let y = PoissonNllLossConfig::new().init().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/poisson.rs:139"},
		{"SmoothL1's beta", "let s = SmoothL1LossConfig::new().with_beta(0.0).init();", "The parameter beta must be positive.", "crates/burn-nn/src/loss/smooth_l1.rs:44"},
		{"SmoothL1's reduction", x + "let y = SmoothL1LossConfig::new().init().forward_with_reduction(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/smooth_l1.rs:165"},
		{"CosineEmbedding's reduction", "let d = Device::flex(); let a = Tensor::<2>::ones([2, 3], &d); let y = CosineEmbeddingLossConfig::new().with_reduction(Reduction::BatchMean).init().forward(a.clone(), a, Tensor::<1, Int>::ones([2], &d));",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/cosine_embedding.rs:98"},
		{"CosineEmbedding's batch", "let d = Device::flex(); let y = CosineEmbeddingLoss::new().forward(Tensor::<2>::ones([2, 3], &d), Tensor::<2>::ones([3, 3], &d), Tensor::<1, Int>::ones([2], &d));",
			"assertion `left == right` failed: Batch size of input1 (2) must match batch size of input2 (3)\n  left: 2\n right: 3", "crates/burn-nn/src/loss/cosine_embedding.rs:147"},
		{"CosineEmbedding's dim", "let d = Device::flex(); let y = CosineEmbeddingLoss::new().forward(Tensor::<2>::ones([2, 3], &d), Tensor::<2>::ones([2, 4], &d), Tensor::<1, Int>::ones([2], &d));",
			"assertion `left == right` failed: Embedding dimension of input1 (3) must match embedding dimension of input2 (4)\n  left: 3\n right: 4", "crates/burn-nn/src/loss/cosine_embedding.rs:152"},
		{"CosineEmbedding's target", "let d = Device::flex(); let y = CosineEmbeddingLoss::new().forward(Tensor::<2>::ones([2, 3], &d), Tensor::<2>::ones([2, 3], &d), Tensor::<1, Int>::ones([5], &d));",
			"assertion `left == right` failed: Batch size of inputs (2) must match batch size of target (5)\n  left: 2\n right: 5", "crates/burn-nn/src/loss/cosine_embedding.rs:157"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + lossUse + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const loss2Use = "use burn::nn::loss::{HingeEmbeddingLossConfig, MarginRankingLossConfig, SoftMarginLoss, LpLossConfig, GaussianNLLLossConfig, Reduction};\n"

func TestMoreLosses(t *testing.T) {
	out := lines(t, loss2Use, `let d = Device::flex();
let x = Tensor::<1>::from_data([0.3, 1.5, -0.5, 2.0], &d); let y = Tensor::<1>::from_data([1.0, -1.0, -1.0, 1.0], &d);
let h = HingeEmbeddingLossConfig::new().init(); println!("{h}");
println!("{}", h.forward_no_reduction(x.clone(), y.clone()).into_data());
let a = Tensor::<1>::from_data([1.0, 0.0, 2.0, -1.0], &d);
let r = MarginRankingLossConfig::new().with_margin(0.5).init(); println!("{r}");
println!("{}", r.forward(a.clone(), x.clone(), y.clone(), Reduction::Sum).into_data());
println!("{}", SoftMarginLoss::new().forward(x.clone(), y.clone(), Reduction::Mean).into_data());
let l = LpLossConfig::new(3.0).init(); println!("{}", l.forward(a.clone(), x.clone(), Reduction::Mean).into_data());
println!("{}", LpLossConfig::l1().forward_no_reduction(a.clone(), x.clone()).into_data());
println!("{}", LpLossConfig::l2());
let g = GaussianNLLLossConfig::new().with_full(true).init(); println!("{g}");
let v = Tensor::<1>::from_data([0.5, 1.0, 0.0, 2.0], &d);
println!("{}", g.forward(a, x, v, Reduction::Mean).into_data());`)
	x := []float64{0.3, 1.5, -0.5, 2}
	y := []float64{1, -1, -1, 1}
	a := []float64{1, 0, 2, -1}
	if out[0] != "HingeEmbeddingLoss {margin: 1}" {
		t.Errorf("Display %q", out[0])
	}
	var hinge []float64
	for i := range x {
		if y[i] == 1 {
			hinge = append(hinge, x[i])
		} else {
			hinge = append(hinge, math.Max(0, 1-x[i]))
		}
	}
	near(t, "hinge", floats(t, out[1]), hinge)
	if out[2] != "MarginRankingLoss {margin: 0.5}" {
		t.Errorf("Display %q", out[2])
	}
	var rank, soft, lp3, l1 []float64
	for i := range x {
		rank = append(rank, math.Max(0, -y[i]*(a[i]-x[i])+0.5))
		soft = append(soft, math.Log1p(math.Exp(-y[i]*x[i])))
		lp3 = append(lp3, math.Pow(math.Abs(a[i]-x[i]), 3))
		l1 = append(l1, math.Abs(a[i]-x[i]))
	}
	near(t, "margin ranking", floats(t, out[3]), []float64{sum(rank)})
	near(t, "soft margin", floats(t, out[4]), []float64{mean(soft)})
	near(t, "Lp, p = 3", floats(t, out[5]), []float64{mean(lp3)})
	near(t, "L1", floats(t, out[6]), l1)
	if got := strings.Join(out[7:10], "\n"); got != "LpLoss {\n  p: 2\n}" {
		t.Errorf("Display %q", got)
	}
	if out[10] != "GaussianNLLLoss {eps: 0.000001, full: true}" {
		t.Errorf("Display %q", out[10])
	}
	v := []float64{0.5, 1, 0, 2}
	var g []float64
	for i := range x {
		vv := math.Max(v[i], 1e-6)
		g = append(g, 0.5*(math.Log(vv)+(a[i]-x[i])*(a[i]-x[i])/vv)+0.5*math.Log(2*math.Pi))
	}
	near(t, "Gaussian NLL", floats(t, out[11]), []float64{mean(g)})
}

func TestMoreLossPanics(t *testing.T) {
	const x = "let d = Device::flex(); let a = Tensor::<1>::from_data([1.0, 2.0], &d);\n"
	cases := []struct{ name, body, msg, loc string }{
		{"margin ranking's margin", "let r = MarginRankingLossConfig::new().with_margin(-1.0).init();",
			"Margin for margin ranking loss must be a non-negative number.", "crates/burn-nn/src/loss/margin_ranking.rs:28"},
		{"Lp's p", "let l = LpLossConfig::new(0.0).init();", "The order of the norm p must be positive.", "crates/burn-nn/src/loss/lp_loss.rs:63"},
		{"hinge's reduction", x + "let y = HingeEmbeddingLossConfig::new().init().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/hinge_embedding.rs:79"},
		{"margin ranking's reduction", x + "let y = MarginRankingLossConfig::new().init().forward(a.clone(), a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/margin_ranking.rs:88"},
		{"soft margin's reduction", x + "let y = SoftMarginLoss::new().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/soft_margin.rs:45"},
		{"Lp's reduction", x + "let y = LpLossConfig::l2().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/lp_loss.rs:151"},
		{"Gaussian NLL's reduction", x + "let y = GaussianNLLLossConfig::new().init().forward(a.clone(), a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/gaussian_nll.rs:91"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + loss2Use + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

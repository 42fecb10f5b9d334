package nn_test

import (
	"math"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const loss3Use = "use burn::nn::loss::{TripletMarginLossConfig, MultiMarginLossConfig, Reduction};\n"

func TestTripletAndMultiMargin(t *testing.T) {
	out := lines(t, loss3Use, `let d = Device::flex();
let a = Tensor::<2>::from_data([[0.0, 1.0], [1.0, 1.0]], &d); let p = Tensor::<2>::from_data([[0.5, 1.0], [2.0, 3.0]], &d); let n = Tensor::<2>::from_data([[3.0, 1.0], [1.0, 0.5]], &d);
let tl = TripletMarginLossConfig::new().init(); println!("{tl}");
println!("{}", tl.forward_no_reduction(a.clone(), p.clone(), n.clone()).into_data());
println!("{}", TripletMarginLossConfig::new().with_p(1.0).init().forward(a, p, n, Reduction::Sum).into_data());
let x = Tensor::<2>::from_data([[0.1, 0.8, 0.3], [1.0, -0.5, 0.2]], &d); let y = Tensor::<1, Int>::from_data([1, 2], &d);
let mm = MultiMarginLossConfig::new().init(); println!("{mm}");
println!("{}", mm.forward_no_reduction(x.clone(), y.clone()).into_data());
println!("{}", MultiMarginLossConfig::new().with_p(2).with_margin(0.5).init().forward(x, y, Reduction::Mean).into_data());`)
	if out[0] != "TripletMarginLoss {margin: 1, p: 2}" {
		t.Errorf("Display %q", out[0])
	}
	a := [][]float64{{0, 1}, {1, 1}}
	p := [][]float64{{0.5, 1}, {2, 3}}
	n := [][]float64{{3, 1}, {1, 0.5}}
	norm := func(u, v []float64, q float64) float64 {
		s := 0.0
		for i := range u {
			s += math.Pow(math.Abs(u[i]-v[i]), q)
		}
		return math.Pow(s, 1/q)
	}
	var l2, l1 []float64
	for i := range a {
		l2 = append(l2, math.Max(0, norm(a[i], p[i], 2)-norm(a[i], n[i], 2)+1))
		l1 = append(l1, math.Max(0, norm(a[i], p[i], 1)-norm(a[i], n[i], 1)+1))
	}
	near(t, "triplet p=2", floats(t, out[1]), l2)
	near(t, "triplet p=1, sum", floats(t, out[2]), []float64{sum(l1)})
	if out[3] != "MultiMarginLoss {margin: 1, p: 1}" {
		t.Errorf("Display %q", out[3])
	}
	x := [][]float64{{0.1, 0.8, 0.3}, {1, -0.5, 0.2}}
	y := []int{1, 2}
	mm := func(margin float64, q float64) []float64 {
		var out []float64
		for i := range x {
			s := 0.0
			for j := range x[i] {
				if j != y[i] {
					s += math.Pow(math.Max(0, margin+x[i][j]-x[i][y[i]]), q)
				}
			}
			out = append(out, s/3)
		}
		return out
	}
	near(t, "multi margin", floats(t, out[4]), mm(1, 1))
	near(t, "multi margin p=2, mean", floats(t, out[5]), []float64{mean(mm(0.5, 2))})
}

func TestTripletAndMultiMarginPanics(t *testing.T) {
	cases := []struct{ name, body, msg, loc string }{
		{"multi margin's margin", "let l = MultiMarginLossConfig::new().with_margin(-1.5).init();", "Margin for multi margin loss must be non-negative, got -1.5", "crates/burn-nn/src/loss/multi_margin.rs:32"},
		{"multi margin's p", "let l = MultiMarginLossConfig::new().with_p(3).init();", "Multi margin loss only supports p = 1 or p = 2, got 3", "crates/burn-nn/src/loss/multi_margin.rs:37"},
		{"multi margin's reduction", "let d = Device::flex(); let y = MultiMarginLossConfig::new().init().forward(Tensor::<2>::ones([1, 2], &d), Tensor::<1, Int>::zeros([1], &d), Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/multi_margin.rs:100"},
		{"triplet's reduction", "let d = Device::flex(); let a = Tensor::<2>::ones([1, 2], &d); let y = TripletMarginLossConfig::new().init().forward(a.clone(), a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported", "crates/burn-nn/src/loss/triplet_margin.rs:91"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + loss3Use + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

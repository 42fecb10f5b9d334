package engine_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

const searchConfig = "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\", \"autodiff\"] }\n"

// runFix runs a snippet and returns its first fix at the run's panic (or,
// for a run stopped by a limit, at the run's error), or nil.
func runFix(t *testing.T, config, snippet string) (engine.Result, *engine.Fix) {
	t.Helper()
	res := engine.Run(engine.Request{Config: config, Snippet: snippet})
	for _, d := range res.Diagnostics {
		if d.Phase != "run" || d.Severity != "error" || len(d.Fixes) == 0 {
			continue
		}
		if res.Panic == nil || d.Code == res.Panic.Code {
			return res, &d.Fixes[0]
		}
	}
	return res, nil
}

// TestSearchedFixes: a panic that no record's edit mends gets the first
// change of one token, near the panic, after which the program runs
// clean, and its title says what it changes and where.
func TestSearchedFixes(t *testing.T) {
	cases := []struct {
		name, snippet, title, fixed string
	}{
		{"a percentage where a fraction is wanted", `use burn::nn::DropoutConfig;

fn main() {
    let dropout = DropoutConfig::new(50.0).init();
    println!("{dropout}");
}
`, "Change `50.0` to `0.5` on line 4", "DropoutConfig::new(0.5)"},
		{"a negative number made positive", `use burn::nn::loss::HuberLossConfig;

fn main() {
    let loss = HuberLossConfig::new(-0.5).init();
    println!("{:?}", loss.delta);
}
`, "Change `-0.5` to `0.5` on line 4", "HuberLossConfig::new(0.5)"},
		{"a size that makes the shapes agree", `use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default();
    let x = Tensor::<2>::ones([2, 3], &device);
    let w = Tensor::<2>::ones([4, 5], &device);
    println!("{:?}", x.matmul(w).dims());
}
`, "Change `4` to `3` on line 6", "[3, 5]"},
		{"a length that is a power of two", `use burn::tensor::{Device, Tensor};
use burn::tensor::signal::rfft;

fn main() {
    let device = Device::default();
    let signal = Tensor::<2>::ones([1, 100], &device);
    let (re, _im) = rfft(signal, 1, Some(100));
    println!("{:?}", re.dims());
}
`, "Change `100` to `128` on line 7", "Some(128)"},
		{"another variant of one of Burn's enums", `use burn::tensor::{Device, Tensor};
use burn::tensor::module::interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions};

fn main() {
    let device = Device::flex();
    let x = Tensor::<4>::ones([1, 1, 2, 2], &device);
    let options = InterpolateOptions::new(InterpolateMode::NearestExact);
    println!("{:?}", interpolate(x, [4, 4], options).dims());
}
`, "Change `NearestExact` to `Nearest` on line 8", "InterpolateMode::Nearest)"},
		{"a conversion of a tensor", `use burn::tensor::{Device, Tensor, DType};
use burn::tensor::quantization::QuantScheme;

fn main() {
    let device = Device::default();
    let weights = Tensor::<1>::from_floats([0.5, -1.0, 2.0], &device).quantize_dynamic(&QuantScheme::default());
    let data = weights.into_data_as::<f32>();
    println!("{:?}", data.shape);
}
`, "Call `.dequantize()` on `weights` on line 7", "weights.dequantize().into_data_as"},
		{"an array of one dimension too many", `use burn::tensor::{Device, Tensor};
use burn::tensor::ops::PadMode;

fn main() {
    let device = Device::default();
    let image = Tensor::<2>::ones([4, 4], &device);
    let padded = image.pad([(1, 1), (1, 1), (1, 1)], PadMode::Constant(0.0));
    println!("{:?}", padded.dims());
}
`, "Change `[(1, 1), (1, 1), (1, 1)]` to `[(1, 1), (1, 1)]` on line 7", "image.pad([(1, 1), (1, 1)],"},
		{"a setting left out", `use burn::nn::loss::PoissonNllLossConfig;

fn main() {
    let loss = PoissonNllLossConfig::new().with_eps(-1.0).with_full(true).init();
    println!("{}", loss.eps);
}
`, "Change `-1.0` to `1.0` on line 4", "with_eps(1.0)"},
		{"a tensor of one rank more", `use burn::tensor::{Device, Tensor};
use burn::tensor::linalg::matvec;

fn main() {
    let device = Device::default();
    let weights = Tensor::<1>::ones([4], &device);
    let x = Tensor::<1>::ones([4], &device);
    println!("{:?}", matvec(weights, x).dims());
}
`, "Call `.unsqueeze::<2>()` on `weights` on line 8", "matvec(weights.unsqueeze::<2>(), x)"},
		{"the tracked tensor for its plain copy", `use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::ones([4, 2], &device).require_grad();
    let w_eval = w.clone().inner();
    let grads = w.clone().sum().backward();
    let g = w_eval.grad(&grads);
    println!("{:?}", g.map(|g| g.dims()));
}
`, "Use `w` instead of `w_eval` on line 8", "let g = w.grad(&grads);"},
		{"autodiff on a device of a list", `use burn::tensor::Device;
use burn::tensor::distributed::{DistributedConfig, DistributedContext, ReduceOperation};

fn main() {
    let devices = vec![Device::cuda(0).autodiff(), Device::cuda(1)];
    let config = DistributedConfig { all_reduce_op: ReduceOperation::Sum };
    let _ctx = DistributedContext::init(devices, config);
}
`, "Call `.autodiff()` on `Device::cuda(1)` on line 5", "Device::cuda(1).autodiff()]"},
		{"the shape the message names", `use burn::nn::loss::BinaryCrossEntropyLossConfig;
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let logits = Tensor::<2>::from_data([[0.3], [-1.2], [2.0]], &device);
    let targets = Tensor::<2, Int>::from_data([[1, 0, 1]], &device);
    let loss = BinaryCrossEntropyLossConfig::new().with_logits(true).init(&device).forward(logits, targets);
    println!("{}", loss.into_scalar::<f32>());
}
`, "Call `.reshape([1, 3])` on `logits` on line 8", "forward(logits.reshape([1, 3]), targets)"},
		{"an array of one number repeated", `use burn::tensor::module::avg_pool2d;
use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default();
    let features = Tensor::<4>::ones([1, 8, 6, 6], &device);
    let pooled = avg_pool2d(features, [2, 2], [0, 0], [0, 0], true, false);
    println!("{:?}", pooled.dims());
}
`, "Change `[0, 0]` to `[1, 1]` on line 7", "[2, 2], [1, 1], [0, 0]"},
		{"an index one past the end", `use burn::data::dataset::{Dataset, InMemDataset};

fn main() {
    let words = InMemDataset::new(vec!["a", "b", "c"]);
    println!("{:?}", words.get(words.len()).unwrap());
}
`, "Subtract 1 from `.len()` on line 5", "words.get(words.len() - 1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			config := searchConfig
			if strings.Contains(c.snippet, "cuda") {
				config = "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"autodiff\"] }\n[package.metadata.playground]\nhardware = { cuda = 2 }\n"
			}
			res, fix := runFix(t, config, c.snippet)
			if res.Status != engine.StatusPanicked {
				t.Fatalf("status %s, want panicked:\n%s", res.Status, Summary(res))
			}
			if fix == nil {
				t.Fatalf("no fix:\n%s", Summary(res))
			}
			if fix.Title != c.title {
				t.Errorf("fix %q, want %q", fix.Title, c.title)
			}
			req := engine.ApplyFix(engine.Request{Config: config, Snippet: c.snippet}, *fix)
			if !strings.Contains(req.Snippet, c.fixed) {
				t.Errorf("the fixed program has no %q:\n%s", c.fixed, req.Snippet)
			}
			if got := engine.Run(req); got.Status != engine.StatusOK {
				t.Errorf("the fixed program ends %s:\n%s", got.Status, Summary(got))
			}
		})
	}
}

// TestSearchedFixLeavesConditionsAlone: a panic inside an `if` is not
// "fixed" by changing the condition so that the panicking call never runs.
func TestSearchedFixLeavesConditionsAlone(t *testing.T) {
	const snippet = `use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default();
    let x = Tensor::<1>::ones([4], &device);
    let n = x.dims()[0];
    if n > 3 {
        let y = x.narrow(0, n, 1);
        println!("{:?}", y.dims());
    }
}
`
	res, fix := runFix(t, searchConfig, snippet)
	if res.Status != engine.StatusPanicked {
		t.Fatalf("status %s:\n%s", res.Status, Summary(res))
	}
	if fix != nil {
		t.Errorf("fix %q: the panic's start comes from the tensor's own size, and only the condition's `3` or the creation's `4` could change", fix.Title)
		if strings.Contains(fix.Title, "`3`") {
			t.Errorf("the fix changes the condition")
		}
	}
}

// TestSearchedFixOfALimit: a loop that never ends gets the change that
// ends it.
func TestSearchedFixOfALimit(t *testing.T) {
	const snippet = `fn main() {
    let mut lr = 1024;
    while lr > 0 {
        lr = (lr + 1) / 2;
    }
    println!("{lr}");
}
`
	res, fix := runFix(t, searchConfig, snippet)
	if res.Status != engine.StatusRejected {
		t.Fatalf("status %s:\n%s", res.Status, Summary(res))
	}
	if fix == nil || fix.Title != "Change `0` to `1` on line 3" {
		t.Fatalf("fix %+v, want the loop's condition changed", fix)
	}
}

// TestSearchIsBounded: a program too large to run again many times is not
// searched, and a search gives the same Result every time.
func TestSearchIsBounded(t *testing.T) {
	// 30,000 iterations of a loop, then the dropout panic.
	const big = `use burn::nn::DropoutConfig;

fn main() {
    let mut total = 0u64;
    for i in 0..30000u64 {
        total += i % 7;
    }
    println!("{total}");
    let dropout = DropoutConfig::new(50.0).init();
    println!("{dropout}");
}
`
	res, fix := runFix(t, searchConfig, big)
	if res.Status != engine.StatusPanicked {
		t.Fatalf("status %s", res.Status)
	}
	if fix != nil {
		t.Errorf("a program of this size was searched: %q", fix.Title)
	}
	small := strings.Replace(big, "30000u64", "6u64", 1)
	a, _ := json.Marshal(engine.Run(engine.Request{Config: searchConfig, Snippet: small}))
	b, _ := json.Marshal(engine.Run(engine.Request{Config: searchConfig, Snippet: small}))
	if string(a) != string(b) {
		t.Errorf("two runs of a searched program differ")
	}
	if _, fix := runFix(t, searchConfig, small); fix == nil || !strings.Contains(fix.Title, "`50.0` to `0.5`") {
		t.Errorf("the small program's fix: %+v", fix)
	}
}

// BenchmarkSearchedFix is the cost of a panicking run with its search,
// beside the same program without the panic, to be read as a ratio:
// "found" finds its fix at the first change, "exhausted" panics where no
// change of one token mends it, so the search runs to its bound.
func BenchmarkSearchedFix(b *testing.B) {
	for _, p := range []struct{ name, last string }{
		{"clean", "let dropout = DropoutConfig::new(0.5).init();"},
		{"found", "let dropout = DropoutConfig::new(50.0).init();"},
		{"exhausted", "let dropout = DropoutConfig::new(0.5).init(); assert!(y.dims()[0] == 2, \"one\");"},
	} {
		snippet := fmt.Sprintf(`use burn::nn::DropoutConfig;
use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default();
    let x = Tensor::<2>::ones([8, 8], &device);
    let y = x.clone().matmul(x).sum();
    println!("{:?}", y.dims());
    %s
    println!("{dropout}");
}
`, p.last)
		req := engine.Request{Config: searchConfig, Snippet: snippet}
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				engine.Run(req)
			}
		})
	}
}

// TestSimilarNameFixesRun: the edit of rustc's "a similar name exists" for
// a misspelt variable, method or associated function makes the program run.
func TestSimilarNameFixesRun(t *testing.T) {
	const head = "use burn::tensor::{Device, Tensor};\nfn main() {\n    let device = Device::default();\n"
	for _, c := range []struct{ body, title string }{
		{"    let x = Tensor::<2>::zeroes([2, 3], &device);\n    println!(\"{:?}\", x.dims());\n}\n", "Use `zeros`"},
		{"    let x = Tensor::<2>::zeros([2, 3], &device);\n    println!(\"{:?}\", x.unsqeeze::<3>().dims());\n}\n", "Use `unsqueeze`"},
		{"    let weights = Tensor::<2>::zeros([2, 3], &device);\n    println!(\"{:?}\", weight.dims());\n}\n", "Use `weights`"},
	} {
		req := engine.Request{Config: searchConfig, Snippet: head + c.body}
		res := engine.Run(req)
		if res.Status != engine.StatusRejected || len(res.Diagnostics) == 0 || len(res.Diagnostics[0].Fixes) == 0 {
			t.Fatalf("%s: %s", c.title, Summary(res))
		}
		fix := res.Diagnostics[0].Fixes[0]
		if fix.Title != c.title {
			t.Errorf("fix %q, want %q", fix.Title, c.title)
		}
		if got := engine.Run(engine.ApplyFix(req, fix)); got.Status != engine.StatusOK {
			t.Errorf("%s leaves %s:\n%s", c.title, got.Status, Summary(got))
		}
	}
}

// TestMostFailingExamplesOfferAFix: of the examples that do not run
// clean, at least 80% offer a fix in their Result (TestExamples applies
// each first fix).
func TestMostFailingExamplesOfferAFix(t *testing.T) {
	failing, fixed := 0, 0
	var without []string
	for _, ex := range examples.All() {
		res := engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet, Entry: ex.Entry})
		if res.Status == engine.StatusOK {
			continue
		}
		failing++
		if slices.ContainsFunc(res.Diagnostics, func(d engine.Diagnostic) bool { return len(d.Fixes) > 0 }) {
			fixed++
		} else {
			without = append(without, ex.Name)
		}
	}
	t.Logf("%d of the %d failing examples offer a fix; without one: %s", fixed, failing, strings.Join(without, " "))
	if fixed*5 < failing*4 {
		t.Errorf("%d of the %d failing examples offer a fix, under 80%%", fixed, failing)
	}
}

// TestSearchLeavesAssertionsAlone: a failed assertion is not "fixed" by
// changing what it asserts or the tolerance it allows; the program it
// checks may change.
func TestSearchLeavesAssertionsAlone(t *testing.T) {
	for _, snippet := range []string{
		"use burn::tensor::{Device, Tensor};\nfn main() {\n    let x = Tensor::<2>::ones([8, 8], &Device::default());\n    assert!(x.dims()[0] == 2, \"rows\");\n}\n",
		"use burn::tensor::{Device, Tensor, Tolerance};\nfn main() {\n    let x = Tensor::<1>::from_floats([1.0, 2.0], &Device::default());\n    let expected = x.clone().into_data();\n    (x + 0.25).into_data().assert_approx_eq::<f32>(&expected, Tolerance::absolute(1e-3));\n}\n",
	} {
		res, fix := runFix(t, searchConfig, snippet)
		if res.Status != engine.StatusPanicked {
			t.Fatalf("status %s:\n%s", res.Status, Summary(res))
		}
		if fix != nil && strings.Contains(strings.Split(snippet, "\n")[fix.Edits[0].Span.Start.Line-1], "assert") {
			t.Errorf("the assertion itself got the fix %q", fix.Title)
		}
	}
}

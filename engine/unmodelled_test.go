package engine_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/burnapi"
)

// The names of Burn's API the engine does not model: a playground-unmodelled
// warning with an unknown value, never rustc's "no method named ..", which
// is for names Burn does not have.

const flexOnly = "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"std\", \"flex\"] }\n"

func snippet(body string) string {
	return "use burn::tensor::{Tensor, Int, DType, activation, grid, linalg, loss, signal};\nfn main() {\n    let device = Default::default();\n    let t = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);\n" + body + "}\n"
}

func diagsOf(res engine.Result, code string) []engine.Diagnostic {
	var out []engine.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

func spanOf(src string, d engine.Diagnostic) string {
	return src[d.Span.Start.Offset:d.Span.End.Offset]
}

// firstUnmodelled is the first of a few candidates that the engine does not
// model today (others model new operations all the time; when every
// candidate is modelled, add one): body is a statement with %s for the
// candidate.
func firstUnmodelled(t *testing.T, body string, candidates ...string) string {
	t.Helper()
	for _, c := range candidates {
		res := engine.Run(engine.Request{Snippet: snippet(fmt.Sprintf(body, c))})
		if ds := diagsOf(res, "playground-unmodelled"); len(ds) == 1 {
			return c
		}
	}
	t.Fatalf("every candidate of %q is modelled now: give firstUnmodelled one that is not", body)
	return ""
}

// unmodelledMethod is a Float method of the table the engine does not
// model.
func unmodelledMethod(t *testing.T) string {
	t.Helper()
	candidates := []string{"grid_sample_2d", "quantize_dynamic", "categorical", "median_with_indices", "roll_dim", "hypot", "is_close", "can_mut"}
	for _, m := range candidates {
		if len(burnapi.Default().Member("Tensor", m, "Float", true)) == 0 {
			t.Fatalf("%s is not a Float method of the table", m)
		}
	}
	return firstUnmodelled(t, "    let u = t.clone().%s();\n", candidates...)
}

// unmodelledFunctions are functions of burn-tensor's modules that return
// a tensor like t, called with arguments of the right types.
var unmodelledFunctions = []string{
	"activation::celu(t.clone(), 1.0)",
	"activation::softplus(t.clone(), 1.0)",
	"activation::mish(t.clone())",
	"activation::selu(t.clone())",
	"activation::softsign(t.clone())",
	"activation::log_sigmoid(t.clone())",
	"loss::cross_entropy_with_logits(t.clone(), t.clone())",
	"signal::irfft(t.clone(), t.clone(), 1, None)",
	"grid::affine_grid_2d(t.clone().reshape([1, 2, 2]), [1, 1, 2, 2])",
	"signal::cfft(t.clone(), t.clone(), 1, None)",
}

func TestUnmodelledBurnItems(t *testing.T) {
	m := unmodelledMethod(t)
	fn := firstUnmodelled(t, "    let w = %s;\n", unmodelledFunctions...)
	fnName := strings.SplitN(fn, "(", 2)[0]
	dt := firstUnmodelled(t, "    let n = DType::F32.%s();\n", "finfo", "size", "name", "is_float")
	fnName = strings.SplitN(fnName, "::<", 2)[0]
	cases := []struct {
		name   string
		config string
		body   string
		code   string // the one diagnostic the case is about
		sev    string
		span   string // the source text it points at
		msg    string // a fragment of its message
		status string
	}{
		{"a method Burn has", "", fmt.Sprintf("    let u = t.clone().%s();\n", m),
			"playground-unmodelled", "warning", m, fmt.Sprintf("`Tensor::%s` is Burn's, but the playground does not model it yet: its result is unknown, and what is computed from it is not checked", m), "ok"},
		{"a function of a module by its full path", "", "    let w = burn::tensor::" + fn + ";\n",
			"playground-unmodelled", "warning", "burn::tensor::" + fn, "`burn::tensor::" + fnName + "` is Burn's", "ok"},
		{"a function of an imported module", "", "    let w = " + fn + ";\n",
			"playground-unmodelled", "warning", fn, "`burn::tensor::" + fnName + "` is Burn's", "ok"},
		{"a method of one of Burn's enums", "", "    let n = DType::F32." + dt + "();\n",
			"playground-unmodelled", "warning", dt, "`DType::" + dt + "` is Burn's", "ok"},
		{"a misspelled method", "", fmt.Sprintf("    let u = t.clone().%sx();\n", m),
			"unknown-method", "error", m + "x", fmt.Sprintf("no method named `%sx` found for struct `Tensor", m), "rejected"},
		{"a function its module does not have", "", "    let y = burn::tensor::linalg::no_such(t.clone());\n",
			"unknown-function", "error", "burn::tensor::linalg::no_such(t.clone())", "cannot find function `no_such` in module `burn::tensor::linalg`", "rejected"},
		{"a Float method on an Int tensor", "", "    let i = Tensor::<1, Int>::arange(0..3, &device);\n    let e = i.erf();\n",
			"unknown-method", "error", "erf", "erf", "rejected"},
		{"a method of Tensor<1> on a Tensor<2>", "", "    let e = t.clone().dot(t.clone());\n",
			"unknown-method", "error", "dot", "no method named `dot` found", "rejected"},
		{"a method behind a feature the program lacks", flexOnly, "    let d = Tensor::<1>::zeros([1], &burn::tensor::Device::flex()).device();\n    let p = d.performance_stats(&[]);\n",
			"feature-not-enabled", "error", "performance_stats", "no method named `performance_stats` found", "rejected"},
		{"the same method with the feature", "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n", "    let d = Tensor::<1>::zeros([1], &device).device();\n    let p = d.performance_stats(&[]);\n",
			"playground-unmodelled", "warning", "performance_stats", "`Device::performance_stats` is Burn's", "ok"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := snippet(c.body)
			res := run(t, engine.Request{Config: c.config, Snippet: src})
			ds := diagsOf(res, c.code)
			if len(ds) != 1 {
				t.Fatalf("%d %s diagnostics, want 1:\n%s", len(ds), c.code, Summary(res))
			}
			d := ds[0]
			if d.Severity != c.sev || spanOf(src, d) != c.span || !strings.Contains(d.Message, c.msg) {
				t.Errorf("got %s %s at %q: %s\nwant %s at %q: ..%s..", d.Severity, d.Code, spanOf(src, d), d.Message, c.sev, c.span, c.msg)
			}
			if res.Status != c.status {
				t.Errorf("status %s, want %s:\n%s", res.Status, c.status, Summary(res))
			}
			for _, other := range res.Diagnostics {
				if other.Severity == "error" && other.Code != c.code {
					t.Errorf("another error: %s %s", other.Code, other.Message)
				}
				if c.code == "playground-unmodelled" && strings.Contains(other.Message, "no method named") {
					t.Errorf("rustc's error for a name Burn has: %s", other.Message)
				}
			}
		})
	}
}

// TestUnmodelledValueIsUnknown: what is computed from an unmodelled call's
// value is not computed on a guess: no operation of it is traced, and an
// assertion on it does not fail (nor pass silently: it is unchecked).
func TestUnmodelledValueIsUnknown(t *testing.T) {
	m := unmodelledMethod(t)
	win := firstUnmodelled(t, "    let w = %s;\n", unmodelledFunctions...)
	mut := firstUnmodelled(t, "    let mut x = t.clone();\n    let _ = x.%s;\n", "extract()", "inplace(|x| x)")
	cases := []struct{ name, body string }{
		{"a method's tensor, summed and asserted", fmt.Sprintf("    let u = t.clone().%s();\n    let s: f32 = u.sum().into_scalar();\n    assert_eq!(s, 123.0);\n", m)},
		{"a module function's value, asserted", "    let s: f32 = " + win + ".sum().into_scalar();\n    assert_eq!(s, 123.0);\n    assert!(s > 1000.0);\n"},
		{"a function's tensor compared with a wrong tensor", "    let w = " + win + ";\n    let want = Tensor::<2>::from_data([[9.0, 9.0], [9.0, 9.0]], &device);\n    w.into_data().assert_eq(&want.into_data(), true);\n"},
		{"a Vec holding the unknown value", fmt.Sprintf("    let u = t.clone().%s();\n    let c = Tensor::cat(vec![t.clone(), u], 0);\n    assert_eq!(c.dims(), [9, 9]);\n", m)},
		// Burn's extract and inplace take &mut self: the receiver's old
		// value is a guess after them (a stale [2, 2] would pass).
		{"the receiver of a &mut self method", "    let mut x = t.clone();\n    let _ = x." + mut + ";\n    assert_eq!(x.dims(), [2, 2]);\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := snippet(c.body)
			res := run(t, engine.Request{Snippet: src})
			if res.Status != "ok" || res.Panic != nil {
				t.Fatalf("status %s: an assertion on an unknown value decided the run:\n%s", res.Status, Summary(res))
			}
			if len(diagsOf(res, "playground-unmodelled")) != 1 {
				t.Errorf("want one playground-unmodelled warning:\n%s", Summary(res))
			}
			for _, d := range res.Diagnostics {
				if d.Code == "assertion-failed" || d.Severity == "error" {
					t.Errorf("%s %s: %s", d.Severity, d.Code, d.Message)
				}
			}
			if strings.Contains(c.body, "assert") && len(diagsOf(res, "playground-unchecked")) == 0 {
				t.Errorf("an assertion on an unknown value passed silently:\n%s", Summary(res))
			}
			for _, e := range res.Trace {
				if e.Op == "float_sum" {
					t.Errorf("%s was traced: the unknown value was computed with", e.Op)
				}
			}
		})
	}
}

// TestNoBurnNameIsUnknown: every method and associated function the table
// gives Float tensors, and every function of burn-tensor's modules, is
// either modelled (whatever the engine says of its arguments) or
// playground-unmodelled, but never rustc's "not found". The config enables
// every feature the rows are gated by.
func TestNoBurnNameIsUnknown(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine once per item of the table")
	}
	features := map[string]bool{}
	var calls []string
	for _, it := range burnapi.Default().Items {
		for _, g := range it.Gates() {
			if g.Crate == "burn-tensor" {
				features[g.Feature] = true
			}
		}
		switch {
		case it.Path == "burn_tensor::Tensor" && it.Kind == "method" && it.ForKind("Float") && (it.Rank == "D" || it.Rank == "2"):
			calls = append(calls, "t.clone()."+it.Name+"()")
		case it.Path == "burn_tensor::Tensor" && it.Kind == "assoc" && it.ForKind("Float") && it.Rank != "1" && it.Rank != "2":
			calls = append(calls, "Tensor::<2>::"+it.Name+"()")
		case it.Kind == "fn" && strings.HasPrefix(it.Path, "burn_tensor::") && !strings.Contains(it.Path, "server") && !strings.Contains(it.Path, "distributed"):
			calls = append(calls, it.Display()+"()")
		}
	}
	var list []string
	for _, f := range sortedKeys(features) {
		list = append(list, fmt.Sprintf("%q", f))
	}
	config := "[dependencies]\nburn = { version = \"0.22\", features = [" + strings.Join(list, ", ") + "] }\n"
	seen := map[string]bool{}
	for _, call := range calls {
		if seen[call] {
			continue
		}
		seen[call] = true
		res := engine.Run(engine.Request{Config: config, Snippet: snippet("    let x = " + call + ";\n")})
		for _, d := range res.Diagnostics {
			if strings.Contains(d.Message, "no method named") || strings.Contains(d.Message, "no function or associated item named") ||
				strings.Contains(d.Message, "cannot find function") || d.Code == "unsupported-api" {
				t.Errorf("%s: %s %s", call, d.Code, d.Message)
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestGlobImportedBurnFunctions: a function a glob import of burn-tensor's
// module brings is that function, modelled or not, never rustc's "cannot
// find function".
func TestGlobImportedBurnFunctions(t *testing.T) {
	qualified := firstUnmodelled(t, "    let w = %s;\n", unmodelledFunctions...)
	module, fn, _ := strings.Cut(qualified, "::")
	name := strings.SplitN(fn, "(", 2)[0]
	src := "use burn::tensor::Tensor;\nuse burn::tensor::activation::*;\nuse burn::tensor::" + module + "::*;\nfn main() {\n    let device = Default::default();\n" +
		"    let t = Tensor::<2>::from_data([[-1.0, 2.0], [3.0, -4.0]], &device);\n" +
		"    let r = relu(t.clone());\n    println!(\"{}\", r.into_data());\n    let w = " + fn + ";\n}\n"
	res := run(t, engine.Request{Snippet: src})
	if res.Status != "ok" {
		t.Fatalf("status %s:\n%s", res.Status, Summary(res))
	}
	ds := diagsOf(res, "playground-unmodelled")
	if len(ds) != 1 || spanOf(src, ds[0]) != fn || !strings.Contains(ds[0].Message, "`burn::tensor::"+module+"::"+name+"`") {
		t.Errorf("want one playground-unmodelled warning at %q naming %s:\n%s", fn, name, Summary(res))
	}
	if !strings.Contains(res.Output, "[0.0, 2.0, 3.0, 0.0]") {
		t.Errorf("relu through the glob import: output %q", res.Output)
	}
}

// TestShouldPanicOverUnmodelled: a #[should_panic] test whose panic would
// come from an item the engine does not model is not reported as a plain
// "did not panic": its report says what the playground could not see.
func TestShouldPanicOverUnmodelled(t *testing.T) {
	m := unmodelledMethod(t)
	src := "use burn::tensor::Tensor;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    #[should_panic]\n    fn panics() {\n" +
		"        let t = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &Default::default());\n        let _ = t." + m + "();\n    }\n}\nfn main() {}\n"
	res := run(t, engine.Request{Snippet: src, Entry: engine.EntryTests})
	if len(res.Tests) != 1 {
		t.Fatalf("%d tests:\n%s", len(res.Tests), Summary(res))
	}
	tr := res.Tests[0]
	want := "note: the playground does not model `Tensor::" + m + "`, which this test calls: whether Burn panics there is not known"
	if tr.Status != "failed" || !strings.Contains(tr.Output, want) {
		t.Errorf("test %s, output %q; want failed with %q", tr.Status, tr.Output, want)
	}
	if len(diagsOf(res, "playground-unmodelled")) != 1 || res.Complete {
		t.Errorf("want one playground-unmodelled warning and an incomplete Result:\n%s", Summary(res))
	}
}

// TestPanicsInAGuessedBranch: a branch whose condition depends on a value
// the engine does not know may never run in Burn, so a panic inside it is
// a warning of the run, not the check's error nor the run's panic.
func TestPanicsInAGuessedBranch(t *testing.T) {
	m := unmodelledMethod(t)
	for name, branch := range map[string]string{
		"user panic": "panic!(\"boom\")",
		"Burn panic": "let _ = t.clone().matmul(Tensor::<2>::ones([5, 5], &device))",
	} {
		t.Run(name, func(t *testing.T) {
			src := snippet(fmt.Sprintf("    let u = t.clone().%s();\n    if u.dims()[0] > 100 {\n        %s;\n    }\n    println!(\"after\");\n", m, branch))
			res := run(t, engine.Request{Snippet: src})
			if res.Status != "ok" || res.Complete || !strings.Contains(res.Output, "after") {
				t.Fatalf("status %s complete %v output %q:\n%s", res.Status, res.Complete, res.Output, Summary(res))
			}
			found := false
			for _, d := range diagsOf(res, "playground-unchecked") {
				if strings.HasPrefix(d.Message, "this panic was not checked") {
					found = true
				}
			}
			if !found {
				t.Errorf("no warning for the panic in the branch:\n%s", Summary(res))
			}
		})
	}
}

// TestOtherCrates: a call into a crate the package depends on and the
// engine does not model is a boundary; one into a crate it does not depend
// on is rustc's E0433.
func TestOtherCrates(t *testing.T) {
	config := "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\nrand = \"0.9\"\nserde-json = \"1\"\n"
	res := run(t, engine.Request{Config: config, Snippet: "use rand::Rng;\nfn main() {\n    let mut rng = rand::rng();\n    let x: f32 = rng.random();\n    let s = serde_json::to_string(&x);\n    println!(\"{}\", x);\n}\n"})
	if res.Status != "ok" || res.Complete {
		t.Fatalf("status %s complete %v:\n%s", res.Status, res.Complete, Summary(res))
	}
	var crates []string
	for _, d := range diagsOf(res, "playground-unmodelled") {
		crates = append(crates, d.Message)
	}
	if len(crates) != 2 || !strings.Contains(crates[0], "the crate `rand`") || !strings.Contains(crates[1], "the crate `serde_json`") {
		t.Errorf("boundary warnings %q", crates)
	}
	res = run(t, engine.Request{Config: config, Snippet: "fn main() {\n    let r = csv::ReaderBuilder::new();\n}\n"})
	if res.Status != "rejected" || len(res.Diagnostics) == 0 || res.Diagnostics[0].Message != "failed to resolve: use of unresolved module or unlinked crate `csv`" {
		t.Errorf("status %s:\n%s", res.Status, Summary(res))
	}
}

// TestOtherCratesMacros: a macro of a crate the package depends on and the
// engine does not model, by path, by a `use` of it or through the one
// glob import of such a crate, is a boundary; one no crate can provide
// stays rustc's error.
func TestOtherCratesMacros(t *testing.T) {
	config := "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = \"0.22\"\npolars = \"0.46\"\n"
	for _, src := range []string{
		"use polars::prelude::*;\nfn main() {\n    let df = df![\"a\" => [1, 2]];\n    println!(\"{:?}\", df);\n}\n",
		"use polars::df;\nfn main() {\n    let df = df![\"a\" => [1, 2]];\n    println!(\"{:?}\", df);\n}\n",
		"fn main() {\n    let df = polars::df![\"a\" => [1, 2]];\n    println!(\"{:?}\", df);\n}\n",
	} {
		res := run(t, engine.Request{Config: config, Snippet: src})
		ds := diagsOf(res, "playground-unmodelled")
		if res.Status != "ok" || res.Complete || len(ds) != 1 || !strings.Contains(ds[0].Message, "`df!` is from the crate `polars`") {
			t.Errorf("%s: status %s complete %v:\n%s", src, res.Status, res.Complete, Summary(res))
		}
		if len(diagsOf(res, "playground-unchecked")) != 1 {
			t.Errorf("%s: the print of the unknown frame is not unchecked:\n%s", src, Summary(res))
		}
	}
	res := run(t, engine.Request{Config: config, Snippet: "fn main() {\n    let x = nope![1];\n}\n"})
	if ds := diagsOf(res, "unknown-macro"); res.Status != "rejected" || len(ds) != 1 || ds[0].Message != "cannot find macro `nope` in this scope" {
		t.Errorf("a macro no crate provides: status %s:\n%s", res.Status, Summary(res))
	}
}

// burnCrateConfig is a Cargo.toml with burn's default features and those
// given.
func burnCrateConfig(features ...string) string {
	var q []string
	for _, f := range features {
		q = append(q, fmt.Sprintf("%q", f))
	}
	return "[dependencies]\nburn = { version = \"0.22\", features = [" + strings.Join(q, ", ") + "] }\n"
}

// firstCrateUnmodelled is the first candidate statement whose run gives
// one playground-unmodelled warning naming the item (the candidate's
// second field) and no error: others model Burn's crates all the time,
// and the test is about the names they do not model yet.
func firstCrateUnmodelled(t *testing.T, config, items string, candidates [][2]string) (stmt, item string) {
	t.Helper()
	for _, c := range candidates {
		src := items + "fn main() {\n    " + c[0] + "\n}\n"
		res := engine.Run(engine.Request{Config: config, Snippet: src})
		ds := diagsOf(res, "playground-unmodelled")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, "`"+c[1]+"` is Burn's") {
			continue
		}
		errs := false
		for _, d := range res.Diagnostics {
			errs = errs || d.Severity == "error"
		}
		if !errs {
			return c[0], c[1]
		}
	}
	t.Fatalf("every candidate is modelled now (or rejected): give firstCrateUnmodelled one that is not: %v", candidates)
	return "", ""
}

// TestBurnCratesUnmodelled: a name of burn-train, burn-dataset, burn-nn or
// burn-store, and a method a program's own type has from one of Burn's
// traits (Module's, for a struct that derives it), is Burn's item the engine does not model (a warning naming it,
// its value unknown), never rustc's "no function or associated item".
func TestBurnCratesUnmodelled(t *testing.T) {
	cases := []struct {
		name, config, items string
		candidates          [][2]string
	}{
		{"burn-train", burnCrateConfig("train"), "", [][2]string{
			{"let m = burn::train::metric::CpuUse::new();", "CpuUse::new"},
			{"let m = burn::train::metric::CpuMemory::new();", "CpuMemory::new"},
			{"let m = burn::train::metric::IterationSpeedMetric::new();", "IterationSpeedMetric::new"},
			{"let m = burn::train::metric::LearningRateMetric::new();", "LearningRateMetric::new"},
			{"let e = burn::train::checkpoint::CheckpointerError::Unknown(String::new());", "CheckpointerError::Unknown"},
			{"let i = burn::train::Interrupter::new();", "Interrupter::new"},
			{"let l = burn::train::FileApplicationLoggerInstaller::new(\"log.txt\");", "FileApplicationLoggerInstaller::new"},
		}},
		{"burn-dataset", burnCrateConfig("dataset"), "", [][2]string{
			{"let d = burn::data::dataset::InMemDataset::new(vec![1, 2, 3]);", "InMemDataset::new"},
			{"let e = burn::data::dataset::DatasetError::new(\"x\");", "DatasetError::new"},
		}},
		{"burn-nn", burnCrateConfig(), "", [][2]string{
			{"let c = burn::nn::RotaryEncodingConfig::new(16, 8);", "RotaryEncodingConfig::new"},
			{"let c = burn::nn::PositionalEncodingConfig::new(16);", "PositionalEncodingConfig::new"},
			{"let c = burn::nn::SwiGluConfig::new(4, 4);", "SwiGluConfig::new"},
			{"let c = burn::nn::PixelShuffleConfig::new(2);", "PixelShuffleConfig::new"},
		}},
		{"burn-store", burnCrateConfig("store", "pytorch", "safetensors"), "", [][2]string{
			{"let e = burn::store::PytorchStoreError::Other(String::new());", "PytorchStoreError::Other"},
			{"let e = burn::store::SafetensorsStoreError::Other(String::new());", "SafetensorsStoreError::Other"},
			{"let m = burn::store::SafetensorsStore::default_metadata();", "SafetensorsStore::default_metadata"},
			{"let f = burn::store::PathFilter::new();", "PathFilter::new"},
			{"let a = burn::store::HalfPrecisionAdapter::new();", "HalfPrecisionAdapter::new"},
			{"let r = burn::store::KeyRemapper::new();", "KeyRemapper::new"},
			{"let a = burn::store::FloatCastAdapter::to(burn::tensor::DType::F16);", "FloatCastAdapter::to"},
			{"let f = burn::store::PathFilter::none();", "PathFilter::none"},
			{"let a = burn::store::ChainAdapter::new(burn::store::PyTorchToBurnAdapter, burn::store::PyTorchToBurnAdapter);", "ChainAdapter::new"},
		}},
		{"a trait method of the program's Module", burnCrateConfig("train"), "use burn::module::Module;\nuse burn::nn::{Linear, LinearConfig};\n#[derive(Module, Debug)]\nstruct Net {\n    l: Linear,\n}\n", [][2]string{
			{"let n = Net { l: LinearConfig::new(2, 2).init(&burn::tensor::Device::default()) };\n    let d = n.collect_devices(Vec::new());", "Module::collect_devices"},
			{"let n = Net { l: LinearConfig::new(2, 2).init(&burn::tensor::Device::default()) };\n    let m = n.train::<burn::tensor::Device>();", "Module::train"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			firstCrateUnmodelled(t, c.config, c.items, c.candidates)
		})
	}
}

// TestBurnCratesFeatureGate: a name of a crate past burn-tensor that the
// program's features leave out is rustc's error for a gated item, with
// the feature of burn that compiles it in as the fix; a crate the program
// depends on itself needs no gate of burn's.
func TestBurnCratesFeatureGate(t *testing.T) {
	noDefault := func(features ...string) string {
		var q []string
		for _, f := range features {
			q = append(q, fmt.Sprintf("%q", f))
		}
		return "[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [" + strings.Join(q, ", ") + "] }\n"
	}
	cases := []struct {
		name     string
		features []string
		stmts    []string // candidates: others model Burn's crates, and the test needs one they do not answer first
		feature  string
	}{
		{"burn-train without train", []string{"std", "flex"}, []string{"let m = burn::train::metric::LearningRateMetric::new();", "let m = burn::train::metric::IterationSpeedMetric::new();", "let i = burn::train::Interrupter::new();", "let e = burn::train::checkpoint::CheckpointerError::Unknown(String::new());"}, "train"},
		{"burn-train's sys-metrics, which burn's metrics turns on", []string{"std", "flex", "train"}, []string{"let m = burn::train::metric::CpuUse::new();", "let m = burn::train::metric::CpuMemory::new();"}, "metrics"},
		{"burn-dataset's vision without vision", []string{"std", "flex", "dataset"}, []string{"let d = burn::data::dataset::vision::ImageFolderDataset::new_classification(\"images\");", "let d = burn::data::dataset::vision::MnistDataset::train();"}, "vision"},
		{"burn-optim without optim", []string{"std", "flex"}, []string{"let c = burn::optim::AdaGradConfig::new();", "let c = burn::grad_clipping::GradientClippingConfig::Value(1.0);", "let r = burn::lr_scheduler::LrSchedulerRecord::new();"}, "optim"},
		{"burn-store without store", []string{"std", "flex"}, []string{"let f = burn::store::PathFilter::new();", "let r = burn::store::KeyRemapper::new();", "let a = burn::store::FloatCastAdapter::to(burn::tensor::DType::F16);", "let f = burn::store::PathFilter::none();", "let c = burn::store::Collector::new(None, None, false);", "let a = burn::store::Applier::new(Vec::new(), None, None, false);"}, "store"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var src string
			var res engine.Result
			var ds []engine.Diagnostic
			for _, stmt := range c.stmts {
				src = "fn main() {\n    " + stmt + "\n}\n"
				res = run(t, engine.Request{Config: noDefault(c.features...), Snippet: src})
				if ds = diagsOf(res, "feature-not-enabled"); len(ds) == 1 {
					break
				}
			}
			if len(ds) != 1 {
				t.Fatalf("no candidate gives one feature-not-enabled diagnostic (a model answers every one without the feature?):\n%s", Summary(res))
			}
			d := ds[0]
			want := fmt.Sprintf("is only compiled with the `%s` feature of burn", c.feature)
			if len(d.Help) == 0 || !strings.Contains(d.Help[0], want) {
				t.Errorf("help %q, want ..%s..", d.Help, want)
			}
			if len(d.Fixes) != 1 || !strings.Contains(d.Fixes[0].Title, fmt.Sprintf("`%s`", c.feature)) {
				t.Errorf("fixes %+v, want one enabling %s", d.Fixes, c.feature)
			}
			if res.Status != "rejected" {
				t.Errorf("status %s, want rejected", res.Status)
			}
			// With the feature, the name is Burn's: no gate error.
			fixed := noDefault(append(append([]string{}, c.features...), c.feature)...)
			res = run(t, engine.Request{Config: fixed, Snippet: src})
			if ds := diagsOf(res, "feature-not-enabled"); len(ds) != 0 {
				t.Errorf("with %s: %s", c.feature, ds[0].Help)
			}
			for _, d := range res.Diagnostics {
				if strings.Contains(d.Message, "no function or associated item named") {
					t.Errorf("with %s: rustc's error for a name Burn has: %s", c.feature, d.Message)
				}
			}
		})
	}
	t.Run("train's own dependencies", func(t *testing.T) {
		// burn-train asks burn-core for std and dataset
		// (crates/burn-train/Cargo.toml): DataLoaderBuilder is there with
		// burn's train alone.
		res := run(t, engine.Request{Config: noDefault("train"), Snippet: "fn main() {\n    let b = burn::data::dataloader::DataLoaderBuilder::new(1);\n}\n"})
		if ds := diagsOf(res, "feature-not-enabled"); len(ds) != 0 {
			t.Errorf("%s: %s", ds[0].Message, ds[0].Help)
		}
	})
	t.Run("a crate the program depends on itself", func(t *testing.T) {
		config := "[dependencies]\nburn = { version = \"0.22\" }\nburn-store = { version = \"0.22\", features = [\"std\"] }\n"
		res := run(t, engine.Request{Config: config, Snippet: "fn main() {\n    let r = burn_store::KeyRemapper::new();\n}\n"})
		if ds := diagsOf(res, "feature-not-enabled"); len(ds) != 0 {
			t.Errorf("%s: %s", ds[0].Message, ds[0].Help)
		}
	})
}

// TestBurnCratesUnknownName: a name no Burn crate has, on a type of one
// of them or on the program's own Module, stays rustc's error.
func TestBurnCratesUnknownName(t *testing.T) {
	cases := []struct {
		name, items, stmt, code, msg string
	}{
		{"an associated function burn-train's type lacks", "", "let m = burn::train::metric::CpuUse::frobnicate();",
			"unknown-function", "no function or associated item named `frobnicate`"},
		{"an associated function burn-dataset's type lacks", "", "let d = burn::data::dataset::InMemDataset::<i32>::frobnicate();",
			"unknown-function", "no function or associated item named `frobnicate`"},
		{"a method the program's Dataset lacks",
			"use burn::data::dataset::Dataset;\nstruct Items;\nimpl Dataset<i32> for Items {\n    fn get(&self, index: usize) -> Option<i32> { None }\n    fn len(&self) -> usize { 0 }\n}\n",
			"let x = Items.frobnicate();", "unknown-method", "no method named `frobnicate`"},
		{"a method of the program's type that implements no Burn trait", "struct Plain;\n",
			"let x = Plain.iter();", "unknown-method", "no method named `iter`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.items + "fn main() {\n    " + c.stmt + "\n}\n"
			res := run(t, engine.Request{Config: burnCrateConfig("train", "dataset"), Snippet: src})
			ds := diagsOf(res, c.code)
			if len(ds) != 1 || !strings.Contains(ds[0].Message, c.msg) {
				t.Fatalf("want one %s ..%s..:\n%s", c.code, c.msg, Summary(res))
			}
			if len(diagsOf(res, "playground-unmodelled")) != 0 {
				t.Errorf("a boundary for a name Burn lacks:\n%s", Summary(res))
			}
		})
	}
}

// TestProgramTraitOnBurnType: the program's own trait implemented for one
// of Burn's types (`impl CIFAR10Loader for ImageFolderDataset`) gives the
// type the program's functions: Burn has no item of that name, and rustc
// finds the program's.
func TestProgramTraitOnBurnType(t *testing.T) {
	items := "use burn::data::dataset::InMemDataset;\ntrait Answer {\n    fn answer() -> usize;\n}\nimpl Answer for InMemDataset<i32> {\n    fn answer() -> usize {\n        42\n    }\n}\n"
	for _, c := range []struct {
		want   string
		status string
	}{{"42", "ok"}, {"41", "panicked"}} {
		src := items + "fn main() {\n    let n = InMemDataset::<i32>::answer();\n    assert_eq!(n, " + c.want + ");\n}\n"
		res := run(t, engine.Request{Config: burnCrateConfig("dataset"), Snippet: src})
		if res.Status != c.status {
			t.Errorf("assert_eq!(n, %s): status %s, want %s:\n%s", c.want, res.Status, c.status, Summary(res))
		}
		for _, d := range res.Diagnostics {
			if strings.Contains(d.Message, "no function or associated item named") || d.Code == "playground-unchecked" {
				t.Errorf("assert_eq!(n, %s): %s %s", c.want, d.Code, d.Message)
			}
		}
	}
}

// TestBurnCrateFeatureNoBurnFeature: a gate no feature of burn turns on
// (burn-store's burnpack at this commit) says to depend on the crate
// itself, and that dependency compiles the item in.
func TestBurnCrateFeatureNoBurnFeature(t *testing.T) {
	src := "fn main() {\n    let s = burn::store::BurnpackStore::from_file(\"model.bpk\");\n}\n"
	res := run(t, engine.Request{Config: burnCrateConfig("store"), Snippet: src})
	ds := diagsOf(res, "feature-not-enabled")
	if len(ds) != 1 || len(ds[0].Help) == 0 || !strings.Contains(ds[0].Help[0], "burn-store's `burnpack` feature, which no feature of burn turns on: depend on burn-store itself") {
		t.Fatalf("want burn-store's burnpack gate:\n%s", Summary(res))
	}
	if len(ds[0].Fixes) != 0 {
		t.Errorf("a fix enabling a feature of burn that does not compile it in: %+v", ds[0].Fixes)
	}
	config := "[dependencies]\nburn = { version = \"0.22\", features = [\"store\"] }\nburn-store = { version = \"0.22\", features = [\"std\", \"burnpack\"] }\n"
	res = run(t, engine.Request{Config: config, Snippet: "fn main() {\n    let s = burn_store::BurnpackStore::from_file(\"model.bpk\");\n}\n"})
	if ds := diagsOf(res, "feature-not-enabled"); len(ds) != 0 {
		t.Errorf("with burn-store's burnpack: %s", ds[0].Help)
	}
}

// TestGateThroughAPathDependency: a path dependency's own Cargo.toml may
// turn on a feature of burn this one does not (Cargo unifies features),
// so a gated item is not rustc's error then: it runs, with a warning that
// says why that is not known.
func TestGateThroughAPathDependency(t *testing.T) {
	src := "use burn::optim::AdamConfig;\nfn main() {\n    let c = AdamConfig::new();\n    println!(\"{}\", c.beta_1);\n}\n"
	without := "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nburn = { version = \"0.22\", default-features = false, features = [\"flex\"] }\n"
	res := run(t, engine.Request{Config: without, Snippet: src})
	if res.Status != "rejected" || len(diagsOf(res, "feature-not-enabled")) == 0 {
		t.Fatalf("without the path dependency: status %s:\n%s", res.Status, Summary(res))
	}
	with := without + "guide = { path = \"../guide\" }\n"
	res = run(t, engine.Request{Config: with, Snippet: src})
	ds := diagsOf(res, "playground-unmodelled")
	if res.Status != "ok" || res.Complete || res.Output != "0.9\n" || len(ds) != 1 ||
		ds[0].Message != "`AdamConfig::new` needs the `optim` feature of burn, which this Cargo.toml does not enable; `guide` may, through its own Cargo.toml, which the playground does not have: it runs as if it did" {
		t.Errorf("with the path dependency: status %s complete %v output %q:\n%s", res.Status, res.Complete, res.Output, Summary(res))
	}
}

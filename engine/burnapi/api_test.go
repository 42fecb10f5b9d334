package burnapi

import (
	"strings"
	"testing"
)

func TestTableParses(t *testing.T) {
	tb, err := Parse(tableTSV)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tb.Commit, "2c06be35") {
		t.Errorf("the header names commit %q, want Burn's 2c06be35", tb.Commit)
	}
	if !strings.Contains(tableTSV, "# Made from Burn's source by: go run ./internal/tools/burnapi ") {
		t.Error("the header does not say the command that made the table")
	}
	if len(tb.Items) < 500 {
		t.Errorf("%d items: burn-tensor's public API has many more", len(tb.Items))
	}
}

func TestTableKnownEntries(t *testing.T) {
	tb := Default()
	cases := []struct {
		name    string
		got     []Item
		kind    string // the item kind every row must have
		feature string
		source  string // a prefix of the first row's source
	}{
		{"Tensor::from_data", tb.Member("Tensor", "from_data", "Int", false), "assoc", "", "crates/burn-tensor/src/tensor/api/base.rs:"},
		{"Tensor.cummax", tb.Member("Tensor", "cummax", "Float", true), "method", "", "crates/burn-tensor/src/tensor/api/orderable.rs:"},
		{"Tensor.backward", tb.Member("Tensor", "backward", "Float", true), "method", "autodiff", "crates/burn-tensor/src/tensor/api/autodiff.rs:"},
		{"linalg::trace", tb.Function([]string{"burn", "tensor", "linalg", "trace"}), "fn", "", "crates/burn-tensor/src/tensor/linalg/trace.rs:"},
		{"signal::hann_window", tb.Function([]string{"burn_tensor", "signal", "hann_window"}), "fn", "", "crates/burn-tensor/src/tensor/signal/hann_window.rs:"},
		{"module::max_pool2d by its module", tb.Function([]string{"module", "max_pool2d"}), "fn", "", "crates/burn-tensor/src/tensor/module.rs:"},
		{"activation::relu", tb.Function([]string{"burn", "tensor", "activation", "relu"}), "fn", "", "crates/burn-tensor/src/tensor/activation/base.rs:"},
		{"loss::cross_entropy_with_logits", tb.Function([]string{"burn_core", "tensor", "loss", "cross_entropy_with_logits"}), "fn", "", "crates/burn-tensor/src/tensor/loss/mod.rs:"},
		{"grid::meshgrid", tb.Function([]string{"grid", "meshgrid"}), "fn", "", "crates/burn-tensor/src/tensor/grid/meshgrid.rs:"},
		{"TensorData::new", tb.Member("TensorData", "new", "", false), "assoc", "", "crates/burn-std/src/data/tensor/"},
		{"Tolerance::default", tb.Member("Tolerance", "default", "", false), "impl-assoc", "", "crates/burn-std/src/data/compare.rs:"},
		{"Distribution::Uniform", tb.Member("Distribution", "Uniform", "", false), "variant", "", "crates/burn-std/src/distribution.rs:"},
		{"DType.size", tb.Member("DType", "size", "", true), "method", "", "crates/burn-std/src/tensor/dtype.rs:"},
		{"Slice::new", tb.Member("Slice", "new", "", false), "assoc", "", "crates/burn-std/src/tensor/slice.rs:"},
		{"s!", tb.Find([]string{"burn", "tensor", "s"}), "macro", "", "crates/burn-std/src/tensor/slice.rs:"},
		{"burn::prelude::Tensor", tb.Find([]string{"burn", "prelude", "Tensor"}), "struct", "", "crates/burn-tensor/src/tensor/api/base.rs:"},
	}
	for _, c := range cases {
		if len(c.got) == 0 {
			t.Errorf("%s: not in the table", c.name)
			continue
		}
		for _, it := range c.got {
			if it.Kind != c.kind {
				t.Errorf("%s: a %s row, want %s", c.name, it.Kind, c.kind)
			}
		}
		if c.got[0].Feature != c.feature {
			t.Errorf("%s: feature %q, want %q", c.name, c.got[0].Feature, c.feature)
		}
		if !strings.HasPrefix(c.got[0].Source, c.source) {
			t.Errorf("%s: source %q, want %s...", c.name, c.got[0].Source, c.source)
		}
	}
}

func TestTableKinds(t *testing.T) {
	tb := Default()
	cases := []struct {
		typ, name, kind string
		method, want    bool
	}{
		{"Tensor", "exp", "Float", true, true},
		{"Tensor", "exp", "Int", true, false}, // FloatMath: Float only
		{"Tensor", "cummax", "Int", true, true},
		{"Tensor", "cummax", "Bool", true, false}, // Ordered
		{"Tensor", "bool_not", "Bool", true, true},
		{"Tensor", "bitwise_and", "Float", true, false},
		{"Tensor", "arange", "Int", false, true},
		{"Tensor", "arange", "Int", true, false}, // an associated function is no method
		{"Tensor", "reshape", "Bool", true, true},
		{"Tensor", "no_such_method", "Float", true, false},
		{"TensorData", "no_such_fn", "", false, false},
	}
	for _, c := range cases {
		got := len(tb.Member(c.typ, c.name, c.kind, c.method)) > 0
		if got != c.want {
			t.Errorf("%s::%s for %q (method %v): in the table %v, want %v", c.typ, c.name, c.kind, c.method, got, c.want)
		}
	}
	if got := tb.Function([]string{"burn", "tensor", "linalg", "no_such_fn"}); len(got) != 0 {
		t.Errorf("linalg::no_such_fn found: %v", got)
	}
	// burn-tensor's stats module is pub(crate): not a path a program can call.
	if got := tb.Function([]string{"burn", "tensor", "stats", "var"}); len(got) != 0 {
		t.Errorf("stats::var found: %v", got)
	}
}

func TestItemGates(t *testing.T) {
	cases := []struct {
		feature string
		want    string
	}{
		{"", ""},
		{"autodiff", "burn-tensor/autodiff"},
		{"std&autodiff", "burn-tensor/std,burn-tensor/autodiff"},
		{"remote&!target_family=wasm", "burn-tensor/remote"},
		{"remote&(target_family=wasm|doc)", "burn-tensor/remote"},
		{"burn-std/std", "burn-std/std"},
		{"burn/train", "burn/train"},
		{"burn-core/std&burn-core/dataset&burn-dataset/vision", "burn-core/std,burn-core/dataset,burn-dataset/vision"},
		{"burn-core/std&(burn-dataset/sqlite|burn-dataset/sqlite-bundled)", "burn-core/std"},
	}
	for _, c := range cases {
		var got []string
		for _, g := range (Item{Feature: c.feature}).Gates() {
			got = append(got, g.Crate+"/"+g.Feature)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("Gates(%q) = %q, want %q", c.feature, strings.Join(got, ","), c.want)
		}
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	for _, text := range []string{
		"",
		"# only a comment\n",
		"item\tpath\n",
		strings.Join(make([]string, 13), "x\t") + "\n",
	} {
		if _, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) accepted a malformed table", text)
		}
	}
}

func TestTableLists(t *testing.T) {
	tb := Default()
	cases := []struct {
		owner []string
		want  bool
	}{
		{[]string{"Tensor"}, true},
		{[]string{"TensorData"}, true},
		{[]string{"burn", "tensor", "linalg"}, true},
		{[]string{"linalg"}, true},
		{[]string{"burn_tensor", "signal"}, true},
		{[]string{"Shape"}, false},          // cubecl-zspace's
		{[]string{"CaptureScope"}, false},   // burn-dispatch's
		{[]string{"DispatchTensor"}, false}, // burn-dispatch's
		{[]string{"burn", "nn"}, false},
		{[]string{"NoSuchType"}, false},
	}
	for _, c := range cases {
		if got := tb.Lists(c.owner); got != c.want {
			t.Errorf("Lists(%v) = %v, want %v", c.owner, got, c.want)
		}
	}
}

// TestTableBurnCrates: the crates past burn-tensor, by the names programs
// call them with: associated functions and variants by their type,
// methods through the traits the types implement, the traits' own
// methods for a program's type that derives or implements them.
func TestTableBurnCrates(t *testing.T) {
	tb := Default()
	cases := []struct {
		name    string
		got     []Item
		kind    string
		feature string // a fragment of the first row's gate
		source  string
	}{
		{"DataLoaderBuilder::new", tb.Member("DataLoaderBuilder", "new", "", false), "assoc", "burn-core/dataset", "crates/burn-core/src/data/dataloader/builder.rs:"},
		{"MnistDataset::train", tb.Member("MnistDataset", "train", "", false), "assoc", "burn-dataset/vision", "crates/burn-dataset/src/vision/mnist.rs:"},
		{"AccuracyMetric::new", tb.Member("AccuracyMetric", "new", "", false), "assoc", "burn/train", "crates/burn-train/src/metric/acc.rs:"},
		{"LossMetric::new", tb.Member("LossMetric", "new", "", false), "assoc", "burn/train", "crates/burn-train/src/metric/loss.rs:"},
		{"HuggingfaceDatasetLoader::new", tb.Member("HuggingfaceDatasetLoader", "new", "", false), "assoc", "burn-dataset/sqlite", "crates/burn-dataset/src/source/huggingface/downloader.rs:"},
		{"ModuleRecord::load", tb.Member("ModuleRecord", "load", "", false), "assoc", "burn-core/std", "crates/burn-core/src/store/mod.rs:"},
		{"PytorchStore::from_file", tb.Member("PytorchStore", "from_file", "", false), "assoc", "burn-store/pytorch", "crates/burn-store/src/pytorch/store.rs:"},
		{"TrainingStrategy::Custom", tb.Member("TrainingStrategy", "Custom", "", false), "variant", "burn/train", "crates/burn-train/src/learner/"},
		{"CheckpointerError::Unknown", tb.Member("CheckpointerError", "Unknown", "", false), "variant", "burn/train", "crates/burn-train/src/checkpoint/base.rs:"},
		{"SeqLengthOption::Fixed", tb.Member("SeqLengthOption", "Fixed", "", false), "variant", "", "crates/burn-nn/src/modules/attention/mask.rs:"},
		{"LinearConfig::new (derive(Config))", tb.Member("LinearConfig", "new", "", false), "assoc", "", "crates/burn-nn/src/modules/linear.rs:"},
		{"AdamConfig.with_epsilon (derive(Config))", tb.Member("AdamConfig", "with_epsilon", "", true), "method", "burn/optim", "crates/burn-optim/src/optim/adam.rs:"},
		{"MnistDataset.iter (Dataset's)", tb.Member("MnistDataset", "iter", "", true), "trait-method", "burn-core/dataset", "crates/burn-dataset/src/dataset/base.rs:"},
		{"Linear.num_params (derive(Module): Module's)", tb.Member("Linear", "num_params", "", true), "trait-method", "", "crates/burn-core/src/module/base.rs:"},
		{"Module::load_record", tb.TraitMember([]string{"Module"}, "load_record", true), "trait-method", "", "crates/burn-core/src/module/base.rs:"},
		{"Module::into_record", tb.TraitMember([]string{"Module"}, "into_record", true), "trait-method", "", "crates/burn-core/src/module/base.rs:"},
		{"Module::save_file", tb.TraitMember([]string{"Module"}, "save_file", true), "trait-method", "", "crates/burn-core/src/module/base.rs:"},
		{"Dataset::iter of the program's Dataset", tb.TraitMember([]string{"Dataset"}, "iter", true), "trait-method", "", "crates/burn-dataset/src/dataset/base.rs:"},
		{"Batcher::batch", tb.TraitMember([]string{"Batcher"}, "batch", true), "trait-method", "", "crates/burn-core/src/data/dataloader/batcher.rs:"},
		{"Metric::update", tb.TraitMember([]string{"Metric"}, "update", true), "trait-method", "burn/train", "crates/burn-train/src/metric/base.rs:"},
		{"devices of an AutodiffModule (its supertrait Module's)", tb.TraitMember([]string{"AutodiffModule"}, "devices", true), "trait-method", "", "crates/burn-core/src/module/base.rs:"},
	}
	for _, c := range cases {
		if len(c.got) == 0 {
			t.Errorf("%s: not in the table", c.name)
			continue
		}
		if c.got[0].Kind != c.kind {
			t.Errorf("%s: a %s row, want %s", c.name, c.got[0].Kind, c.kind)
		}
		if !strings.Contains(c.got[0].Feature, c.feature) {
			t.Errorf("%s: feature %q, want ..%s..", c.name, c.got[0].Feature, c.feature)
		}
		if !strings.HasPrefix(c.got[0].Source, c.source) {
			t.Errorf("%s: source %q, want %s...", c.name, c.got[0].Source, c.source)
		}
	}
	for _, absent := range [][]Item{
		tb.Member("AccuracyMetric", "frobnicate", "", false),
		tb.TraitMember([]string{"Dataset"}, "frobnicate", true),
		tb.Member("MnistDataset", "train", "", true), // an associated function is no method
	} {
		if len(absent) != 0 {
			t.Errorf("found %+v", absent[0])
		}
	}
	// A name burn-tensor's types have is still burn-tensor's alone.
	for _, it := range tb.Member("InterpolateMode", "Nearest", "", false) {
		if !strings.HasPrefix(it.Path, "burn_tensor") {
			t.Errorf("InterpolateMode::Nearest: %s", it.Path)
		}
	}
}

// TestTableClosure: the features one of Burn's crates asks of another are
// on when that crate is in the build (burn-train asks burn-core for std
// and dataset), and a crate's own feature rows propagate (burn-train's
// default turns on sys-metrics).
func TestTableClosure(t *testing.T) {
	tb := Default()
	train := tb.Closure(map[string]bool{"burn/train": true, "burn/burn-train": true})
	for _, k := range []string{"burn-core/std", "burn-core/dataset", "burn-optim/std"} {
		if !train[k] {
			t.Errorf("with burn's train: %s is off", k)
		}
	}
	if train["burn-train/sys-metrics"] {
		t.Error("burn-train's sys-metrics on without its default")
	}
	def := tb.Closure(map[string]bool{"burn/train": true, "burn/burn-train": true, "burn-train/default": true})
	if !def["burn-train/sys-metrics"] {
		t.Error("burn-train's default does not turn on its sys-metrics")
	}
	if none := tb.Closure(map[string]bool{"burn/std": true}); none["burn-core/dataset"] {
		t.Error("burn-core's dataset on with burn's std alone")
	}
	gates, name, ok := tb.CrateGate("burn-train")
	if !ok || name != "burn_train" || len(gates) != 1 || gates[0] != (Gate{Crate: "burn", Feature: "train"}) {
		t.Errorf("CrateGate(burn-train) = %v %q %v", gates, name, ok)
	}
}

// TestCompletions: the page's completions hold Tensor's associated
// functions and methods and Device's constructors with their signatures,
// the functions of Burn's modules, and burn's features.
func TestCompletions(t *testing.T) {
	c := Default().Completions()
	find := func(list []Completion, name string) (Completion, bool) {
		for _, x := range list {
			if x.Name == name {
				return x, true
			}
		}
		return Completion{}, false
	}
	if ones, ok := find(c.Types["Tensor"].Assoc, "ones"); !ok || !strings.HasPrefix(ones.Detail, "fn ones<") {
		t.Errorf("Tensor::ones = %+v", ones)
	}
	if m, ok := find(c.Types["Tensor"].Methods, "matmul"); !ok || !strings.Contains(m.Detail, "self") {
		t.Errorf("Tensor::matmul = %+v", m)
	}
	if _, ok := find(c.Types["Device"].Assoc, "cuda"); !ok {
		t.Error("no Device::cuda")
	}
	if _, ok := find(c.Modules["burn::tensor::activation"], "relu"); !ok {
		t.Errorf("no activation::relu in %d modules", len(c.Modules))
	}
	if f, ok := find(c.Features, "cuda"); !ok || f.Detail == "" {
		t.Errorf("feature cuda = %+v", f)
	}
}

// TestTensorMethodKinds: the kinds of a Tensor method are those of its
// rows, and a name Tensor has no method of is not listed.
func TestTensorMethodKinds(t *testing.T) {
	tb := Default()
	for name, want := range map[string]string{"grad": "Float", "backward": "Float", "argmax": "Float,Int"} {
		kinds, listed := tb.TensorMethodKinds(name)
		if !listed || strings.Join(kinds, ",") != want {
			t.Errorf("%s: %v %v, want %s", name, kinds, listed, want)
		}
	}
	if _, listed := tb.TensorMethodKinds("size"); listed {
		t.Error("size is listed")
	}
	if kinds, listed := tb.TensorMethodKinds("dims"); !listed || kinds != nil && len(kinds) != 3 {
		t.Errorf("dims, a method of every kind: %v %v", kinds, listed)
	}
}

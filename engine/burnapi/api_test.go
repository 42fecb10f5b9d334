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

func TestItemFeatures(t *testing.T) {
	cases := []struct {
		feature string
		want    string
	}{
		{"", ""},
		{"autodiff", "autodiff"},
		{"std&autodiff", "std,autodiff"},
		{"remote&!target_family=wasm", "remote"},
		{"remote&(target_family=wasm|doc)", ""},
		{"burn-std/std", ""},
	}
	for _, c := range cases {
		got := strings.Join(Item{Feature: c.feature}.Features(), ",")
		if got != c.want {
			t.Errorf("Features(%q) = %q, want %q", c.feature, got, c.want)
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

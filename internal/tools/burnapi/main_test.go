package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegenerate checks the embedded table is what the tool makes from
// Burn's source, when $BURN_GIT_DIR names a snapshot of tracel-ai/burn (a
// git directory or a work tree).
func TestRegenerate(t *testing.T) {
	dir := os.Getenv("BURN_GIT_DIR")
	if dir == "" {
		t.Skip("BURN_GIT_DIR names no snapshot of tracel-ai/burn: the embedded table is not compared")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no snapshot of tracel-ai/burn at %s (set BURN_GIT_DIR): the embedded table is not compared", dir)
	}
	src, err := openReader(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := src.commit(); !strings.HasPrefix(c, "2c06be35") {
		t.Skipf("the snapshot is at %s, not the modelled commit 2c06be35", c)
	}
	got, err := Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "engine", "burnapi", "api.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("engine/burnapi/api.tsv is not what %s makes; first difference at line %d:\n got: %s\nwant: %s", Command, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("engine/burnapi/api.tsv is not what %s makes: %d lines, want %d", Command, len(gl), len(wl))
	}
}

// mapReader is a crate tree held in memory.
type mapReader map[string]string

func (m mapReader) read(p string) (string, error) {
	if s, ok := m[p]; ok {
		return s, nil
	}
	return "", errors.New("no file " + p)
}
func (m mapReader) exists(p string) bool { _, ok := m[p]; return ok }
func (m mapReader) commit() string       { return "0000000" }

// A miniature of burn-tensor's layout: the kind traits, the sealed ops
// traits implemented per kind, impl blocks with bounds, a private module
// re-exported by glob, a feature-gated impl, a pub(crate) module.
var miniature = mapReader{
	"crates/burn-std/src/lib.rs": `
pub mod data;
pub use data::*;
#[macro_export]
macro_rules! s { () => {} }
`,
	"crates/burn-std/src/data.rs": `
/// Data.
#[derive(Clone, Debug)]
pub struct TensorData { pub shape: Vec<usize> }
impl TensorData {
    pub fn new<E: Element, S: Into<Vec<usize>>>(value: Vec<E>, shape: S) -> Self { todo!() }
    pub fn num_elements(&self) -> usize { 0 }
    fn private(&self) {}
}
impl Default for TensorData { fn default() -> Self { todo!() } }
`,
	"crates/burn-tensor/src/lib.rs": `
mod bridge;
mod tensor;
pub use tensor::*;
pub use burn_std::{TensorData, s};
`,
	"crates/burn-tensor/src/bridge/mod.rs": `
pub(crate) trait BasicOps {}
pub(crate) trait Numeric {}
impl BasicOps for Float {}
impl BasicOps for Int {}
impl BasicOps for Bool {}
impl Numeric for Float {}
impl Numeric for Int {}
`,
	"crates/burn-tensor/src/tensor/mod.rs": `
pub mod kind;
pub use kind::{Bool, Float, Int};
mod api;
pub use api::*;
pub mod linalg;
pub(crate) mod stats;
`,
	"crates/burn-tensor/src/tensor/kind.rs": `
pub struct Float;
pub struct Int;
pub struct Bool;
pub trait Basic: crate::bridge::BasicOps {}
pub trait Numeric: Basic + crate::bridge::Numeric {}
`,
	"crates/burn-tensor/src/tensor/api/mod.rs": `
mod base;
mod numeric;
mod autodiff;
pub use base::*;
#[cfg(feature = "autodiff")]
pub use autodiff::*;
`,
	"crates/burn-tensor/src/tensor/api/base.rs": `
pub struct Tensor<const D: usize, K = Float> where K: Basic { _k: K }
impl<const D: usize, K> Tensor<D, K>
where
    K: Basic,
{
    // A comment with pub fn fake() inside.
    pub fn reshape<const D2: usize>(self, shape: [usize; D2]) -> Tensor<D2, K> { todo!() }
    pub fn from_data<T: Into<TensorData>>(data: T, device: &Device) -> Self { let s = "}"; todo!() }
    #[cfg(test)]
    pub fn only_in_tests(&self) {}
}
impl<const D: usize> Tensor<D> {
    pub fn exp(self) -> Self { todo!() }
}
impl Tensor<1, Int> {
    pub fn arange(range: Range<i64>, device: &Device) -> Self { todo!() }
}
`,
	"crates/burn-tensor/src/tensor/api/numeric.rs": `
impl<const D: usize, K: Numeric> Tensor<D, K> {
    pub fn cummax<I: AsIndex>(self, dim: I) -> Self { todo!() }
}
`,
	"crates/burn-tensor/src/tensor/api/autodiff.rs": `
pub struct Gradients;
impl<const D: usize> Tensor<D> {
    pub fn ungated(&self) {}
}
#[cfg(feature = "autodiff")]
impl<const D: usize> Tensor<D> {
    pub fn backward(&self) -> Gradients { todo!() }
}
`,
	"crates/burn-tensor/src/tensor/linalg/mod.rs": `
mod trace;
pub use trace::*;
`,
	"crates/burn-tensor/src/tensor/linalg/trace.rs": `
pub fn trace<const D: usize, const DO: usize>(tensor: Tensor<D>) -> Tensor<DO> { todo!() }
#[cfg(all(feature = "std", not(target_family = "wasm")))]
pub fn gated(x: f32) {}
`,
	"crates/burn-tensor/src/tensor/stats/mod.rs": `
pub fn var(x: f32) {}
`,
	"crates/burn-core/src/lib.rs": `
pub mod tensor;
pub mod prelude { pub use crate::tensor::{Tensor, s}; }
`,
	"crates/burn-core/src/tensor.rs": `pub use burn_tensor::*;`,
	"crates/burn/src/lib.rs":         `pub use burn_core::*;`,
}

func rowsOf(t *testing.T, table string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "item\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != len(Columns) {
			t.Fatalf("%d columns in %q", len(f), line)
		}
		out[f[0]+" "+f[1]+"::"+f[2]] = f
	}
	return out
}

func TestGenerateMiniature(t *testing.T) {
	table, err := Generate(miniature)
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, string(table))
	col := func(name string) int {
		for i, c := range Columns {
			if c == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	cases := []struct {
		key, column, want string
	}{
		{"method burn_tensor::Tensor::reshape", "kinds", "Bool,Float,Int"},
		{"method burn_tensor::Tensor::reshape", "params", "shape: [usize; D2]"},
		{"method burn_tensor::Tensor::reshape", "return", "Tensor<D2, K>"},
		{"method burn_tensor::Tensor::reshape", "receiver", "self"},
		{"assoc burn_tensor::Tensor::from_data", "generics", "T: Into<TensorData>"},
		{"assoc burn_tensor::Tensor::from_data", "source", "crates/burn-tensor/src/tensor/api/base.rs:9"},
		{"method burn_tensor::Tensor::exp", "kinds", "Float"},
		{"method burn_tensor::Tensor::cummax", "kinds", "Float,Int"},
		{"assoc burn_tensor::Tensor::arange", "kinds", "Int"},
		{"assoc burn_tensor::Tensor::arange", "rank", "1"},
		{"method burn_tensor::Tensor::backward", "feature", "autodiff"},
		{"struct burn_tensor::Gradients", "feature", "autodiff"},
		{"fn burn_tensor::linalg::trace", "params", "tensor: Tensor<D>"},
		{"fn burn_tensor::linalg::gated", "feature", "std&!target_family=wasm"},
		{"assoc burn_tensor::TensorData::new", "source", "crates/burn-std/src/data.rs:6"},
		{"method burn_tensor::TensorData::num_elements", "receiver", "&self"},
		{"impl-assoc burn_tensor::TensorData::default", "trait", "Default"},
		{"impl-method burn_tensor::TensorData::clone", "trait", "derive(Clone)"},
		{"macro burn_tensor::s", "source", "crates/burn-std/src/lib.rs:5"},
		// An impl is in force wherever its type is: a gate on the
		// re-export of its module is no gate of its methods.
		{"method burn_tensor::Tensor::ungated", "feature", "-"},
		{"alias burn::tensor::*", "params", "burn_tensor"},
		{"alias burn_core::tensor::*", "params", "burn_tensor"},
		{"alias burn_core::prelude::Tensor", "params", "burn_tensor::Tensor"},
	}
	for _, c := range cases {
		r, ok := rows[c.key]
		if !ok {
			t.Errorf("no row %s", c.key)
			continue
		}
		if got := r[col(c.column)]; got != c.want {
			t.Errorf("%s: %s = %q, want %q", c.key, c.column, got, c.want)
		}
	}
	for _, absent := range []string{
		"method burn_tensor::Tensor::only_in_tests", // cfg(test)
		"method burn_tensor::Tensor::fake",          // in a comment
		"method burn_tensor::TensorData::private",   // not pub
		"fn burn_tensor::stats::var",                // pub(crate) module
		"impl-method burn_tensor::Float::default",
	} {
		if _, ok := rows[absent]; ok {
			t.Errorf("row %s should not be in the table", absent)
		}
	}
	if !strings.Contains(string(table), "# Made from Burn's source by: "+Command+"\n") {
		t.Error("the header does not name the command")
	}
}

func TestGenerateRefusesAMissingModule(t *testing.T) {
	broken := mapReader{}
	for k, v := range miniature {
		broken[k] = v
	}
	delete(broken, "crates/burn-tensor/src/tensor/linalg/trace.rs")
	if _, err := Generate(broken); err == nil || !strings.Contains(err.Error(), "linalg/trace") {
		t.Errorf("Generate with a module file missing: %v, want an error naming it", err)
	}
}

func TestLexer(t *testing.T) {
	src := "fn a() { let s = r#\"}\"#; let c = '}'; let l: &'a str = \"\\\"}\"; /* } /* nested } */ */ }\n// }\nfn b() {}"
	p := &parser{src: src, toks: lex(src)}
	items := p.parseItems()
	if len(items) != 2 || items[0].name != "a" || items[1].name != "b" || items[1].line != 3 {
		var names []string
		for _, it := range items {
			names = append(names, it.name)
		}
		t.Errorf("items %v, want a and b (b on line 3)", names)
	}
}

func TestCfg(t *testing.T) {
	cases := map[string]cfg{
		`#[cfg(feature = "std")] fn f() {}`:                              {expr: "std"},
		`#[cfg(all(feature = "a", feature = "b"))] fn f() {}`:            {expr: "a&b"},
		`#[cfg(not(feature = "a"))] fn f() {}`:                           {expr: "!a"},
		`#[cfg(any(feature = "a", doc))] fn f() {}`:                      {expr: "(a|doc)"},
		`#[cfg(test)] fn f() {}`:                                         {expr: "test", test: true},
		`#[cfg(all(test, feature = "a"))] fn f() {}`:                     {expr: "test&a", test: true},
		`#[cfg(feature = "a")] #[cfg(target_family = "wasm")] fn f() {}`: {expr: "a&target_family=wasm"},
	}
	for src, want := range cases {
		p := &parser{src: src, toks: lex(src)}
		items := p.parseItems()
		if len(items) != 1 || items[0].cfg != want {
			t.Errorf("%s: %+v, want %+v", src, items, want)
		}
	}
}

// withFacade is the miniature with crates past burn-tensor: burn-train
// behind burn's train, burn-dataset behind burn-core's dataset with a
// vision module behind its own feature, their Cargo.toml files.
func withFacade() mapReader {
	m := mapReader{}
	for k, v := range miniature {
		m[k] = v
	}
	m["Cargo.toml"] = "[workspace.dependencies]\nburn-core = { path = \"crates/burn-core\", default-features = false }\n"
	m["crates/burn/src/lib.rs"] = `
pub use burn_core::*;
#[cfg(feature = "train")]
pub mod train {
    pub use burn_train::*;
}
`
	m["crates/burn/Cargo.toml"] = "[features]\ntrain = [\"burn-train\", \"dataset\"]\ndataset = [\"burn-core/dataset\"]\n\n[dependencies]\nburn-core = { workspace = true }\nburn-train = { workspace = true, optional = true }\n"
	m["crates/burn-core/src/lib.rs"] = `
pub mod tensor;
pub mod prelude { pub use crate::tensor::{Tensor, s}; }
#[cfg(feature = "std")]
pub mod data;
`
	m["crates/burn-core/src/data.rs"] = `
#[cfg(feature = "dataset")]
pub mod dataset {
    pub use burn_dataset::*;
}
`
	m["crates/burn-dataset/src/lib.rs"] = `
mod base;
pub use base::*;
#[cfg(feature = "vision")]
pub mod vision;
`
	m["crates/burn-dataset/src/base.rs"] = `
pub trait Dataset<I>: Send + Sync {
    fn get(&self, index: usize) -> Option<I>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool { self.len() == 0 }
}
`
	m["crates/burn-dataset/src/vision.rs"] = `
use crate::Dataset;
pub struct MnistDataset { items: Vec<u8> }
impl MnistDataset {
    pub fn train() -> Self { todo!() }
    fn private() {}
}
impl Dataset<u8> for MnistDataset {
    fn get(&self, index: usize) -> Option<u8> { None }
    fn len(&self) -> usize { 0 }
}
`
	m["crates/burn-train/src/lib.rs"] = `
pub mod metric;
pub use metric::*;
`
	m["crates/burn-train/src/metric.rs"] = `
#[derive(Config, Debug)]
pub struct MetricConfig {
    pub name: String,
    #[config(default = 2)]
    pub digits: usize,
    pub pad: Option<usize>,
}
#[cfg(feature = "sys-metrics")]
pub struct CpuUse;
#[cfg(feature = "sys-metrics")]
impl CpuUse {
    pub fn new() -> Self { CpuUse }
}
`
	m["crates/burn-train/Cargo.toml"] = "[features]\ndefault = [\"sys-metrics\"]\nsys-metrics = [\"dep:sysinfo\"]\n\n[dependencies]\nburn-core = { workspace = true, features = [\n    \"dataset\",\n    \"std\", # the dataloader\n] }\nsysinfo = { version = \"0.3\", optional = true }\n"
	return m
}

// TestGenerateFacadeCrates: the items of the crates past burn-tensor are
// at the paths burn's facade gives them, gated by the features on the way
// and their own, with their impls, what derive(Config) generates, the
// traits they implement, and the dependencies and features of their
// Cargo.toml files.
func TestGenerateFacadeCrates(t *testing.T) {
	table, err := Generate(withFacade())
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, string(table))
	col := func(name string) int {
		for i, c := range Columns {
			if c == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	cases := []struct {
		key, column, want string
	}{
		{"struct burn::data::dataset::vision::MnistDataset", "feature", "burn-core/std&burn-core/dataset&burn-dataset/vision"},
		{"assoc burn::data::dataset::vision::MnistDataset::train", "feature", "burn-core/std&burn-core/dataset&burn-dataset/vision"},
		{"assoc burn::data::dataset::vision::MnistDataset::train", "source", "crates/burn-dataset/src/vision.rs:5"},
		{"impl-method burn::data::dataset::vision::MnistDataset::len", "trait", "Dataset<u8>"},
		{"impl burn::data::dataset::vision::MnistDataset::Dataset", "params", "Dataset<u8>"},
		{"trait-method burn::data::dataset::Dataset::is_empty", "receiver", "&self"},
		{"trait burn::data::dataset::Dataset", "where", "Send + Sync"},
		{"struct burn::train::MetricConfig", "feature", "burn/train"},
		{"assoc burn::train::MetricConfig::new", "params", "name: String"},
		{"method burn::train::MetricConfig::with_digits", "params", "digits: usize"},
		{"method burn::train::MetricConfig::with_pad", "params", "pad: Option<usize>"},
		{"impl burn::train::MetricConfig::Config", "params", "derive(Config)"},
		{"assoc burn::train::CpuUse::new", "feature", "burn/train&burn-train/sys-metrics"},
		{"crate burn::burn-train", "feature", "burn/train"},
		{"crate burn::burn-dataset", "feature", "burn-core/std&burn-core/dataset"},
		{"dep burn-train::burn-core", "params", "dataset,std"},
		{"dep burn::burn-train", "feature", "burn/burn-train"},
		{"feature burn-train::default", "params", "sys-metrics"},
		{"feature burn::train", "params", "burn-train,dataset"},
		// burn-tensor's rows are as before.
		{"method burn_tensor::Tensor::reshape", "kinds", "Bool,Float,Int"},
	}
	for _, c := range cases {
		r, ok := rows[c.key]
		if !ok {
			t.Errorf("no row %s", c.key)
			continue
		}
		if got := r[col(c.column)]; got != c.want {
			t.Errorf("%s: %s = %q, want %q", c.key, c.column, got, c.want)
		}
	}
	for _, absent := range []string{
		"assoc burn::data::dataset::vision::MnistDataset::private",
		"assoc burn::train::MetricConfig::with_name", // required: new takes it
		"dep burn-train::sysinfo",                    // not one of Burn's crates
	} {
		if _, ok := rows[absent]; ok {
			t.Errorf("row %s should not be in the table", absent)
		}
	}
}

package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// Programs that use burn-dataset and burn-core's DataLoader (engine/data):
// the program's own Batcher runs on the loader's device, Burn's checks
// panic with Burn's messages, and datasets from outside are boundaries.

const loaderConfig = `[package]
name = "loader"
version = "0.1.0"
edition = "2024"

[dependencies]
burn = { version = "0.22", features = ["train", "vision", %s] }
`

// loaderItems declares the program's item, its Batcher (a batch of
// features and labels) and a Mapper.
const loaderItems = `use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataset::transform::{ComposedDataset, Mapper, MapperDataset, PartialDataset, WindowsDataset};
use burn::data::dataset::vision::{MnistDataset, MnistItem};
use burn::data::dataset::{Dataset, DatasetError, HuggingfaceDatasetLoader, InMemDataset, SqliteDataset};
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

#[derive(Clone, Debug)]
pub struct Item {
    features: [f32; 2],
    label: i64,
}

#[derive(Clone, Default)]
pub struct ItemBatcher;

#[derive(Clone, Debug)]
pub struct ItemBatch {
    inputs: Tensor<2>,
    targets: Tensor<1, Int>,
}

impl Batcher<Item, ItemBatch> for ItemBatcher {
    fn batch(&self, items: Vec<Item>, device: &Device) -> ItemBatch {
        let inputs = items
            .iter()
            .map(|item| Tensor::<1>::from_floats(item.features, device).unsqueeze())
            .collect();
        let targets = items
            .iter()
            .map(|item| Tensor::<1, Int>::from_ints([item.label], device))
            .collect();
        ItemBatch { inputs: Tensor::cat(inputs, 0), targets: Tensor::cat(targets, 0) }
    }
}

#[derive(Clone, Default)]
pub struct ImageBatcher;

impl Batcher<MnistItem, Tensor<3>> for ImageBatcher {
    fn batch(&self, items: Vec<MnistItem>, device: &Device) -> Tensor<3> {
        let images = items
            .iter()
            .map(|item| Tensor::<2>::from_data(TensorData::from(item.image), device).reshape([1, 28, 28]))
            .collect();
        Tensor::cat(images, 0)
    }
}

struct Double;

impl Mapper<Item, Item> for Double {
    fn map(&self, item: &Item) -> Item {
        Item { features: [item.features[0] * 2.0, item.features[1] * 2.0], label: item.label }
    }
}

pub struct Mine {
    inner: InMemDataset<Item>,
}

impl Dataset<Item> for Mine {
    fn get(&self, index: usize) -> Result<Item, DatasetError> {
        self.inner.get(index)
    }

    fn len(&self) -> usize {
        self.inner.len()
    }
}

pub struct Remote {
    inner: SqliteDataset<Item>,
}

impl Dataset<Item> for Remote {
    fn get(&self, index: usize) -> Result<Item, DatasetError> {
        self.inner.get(index).map_err(DatasetError::new)
    }

    fn len(&self) -> usize {
        self.inner.len()
    }
}

pub trait Small {
    fn small() -> Self;
}

impl Small for InMemDataset<Item> {
    fn small() -> Self {
        InMemDataset::new(items(2))
    }
}

fn items(n: usize) -> Vec<Item> {
    (0..n).map(|i| Item { features: [i as f32, 1.0], label: i as i64 }).collect()
}
`

func loaderSnippet(body string) string { return loaderItems + "\nfn main() {\n" + body + "}\n" }

func runLoader(t *testing.T, features, body string) engine.Result {
	t.Helper()
	return run(t, engine.Request{Config: fmt.Sprintf(loaderConfig, features), Snippet: loaderSnippet(body)})
}

// batcherLines are the lines of ItemBatcher::batch in loaderItems.
func batcherLines() (first, last int) {
	lines := strings.Split(loaderItems, "\n")
	for i, l := range lines {
		if strings.Contains(l, "fn batch(&self, items: Vec<Item>") {
			first = i + 1
		}
		if first > 0 && last == 0 && strings.Contains(l, "ItemBatch { inputs") {
			last = i + 1
		}
	}
	return first, last
}

func TestDataLoaderBatchesOnItsDevice(t *testing.T) {
	cases := []struct {
		name, features, build, device string
	}{
		{"set_device", `"cuda"`, ".set_device(Device::cuda(0)).build(InMemDataset::new(items(5)))", "Cuda(Cuda(0))"},
		{"the default device", `"flex"`, ".build(InMemDataset::new(items(5)))", "Flex(Cpu)"},
		{"to_device", `"cuda", "flex"`, ".set_device(Device::flex()).build(InMemDataset::new(items(5))).to_device(&Device::cuda(0))", "Cuda(Cuda(0))"},
		{"the program's own dataset", `"flex"`, ".build(Mine { inner: InMemDataset::new(items(5)) })", "Flex(Cpu)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runLoader(t, c.features, `    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(2)`+c.build+`;
    println!("{} items", loader.num_items());
    for batch in loader.iter().map(Result::unwrap) {
        println!("{:?} {} {:?}", batch.inputs.dims(), batch.inputs.sum().into_scalar::<f32>(), batch.targets.into_data().iter::<i64>().collect::<Vec<i64>>());
    }
`)
			if res.Status != engine.StatusOK || !res.Complete {
				t.Fatalf("status %s complete %v, want a complete ok:\n%s", res.Status, res.Complete, Summary(res))
			}
			// Items 0..5 in order, in batches of 2: features [i, 1].
			want := "5 items\n[2, 2] 3 [0, 1]\n[2, 2] 7 [2, 3]\n[1, 2] 5 [4]\n"
			if res.Output != want {
				t.Errorf("output %q, want the three batches %q", res.Output, want)
			}
			first, last := batcherLines()
			n := 0
			for _, e := range res.Trace {
				if e.Span.Start.Line < first || e.Span.Start.Line > last {
					continue
				}
				n++
				if e.Device != c.device {
					t.Errorf("batcher's %s at line %d ran on %s, want the loader's %s", e.Op, e.Span.Start.Line, e.Device, c.device)
				}
			}
			// Per batch: each item's from_data and reshape, each
			// label's from_data, then the two cats: 3 batches, 5 items.
			if want := 5*3 + 3*2; n != want {
				t.Errorf("%d operations in the batcher, want %d:\n%s", n, want, Summary(res))
			}
		})
	}
}

// The loader's batches are on set_device's device; a model on another one
// panics at the op that mixes them, where Dispatch does.
func TestDataLoaderBatchOnTheWrongDevice(t *testing.T) {
	body := `    let model = LinearConfig::new(2, 3).init(&Device::cuda(0));
    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(2).set_device(Device::flex()).build(InMemDataset::new(items(3)));
    for batch in loader.iter().map(Result::unwrap) {
        let out = model.forward(batch.inputs);
        println!("{:?}", out.dims());
    }
`
	res := runLoader(t, `"cuda", "flex"`, body)
	if res.Status != engine.StatusPanicked || res.Panic == nil {
		t.Fatalf("status %s, want panicked:\n%s", res.Status, Summary(res))
	}
	if !strings.HasPrefix(res.Panic.Message, "The provided tensors are not on the same backend. Got backends Flex(") ||
		res.Panic.Location != "crates/burn-dispatch/src/macros.rs:910" {
		t.Errorf("panic %q at %s", res.Panic.Message, res.Panic.Location)
	}
	if got := loaderSnippet(body)[res.Panic.Span.Start.Offset:res.Panic.Span.End.Offset]; got != "batch.inputs" {
		t.Errorf("panic at %q, want the forward's argument", got)
	}
	if res.Output != "" {
		t.Errorf("output %q: the first batch already panics", res.Output)
	}
}

func TestDataLoaderMnistRunsOneBatch(t *testing.T) {
	res := runLoader(t, `"flex"`, `    let loader = DataLoaderBuilder::new(ImageBatcher).batch_size(3).shuffle(7).build(MnistDataset::train());
    for images in loader.iter().map(Result::unwrap) {
        println!("{:?}", images.dims());
        assert_eq!(images.sum().into_scalar::<f32>(), 1.0);
    }
`)
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v, want an incomplete ok:\n%s", res.Status, res.Complete, Summary(res))
	}
	if res.Output != "[3, 28, 28]\n" {
		t.Errorf("output %q, want one batch of 3 images", res.Output)
	}
	var boundary, batches, assert bool
	for _, d := range res.Diagnostics {
		switch {
		case d.Code == "playground-unmodelled" && strings.HasPrefix(d.Message, "`MnistDataset::train` downloads MNIST's train split from the network"):
			boundary = true
		case d.Code == "playground-unchecked" && d.Phase == "run" && strings.HasPrefix(d.Message, "every batch after the first of this loader was not checked"):
			batches = true
		case d.Code == "playground-unchecked" && strings.HasPrefix(d.Message, "`assert_eq!` was not checked"):
			assert = true
		}
	}
	if !boundary || !batches || !assert {
		t.Errorf("boundary %v, batches not run %v, assertion unchecked %v:\n%s", boundary, batches, assert, Summary(res))
	}
	// The batcher ran on the one batch: three images made and reshaped.
	n := 0
	for _, e := range res.Trace {
		if e.Op == "float_from_data" && fmt.Sprint(e.Shape) == "[28 28]" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d images made, want 3:\n%s", n, Summary(res))
	}
}

// A loader that shuffles batches the items in an order the engine does
// not model: the shapes are known, the values are not, and an assertion
// on them is unchecked, never passed.
func TestDataLoaderShuffleForgetsTheValues(t *testing.T) {
	for _, build := range []string{".shuffle(42)", ".num_workers(2)"} {
		t.Run(build, func(t *testing.T) {
			res := runLoader(t, `"flex"`, `    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(2)`+build+`.build(InMemDataset::new(items(4)));
    for batch in loader.iter().map(Result::unwrap) {
        println!("{:?}", batch.inputs.dims());
        assert_eq!(batch.inputs.sum().into_scalar::<f32>(), 3.0);
    }
`)
			if res.Status != engine.StatusOK || res.Complete {
				t.Fatalf("status %s complete %v, want an incomplete ok (the first batch in order would fail the assertion at its second batch):\n%s", res.Status, res.Complete, Summary(res))
			}
			if res.Output != "[2, 2]\n[2, 2]\n" {
				t.Errorf("output %q", res.Output)
			}
			unchecked := 0
			for _, d := range res.Diagnostics {
				if d.Code == "playground-unchecked" && strings.HasPrefix(d.Message, "`assert_eq!` was not checked") {
					unchecked++
				}
			}
			if unchecked == 0 {
				t.Errorf("the assertion was not reported unchecked:\n%s", Summary(res))
			}
		})
	}
}

func TestDataLoaderAndDatasetPanics(t *testing.T) {
	cases := []struct {
		name, body, message, location string
	}{
		{"InMemDataset::get past its items", "let d = InMemDataset::new(items(3));\nlet _ = d.get(5);\n",
			"Index out of bounds for InMemDataset: 5 >= 3", "crates/burn-dataset/src/dataset/in_memory.rs:30"},
		{"PartialDataset::get past its end", "let d = PartialDataset::new(InMemDataset::new(items(5)), 1, 3);\nlet _ = d.get(2);\n",
			"Index out of bounds for PartialDataset: 3 >= 3", "crates/burn-dataset/src/transform/partial.rs:94"},
		{"ComposedDataset::get past both", "let d = ComposedDataset::new(vec![InMemDataset::new(items(2)), InMemDataset::new(items(1))]);\nlet _ = d.get(3);\n",
			"Index out of bounds for ComposedDataset: 3 >= 3", "crates/burn-dataset/src/transform/composed.rs:24"},
		{"WindowsDataset of size 0", "let _ = WindowsDataset::new(InMemDataset::new(items(2)), 0);\n",
			"window size must be non-zero", "crates/burn-dataset/src/transform/window.rs:141"},
		{"a worker loader with batch_size 0", "let l = DataLoaderBuilder::new(ItemBatcher).batch_size(0).num_workers(2).build(InMemDataset::new(items(2)));\nfor _ in l.iter() {}\n",
			"attempt to divide by zero", "crates/burn-dataset/src/transform/partial.rs:54"},
		{"a slice that ends before it starts", "let l = DataLoaderBuilder::new(ItemBatcher).build(InMemDataset::new(items(4)));\nprintln!(\"{}\", l.slice(3, 1).num_items());\n",
			"attempt to subtract with overflow", "crates/burn-dataset/src/transform/partial.rs:121"},
		{"get_many past the end", "let d = InMemDataset::new(items(2));\nlet _ = d.get_many(vec![0, 2]);\n",
			"Index out of bounds for dataset: 2 >= 2", "crates/burn-dataset/src/dataset/base.rs:34"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runLoader(t, `"flex"`, c.body)
			if res.Status != engine.StatusPanicked || res.Panic == nil {
				t.Fatalf("status %s, want panicked:\n%s", res.Status, Summary(res))
			}
			if res.Panic.Message != c.message || res.Panic.Location != c.location {
				t.Errorf("panic %q at %s, want %q at %s", res.Panic.Message, res.Panic.Location, c.message, c.location)
			}
		})
	}
}

// FixBatchStrategy::new(0) never makes a batch: Burn's iterator loops for
// ever (dataloader/batch.rs:168-189), which the engine's budget ends.
func TestDataLoaderBatchSizeZeroNeverEnds(t *testing.T) {
	res := runLoader(t, `"flex"`, "let l = DataLoaderBuilder::new(ItemBatcher).batch_size(0).build(InMemDataset::new(items(2)));\nfor _ in l.iter() {}\nprintln!(\"done\");\n")
	if res.Status != engine.StatusRejected || res.Output != "" {
		t.Fatalf("status %s output %q, want the time limit:\n%s", res.Status, res.Output, Summary(res))
	}
	limited := false
	for _, d := range res.Diagnostics {
		limited = limited || d.Code == "playground-time-limit"
	}
	if !limited {
		t.Errorf("no time limit reported:\n%s", Summary(res))
	}
}

func TestDatasetTransformsAndTheProgramsOwn(t *testing.T) {
	res := runLoader(t, `"flex"`, `    let c = ComposedDataset::new(vec![InMemDataset::new(items(3)), InMemDataset::new(items(2))]);
    println!("{} {:?}", c.len(), c.get(3).unwrap().label);
    let p = PartialDataset::new(c, 1, 4);
    let m = MapperDataset::new(p, Double);
    let xs: Vec<f32> = m.iter().map(|r| r.unwrap().features[0]).collect();
    println!("{:?}", xs);
    let w = WindowsDataset::new(InMemDataset::new(items(4)), 3);
    println!("{} {}", w.len(), w.get(1).unwrap()[2].label);
    let mine = Mine { inner: InMemDataset::new(items(3)) };
    println!("{} {}", mine.len(), mine.is_empty());
    let labels: Vec<i64> = mine.iter().map(|r| r.unwrap().label).collect();
    println!("{:?}", labels);
    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(2).build(mine);
    let sliced = loader.slice(1, 3);
    println!("{} {}", sliced.num_items(), InMemDataset::small().len());
    for batch in sliced.iter().map(Result::unwrap) {
        println!("{:?}", batch.targets.into_data().iter::<i64>().collect::<Vec<i64>>());
    }
`)
	want := "5 0\n[2.0, 4.0, 0.0]\n2 3\n3 false\n[0, 1, 2]\n2 2\n[1, 2]\n"
	if res.Status != engine.StatusOK || res.Output != want {
		t.Errorf("status %s output %q, want ok %q:\n%s", res.Status, res.Output, want, Summary(res))
	}
}

// split_dataloader (dataloader/split.rs:8-33): a slice per device, moved
// to it, the last taking the remainder.
func TestSplitDataloader(t *testing.T) {
	res := runLoader(t, `"cuda", "flex"`, `    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(2).build(InMemDataset::new(items(5)));
    let parts = burn::data::dataloader::split::split_dataloader(loader, &[Device::flex(), Device::cuda(0)]);
    for part in parts.iter() {
        for batch in part.iter().map(Result::unwrap) {
            println!("{} {:?} {:?}", part.num_items(), batch.inputs.device(), batch.targets.into_data().iter::<i64>().collect::<Vec<i64>>());
        }
    }
`)
	want := "2 Device<Flex(Cpu)> [0, 1]\n3 Device<Cuda(Cuda(0))> [2, 3]\n3 Device<Cuda(Cuda(0))> [4]\n"
	if res.Status != engine.StatusOK || res.Output != want {
		t.Errorf("status %s output %q, want ok %q:\n%s", res.Status, res.Output, want, Summary(res))
	}
}

// A Hugging Face dataset of the program's item type: a boundary whose
// items are the program's struct with unknown fields; a loop over a loader
// of it, or of the program's dataset wrapping it, runs once and says so.
func TestHuggingfaceDatasetIsABoundary(t *testing.T) {
	for _, wrap := range []string{"dataset", "Remote { inner: dataset }"} {
		t.Run(wrap, func(t *testing.T) {
			res := runLoader(t, `"flex"`, `    let dataset: SqliteDataset<Item> = HuggingfaceDatasetLoader::new("someone/points")
        .with_subset("all")
        .dataset::<Item>("train")
        .unwrap();
    let loader = DataLoaderBuilder::new(ItemBatcher).batch_size(4).build(`+wrap+`);
    let mut n = 0;
    for batch in loader.iter().map(Result::unwrap) {
        n += 1;
        println!("{}", n);
    }
`)
			if res.Status != engine.StatusOK || res.Complete || res.Output != "1\n" {
				t.Fatalf("status %s complete %v output %q, want an incomplete ok that ran the loop once:\n%s", res.Status, res.Complete, res.Output, Summary(res))
			}
			var boundary, rest bool
			for _, d := range res.Diagnostics {
				boundary = boundary || d.Code == "playground-unmodelled" && strings.HasPrefix(d.Message, "`HuggingfaceDatasetLoader::dataset` downloads `someone/points` from the Hugging Face Hub")
				rest = rest || d.Code == "playground-unchecked" && strings.HasPrefix(d.Message, "every batch after the first of this loader was not checked")
			}
			if !boundary || !rest {
				t.Errorf("boundary warning %v, batches not run %v:\n%s", boundary, rest, Summary(res))
			}
		})
	}
}

// rustc's errors: a batcher that does not implement Batcher, reported
// where the loop pulls the loader (never a loop that silently ends), and
// MnistDataset's private constructor.
func TestDataLoaderCompileErrors(t *testing.T) {
	cases := []struct{ name, body, code, message string }{
		{"a batcher that is not one", `    let loader = DataLoaderBuilder::new(Double).batch_size(2).build(InMemDataset::new(items(3)));
    for batch in loader.iter() {
        println!("{:?}", batch.is_ok());
    }
`, "trait-not-implemented", "the trait bound `Double: Batcher<_, _>` is not satisfied"},
		{"MnistDataset::new", "    let _ = MnistDataset::new(\"train\");\n", "unknown-function", "associated function `new` is private"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runLoader(t, `"flex"`, c.body)
			if res.Status != engine.StatusRejected || res.Output != "" {
				t.Fatalf("status %s output %q, want rejected:\n%s", res.Status, res.Output, Summary(res))
			}
			found := false
			for _, d := range res.Diagnostics {
				found = found || d.Code == c.code && d.Message == c.message
			}
			if !found {
				t.Errorf("no %s %q:\n%s", c.code, c.message, Summary(res))
			}
		})
	}
}

// Over a dataset of unknown length the loader's pass gives one batch and
// stops where Burn's goes on: what depends on the number of batches is
// unknown, so an assertion on it is unchecked, never passed; a batch the
// pass did give is still found, and one it did not is not known absent.
func TestDataLoaderBatchCountOverUnknownLengthIsUnknown(t *testing.T) {
	cases := []struct{ name, body string }{
		{"count", `assert_eq!(loader.iter().count(), 1);`},
		{"count after map", `assert_eq!(loader.iter().map(Result::unwrap).count(), 1);`},
		{"enumerate last", `assert_eq!(loader.iter().enumerate().last().unwrap().0, 0);`},
		{"collect len", `assert_eq!(loader.iter().collect::<Vec<_>>().len(), 1);`},
		{"nth past the first", `assert!(loader.iter().nth(1).is_none());`},
		{"fold", `assert_eq!(loader.iter().fold(0, |n, _| n + 1), 1);`},
		{"zip with a range", `assert_eq!((0..10).zip(loader.iter()).count(), 1);`},
		{"a for loop's counter", `let mut n = 0;
    for _b in loader.iter() { n += 1; }
    assert_eq!(n, 1);`},
		{"a for loop's sum", `let mut total = 0.0;
    for b in loader.iter() { total += b.unwrap().dims()[0] as f64; }
    assert_eq!(total, 3.0);`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runLoader(t, `"flex"`, `    let loader = DataLoaderBuilder::new(ImageBatcher).batch_size(3).build(MnistDataset::train());
    `+c.body+`
`)
			if res.Status != engine.StatusOK || res.Complete {
				t.Fatalf("status %s complete %v, want an incomplete ok:\n%s", res.Status, res.Complete, Summary(res))
			}
			unchecked := false
			for _, d := range res.Diagnostics {
				if d.Code == "playground-unchecked" && strings.Contains(d.Message, "was not checked: the playground does not know") &&
					(strings.HasPrefix(d.Message, "`assert_eq!`") || strings.HasPrefix(d.Message, "`assert!`")) {
					unchecked = true
				}
			}
			if !unchecked {
				t.Errorf("the assertion on the number of batches was not reported unchecked:\n%s", Summary(res))
			}
		})
	}
	// The first batch is one the engine knows: finding it is known.
	res := runLoader(t, `"flex"`, `    let loader = DataLoaderBuilder::new(ImageBatcher).batch_size(3).build(MnistDataset::train());
    assert!(loader.iter().next().is_some());
    assert!(loader.iter().any(|b| b.is_ok()));
    assert!(false, "reached");
`)
	if res.Panic == nil || !strings.Contains(res.Panic.Message, "reached") {
		t.Fatalf("want the program to reach its last assertion with the first two passed:\n%s", Summary(res))
	}
}

package store_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const cargo = `[dependencies]
burn = { version = "0.22", features = ["std", "flex", "ndarray", "store"] }
burn-store = { version = "0.22", features = ["std", "pytorch", "safetensors", "burnpack"] }
`

const model = `
use burn::prelude::*;
use burn::nn::{Linear, LinearConfig};
use burn::store::ModuleRecord;
use burn_store::{BurnpackStore, KeyRemapper, ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Model {
    fc1: Linear,
}

#[derive(Module, Debug)]
pub struct Wide {
    fc1: Linear,
    fc2: Linear,
}

impl Model {
    pub fn init(out: usize, device: &Device) -> Self {
        Self { fc1: LinearConfig::new(4, out).init(device) }
    }
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc1.forward(x)
    }
}
`

func run(t *testing.T, body string) engine.Result {
	t.Helper()
	return engine.Run(engine.Request{Config: cargo, Snippet: model + "\nfn main() {\n" + body + "\n}\n"})
}

// warnings are the messages of the diagnostics with code.
func warnings(res engine.Result, code string) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if d.Code == code {
			out = append(out, d.Message)
		}
	}
	return out
}

func mentions(list []string, parts ...string) bool {
	for _, m := range list {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(m, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestLoadFromFileTracesTheForwardWithUnknownValues: weights loaded from
// a file the playground does not have give the model its shapes and its
// device, so the forward is traced there, while an assertion on the
// output is unchecked, never passed.
func TestLoadFromFileTracesTheForwardWithUnknownValues(t *testing.T) {
	for _, store := range []string{
		`PytorchStore::from_file("weights/mnist.pt").with_top_level_key("state_dict").allow_partial(true)`,
		`SafetensorsStore::from_file("weights/mnist.safetensors").with_from_adapter(PyTorchToBurnAdapter)`,
		`BurnpackStore::from_file("weights/mnist.safetensors").with_key_remapping("^a", "b")`,
	} {
		name, _, _ := strings.Cut(store, "::")
		t.Run(name, func(t *testing.T) {
			res := run(t, `let device = Device::ndarray();
    let mut model = Model::init(2, &device);
    let mut store = `+store+`;
    model.load_from(&mut store).expect("load");
    let out = model.forward(Tensor::<2>::ones([3, 4], &device));
    assert_eq!(out.dims(), [3, 2]);
    assert_eq!(out.into_data(), TensorData::from([[0.0f32, 0.0], [0.0, 0.0], [0.0, 0.0]]));`)
			if name == "BurnpackStore" {
				// BurnpackStore has with_remap_pattern, not
				// with_key_remapping (burnpack.rs:291).
				if !mentions(warnings(res, "unknown-method"), "no method named `with_key_remapping` found for struct `BurnpackStore`") {
					t.Fatalf("want rustc's unknown method, got %+v", res.Diagnostics)
				}
				return
			}
			if res.Status != engine.StatusOK || res.Complete {
				t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
			}
			file := "weights/mnist.pt"
			if name == "SafetensorsStore" {
				file = "weights/mnist.safetensors"
			}
			if !mentions(warnings(res, "playground-unmodelled"), "`Model::load_from` reads the weights from `"+file+"`") {
				t.Errorf("no boundary warning naming the file: %+v", res.Diagnostics)
			}
			if !mentions(warnings(res, "playground-unchecked"), "assert_eq!", "out.into_data()") {
				t.Errorf("the assertion on the loaded model's output is not unchecked: %+v", res.Diagnostics)
			}
			ops := map[string]int{}
			for _, e := range res.Trace {
				if e.Device != "NdArray(Cpu)" {
					t.Errorf("%s ran on %s, not the model's device", e.Op, e.Device)
				}
				if (e.Op == "float_from_data" || e.Op == "float_matmul") && strings.Contains(e.Note, "values") {
					t.Errorf("%s knows values read from a file: %s", e.Op, e.Note)
				}
				ops[e.Op]++
			}
			if ops["float_from_data"] != 2 || ops["float_matmul"] != 1 {
				t.Errorf("want the two Params loaded and the forward traced, got %v", ops)
			}
		})
	}
}

// TestLoadedModelKeepsItsDevice: the device logic still runs on a
// loaded model: an input on another backend is Burn's panic.
func TestLoadedModelKeepsItsDevice(t *testing.T) {
	res := run(t, `let mut model = Model::init(2, &Device::ndarray());
    let mut store = PytorchStore::from_file("w.pt");
    model.load_from(&mut store).unwrap();
    let _ = model.forward(Tensor::<2>::ones([3, 4], &Device::flex()));`)
	if res.Status != engine.StatusPanicked || res.Panic == nil {
		t.Fatalf("want Burn's panic, got %s: %+v", res.Status, res.Diagnostics)
	}
	if !strings.Contains(res.Panic.Message, "NdArray") || !strings.Contains(res.Panic.Message, "Flex") {
		t.Errorf("panic %q does not name the two devices", res.Panic.Message)
	}
}

// TestSaveThenLoad: saving writes a file (Ok with the warning); the
// record loaded back from it gives a model whose values are unknown.
func TestSaveThenLoad(t *testing.T) {
	res := run(t, `let device = Device::flex();
    let model = Model::init(2, &device);
    model.clone().into_record().save("artifacts/model").expect("save");
    let mut store = BurnpackStore::from_file("artifacts/other").overwrite(true);
    model.save_into(&mut store).expect("save into");
    let record = ModuleRecord::load("artifacts/model").expect("load");
    let loaded = Model::init(2, &device).load_record(record);
    let out = loaded.forward(Tensor::<2>::ones([1, 4], &device));
    assert_eq!(out.dims(), [1, 2]);
    assert_eq!(out.into_data(), TensorData::from([[1.0f32, 2.0]]));`)
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
	w := warnings(res, "playground-unmodelled")
	for _, want := range []string{
		"`ModuleRecord::save` writes the record to `artifacts/model.bpk`",
		"`Model::save_into` writes the weights to `artifacts/other.bpk`",
		"`ModuleRecord::load` reads the record from `artifacts/model.bpk`",
	} {
		if !mentions(w, want) {
			t.Errorf("no warning %q in %q", want, w)
		}
	}
	if !mentions(warnings(res, "playground-unchecked"), "assert_eq!", "out.into_data()") {
		t.Errorf("the assertion on the loaded values is not unchecked: %+v", res.Diagnostics)
	}
}

// TestRecordInMemory: a record taken from a model of the program and
// applied to another holds the model's tensors: the values land, and a
// module of another shape or structure is refused as Burn refuses it.
func TestRecordInMemory(t *testing.T) {
	res := run(t, `let device = Device::flex();
    let model = Model::init(2, &device);
    let record = model.clone().into_record();
    println!("{} {}", record.len(), record.is_empty());
    let same = Model::init(2, &device).load_record(record.clone());
    let x = Tensor::<2>::ones([1, 4], &device);
    model.forward(x.clone()).into_data().assert_eq(&same.forward(x.clone()).into_data(), true);
    let bytes = model.clone().into_record().into_bytes().unwrap();
    let again = Model::init(2, &device).load_record(ModuleRecord::from_bytes(bytes).unwrap());
    model.forward(x.clone()).into_data().assert_eq(&again.forward(x).into_data(), true);
    let wide = Wide { fc1: LinearConfig::new(4, 2).init(&device), fc2: LinearConfig::new(2, 2).init(&device) };
    match wide.try_load_record(record.clone()) {
        Ok(_) => println!("loaded"),
        Err(e) => println!("{e:?}"),
    }
    let wide = Wide { fc1: LinearConfig::new(4, 2).init(&device), fc2: LinearConfig::new(2, 2).init(&device) };
    let partial = wide.try_load_record(record.clone().allow_partial(true));
    println!("{}", partial.is_ok());
    let wide_record = Wide { fc1: LinearConfig::new(4, 2).init(&device), fc2: LinearConfig::new(2, 2).init(&device) }.into_record();
    if let Err(e) = Model::init(2, &device).try_load_record(wide_record) {
        println!("{e:?}");
    }
    let _ = Model::init(3, &device).load_record(record);`)
	if res.Status != engine.StatusPanicked || res.Panic == nil {
		t.Fatalf("want load_record's panic, got %s: %+v", res.Status, res.Diagnostics)
	}
	wantOut := "2 false\n" + `Validation("Missing tensors: [\"fc2.weight\", \"fc2.bias\"]")` + "\ntrue\n" +
		`Validation("Unused tensors: [\"fc2.bias\", \"fc2.weight\"]")` + "\n"
	if res.Output != wantOut {
		t.Errorf("output %q, want %q", res.Output, wantOut)
	}
	wantPanic := `Failed to load record: Validation("Apply errors: [\"fc1.weight: shape mismatch, expected Shape { dims: [4, 3] } but record has Shape { dims: [4, 2] }\", \"fc1.bias: shape mismatch, expected Shape { dims: [3] } but record has Shape { dims: [2] }\"]")`
	if res.Panic.Message != wantPanic {
		t.Errorf("panic %q, want %q", res.Panic.Message, wantPanic)
	}
	if res.Panic.Location != "crates/burn-core/src/module/base.rs:309" || res.Panic.Code != "failed-to-load-record-err" {
		t.Errorf("panic at %s with code %s", res.Panic.Location, res.Panic.Code)
	}
}

// TestConfigSaveAndLoad: Config::save writes a file and is Ok;
// Config::load gives a config of the type whose fields are unknown, so
// the program goes on (the loaded config's methods run) and a print of a
// field is unchecked.
func TestConfigSaveAndLoad(t *testing.T) {
	src := `use burn::prelude::*;

#[derive(Config, Debug)]
pub struct TrainingConfig {
    pub model: ModelConfig,
    #[config(default = 4)]
    pub batch_size: usize,
}

#[derive(Config, Debug)]
pub struct ModelConfig {
    pub hidden: usize,
}

impl ModelConfig {
    pub fn init(&self) {
        println!("init of the loaded config's model");
    }
}

fn main() {
    let config = TrainingConfig::new(ModelConfig::new(2));
    println!("{}", config.save("artifacts/config.json").is_ok());
    let loaded = TrainingConfig::load("artifacts/config.json").expect("load");
    println!("{}", loaded.model.hidden);
    assert_eq!(loaded.batch_size, 4);
    loaded.model.init();
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
	w := warnings(res, "playground-unmodelled")
	if !mentions(w, "`TrainingConfig::save` writes `artifacts/config.json`") || !mentions(w, "`TrainingConfig::load` reads `artifacts/config.json`") {
		t.Errorf("warnings %q", w)
	}
	if want := "true\ninit of the loaded config's model\n"; res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	u := warnings(res, "playground-unchecked")
	if !mentions(u, "loaded.model.hidden") || !mentions(u, "assert_eq!", "loaded.batch_size") {
		t.Errorf("unchecked %q", u)
	}
}

// TestPytorchStoreIsReadOnly: saving into a PytorchStore is its Err,
// which the program's expect turns into its panic.
func TestPytorchStoreIsReadOnly(t *testing.T) {
	res := run(t, `let model = Model::init(2, &Device::flex());
    let mut store = PytorchStore::from_file("out.pt");
    model.save_into(&mut store).expect("save");`)
	want := `save: Other("Saving to PyTorch format is not yet supported. Use other formats for saving.")`
	if res.Panic == nil || res.Panic.Message != want {
		t.Fatalf("want the program's panic %q, got %+v", want, res.Panic)
	}
}

// TestSaveFileTakesThePathOnly: at 2c06be35 Module::save_file takes a
// path and no recorder (module/base.rs:318); the recorder of older Burns
// is rustc's error on the call.
func TestSaveFileTakesThePathOnly(t *testing.T) {
	res := run(t, `let model = Model::init(2, &Device::flex());
    model.save_file("artifacts/model", 1).unwrap();`)
	if !mentions(warnings(res, "wrong-arguments"), "this method takes 1 argument but 2 arguments were supplied") {
		t.Fatalf("want rustc's arity error, got %+v", res.Diagnostics)
	}
}

// TestModuleStoreSide: ModuleStore's apply_to and collect_from are
// load_from and save_into seen from the store (traits.rs:173, 194).
func TestModuleStoreSide(t *testing.T) {
	res := run(t, `let device = Device::flex();
    let mut model = Model::init(2, &device);
    let mut store = SafetensorsStore::from_file("m.safetensors");
    store.collect_from(&model).unwrap();
    store.apply_to(&mut model).unwrap();
    assert_eq!(model.forward(Tensor::<2>::ones([1, 4], &device)).into_data(), TensorData::from([[0.0f32, 0.0]]));`)
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
	w := warnings(res, "playground-unmodelled")
	if !mentions(w, "`Model::save_into` writes the weights to `m.safetensors`") || !mentions(w, "`Model::load_from` reads the weights from `m.safetensors`") {
		t.Errorf("warnings %q", w)
	}
	if !mentions(warnings(res, "playground-unchecked"), "assert_eq!") {
		t.Errorf("the assertion on the loaded model is not unchecked: %+v", res.Diagnostics)
	}
}

// TestRecordPaths: a record's keys are the module's paths, a Vec's
// elements by index and an Option's content at its own path, and an int
// Param loads as one (no require_grad on it).
func TestRecordPaths(t *testing.T) {
	src := `use burn::prelude::*;
use burn::nn::{Linear, LinearConfig};
use burn::module::Param;

#[derive(Module, Debug)]
pub struct Block {
    fc: Linear,
    ids: Param<Tensor<1, Int>>,
}

#[derive(Module, Debug)]
pub struct Net {
    blocks: Vec<Block>,
    head: Option<Linear>,
}

fn net(n: usize, d: &Device) -> Net {
    let mut blocks = Vec::new();
    for _ in 0..n {
        blocks.push(Block { fc: LinearConfig::new(2, 2).init(d), ids: Param::from_tensor(Tensor::<1, Int>::arange(0..3, d)) });
    }
    Net { blocks, head: Some(LinearConfig::new(2, 1).init(d)) }
}

fn main() {
    let d = Device::flex();
    let rec = net(2, &d).into_record();
    println!("{}", rec.len());
    let same = net(2, &d).load_record(rec.clone());
    assert_eq!(same.blocks[1].ids.val().into_data(), TensorData::from([0i32, 1, 2]));
    match net(1, &d).try_load_record(rec.clone()) { Ok(_) => println!("ok"), Err(e) => println!("{e:?}") }
    match net(3, &d).try_load_record(rec.clone()) { Ok(_) => println!("ok"), Err(e) => println!("{e:?}") }
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK || !res.Complete {
		t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
	want := "8\n" + `Validation("Unused tensors: [\"blocks.1.fc.bias\", \"blocks.1.fc.weight\", \"blocks.1.ids\"]")` + "\n" +
		`Validation("Missing tensors: [\"blocks.2.fc.weight\", \"blocks.2.fc.bias\", \"blocks.2.ids\"]")` + "\n"
	if res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
}

// TestRunningStatesAreRecorded: a BatchNorm's running mean and variance
// are RunningStates, which Burn records and loads as Params
// (param/running.rs:75-90): they are keys of the record, and a file
// load replaces them too, so no value of theirs survives as a guess.
func TestRunningStatesAreRecorded(t *testing.T) {
	src := `use burn::prelude::*;
use burn::nn::{BatchNorm, BatchNormConfig};
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub struct Net {
    norm: BatchNorm,
}

fn main() {
    let d = Device::flex();
    let rec = Net { norm: BatchNormConfig::new(3).init(&d) }.into_record();
    println!("{}", rec.len());
    let wider = Net { norm: BatchNormConfig::new(4).init(&d) };
    if let Err(e) = wider.try_load_record(rec) {
        println!("{e:?}");
    }
    let mut net = Net { norm: BatchNormConfig::new(3).init(&d) };
    net.load_from(&mut PytorchStore::from_file("w.pt")).unwrap();
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v: %+v", res.Status, res.Complete, res.Diagnostics)
	}
	want := "4\n" + `Validation("Apply errors: [\"norm.gamma: shape mismatch, expected Shape { dims: [4] } but record has Shape { dims: [3] }\", \"norm.beta: shape mismatch, expected Shape { dims: [4] } but record has Shape { dims: [3] }\", \"norm.running_mean: shape mismatch, expected Shape { dims: [4] } but record has Shape { dims: [3] }\", \"norm.running_var: shape mismatch, expected Shape { dims: [4] } but record has Shape { dims: [3] }\"]")` + "\n"
	if res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	loads := 0
	for _, e := range res.Trace {
		if e.Op == "float_from_data" && e.Span.Start.Line == 19 {
			loads++
		}
	}
	if loads != 4 {
		t.Errorf("load_from made %d tensors from the file, want gamma, beta and the two running states", loads)
	}
}

// TestKeyRemapperPatterns: add_pattern compiles its regex; a pattern
// Go's regexp compiles is Ok, one it does not is unknown, not a guess of
// regex's Err.
func TestKeyRemapperPatterns(t *testing.T) {
	res := run(t, `let remapper = KeyRemapper::new().add_pattern(r"^transformer\.h\.(\d+)\.", "transformer.layer$1.").unwrap();
    let _store = SafetensorsStore::from_file("model.safetensors").remap(remapper);
    println!("{}", KeyRemapper::new().add_pattern(r"\.attn\.", ".attention.").is_ok());`)
	if res.Status != engine.StatusOK || !res.Complete || res.Output != "true\n" {
		t.Fatalf("status %s complete %v output %q: %+v", res.Status, res.Complete, res.Output, res.Diagnostics)
	}
	res = run(t, `println!("{}", KeyRemapper::new().add_pattern("(unclosed", "x").is_ok());`)
	if res.Complete || res.Output != "" || len(warnings(res, "playground-unchecked")) == 0 {
		t.Fatalf("an invalid pattern's result is known: complete %v output %q: %+v", res.Complete, res.Output, res.Diagnostics)
	}
}

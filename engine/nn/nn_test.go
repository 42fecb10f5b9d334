package nn_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const cargo = "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"flex\", \"autodiff\"] }\n"

// run runs src with Flex, CUDA and autodiff; it fails the test unless
// the run is ok and complete.
func run(t *testing.T, src string) engine.Result {
	t.Helper()
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	return res
}

func ops(res engine.Result) string {
	var out []string
	for _, e := range res.Trace {
		out = append(out, e.Op+"@"+e.Backend)
	}
	return strings.Join(out, " ")
}

const prelude = "use burn::prelude::*;\nuse burn::module::Param;\nuse burn::nn::{Linear, LinearConfig, Relu, Initializer, Dropout, DropoutConfig};\n" +
	"use burn::nn::conv::{Conv2d, Conv2dConfig};\nuse burn::nn::pool::{AdaptiveAvgPool2d, AdaptiveAvgPool2dConfig};\n"

// TestDeriveConfig is #[derive(Config)] on the program's structs: new
// with the required fields in order, with_* builders, defaults from the
// attribute, and Display as serde_json's pretty JSON in serde's order.
func TestDeriveConfig(t *testing.T) {
	cases := []struct{ name, items, body, want string }{
		{"new takes the fields without a default, Display is JSON", `
#[derive(Config, Debug)]
pub struct ModelConfig { num_classes: usize, hidden_size: usize, #[config(default = "0.5")] dropout: f64 }`,
			`let c = ModelConfig::new(10, 512); println!("{c}");`,
			"{\n  \"num_classes\": 10,\n  \"hidden_size\": 512,\n  \"dropout\": 0.5\n}\n"},
		{"with_ sets a default, Option fields start None", `
#[derive(Config, Debug)]
pub struct C { #[config(default = 3)] epochs: usize, seed: Option<u64>, lr: f64 }`,
			`let c = C::new(0.25).with_epochs(7); println!("{c}"); println!("{}", c.with_seed(Some(42)).seed.unwrap());`,
			"{\n  \"lr\": 0.25,\n  \"seed\": null,\n  \"epochs\": 3\n}\n42\n"[:0] + "{\n  \"lr\": 0.25,\n  \"seed\": null,\n  \"epochs\": 7\n}\n42\n"},
		{"a default expression is evaluated", `
#[derive(Config, Debug)]
pub struct C { #[config(default = "1e-5")] eps: f64, #[config(default = "2 * 8")] n: usize, #[config(default = "vec![1, 2]")] v: Vec<usize> }`,
			`let c = C::new(); println!("{} {} {:?}", c.eps, c.n, c.v); println!("{c}");`,
			"0.00001 16 [1, 2]\n{\n  \"eps\": 0.00001,\n  \"n\": 16,\n  \"v\": [\n    1,\n    2\n  ]\n}\n"},
		{"a Burn config nested in the program's", `
#[derive(Config, Debug)]
pub struct T { model: LinearConfig, #[config(default = false)] shuffle: bool }`,
			`println!("{}", T::new(LinearConfig::new(2, 3).with_bias(false)));`,
			"{\n  \"model\": {\n    \"d_input\": 2,\n    \"d_output\": 3,\n    \"bias\": false,\n    \"initializer\": {\n      \"KaimingUniform\": {\n        \"gain\": 0.5773502691896258,\n        \"fan_out_only\": false\n      }\n    },\n    \"layout\": \"Row\"\n  },\n  \"shuffle\": false\n}\n"},
		{"Burn's configs print the same way", "",
			`println!("{}", DropoutConfig::new(0.1)); println!("{}", AdaptiveAvgPool2dConfig::new([8, 8]).to_string().len());`,
			"{\n  \"prob\": 0.1\n}\n39\n"},
		{"an enum deriving Config prints serde's externally tagged JSON", `
#[derive(Config, Debug)]
pub enum Act { Relu, Leaky { slope: f64 }, Scaled(f64) }`,
			`println!("{} {} {}", Act::Relu, Act::Leaky { slope: 0.1 }, Act::Scaled(2.0));`,
			"\"Relu\" {\n  \"Leaky\": {\n    \"slope\": 0.1\n  }\n} {\n  \"Scaled\": 2.0\n}\n"},
		{"Debug is the derived Debug", `
#[derive(Config, Debug)]
pub struct C { a: usize, #[config(default = true)] b: bool }`,
			`println!("{:?}", C::new(1));`, "C { a: 1, b: true }\n"},
		{"Burn's configs derive Debug", "",
			`println!("{:?}", LinearConfig::new(2, 3).with_initializer(Initializer::Normal { std: 2.0, mean: 0.0 }));`,
			"LinearConfig { d_input: 2, d_output: 3, bias: true, initializer: Normal { mean: 0.0, std: 2.0 }, layout: Row }\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, prelude+c.items+"\nfn main() {\n"+c.body+"\n}\n")
			if res.Output != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, c.want)
			}
		})
	}
}

// TestBurnConfigLiteral: burn-nn's configs have pub fields, so a struct
// literal builds one, and `..base` fills the rest from another.
func TestBurnConfigLiteral(t *testing.T) {
	res := run(t, prelude+`fn main() {
    let d = Device::flex();
    let c = DropoutConfig { prob: 0.25 };
    println!("{}", c.prob);
    let l = LinearConfig { d_output: 3, ..LinearConfig::new(2, 5) };
    println!("{}", l.init(&d));
}
`)
	if res.Output != "0.25\nLinear {d_input: 2, d_output: 3, bias: true, params: 9}\n" {
		t.Errorf("output %q", res.Output)
	}
}

// TestDeriveConfigErrors: rustc's errors and the file boundary.
func TestDeriveConfigErrors(t *testing.T) {
	items := "#[derive(Config, Debug)]\npub struct C { a: usize, #[config(default = 1)] b: usize }\n"
	cases := []struct{ name, body, code, msg string }{
		{"new takes the required fields only", "let c = C::new(1, 2);", "wrong-arguments", "this function takes 1 argument but 2 arguments were supplied"},
		{"no builder for a required field", "let c = C::new(1).with_a(2);", "unknown-method", ""},
		{"load reads a file the playground does not have", `let c = C::load("config.json");`, "playground-unmodelled",
			"`C::load` reads `config.json`, which the playground does not have: its result is unknown, and what is computed from it is not checked"},
		{"a module's file is the boundary", `#[derive(Module, Debug)] pub struct M { l: Linear }
let m = M { l: LinearConfig::new(1, 1).init(&Device::flex()) }; let m = m.load_file("model.bpk");`, "playground-unmodelled",
			"`M::load_file` reads the module's record from `model.bpk`, which the playground does not have: its result is unknown, and what is computed from it is not checked"},
		{"Burn's config new", "let c = LinearConfig::new(2);", "wrong-arguments", "this function takes 2 arguments but 1 argument was supplied"},
		{"Explicit padding takes one value per side", "let p = burn::nn::PaddingConfig2d::Explicit(1, 1);", "wrong-arguments", "this enum variant takes 4 arguments but 2 arguments were supplied"},
		{"a config's struct literal without a field", "let c = LinearConfig { d_input: 2, d_output: 3 };", "missing-field",
			"missing fields `bias`, `initializer` and `layout` in initializer of `LinearConfig`"},
		{"a config's struct literal with a field it has not", "let c = burn::nn::DropoutConfig { prob: 0.5, rate: 1 };", "unknown-field",
			"struct `DropoutConfig` has no field named `rate`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: prelude + items + "fn main() {\n" + c.body + "\n}\n"})
			for _, d := range res.Diagnostics {
				if d.Code == c.code && (c.msg == "" || d.Message == c.msg) {
					return
				}
			}
			t.Errorf("no %s %q in %+v", c.code, c.msg, res.Diagnostics)
		})
	}
}

const guideModel = `
#[derive(Module, Debug)]
pub struct Model {
    conv1: Conv2d,
    conv2: Conv2d,
    pool: AdaptiveAvgPool2d,
    dropout: Dropout,
    linear1: Linear,
    linear2: Linear,
    activation: Relu,
}

#[derive(Config, Debug)]
pub struct ModelConfig {
    num_classes: usize,
    hidden_size: usize,
    #[config(default = "0.5")]
    dropout: f64,
}

impl ModelConfig {
    pub fn init(&self, device: &Device) -> Model {
        Model {
            conv1: Conv2dConfig::new([1, 8], [3, 3]).init(device),
            conv2: Conv2dConfig::new([8, 16], [3, 3]).init(device),
            pool: AdaptiveAvgPool2dConfig::new([8, 8]).init(),
            activation: Relu::new(),
            linear1: LinearConfig::new(16 * 8 * 8, self.hidden_size).init(device),
            linear2: LinearConfig::new(self.hidden_size, self.num_classes).init(device),
            dropout: DropoutConfig::new(self.dropout).init(),
        }
    }
}
`

// TestDeriveModule is #[derive(Module)] on the program's structs: the
// Display Burn prints, num_params, devices, to_device, fork, no_grad,
// valid, #[module(skip)], Option and Vec of modules.
func TestDeriveModule(t *testing.T) {
	cases := []struct{ name, items, body, want, ops string }{
		{"the guide's model prints as Burn prints it", guideModel,
			`let model = ModelConfig::new(10, 512).init(&Device::flex()); println!("{model}");`,
			"Model {\n" +
				"  conv1: Conv2d {ch_in: 1, ch_out: 8, stride: [1, 1], kernel_size: [3, 3], dilation: [1, 1], groups: 1, padding: Valid, params: 80}\n" +
				"  conv2: Conv2d {ch_in: 8, ch_out: 16, stride: [1, 1], kernel_size: [3, 3], dilation: [1, 1], groups: 1, padding: Valid, params: 1168}\n" +
				"  pool: AdaptiveAvgPool2d {output_size: [8, 8]}\n" +
				"  dropout: Dropout {prob: 0.5}\n" +
				"  linear1: Linear {d_input: 1024, d_output: 512, bias: true, params: 524800}\n" +
				"  linear2: Linear {d_input: 512, d_output: 10, bias: true, params: 5130}\n" +
				"  activation: Relu\n" +
				"  params: 531178\n" +
				"}\n", ""},
		// 8*1*3*3 + 8 + 16*8*3*3 + 16 + 1024*512 + 512 + 512*10 + 10.
		{"num_params counts every float Param", guideModel,
			`println!("{}", ModelConfig::new(10, 512).init(&Device::flex()).num_params());`, "531178\n", ""},
		{"Params initialize lazily, on first use", `
#[derive(Module, Debug)]
pub struct M { l: Linear }`,
			`let m = M { l: LinearConfig::new(2, 3).init(&Device::flex()) }; println!("made"); let n = m.num_params(); println!("{n}");`,
			"made\n9\n", "float_random@Flex float_set_require_grad@Flex float_random@Flex float_set_require_grad@Flex"},
		{"to_device moves every Param and tensor, devices lists them", `
#[derive(Module, Debug)]
pub struct M { l: Linear, scale: Tensor<1> }`,
			`let cpu = Device::flex(); let m = M { l: LinearConfig::new(2, 3).with_bias(false).init(&cpu), scale: Tensor::<1>::ones([3], &cpu) };
let m = m.to_device(&Device::cuda(0)); println!("{:?}", m.devices());`,
			"[Device<Cuda(Cuda(0))>]\n", "float_ones@Flex float_random@Flex float_set_require_grad@Flex float_to_device@Cuda float_to_device@Cuda"},
		{"#[module(skip)] fields are not moved, and print with Debug", `
#[derive(Module, Debug)]
pub struct M { l: Linear, #[module(skip)] steps: usize }`,
			`let m = M { l: LinearConfig::new(1, 1).with_bias(false).init(&Device::flex()), steps: 3 }; println!("{m}");`,
			"M {\n  l: Linear {d_input: 1, d_output: 1, bias: false, params: 1}\n  steps: 3\n  params: 1\n}\n", ""},
		{"a generic module, a Param from a tensor, Ignored and primitive fields", `
#[derive(Module, Debug)]
pub struct Net<B: Backend> { fc: Linear<B>, w: Param<Tensor<B, 2>>, tag: burn::module::Ignored<String>, scale: f64 }`,
			`let d = Device::flex(); let net = Net { fc: LinearConfig::new(2, 2).init(&d), w: Param::from_tensor(Tensor::<2>::ones([2, 2], &d)), tag: burn::module::Ignored("x".to_string()), scale: 1.0 };
println!("{net}");`,
			"Net {\n  fc: Linear {d_input: 2, d_output: 2, bias: true, params: 6}\n  w: ParamTensor {rank: 2, shape: [2, 2], kind: float}\n  tag: Ignored(\"x\")\n  scale: 1.0\n  params: 10\n}\n", ""},
		{"an enum module prints its variant, walks its one module", `
#[derive(Module, Debug)]
pub enum Head { Small(Linear), Big(Linear) }`,
			`let d = Device::flex(); let h = Head::Small(LinearConfig::new(1, 1).init(&d)); let h = h.to_device(&Device::cuda(0));
println!("{h}"); println!("{:?}", h.devices());`,
			"Small {\n  _0: Linear {d_input: 1, d_output: 1, bias: true, params: 2}\n  params: 2\n}\n[Device<Cuda(Cuda(0))>]\n", ""},
		{"Param::from_tensor and from_data require gradients", "",
			`let ad = Device::flex().autodiff(); let p = Param::from_tensor(Tensor::<1>::ones([2], &ad));
let q = Param::<Tensor<1>>::from_data([1.0, 2.0], &ad); println!("{} {} {}", p.val().is_require_grad(), q.val().is_require_grad(), q.val().into_data());`,
			"true true [1.0, 2.0]\n", ""},
		{"Vec and Option of modules", `
#[derive(Module, Debug)]
pub struct M { layers: Vec<Linear>, extra: Option<Linear>, act: Option<Relu> }`,
			`let d = Device::flex(); let m = M { layers: vec![LinearConfig::new(1, 2).init(&d), LinearConfig::new(2, 1).init(&d)], extra: None, act: Some(Relu::new()) }; println!("{m}");`,
			"M {\n  layers: Vec<0..2> {\n    0: Linear {d_input: 1, d_output: 2, bias: true, params: 4}\n    1: Linear {d_input: 2, d_output: 1, bias: true, params: 3}\n    params: 7\n  }\n  extra: None\n  act: Relu\n  params: 7\n}\n", ""},
		{"no_grad and valid stop tracking, fork keeps require_grad", `
#[derive(Module, Debug)]
pub struct M { l: Linear }`,
			`let ad = Device::flex().autodiff(); let m = M { l: LinearConfig::new(2, 2).init(&ad) };
println!("{}", m.l.weight.val().is_require_grad());
println!("{}", m.clone().no_grad().l.weight.val().is_require_grad());
println!("{}", m.valid().l.weight.val().is_require_grad());
println!("{}", m.fork(&ad).l.weight.val().is_require_grad());`,
			"true\nfalse\nfalse\ntrue\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, prelude+c.items+"\nfn main() {\n"+c.body+"\n}\n")
			if res.Output != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, c.want)
			}
			if c.ops != "" && ops(res) != c.ops {
				t.Errorf("ops %s\nwant %s", ops(res), c.ops)
			}
		})
	}
}

// TestModules is each burn-nn module's init and forward: values by hand
// with constant initializers, shapes, and the dispatch ops burn-nn
// composes.
func TestModules(t *testing.T) {
	cases := []struct{ name, body, want, ops string }{
		// ones[1, 2] @ 0.5 + 0.5 = 1.5 in each of 3 outputs.
		{"Linear is matmul then the bias", `let d = Device::flex();
let l = LinearConfig::new(2, 3).with_initializer(Initializer::Constant { value: 0.5 }).init(&d);
let y = l.forward(Tensor::<2>::ones([1, 2], &d)); println!("{:?} {}", y.dims(), y.into_data());`,
			"[1, 3] [1.5, 1.5, 1.5]\n", "float_ones@Flex float_full@Flex float_set_require_grad@Flex float_full@Flex float_set_require_grad@Flex float_matmul@Flex float_reshape@Flex float_add@Flex float_into_data@Flex"},
		// a 2x2 kernel of ones over a 3x3 of ones: 4, plus the bias 1.
		{"Conv2d with Valid padding", `let d = Device::flex();
let c = Conv2dConfig::new([1, 1], [2, 2]).with_initializer(Initializer::Ones).init(&d);
let y = c.forward(Tensor::<4>::ones([1, 1, 3, 3], &d)); println!("{:?} {}", y.dims(), y.into_data());`,
			"[1, 1, 2, 2] [5.0, 5.0, 5.0, 5.0]\n", ""},
		{"Conv2d with Same padding keeps the size", `let d = Device::flex();
let c = Conv2dConfig::new([2, 4], [3, 3]).with_padding(PaddingConfig2d::Same).init(&d);
println!("{:?}", c.forward(Tensor::<4>::ones([1, 2, 5, 5], &d)).dims());`, "[1, 4, 5, 5]\n", ""},
		{"Conv2d with Explicit padding", `let d = Device::flex();
let c = Conv2dConfig::new([1, 1], [3, 3]).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)).init(&d); println!("{c}");
println!("{:?}", c.forward(Tensor::<4>::ones([1, 1, 4, 4], &d)).dims());`,
			"Conv2d {ch_in: 1, ch_out: 1, stride: [1, 1], kernel_size: [3, 3], dilation: [1, 1], groups: 1, padding: Explicit(1, 1, 1, 1), params: 10}\n[1, 1, 4, 4]\n", ""},
		{"AdaptiveAvgPool2d averages", `let d = Device::flex();
let p = AdaptiveAvgPool2dConfig::new([1, 1]).init();
println!("{}", p.forward(Tensor::<4>::from_data([[[[1.0, 2.0], [3.0, 4.0]]]], &d)).into_data());`, "[2.5]\n", ""},
		{"Relu", `let d = Device::flex(); println!("{}", Relu::new().forward(Tensor::<1>::from_data([-1.0, 2.0], &d)).into_data());`, "[0.0, 2.0]\n", ""},
		{"Dropout is the identity off autodiff", `let d = Device::flex(); let x = DropoutConfig::new(0.5).init().forward(Tensor::<1>::ones([4], &d)); println!("{}", x.dims()[0]);`,
			"4\n", "float_ones@Flex"},
		{"Dropout masks and scales on autodiff", `let d = Device::flex().autodiff(); let x = DropoutConfig::new(0.5).init().forward(Tensor::<1>::ones([4], &d)); println!("{}", x.dims()[0]);`,
			"4\n", "float_ones@Flex float_random@Flex float_mul@Flex float_mul_scalar@Flex"},
		// [1, 3]: mean 2, biased variance 1, (x - 2) / sqrt(1 + 1e-5).
		{"LayerNorm normalizes the last dim", `let d = Device::flex(); let ln = LayerNormConfig::new(2).init(&d);
println!("{ln}"); println!("{}", ln.forward(Tensor::<2>::from_data([[1.0, 3.0]], &d)).into_data());`,
			"LayerNorm {d_model: 2, epsilon: 0.00001, bias: true, params: 4}\n[-0.999995, 0.999995]\n", ""},
		// Training mode: channel 0 is [1, 3] (mean 2, var 1), channel 1 is [2, 2].
		{"BatchNorm uses the batch's statistics on autodiff", `let ad = Device::flex().autodiff(); let bn = BatchNormConfig::new(2).init(&ad);
println!("{bn}"); println!("{}", bn.forward(Tensor::<3>::from_data([[[1.0, 3.0], [2.0, 2.0]]], &ad)).into_data());`,
			"BatchNorm {num_features: 2, momentum: 0.1, epsilon: 0.00001, params: 4}\n[-0.999995, 0.999995, 0.0, 0.0]\n", ""},
		{"BatchNorm's running statistics are made at init", `let d = Device::flex(); let bn = BatchNormConfig::new(3).init(&d);`, "",
			"float_zeros@Flex float_ones@Flex"},
		{"Embedding looks rows up", `let d = Device::flex(); let e = EmbeddingConfig::new(4, 3).init(&d);
println!("{e} {:?}", e.forward(Tensor::<2, Int>::from_data([[0, 1]], &d)).dims());`, "Embedding {n_embedding: 4, d_model: 3, params: 12} [1, 2, 3]\n", ""},
		{"MaxPool2d and AvgPool2d, stride defaults to the kernel", `let d = Device::flex(); let mp = MaxPool2dConfig::new([2, 2]).init(); println!("{mp}");
let x = Tensor::<4>::from_data([[[[1.0, 2.0], [3.0, 4.0]]]], &d);
println!("{} {}", mp.forward(x.clone()).into_data(), AvgPool2dConfig::new([2, 2]).init().forward(x).into_data());`,
			"MaxPool2d {kernel_size: [2, 2], stride: [2, 2], padding: Valid, dilation: [1, 1], ceil_mode: false}\n[4.0] [2.5]\n", ""},
		{"Gelu prints its field, Sigmoid and Tanh", `let d = Device::flex(); println!("{}", Gelu::new());
println!("{} {}", Sigmoid::new().forward(Tensor::<1>::zeros([1], &d)).into_data(), Tanh::new().forward(Tensor::<1>::zeros([1], &d)).into_data());`,
			"Gelu {\n  approximate: false\n}\n[0.5] [0.0]\n", ""},
		{"LeakyRelu scales the negatives", `let d = Device::flex(); let l = LeakyReluConfig::new().with_negative_slope(0.5).init(); println!("{l}");
println!("{}", l.forward(Tensor::<1>::from_data([-2.0, 3.0], &d)).into_data());`, "LeakyRelu {negative_slope: 0.5}\n[-1.0, 3.0]\n", ""},
		// Every projection of ones through weights and biases of 0.1 is
		// 0.5: uniform scores, weights 1/3, context 0.5, output 4 * 0.5 *
		// 0.1 + 0.1.
		{"MultiHeadAttention of equal tokens", `let d = Device::flex();
let mha = MultiHeadAttentionConfig::new(4, 2).with_initializer(Initializer::Constant { value: 0.1 }).init(&d); println!("{mha}");
let out = mha.forward(MhaInput::self_attn(Tensor::<3>::ones([1, 3, 4], &d)));
println!("{:?} {:?} {}", out.context.dims(), out.weights.dims(), out.context.into_data());`,
			"MultiHeadAttention {d_model: 4, n_heads: 2, d_k: 2, dropout: 0.1, min_float: -10000, quiet_softmax: false, params: 80}\n[1, 3, 4] [1, 2, 3, 3] [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]\n", ""},
		// The padded last token gets no weight: 1/2 on the other two.
		{"MultiHeadAttention's padding mask", `let d = Device::flex();
let mha = MultiHeadAttentionConfig::new(2, 1).init(&d);
let mask = Tensor::<2, Bool>::from_data([[false, false, true]], &d);
let out = mha.forward(MhaInput::self_attn(Tensor::<3>::zeros([1, 3, 2], &d)).mask_pad(mask));
println!("{}", out.weights.into_data());`, "[0.5, 0.5, 0.0, 0.5, 0.5, 0.0, 0.5, 0.5, 0.0]\n", ""},
		// Zero weights and biases: attention adds nothing, norm_1 of a
		// row of ones is 0, the feed-forward adds nothing, norm_2 of 0 is 0.
		// Per layer: 4 * (4*4 + 4) + (4*8 + 8) + (8*4 + 4) + 2 * (4 + 4) = 172.
		{"TransformerEncoder, post-norm, with a padding mask", `let d = Device::flex();
let enc = TransformerEncoderConfig::new(4, 8, 2, 2).with_initializer(Initializer::Zeros).init(&d); println!("{enc}");
let mask = Tensor::<2, Bool>::from_data([[false, false, true]], &d);
let y = enc.forward(TransformerEncoderInput::new(Tensor::<3>::ones([1, 3, 4], &d)).mask_pad(mask));
println!("{:?} {}", y.dims(), y.abs().sum().into_scalar::<f32>());`,
			"TransformerEncoder {d_model: 4, d_ff: 8, n_heads: 2, n_layers: 2, dropout: 0.1, norm_first: false, quiet_softmax: false, params: 344}\n[1, 3, 4] 0\n", ""},
		// log_softmax of zeros over 4 classes is -ln 4 for every target.
		{"CrossEntropyLoss of uniform logits is ln(classes)", `let d = Device::flex(); let ce = CrossEntropyLossConfig::new().init(&d); println!("{ce}");
println!("{}", ce.forward(Tensor::<2>::zeros([2, 4], &d), Tensor::<1, Int>::from_data([0, 3], &d)).into_data());`,
			"CrossEntropyLoss {pad_tokens: None, weights: None, smoothing: None, logits: true}\n[1.3862944]\n", ""},
		// ((1-2)^2 + (2-4)^2) / 2 = 2.5, and 5 summed.
		{"MseLoss by mean and by sum", `let d = Device::flex(); let a = Tensor::<1>::from_data([1.0, 2.0], &d); let b = Tensor::<1>::from_data([2.0, 4.0], &d);
println!("{} {}", MseLoss::new().forward(a.clone(), b.clone(), Reduction::Mean).into_data(), MseLoss::new().forward(a, b, Reduction::Sum).into_data());`,
			"[2.5] [5.0]\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, prelude+"use burn::nn::PaddingConfig2d;\nuse burn::nn::{LeakyReluConfig, LayerNormConfig, BatchNormConfig, EmbeddingConfig, Gelu, Sigmoid, Tanh, loss::{CrossEntropyLossConfig, MseLoss, Reduction}};\nuse burn::nn::pool::{MaxPool2dConfig, AvgPool2dConfig};\nuse burn::nn::attention::{MultiHeadAttentionConfig, MhaInput};\nuse burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderInput};\nfn main() {\n"+c.body+"\n}\n")
			if res.Output != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", res.Output, c.want)
			}
			if c.ops != "" && ops(res) != c.ops {
				t.Errorf("ops %s\nwant %s", ops(res), c.ops)
			}
		})
	}
}

// TestModulePanics are burn-nn's panics and the device mistake.
func TestModulePanics(t *testing.T) {
	cases := []struct{ name, body, msg string }{
		{"Dropout's probability", "let d = DropoutConfig::new(1.5).init();", "Dropout probability should be between 0 and 1, but got 1.5"},
		{"Conv2d's groups", "let c = Conv2dConfig::new([3, 4], [3, 3]).with_groups(2).init(&Device::flex());",
			"Both channels must be divisible by the number of groups. Got channels_in=3, channels_out=4, groups=2"},
		{"label smoothing", "let l = CrossEntropyLossConfig::new().with_smoothing(Some(1.5)).init(&Device::flex());",
			"Alpha of Cross-entropy loss with smoothed labels should be in interval [0, 1]. Got 1.5"},
		{"class weights", "let l = CrossEntropyLossConfig::new().with_weights(Some(vec![1.0, 0.0])).init(&Device::flex());",
			"Weights of cross-entropy have to be positive."},
		{"targets and logits", `let d = Device::flex(); let l = CrossEntropyLossConfig::new().init(&d);
let y = l.forward(Tensor::<2>::zeros([2, 4], &d), Tensor::<1, Int>::from_data([0, 1, 2], &d));`,
			"Shape of targets (3) should correspond to outer shape of logits (2)."},
		{"BatchNorm of a vector", "let d = Device::flex(); let y = BatchNormConfig::new(3).init(&d).forward(Tensor::<1>::ones([3], &d));",
			"BatchNorm can only be applied on tensors of rank >= 2 with the following shape [batch_size, channels, ...], received 1D tensor"},
		{"MseLoss's reduction", "let d = Device::flex(); let a = Tensor::<1>::ones([2], &d); let y = MseLoss::new().forward(a.clone(), a, Reduction::BatchMean);",
			"BatchMean reduction is not supported"},
		{"a model on the GPU, the batch on the CPU", `let cpu = Device::flex();
let l = LinearConfig::new(2, 2).init(&cpu).to_device(&Device::cuda(0));
let y = l.forward(Tensor::<2>::ones([1, 2], &cpu));`, "The provided tensors are not on the same backend."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: prelude + "use burn::nn::{BatchNormConfig, loss::{CrossEntropyLossConfig, MseLoss, Reduction}};\nfn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || !strings.HasPrefix(res.Panic.Message, c.msg) {
				t.Fatalf("status %s panic %+v, want a panic %q", res.Status, res.Panic, c.msg)
			}
			if res.Panic.Code == "" || !strings.HasPrefix(res.Panic.Location, "crates/burn-") {
				t.Errorf("panic code %q at %q", res.Panic.Code, res.Panic.Location)
			}
		})
	}
}

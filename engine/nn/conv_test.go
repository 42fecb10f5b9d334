package nn_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const convPrelude = prelude + "use burn::nn::{PaddingConfig1d, PaddingConfig3d};\n" +
	"use burn::nn::conv::{Conv1dConfig, Conv3dConfig, ConvTranspose1dConfig, ConvTranspose2dConfig, ConvTranspose3dConfig};\n"

// floats parses a printed TensorData ("[1.0, 2.5]") into its values.
func floats(t *testing.T, s string) []float64 {
	t.Helper()
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			t.Fatalf("value %q of %q: %v", f, s, err)
		}
		out = append(out, v)
	}
	return out
}

func near(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-4*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("%s: value %d is %v, want %v (all %v, want %v)", what, i, got[i], want[i], got, want)
		}
	}
}

// lines runs main's body and gives its printed lines.
func lines(t *testing.T, items, body string) []string {
	t.Helper()
	res := run(t, convPrelude+items+"\nfn main() {\n"+body+"\n}\n")
	out := strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n")
	// Lines the program did not print read as missing, so a short output
	// fails the comparisons instead of the test's indexing.
	for len(out) < 64 {
		out = append(out, "<missing>")
	}
	return out
}

// joined is lines from..to-1 of a program's output, one string.
func joined(out []string, from, to int) string { return strings.Join(out[from:to], "\n") }

func TestConv1d(t *testing.T) {
	// 2 channels in, 3 out, kernel 2, padding (1, 1); weights and biases 0.5.
	out := lines(t, "", `let d = Device::flex();
let c = Conv1dConfig::new(2, 3, 2).with_padding(PaddingConfig1d::Explicit(1, 1)).with_initializer(Initializer::Constant { value: 0.5 }).init(&d);
println!("{c}");
let y = c.forward(Tensor::<3>::from_data([[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]], &d));
println!("{:?}", y.dims()); println!("{}", y.into_data()); println!("{}", c.num_params());`)
	if out[0] != "Conv1d {ch_in: 2, ch_out: 3, stride: 1, kernel_size: 2, dilation: 1, groups: 1, padding: Explicit(1, 1), params: 15}" {
		t.Errorf("Display %q", out[0])
	}
	x := [][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}}
	pad := func(c, i int) float64 {
		if i < 1 || i > 4 {
			return 0
		}
		return x[c][i-1]
	}
	var want []float64
	for o := 0; o < 3; o++ {
		for t := 0; t < 5; t++ {
			s := 0.5
			for c := 0; c < 2; c++ {
				for j := 0; j < 2; j++ {
					s += 0.5 * pad(c, t+j)
				}
			}
			want = append(want, s)
		}
	}
	if out[1] != "[1, 3, 5]" {
		t.Errorf("dims %s", out[1])
	}
	near(t, "conv1d", floats(t, out[2]), want)
	if out[3] != "15" {
		t.Errorf("num_params %s", out[3])
	}
}

func TestConv1dSameAndDefaults(t *testing.T) {
	out := lines(t, "", `let d = Device::flex();
let cfg = Conv1dConfig::new(1, 2, 3).with_padding(PaddingConfig1d::Same).with_stride(2);
println!("{cfg}");
let c = cfg.init(&d);
println!("{:?}", c.forward(Tensor::<3>::ones([1, 1, 5], &d)).dims());
let c = Conv1dConfig::new(4, 4, 3).with_groups(2).with_bias(false).init(&d);
println!("{} {:?}", c.num_params(), c.weight.dims());`)
	want := `{
  "channels_in": 1,
  "channels_out": 2,
  "kernel_size": 3,
  "stride": 2,
  "dilation": 1,
  "groups": 1,
  "padding": "Same",
  "bias": true,
  "initializer": {
    "KaimingUniform": {
      "gain": 0.5773502691896258,
      "fan_out_only": false
    }
  }
}`
	if got := strings.Join(out[:16], "\n"); got != want {
		t.Errorf("config JSON\n%s\nwant\n%s", got, want)
	}
	// Same with stride 2 over 5: ceil(5 / 2) = 3 outputs.
	if out[16] != "[1, 2, 3]" {
		t.Errorf("Same-padded dims %s", out[16])
	}
	if out[17] != "24 [4, 2, 3]" {
		t.Errorf("grouped weight %s", out[17])
	}
}

func TestConv3d(t *testing.T) {
	// Ones over ones: each output is k^3 * ch_in + the bias 1.
	out := lines(t, "", `let d = Device::flex();
let c = Conv3dConfig::new([2, 3], [2, 2, 2]).with_padding(PaddingConfig3d::Explicit(1, 0, 0)).with_initializer(Initializer::Ones).init(&d);
println!("{c}");
let y = c.forward(Tensor::<5>::ones([1, 2, 3, 3, 3], &d));
println!("{:?}", y.dims()); println!("{}", y.sum().into_data());`)
	if out[0] != "Conv3d {ch_in: 2, ch_out: 3, stride: [1, 1, 1], kernel_size: [2, 2, 2], dilation: [1, 1, 1], groups: 1, padding: Explicit(1, 0, 0), params: 51}" {
		t.Errorf("Display %q", out[0])
	}
	if out[1] != "[1, 3, 4, 2, 2]" {
		t.Errorf("dims %s", out[1])
	}
	// Padding 1 in depth: the first and last depth rows see one padded
	// plane (4 of the 8 kernel taps per channel are zeros).
	var sum float64
	for o := 0; o < 3; o++ {
		for dz := 0; dz < 4; dz++ {
			taps := 0.0
			for j := 0; j < 2; j++ {
				if z := dz + j - 1; z >= 0 && z < 3 {
					taps += 4 * 2
				}
			}
			sum += 4 * (taps + 1)
		}
	}
	near(t, "conv3d sum", floats(t, out[2]), []float64{sum})
}

func TestConvTranspose(t *testing.T) {
	out := lines(t, "", `let d = Device::flex();
let c = ConvTranspose1dConfig::new([1, 2], 3).with_stride(2).with_initializer(Initializer::Ones).init(&d);
println!("{c}");
let y = c.forward(Tensor::<3>::from_data([[[1.0, 2.0, 3.0]]], &d));
println!("{:?}", y.dims()); println!("{}", y.into_data());
let c2 = ConvTranspose2dConfig::new([2, 4], [3, 3]).with_stride([2, 2]).with_padding([1, 1]).with_padding_out([1, 1]).init(&d);
println!("{c2}");
println!("{:?}", c2.forward(Tensor::<4>::ones([1, 2, 4, 4], &d)).dims());
let c3 = ConvTranspose3dConfig::new([1, 1], [2, 2, 2]).init(&d);
println!("{} {:?}", c3.num_params(), c3.forward(Tensor::<5>::ones([1, 1, 2, 2, 2], &d)).dims());`)
	if out[0] != "ConvTranspose1d {channels: [1, 2], stride: 2, kernel_size: 3, dilation: 1, groups: 1, padding: 0, padding_out: 0, params: 8}" {
		t.Errorf("Display %q", out[0])
	}
	x := []float64{1, 2, 3}
	n := (len(x)-1)*2 + 3
	var want []float64
	for o := 0; o < 2; o++ {
		for t := 0; t < n; t++ {
			s := 1.0
			for i, v := range x {
				if j := t - 2*i; j >= 0 && j < 3 {
					s += v
				}
			}
			want = append(want, s)
		}
	}
	if out[1] != "[1, 2, 7]" {
		t.Errorf("dims %s", out[1])
	}
	near(t, "conv_transpose1d", floats(t, out[2]), want)
	if out[3] != "ConvTranspose2d {channels: [2, 4], stride: [2, 2], kernel_size: [3, 3], dilation: [1, 1], groups: 1, padding: [1, 1], padding_out: [1, 1], params: 76}" {
		t.Errorf("Display %q", out[3])
	}
	// (4 - 1) * 2 - 2 * 1 + (3 - 1) + 1 + 1 = 8.
	if out[4] != "[1, 4, 8, 8]" {
		t.Errorf("dims %s", out[4])
	}
	if out[5] != "9 [1, 1, 3, 3, 3]" {
		t.Errorf("conv_transpose3d %s", out[5])
	}
}

func TestConvPanics(t *testing.T) {
	cases := []struct{ name, body, msg, loc string }{
		{"Conv1d's groups", "let c = Conv1dConfig::new(3, 4, 3).with_groups(2).init(&Device::flex());",
			"Both channels must be divisible by the number of groups. Got channels_in=3, channels_out=4, groups=2", "crates/burn-nn/src/modules/conv/checks.rs:6"},
		{"ConvTranspose2d's groups", "let c = ConvTranspose2dConfig::new([4, 6], [3, 3]).with_groups(4).init(&Device::flex());",
			"Both channels must be divisible by the number of groups. Got channels_in=4, channels_out=6, groups=4", "crates/burn-nn/src/modules/conv/checks.rs:6"},
		{"Conv3d's Same padding with an even kernel", "let c = Conv3dConfig::new([1, 1], [3, 2, 3]).with_padding(PaddingConfig3d::Same).init(&Device::flex());",
			"not implemented: Same padding with an even kernel size is not supported", "crates/burn-nn/src/modules/conv/checks.rs:19"},
		{"Conv3d's Same padding with a stride", `let d = Device::flex(); let c = Conv3dConfig::new([1, 1], [3, 3, 3]).with_stride([2, 1, 1]).with_padding(PaddingConfig3d::Same).init(&d);
let y = c.forward(Tensor::<5>::ones([1, 1, 4, 3, 3], &d));`,
			"Asymmetric 3D 'Same' padding is not supported. Use odd kernel sizes for symmetric padding.", "crates/burn-nn/src/padding.rs:134"},
		{"Xavier without fan_out", `let d = Device::flex(); let c = ConvTranspose1dConfig::new([1, 1], 3).with_initializer(Initializer::XavierUniform { gain: 1.0 }).init(&d);
let y = c.forward(Tensor::<3>::ones([1, 1, 4], &d));`,
			"Can't use Xavier initialization without specifying fan out. Use init_with method and provide fan_out.", "crates/burn-core/src/module/initializer.rs:221"},
		{"Kaiming by fan_out without it", `let d = Device::flex(); let c = Conv1dConfig::new(1, 1, 3).with_initializer(Initializer::KaimingUniform { gain: 1.0, fan_out_only: true }).init(&d);
println!("{c}"); let y = c.forward(Tensor::<3>::ones([1, 1, 4], &d));`,
			"Can't use Kaiming initialization without specifying fan. Use init_with method.", "crates/burn-core/src/module/initializer.rs:209"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v, want a panic %q", res.Status, res.Panic, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

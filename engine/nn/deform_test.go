package nn_test

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const deformUse = "use burn::nn::conv::DeformConv2dConfig;\nuse burn::nn::PaddingConfig2d;\n"

// TestDeformConv2d: with zero offsets and no mask a deformable
// convolution is the plain one.
func TestDeformConv2d(t *testing.T) {
	out := lines(t, deformUse, `let d = Device::flex();
let c = DeformConv2dConfig::new([1, 2], [2, 2]).with_initializer(Initializer::Ones).init(&d); println!("{c}");
let x = Tensor::<4>::from_data([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]], &d);
let y = c.forward(x, Tensor::<4>::zeros([1, 8, 2, 2], &d), None);
println!("{:?}", y.dims()); println!("{}", y.into_data());`)
	if out[0] != "DeformConv2d {stride: [1, 1], kernel_size: [2, 2], dilation: [1, 1], weight_groups: 1, offset_groups: 1, padding: Valid, params: 10}" {
		t.Errorf("Display %q", out[0])
	}
	if out[1] != "[1, 2, 2, 2]" {
		t.Errorf("dims %s", out[1])
	}
	x := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	var want []float64
	for o := 0; o < 2; o++ {
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				want = append(want, 1+x[i][j]+x[i][j+1]+x[i+1][j]+x[i+1][j+1])
			}
		}
	}
	near(t, "deform_conv2d", floats(t, out[2]), want)
}

func TestDeformConv2dPanics(t *testing.T) {
	cases := []struct{ name, body, msg, loc string }{
		{"offset groups", "let c = DeformConv2dConfig::new([3, 3], [3, 3]).with_offset_groups(2).init(&Device::flex());",
			"Channels must be divisible by the number of groups. Got channels_in=3, offset_groups=2", "crates/burn-nn/src/modules/conv/deform_conv2d.rs:85"},
		{"weight groups", "let c = DeformConv2dConfig::new([3, 4], [3, 3]).with_weight_groups(2).init(&Device::flex());",
			"Both channels must be divisible by the number of groups. Got channels_in=3, channels_out=4, groups=2", "crates/burn-nn/src/modules/conv/checks.rs:6"},
		{"asymmetric padding", `let d = Device::flex(); let c = DeformConv2dConfig::new([1, 1], [2, 2]).with_padding(PaddingConfig2d::Explicit(1, 0, 0, 0)).init(&d);
let y = c.forward(Tensor::<4>::ones([1, 1, 3, 3], &d), Tensor::<4>::zeros([1, 8, 3, 2], &d), None);`,
			"Asymmetric padding should be handled via calculate_padding_2d_pairs()", "crates/burn-nn/src/padding.rs:98"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + deformUse + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

package nn_test

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const interpUse = "use burn::nn::interpolate::{Interpolate1dConfig, Interpolate2dConfig, InterpolateMode};\nuse burn::nn::Unfold4dConfig;\n"

func TestInterpolateModules(t *testing.T) {
	out := lines(t, interpUse, `let d = Device::flex();
let i1 = Interpolate1dConfig::new().with_output_size(Some(4)).init(); println!("{i1}");
let y = i1.forward(Tensor::<3>::from_data([[[1.0, 2.0]]], &d)); println!("{:?}", y.dims()); println!("{}", y.into_data());
let i2 = Interpolate2dConfig::new().with_scale_factor(Some([2.0, 1.5])).with_mode(InterpolateMode::Linear).init(); println!("{i2}");
let y = i2.forward(Tensor::<4>::from_data([[[[0.0, 1.0], [2.0, 3.0]]]], &d)); println!("{:?}", y.dims()); println!("{}", y.into_data());
println!("{}", Interpolate1dConfig::new());`)
	if out[0] != "Interpolate1d {mode: Nearest, output_size: Some(4), scale_factor: None}" {
		t.Errorf("Display %q", out[0])
	}
	if out[1] != "[1, 1, 4]" {
		t.Errorf("dims %s", out[1])
	}
	// Nearest from 2 to 4: source index floor(i * 2 / 4).
	near(t, "nearest", floats(t, out[2]), []float64{1, 1, 2, 2})
	if out[3] != "Interpolate2d {mode: Linear, output_size: None, scale_factor: [2.0, 1.5]}" {
		t.Errorf("Display %q", out[3])
	}
	if out[4] != "[1, 1, 4, 3]" {
		t.Errorf("dims %s", out[4])
	}
	// Bilinear with align_corners: the source coordinate of output i is
	// i * (in - 1) / (out - 1).
	src := [][]float64{{0, 1}, {2, 3}}
	var want []float64
	for i := 0; i < 4; i++ {
		for j := 0; j < 3; j++ {
			y, x := float64(i)*1/3, float64(j)*1/2
			top := src[0][0]*(1-x) + src[0][1]*x
			bot := src[1][0]*(1-x) + src[1][1]*x
			want = append(want, top*(1-y)+bot*y)
		}
	}
	near(t, "bilinear", floats(t, out[5]), want)
	if got := joined(out, 6, 12); got != "{\n  \"output_size\": null,\n  \"scale_factor\": null,\n  \"mode\": \"Nearest\",\n  \"align_corners\": true\n}" {
		t.Errorf("config JSON %s", got)
	}
}

func TestUnfold4d(t *testing.T) {
	out := lines(t, interpUse, `let d = Device::flex();
let u = Unfold4dConfig::new([2, 2]).init(); println!("{u}");
let y = u.forward(Tensor::<4>::from_data([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]], &d));
println!("{:?}", y.dims()); println!("{}", y.into_data());`)
	if out[0] != "Unfold4d {kernel_size: [2, 2], stride: [1, 1], dilation: [1, 1], padding: [0, 0]}" {
		t.Errorf("Display %q", out[0])
	}
	if out[1] != "[1, 4, 4]" {
		t.Errorf("dims %s", out[1])
	}
	// Row r of the output is kernel offset (r / 2, r % 2); column c the
	// window at (c / 2, c % 2).
	x := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	var want []float64
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			want = append(want, x[c/2+r/2][c%2+r%2])
		}
	}
	near(t, "unfold4d", floats(t, out[2]), want)
}

func TestInterpolatePanics(t *testing.T) {
	cases := []struct{ name, body, msg, loc string }{
		{"1d without a size", "let d = Device::flex(); let y = Interpolate1dConfig::new().init().forward(Tensor::<3>::ones([1, 1, 2], &d));",
			"Either output_size or scale_factor must be provided", "crates/burn-nn/src/modules/interpolate/interpolate1d.rs:160"},
		{"2d with both", "let d = Device::flex(); let y = Interpolate2dConfig::new().with_output_size(Some([2, 2])).with_scale_factor(Some([2.0, 2.0])).init().forward(Tensor::<4>::ones([1, 1, 2, 2], &d));",
			"Either output_size or scale_factor must be provided", "crates/burn-nn/src/modules/interpolate/interpolate2d.rs:159"},
		{"a width scale too large", "let d = Device::flex(); let y = Interpolate2dConfig::new().with_scale_factor(Some([1.0, 1e30])).init().forward(Tensor::<4>::ones([1, 1, 2, 2], &d));",
			"Scale factor for width is too large", "crates/burn-nn/src/modules/interpolate/interpolate2d.rs:154"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + interpUse + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

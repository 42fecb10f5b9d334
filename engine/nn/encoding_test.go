package nn_test

import (
	"math"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

const encUse = "use burn::nn::{PositionalEncodingConfig, RotaryEncodingConfig};\n"

func TestPositionalEncoding(t *testing.T) {
	out := lines(t, encUse, `let d = Device::flex();
let pe = PositionalEncodingConfig::new(4).with_max_sequence_size(3).init(&d); println!("{pe}");
let x = Tensor::<3>::from_data([[[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]]], &d);
let y = pe.forward(x); println!("{:?}", y.dims()); println!("{}", y.into_data());`)
	if out[0] != "PositionalEncoding {d_model: 4, max_sequence_size: 3, max_timescale: 10000}" {
		t.Errorf("Display %q", out[0])
	}
	if out[1] != "[1, 2, 4]" {
		t.Errorf("dims %s", out[1])
	}
	x := []float64{1, 2, 3, 4, 0.5, 0.5, 0.5, 0.5}
	var want []float64
	for i := 0; i < 2; i++ {
		for k := 0; k < 4; k += 2 {
			div := math.Exp(float64(k) * -math.Log(10000) / 4)
			want = append(want, x[i*4+k]+math.Sin(div*float64(i)), x[i*4+k+1]+math.Cos(div*float64(i)))
		}
	}
	near(t, "x + sinusoids", floats(t, out[2]), want)
}

func TestRotaryEncoding(t *testing.T) {
	out := lines(t, encUse, `let d = Device::flex();
let r = RotaryEncodingConfig::new(8, 4).init(&d); println!("{r}");
let x = Tensor::<3>::from_data([[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [1.0, -1.0, 0.5, 2.0]]], &d);
println!("{}", r.forward(x.clone()).into_data());
println!("{}", r.apply(x.clone(), 2).into_data());`)
	if out[0] != "RotaryEncoding {d_model: 4, max_sequence_length: 8}" {
		t.Errorf("Display %q", out[0])
	}
	x := [][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}, {1, -1, 0.5, 2}}
	rope := func(start int) []float64 {
		var y []float64
		for p, row := range x {
			for i := 0; i < 2; i++ {
				theta := 1 / math.Pow(10000, float64(2*i)/4)
				a := float64(p+start) * theta
				x0, x1 := row[2*i], row[2*i+1]
				y = append(y, x0*math.Cos(a)-x1*math.Sin(a), x0*math.Sin(a)+x1*math.Cos(a))
			}
		}
		return y
	}
	near(t, "rotated pairs", floats(t, out[1]), rope(0))
	// apply is RotaryEncoding's own method, before ModuleSnapshot's.
	near(t, "rotated from position 2", floats(t, out[2]), rope(2))
}

func TestEncodingPanics(t *testing.T) {
	cases := []struct{ name, body, msg, loc string }{
		{"odd d_model", "let p = PositionalEncodingConfig::new(3).init(&Device::flex());", "d_model must be even", "crates/burn-nn/src/modules/pos_encoding.rs:146"},
		{"timescale below the length", "let p = PositionalEncodingConfig::new(2).with_max_timescale(100).init(&Device::flex());",
			"max_timescale must be greater than or equal to length", "crates/burn-nn/src/modules/pos_encoding.rs:147"},
		{"a sequence too long", "let d = Device::flex(); let p = PositionalEncodingConfig::new(2).with_max_sequence_size(2).init(&d); let y = p.forward(Tensor::<3>::ones([1, 3, 2], &d));",
			"max_sequence_size(2) must be greater or equal than length(3)", "crates/burn-nn/src/modules/pos_encoding.rs:108"},
		{"another d_model", "let d = Device::flex(); let p = PositionalEncodingConfig::new(2).with_max_sequence_size(4).init(&d); let y = p.forward(Tensor::<3>::ones([1, 3, 4], &d));",
			"d_model(4) of the input must be equal to d_model of encoding(2)", "crates/burn-nn/src/modules/pos_encoding.rs:113"},
		{"rope's odd d_model", "let r = RotaryEncodingConfig::new(4, 3).init(&Device::flex());",
			"assertion `left == right` failed: The input embedding dimension must be even\n  left: 1\n right: 0", "crates/burn-nn/src/modules/rope_encoding.rs:65"},
		{"rope's theta", "let r = RotaryEncodingConfig::new(4, 2).with_theta(0.0).init(&Device::flex());",
			"Theta parameter must be positive (default: 10000).", "crates/burn-nn/src/modules/rope_encoding.rs:70"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(engine.Request{Config: cargo, Snippet: convPrelude + encUse + "fn main() {\n" + c.body + "\n}\n"})
			if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != c.msg {
				t.Fatalf("status %s panic %+v %+v, want a panic %q", res.Status, res.Panic, res.Diagnostics, c.msg)
			}
			if res.Panic.Location != c.loc || res.Panic.Code == "" {
				t.Errorf("panic code %q at %q, want %s", res.Panic.Code, res.Panic.Location, c.loc)
			}
		})
	}
}

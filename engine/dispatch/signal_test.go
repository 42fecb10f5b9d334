package dispatch

import (
	"math"
	"testing"
)

// The window functions on the sizes of Burn's window tests
// (crates/burn-backend-tests/tests/tensor/float/ops/*_window.rs), worked
// by hand, and every size up to 40 against the formula evaluated in f32
// one op at a time as the composition computes it.
func TestSignalWindows(t *testing.T) {
	fx := newOpFixture(t)
	win := func(name string, size int64, periodic bool) Call {
		return fn("burn::tensor::signal::"+name, i(size), Bool(periodic), ref(fx.d))
	}
	runOpCases(t, fx.w, []opCase{
		{"hann periodic 4", win("hann_window", 4, true), "[0.0, 0.5, 1.0, 0.5]"},
		{"hann symmetric 1", win("hann_window", 1, false), "[1.0]"},
		{"hamming periodic 4", win("hamming_window", 4, true), "[0.0869565, 0.54347825, 1.0, 0.54347825]"},
		{"blackman symmetric 3", win("blackman_window", 3, false), "[0.0, 1.0, 0.0]"},
	})
	empty := mustCall(t, fx.w, win("blackman_window", 0, true)).(*Tensor)
	if len(empty.shape) != 1 || empty.shape[0] != 0 {
		t.Errorf("a window of size 0 has shape %v", empty.shape)
	}
	f64 := mustCall(t, fx.w, fn("burn::tensor::signal::hann_window", i(3), Bool(false), Tuple{ref(fx.d), enum("DType", "F64")})).(*Tensor)
	if f64.dtype != "F64" || f64.vals().Preview(8) != "[0.0, 1.0, 0.0]" {
		t.Errorf("an F64 window: %s %s", f64.dtype, f64.vals().Preview(8))
	}
	if op := fx.w.trace[len(fx.w.trace)-1].Op; op != "float_cast" {
		t.Errorf("the F64 window ends with %s, want float_cast", op)
	}
	for size := int64(2); size <= 40; size++ {
		for _, periodic := range []bool{false, true} {
			den := size - 1
			if periodic {
				den = size
			}
			inc := float32(2 * math.Pi / float64(den))
			for _, name := range []string{"hann_window", "hamming_window", "blackman_window"} {
				out := mustCall(t, fx.w, win(name, size, periodic)).(*Tensor)
				for n := range size {
					c := float32(math.Cos(float64(float32(n) * inc)))
					var want float32
					switch name {
					case "hann_window":
						want = c*-0.5 + 0.5
					case "hamming_window":
						alpha := float32(25.0 / 46.0)
						want = c*float32(-(1-25.0/46.0)) + alpha
					default:
						want = c*-0.5 + float32(float32(c*c)*0.16) + 0.34
					}
					if got := out.vals().Data.Float(int(n)); got != float64(want) {
						t.Fatalf("%s(%d, %v)[%d] = %v, want %v", name, size, periodic, n, got, want)
					}
				}
			}
		}
	}
}

package dispatch

import (
	"slices"
	"testing"
)

// TestInterpolateBackendPanics: each backend's interpolate panics on the
// modes it has no kernel for, with its own message, and burn-flex's
// empty-input assert is Flex's alone.
func TestInterpolateBackendPanics(t *testing.T) {
	w := world(t, "flex", "ndarray", "tch", "cuda")
	opts := func(mode string) Value {
		return mustCall(t, w, fn("InterpolateOptions::new", enum("InterpolateMode", mode)))
	}
	for _, c := range []struct {
		device, mode string
		empty        bool
		msg, loc     string
	}{
		{"flex", "NearestExact", false, "interpolate: unsupported mode NearestExact / dtype F32", "crates/burn-flex/src/ops/module.rs:601"},
		{"flex", "Bilinear", true, "interpolate: input spatial dimensions must be > 0", "crates/burn-flex/src/ops/interpolate.rs:332"},
		// crates/burn-ndarray/src/ops/module.rs:309
		{"ndarray", "NearestExact", false, "nearest exact interpolation is not supported for ndarray backend", "crates/burn-ndarray/src/ops/module.rs:309"},
		// crates/burn-tch/src/ops/module.rs:421, 430
		{"libtorch", "NearestExact", false, "nearest exact interpolation is not supported by PyTorch/tch backend", "crates/burn-tch/src/ops/module.rs:421"},
		{"libtorch", "Lanczos3", false, "lanczos3 interpolation is not supported by PyTorch/tch backend", "crates/burn-tch/src/ops/module.rs:430"},
	} {
		var d *Device
		if c.device == "cuda" {
			d = device(t, w, c.device, i(0))
		} else {
			d = device(t, w, c.device)
		}
		h := int64(3)
		if c.empty {
			h = 0
		}
		p := mustPanic(t, w, fn("interpolate", ones(t, w, d, "", 1, 1, h, 3), dims(4, 4), opts(c.mode)))
		if p.Message != c.msg || p.Location != c.loc {
			t.Errorf("%s on %s: %q at %s, want %q at %s", c.mode, c.device, p.Message, p.Location, c.msg, c.loc)
		}
	}
	// No Flex panic elsewhere: NdArray has no empty-input check, the CubeCL
	// backends a NearestExact kernel (burn-cubecl kernel/interpolate/base.rs:158).
	// The engine has neither kernel, so the results carry no values.
	for _, c := range []struct {
		d     *Device
		mode  string
		empty bool
	}{
		{device(t, w, "ndarray"), "Bilinear", true},
		{device(t, w, "ndarray"), "Nearest", true},
		{device(t, w, "cuda", i(0)), "NearestExact", false},
		{device(t, w, "cuda", i(0)), "Bilinear", true},
	} {
		h := int64(3)
		if c.empty {
			h = 0
		}
		out := mustCall(t, w, fn("interpolate", ones(t, w, c.d, "", 1, 1, h, 3), dims(4, 4), opts(c.mode))).(*Tensor)
		if !slices.Equal(out.Shape(), []int64{1, 1, 4, 4}) || out.vals() != nil {
			t.Errorf("%s on %s: shape %v, values %v", c.mode, c.d.backend, out.Shape(), out.vals() != nil)
		}
	}
}

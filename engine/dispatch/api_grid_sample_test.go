package dispatch

import "testing"

// grid_sample_2d (float.rs:640-650, Flex's grid_sample.rs) on the 2x2
// image [[1, 2], [3, 4]]: sample points worked by hand for each mode,
// padding and align_corners.
func TestGridSample2d(t *testing.T) {
	fx := newOpFixture(t)
	img := fx.floats("4", arr(arr(arr(arr(f(1), f(2)), arr(f(3), f(4))))))
	opts := func(mode, padding string, align bool) Value {
		o := mustCall(t, fx.w, Call{Path: []string{"GridSampleOptions", "new"}, Args: []Value{&Enum{Type: "InterpolateMode", Variant: mode}}})
		o = mustCall(t, fx.w, method(o, "with_padding_mode", &Enum{Type: "GridSamplePaddingMode", Variant: padding}))
		return mustCall(t, fx.w, method(o, "with_align_corners", Bool(align)))
	}
	sample := func(x, y float64, o Value) string {
		grid := fx.floats("4", arr(arr(arr(arr(f(x), f(y))))))
		out := mustCall(t, fx.w, method(img, "grid_sample_2d", grid, o)).(*Tensor)
		if op := lastOps(fx.w, 1); op != "float_grid_sample_2d" || !sameShape(out.shape, []int64{1, 1, 1, 1}) {
			t.Errorf("grid_sample_2d dispatches %s with shape %v", op, out.shape)
		}
		return out.vals().Preview(8)
	}
	cases := []struct {
		name string
		x, y float64
		o    Value
		want string
	}{
		// Centre, align_corners false: pixel (0.5, 0.5), the mean.
		{"default at the centre", 0, 0, mustCall(t, fx.w, Call{Path: []string{"GridSampleOptions", "default"}}), "[[[[2.5]]]]"},
		// (-1, -1) is pixel (-0.5, -0.5): a quarter of pixel (0, 0), zeros elsewhere.
		{"zeros at the corner", -1, -1, opts("Bilinear", "Zeros", false), "[[[[0.25]]]]"},
		{"border at the corner", -1, -1, opts("Bilinear", "Border", false), "[[[[1.0]]]]"},
		{"align_corners at the corner", -1, -1, opts("Bilinear", "Zeros", true), "[[[[1.0]]]]"},
		// x 0.6 with align_corners is pixel 0.8, rounded to 1.
		{"nearest", 0.6, -1, opts("Nearest", "Zeros", true), "[[[[2.0]]]]"},
		// x -1.5 is pixel -1.0, reflected about -0.5 to 0; y -1 is -0.5.
		{"reflection", -1.5, -1, opts("Bilinear", "Reflection", false), "[[[[1.0]]]]"},
		{"an InterpolateMode as the options", 0, 0, &Enum{Type: "InterpolateMode", Variant: "Bilinear"}, "[[[[2.5]]]]"},
	}
	for _, c := range cases {
		if got := sample(c.x, c.y, c.o); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	// Flex's other modes and shapes panic in the backend: not modelled.
	grid := fx.floats("4", arr(arr(arr(arr(f(0), f(0))))))
	if _, err := fx.w.Call(method(img, "grid_sample_2d", grid, opts("Bicubic", "Zeros", false))); err == nil {
		t.Error("a bicubic grid_sample_2d ran")
	}
}

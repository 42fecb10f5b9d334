package dispatch

import (
	"math"
	"testing"
)

func TestDebugAndDisplay(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	x := ones(t, w, d, "Int", 2, 3)
	cases := []struct {
		v       Value
		debug   string
		display string // "" means no Display
	}{
		{i(-3), "-3", "-3"},
		{f(1), "1.0", "1"},
		{f(0.1), "0.1", "0.1"},
		{f(1e16), "1e16", "10000000000000000"},
		{f(1.5e-7), "1.5e-7", "0.00000015"},
		{f(1e-4), "0.0001", "0.0001"},
		{Float{V: 0.1, Suffix: "f32"}, "0.1", "0.1"},
		{Float{V: float64(float32(0.1)), Suffix: "f32"}, "0.1", "0.1"},
		{f(math.NaN()), "NaN", "NaN"},
		{f(math.Inf(-1)), "-inf", "-inf"},
		{f(math.Copysign(0, -1)), "-0.0", "-0"},
		{Bool(true), "true", "true"},
		{Str("a\"b\n"), `"a\"b\n"`, "a\"b\n"},
		{Unit{}, "()", ""},
		{arr(i(1), i(2)), "[1, 2]", ""},
		{Tuple{i(1)}, "(1,)", ""},
		{Tuple{i(1), Str("x")}, `(1, "x")`, ""},
		{&Range{Lo: ptr(0), Hi: ptr(3), Inclusive: true}, "0..=3", ""},
		{enum("Option", "Some", f(2)), "Some(2.0)", ""},
		{enum("DType", "F16"), "F16", ""},
		{d, "Device<Flex(Cpu)>", ""},
		{mustCall(t, w, method(x, "shape")), "Shape { dims: [2, 3] }", "[2, 3]"},
		{mustCall(t, w, method(x, "dims")), "[2, 3]", ""},
		{mustCall(t, w, method(x, "device")), "Device<Flex(Cpu)>", ""},
	}
	for _, c := range cases {
		if got := Debug(c.v); got != c.debug {
			t.Errorf("Debug(%#v) = %q, want %q", c.v, got, c.debug)
		}
		got, ok := Display(c.v)
		if ok != (c.display != "") || got != c.display {
			t.Errorf("Display(%#v) = %q, %v; want %q", c.v, got, ok, c.display)
		}
	}
	if s, ok := Display(x); !ok || s != "Tensor {\n  data:\n[[1, 1, 1],\n [1, 1, 1]],\n  shape:  [2, 3],\n  device:  Device<Flex(Cpu)>,\n  kind:  \"Int\",\n  dtype:  \"i32\",\n}" {
		t.Errorf("tensor Display = %q", s)
	}
	if s := Debug(x); s != "Tensor { primitive: BridgeTensor { kind: Int }, _kind: PhantomData<burn_tensor::bridge::kind::Int> }" {
		t.Errorf("tensor Debug = %q", s)
	}
}

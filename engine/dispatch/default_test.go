package dispatch

import "testing"

// Device::default() for feature sets (spec §2.4): the first compiled
// backend in burn-dispatch's priority, Flex when no backend feature is on.
func TestDefaultDevicePriority(t *testing.T) {
	cases := []struct {
		features []string
		want     string
	}{
		{nil, "Flex(Cpu)"},
		{[]string{"remote"}, "Flex(Cpu)"},
		{[]string{"ndarray"}, "NdArray(Cpu)"},
		{[]string{"ndarray", "flex"}, "Flex(Cpu)"},
		{[]string{"tch", "flex"}, "LibTorch(Cpu)"},
		{[]string{"cpu", "tch"}, "Cpu(CpuDevice)"},
		{[]string{"wgpu", "cpu"}, "Wgpu(DefaultDevice)"},
		{[]string{"vulkan"}, "Vulkan(DefaultDevice)"},
		{[]string{"webgpu", "vulkan"}, "Vulkan(DefaultDevice)"},
		{[]string{"rocm", "vulkan"}, "Rocm(AmdDevice(0))"},
		{[]string{"metal", "rocm"}, "Metal(DefaultDevice)"},
		{[]string{"cuda", "metal", "flex"}, "Cuda(Cuda(0))"},
		{[]string{"remote-websocket", "ndarray"}, "Remote(RemoteDevice { endpoint: WebSocket { address: Address { scheme: \"ws\", host: \"127.0.0.1\", port: Some(3000) }, authorization: [] }, device_index: 0, id: 0 })"},
	}
	for _, c := range cases {
		w := world(t, c.features...)
		d := mustCall(t, w, fn("Device::default")).(*Device)
		if got := d.Debug(); got != c.want {
			t.Errorf("features %v: Device::default() = %s, want %s", c.features, got, c.want)
		}
	}
}

func TestDefaultDeviceRemoteWithoutWebsocketPanics(t *testing.T) {
	w := world(t, "remote", "ndarray")
	p := mustPanic(t, w, fn("Device::default"))
	if p.ID != "rem-default-no-websocket" {
		t.Errorf("panic %s: %s", p.ID, p.Message)
	}
	checkAgainstTable(t, p)
}

func TestBurnDeviceOverride(t *testing.T) {
	cases := []struct {
		env, want, panicID string
		features           []string
	}{
		{"CUDA", "Cuda(Cuda(0))", "", []string{"cuda", "flex"}},
		{"flex", "Flex(Cpu)", "", nil}, // default_backend accepts flex
		{"flex", "", "disp-burn-device-flex", []string{"wgpu"}},
		{"wgpu", "Wgpu(DefaultDevice)", "", []string{"vulkan"}}, // vulkan implies wgpu
		{"ndarray", "", "disp-burn-device-ndarray", nil},
		{"remote", "", "disp-burn-device-remote", nil},
		{"Vulkan ", "", "disp-burn-device-unknown", []string{"vulkan"}},
	}
	for _, c := range cases {
		w := world(t, c.features...)
		w.cfg.Env = map[string]string{"BURN_DEVICE": c.env}
		id, v := runRoute(t, w, fn("Device::default"))
		if id != c.panicID {
			t.Errorf("BURN_DEVICE=%q %v: panic %q, want %q", c.env, c.features, id, c.panicID)
			continue
		}
		if id == "" && v.(*Device).Debug() != c.want {
			t.Errorf("BURN_DEVICE=%q: %s, want %s", c.env, v.(*Device).Debug(), c.want)
		}
	}
}

// Equality is hardware identity: autodiff and the strategy are ignored.
func TestDeviceEquality(t *testing.T) {
	w := world(t, "flex", "cuda", "wgpu")
	flex := device(t, w, "flex")
	ad := mustCall(t, w, method(flex, "autodiff"))
	ckp := mustCall(t, w, method(ad, "gradient_checkpointing"))
	cases := []struct {
		a, b Value
		eq   bool
	}{
		{flex, ad, true},
		{ad, ckp, true},
		{flex, device(t, w, "flex"), true},
		{device(t, w, "cuda", i(0)), device(t, w, "cuda", i(0)), true},
		{device(t, w, "cuda", i(0)), device(t, w, "cuda", i(1)), false},
		{device(t, w, "cuda", i(0)), flex, false},
		{device(t, w, "wgpu", enum("DeviceKind", "DiscreteGpu", i(0))), device(t, w, "wgpu", enum("DeviceKind", "DefaultDevice")), false},
	}
	for _, c := range cases {
		if got := mustCall(t, w, method(c.a, "eq", c.b)); got != Bool(c.eq) {
			t.Errorf("%s == %s is %v, want %v", Debug(c.a), Debug(c.b), got, c.eq)
		}
		if got := mustCall(t, w, method(c.a, "ne", c.b)); got != Bool(!c.eq) {
			t.Errorf("%s != %s is %v", Debug(c.a), Debug(c.b), got)
		}
	}
	// inner strips autodiff and the strategy, keeping backend and index.
	in := mustCall(t, w, method(mustCall(t, w, method(device(t, w, "cuda", i(1)), "autodiff")), "inner")).(*Device)
	if in.Debug() != "Cuda(Cuda(1))" || in.IsAutodiff() {
		t.Errorf("inner = %s", in.Debug())
	}
	if got := mustCall(t, w, method(ckp, "gradient_checkpointing_strategy")); Debug(got) != "Balanced" {
		t.Errorf("strategy = %s", Debug(got))
	}
}

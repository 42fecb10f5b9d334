package dispatch

import (
	"strings"
	"testing"
)

func TestDeviceDebugForms(t *testing.T) {
	w := world(t, "cuda", "rocm", "flex", "ndarray", "tch", "wgpu", "vulkan", "metal", "webgpu", "cpu", "capture")
	cases := []struct {
		name string
		args []Value
		want string
	}{
		{"flex", nil, "Flex(Cpu)"},
		{"cpu", nil, "Cpu(CpuDevice)"},
		// cubecl's CudaDevice prints Cuda({index}).
		{"cuda", []Value{i(1)}, "Cuda(Cuda(1))"},
		{"rocm", []Value{i(0)}, "Rocm(AmdDevice(0))"},
		{"ndarray", nil, "NdArray(Cpu)"},
		{"libtorch", nil, "LibTorch(Cpu)"},
		{"libtorch_cuda", []Value{i(1)}, "LibTorch(Cuda(1))"},
		{"libtorch_mps", nil, "LibTorch(Mps)"},
		{"libtorch_vulkan", nil, "LibTorch(Vulkan)"},
		{"wgpu", []Value{enum("DeviceKind", "DiscreteGpu", i(0))}, "Wgpu(DiscreteGpu(0))"},
		{"wgpu", []Value{&Enum{Type: "Default", Variant: "default"}}, "Wgpu(DefaultDevice)"},
		{"vulkan", []Value{enum("DeviceKind", "DefaultDevice")}, "Vulkan(DefaultDevice)"},
		{"metal", []Value{enum("DeviceKind", "IntegratedGpu", i(0))}, "Metal(IntegratedGpu(0))"},
		{"webgpu", []Value{enum("DeviceKind", "Cpu")}, "WebGpu(Cpu)"},
		{"capture", nil, "Capture(CaptureDevice { id: 0 })"},
	}
	for _, c := range cases {
		d := device(t, w, c.name, c.args...)
		if got := d.Debug(); got != c.want {
			t.Errorf("Device::%s Debug = %q, want %q", c.name, got, c.want)
		}
		if got := Debug(d); got != "Device<"+c.want+">" {
			t.Errorf("Device::%s {:?} = %q", c.name, got)
		}
		if _, ok := Display(d); ok {
			t.Errorf("Device has no Display in Burn")
		}
	}
	ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
	if got, want := ad.Debug(), "Autodiff { device: Flex(Cpu), checkpointing: Disabled }"; got != want {
		t.Errorf("autodiff Debug = %q, want %q", got, want)
	}
	ckp := mustCall(t, w, method(ad, "gradient_checkpointing")).(*Device)
	if got, want := ckp.Debug(), "Autodiff { device: Flex(Cpu), checkpointing: Balanced }"; got != want {
		t.Errorf("checkpointing Debug = %q, want %q", got, want)
	}
}

// Device::enumerate lists the simulated machine's devices per DeviceType,
// in filter order; a remote filter connects to the server's device 0.
func TestEnumerate(t *testing.T) {
	w := NewWorld(Config{Features: features(t, true, "cuda", "wgpu", "flex", "tch", "remote-websocket"),
		Hardware: Hardware{Cuda: 2, Wgpu: []string{"IntegratedGpu", "DiscreteGpu"}},
		Servers:  []Server{{Address: "ws://gpu-box:3000", Device: "cuda"}}})
	debugs := func(v Value) string {
		var out []string
		for _, d := range mustCall(t, w, method(v, "into_vec")).(*Array).Elems {
			out = append(out, d.(*Device).Debug())
		}
		return strings.Join(out, " ")
	}
	cases := []struct {
		filter Value
		want   string
	}{
		{enum("DeviceType", "Cuda"), "Cuda(Cuda(0)) Cuda(Cuda(1))"},
		{enum("DeviceType", "Wgpu"), "Wgpu(DiscreteGpu(0))"},
		{enum("DeviceType", "LibTorch"), "LibTorch(Cuda(0)) LibTorch(Cuda(1))"},
		{arr(enum("DeviceType", "Flex"), enum("DeviceType", "Cuda")), "Flex(Cpu) Cuda(Cuda(0)) Cuda(Cuda(1))"},
		{mustCall(t, w, fn("DeviceType::remote_websocket", Str("ws://gpu-box:3000"))),
			`Remote(RemoteDevice { endpoint: WebSocket { address: Address { scheme: "ws", host: "gpu-box", port: Some(3000) }, authorization: [] }, device_index: 0, id: 0 }) ` +
				`Remote(RemoteDevice { endpoint: WebSocket { address: Address { scheme: "ws", host: "gpu-box", port: Some(3000) }, authorization: [] }, device_index: 1, id: 1 })`},
	}
	for _, c := range cases {
		if got := debugs(mustCall(t, w, fn("Device::enumerate", c.filter))); got != c.want {
			t.Errorf("enumerate(%s) = %s\nwant %s", Debug(c.filter), got, c.want)
		}
	}
	// `|` builds a filter from DeviceTypes.
	filter := mustCall(t, w, method(enum("DeviceType", "Flex"), "bitor", enum("DeviceType", "Cuda")))
	if got := debugs(mustCall(t, w, fn("Device::enumerate", filter))); got != "Flex(Cpu) Cuda(Cuda(0)) Cuda(Cuda(1))" {
		t.Errorf("Flex | Cuda = %s", got)
	}
	if ue := mustReject(t, w, method(filter, "bitor", enum("DeviceType", "NdArray"))); ue.Code != "feature-not-enabled" || ue.Feature != "ndarray" {
		t.Errorf("DeviceType::NdArray without the feature: %+v", ue)
	}
	ad := mustCall(t, w, method(mustCall(t, w, fn("Device::enumerate", enum("DeviceType", "Cuda"))), "autodiff"))
	if got := debugs(ad); got != "Autodiff { device: Cuda(Cuda(0)), checkpointing: Disabled } Autodiff { device: Cuda(Cuda(1)), checkpointing: Disabled }" {
		t.Errorf("Devices::autodiff = %s", got)
	}
	if p := mustPanic(t, w, fn("Device::enumerate", mustCall(t, w, fn("DeviceType::remote_websocket", Str("ws://nowhere:1"))))); p.ID != "rem-service-call-ensure" {
		t.Errorf("enumerating an unreachable server: %s", p.ID)
	}
	// Devices::configure stops at the first error.
	cfg := mustCall(t, w, method(mustCall(t, w, fn("Device::enumerate", enum("DeviceType", "Cuda"))), "configure", enum("FloatDType", "F16"))).(*Enum)
	again := mustCall(t, w, method(mustCall(t, w, fn("Device::enumerate", enum("DeviceType", "Cuda"))), "configure", enum("FloatDType", "F16"))).(*Enum)
	if cfg.Variant != "Ok" || again.Variant != "Err" {
		t.Errorf("configure twice: %s then %s", Debug(cfg), Debug(again))
	}
}

package dispatch

import (
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

package dispatch

// Backend is a variant of burn-dispatch's DispatchDevice and
// DispatchTensorKind, in declaration order (crates/burn-dispatch/src/device.rs:33-86).
// Autodiff is not a backend: it wraps one (see Device.Autodiff).
type Backend int

const (
	Cpu Backend = iota
	Cuda
	Metal
	Rocm
	Vulkan
	Wgpu
	WebGpu
	Flex
	NdArray
	LibTorch
	Remote
	Capture
)

var backendNames = [...]string{"Cpu", "Cuda", "Metal", "Rocm", "Vulkan", "Wgpu", "WebGpu", "Flex", "NdArray", "LibTorch", "Remote", "Capture"}

// String is the variant name, which is also DispatchTensorKind::name().
func (b Backend) String() string { return backendNames[b] }

// Feature is the burn-dispatch (and burn-tensor) feature that compiles the
// variant in. Flex is also compiled in by cfg(default_backend).
func (b Backend) Feature() string {
	switch b {
	case LibTorch:
		return "tch"
	default:
		return lowerASCII(backendNames[b])
	}
}

// isCube reports the backends built on cubecl, whose tensors print as
// fusion handles in a default build (burn-cuda and burn-wgpu enable
// `fusion` by default).
func (b Backend) isCube() bool {
	switch b {
	case Cpu, Cuda, Metal, Rocm, Vulkan, Wgpu, WebGpu:
		return true
	}
	return false
}

// isWgpuFamily reports the variants whose payload is cubecl's WgpuDevice.
func (b Backend) isWgpuFamily() bool {
	switch b {
	case Metal, Vulkan, Wgpu, WebGpu:
		return true
	}
	return false
}

// backendDispatchFeatures are the burn-dispatch features whose absence sets
// cfg(default_backend) (crates/burn-dispatch/build.rs:1-22).
var backendDispatchFeatures = []string{"cuda", "flex", "rocm", "ndarray", "tch", "cpu", "metal", "vulkan", "webgpu", "wgpu"}

// DType is a burn_std::DType, held as its Debug text ("F32", "Bool(Native)").
type DType string

const (
	F64  DType = "F64"
	F32  DType = "F32"
	F16  DType = "F16"
	BF16 DType = "BF16"
	I64  DType = "I64"
	I32  DType = "I32"
	I16  DType = "I16"
	I8   DType = "I8"
	U64  DType = "U64"
	U32  DType = "U32"
	U16  DType = "U16"
	U8   DType = "U8"
)

// dtypeVariants are DType's unit variants a snippet can name as
// `DType::X`, plus Flex32.
var dtypeVariants = map[string]DType{
	"F64": F64, "F32": F32, "Flex32": "Flex32", "F16": F16, "BF16": BF16,
	"I64": I64, "I32": I32, "I16": I16, "I8": I8,
	"U64": U64, "U32": U32, "U16": U16, "U8": U8,
}

// IsFloat is burn_std::DType::is_float.
func (d DType) IsFloat() bool {
	switch d {
	case F64, F32, "Flex32", F16, BF16:
		return true
	}
	return false
}

// IsInt reports the signed and unsigned integer dtypes.
func (d DType) IsInt() bool {
	switch d {
	case I64, I32, I16, I8, U64, U32, U16, U8:
		return true
	}
	return false
}

// IsBool reports Bool(store).
func (d DType) IsBool() bool { return len(d) > 4 && d[:4] == "Bool" }

// dtypeDefaults are a backend device's DeviceSettings defaults
// (float, int, bool), from each backend's DeviceOps::defaults:
// burn-flex/src/backend.rs:47-57, burn-ndarray/src/backend.rs:23-31,
// burn-tch/src/backend.rs:92-99, burn-backend/src/lib.rs:66-140 (cubecl
// devices), burn-capture/src/capture.rs:103-109.
type dtypeDefaults struct{ float, int, bool DType }

// defaultsFor is get_device_settings: the device's settings from the
// process-wide registry, which the first read locks; a configure() before
// that sets them (crates/burn-backend/src/backend/device.rs:38-214). The
// registry key is the inner device: an autodiff device shares its
// settings.
func (w *World) defaultsFor(d *Device) dtypeDefaults {
	key := d.Inner().Debug()
	if s, ok := w.settings[key]; ok {
		return s
	}
	s := w.builtinDefaults(d.Inner())
	w.setSettings(key, s)
	return s
}

func (w *World) builtinDefaults(d *Device) dtypeDefaults {
	switch d.backend {
	case Flex:
		return dtypeDefaults{F32, I32, "Bool(Native)"}
	case NdArray, LibTorch:
		return dtypeDefaults{F32, I64, "Bool(Native)"}
	case Capture:
		return dtypeDefaults{F32, I64, "Bool(U8)"}
	case Metal, Vulkan, Wgpu, WebGpu:
		// burn-backend compiles WgpuDevice's defaults once for the crate:
		// U8 bools when cubecl-metal or cubecl-vulkan is on, else U32.
		if w.cfg.Enabled("burn-tensor", "metal") || w.cfg.Enabled("burn-tensor", "vulkan") {
			return dtypeDefaults{F32, I32, "Bool(U8)"}
		}
		return dtypeDefaults{F32, I32, "Bool(U32)"}
	case Remote:
		// A remote device reports the settings its server sent in the
		// handshake (RemoteDevice::defaults, rem/src/client/runner.rs:353-364).
		if d.remote != nil && d.remote.server != nil {
			if host := hostedBackend(d.remote.server.Device); host != nil {
				return w.builtinDefaults(host)
			}
		}
		return dtypeDefaults{F32, I32, "Bool(Native)"}
	}
	return dtypeDefaults{F32, I32, "Bool(U8)"}
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

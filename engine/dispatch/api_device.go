package dispatch

import (
	"fmt"
	"strings"
)

const deviceStruct = "struct `Device`"

// deviceConstructors maps each Device:: constructor to the burn-tensor
// feature that compiles it (crates/burn-tensor/src/device.rs:285-514).
var deviceConstructors = map[string]string{
	"cpu": "cpu", "cuda": "cuda", "rocm": "rocm", "flex": "flex", "ndarray": "ndarray",
	"libtorch": "tch", "libtorch_cuda": "tch", "libtorch_mps": "tch", "libtorch_vulkan": "tch",
	"wgpu": "wgpu", "vulkan": "vulkan", "metal": "metal", "webgpu": "webgpu",
	"remote_websocket": "remote-websocket", "remote_iroh": "remote", "remote_iroh_authorized": "remote",
	"remote_iroh_async": "remote", "remote_iroh_authorized_async": "remote",
	"capture": "capture",
}

func (w *World) deviceFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if name == "default" {
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		d, p := w.defaultDevice()
		return d, nil, p
	}
	feature, ok := deviceConstructors[name]
	if !ok {
		switch name {
		case "enumerate":
			return w.enumerate(a)
		case "new", "wgpu_async":
			return nil, errUnsupported("Device::" + name), nil
		}
		return nil, errUnknownFunction(deviceStruct, name), nil
	}
	if ue := w.targetGate(name); ue != nil {
		return nil, ue, nil
	}
	if !w.apiFeature(feature) {
		e := errGatedFunction(deviceStruct, name, feature)
		if name == "flex" && w.defaultBackend() {
			e.Help = append(e.Help, "without any backend feature Device::default() is already the Flex device (cfg(default_backend)), but Device::flex() needs burn's `flex` feature")
			e.Fixes = append(e.Fixes, FixHint{Title: "Use Device::default(), which is Flex in this build", Arg: 0, NewText: "Device::default()"})
		}
		return nil, e, nil
	}
	switch name {
	case "cpu":
		return plainDevice(a, Cpu)
	case "flex":
		return plainDevice(a, Flex)
	case "ndarray":
		return plainDevice(a, NdArray)
	case "cuda", "rocm":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		idx, ue, p := deviceIndex(a, 0)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		b := Cuda
		if name == "rocm" {
			b = Rocm
		}
		return &Device{backend: b, index: idx}, nil, nil
	case "libtorch", "libtorch_mps", "libtorch_vulkan":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		variant := map[string]string{"libtorch": "Cpu", "libtorch_mps": "Mps", "libtorch_vulkan": "Vulkan"}[name]
		return &Device{backend: LibTorch, torch: variant}, nil, nil
	case "libtorch_cuda":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		idx, ue, p := deviceIndex(a, 0)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return &Device{backend: LibTorch, torch: "Cuda", index: idx}, nil, nil
	case "wgpu", "vulkan", "metal", "webgpu":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		kind, ue := deviceKindArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		b := map[string]Backend{"wgpu": Wgpu, "vulkan": Vulkan, "metal": Metal, "webgpu": WebGpu}[name]
		return &Device{backend: b, wgpu: kind}, nil, nil
	case "capture":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		// Each CaptureDevice::default() takes a fresh id
		// (crates/burn-capture/src/capture.rs:72-80).
		d := &Device{backend: Capture, capture: w.nextCapture}
		w.nextCapture++
		return d, nil, nil
	case "remote_websocket":
		return w.remoteWebsocket(a)
	case "remote_iroh", "remote_iroh_authorized":
		return w.remoteIroh(a, name == "remote_iroh_authorized")
	case "remote_iroh_async", "remote_iroh_authorized_async":
		return w.remoteIrohAsync(a, name == "remote_iroh_authorized_async")
	}
	return nil, errUnknownFunction(deviceStruct, name), nil
}

func plainDevice(a argList, b Backend) (Value, *UsageError, *Panic) {
	if ue := a.want(0); ue != nil {
		return nil, ue, nil
	}
	return &Device{backend: b}, nil, nil
}

// deviceIndex converts an `impl Into<DeviceIndex>` argument
// (crates/burn-tensor/src/device.rs:181-237): integers become
// Specified(i), negative i32/i64 values fail their usize conversion, and
// DeviceIndex::Default resolves to 0.
func deviceIndex(a argList, i int) (int, *UsageError, *Panic) {
	v := a.get(i)
	if e, ok := v.(*Enum); ok && e.Type == "DeviceIndex" {
		if e.Variant == "Specified" && len(e.Fields) == 1 {
			if n, ok := Deref(e.Fields[0]).(Int); ok {
				return int(n.V), nil, nil
			}
		}
		return 0, nil, nil
	}
	n, ue := a.intValue(i)
	if ue != nil {
		ue.Message = fmt.Sprintf("the trait bound `DeviceIndex: From<%s>` is not satisfied", Deref(a.c.Args[i]).TypeName())
		return 0, ue, nil
	}
	if n.V < 0 {
		switch n.Suffix {
		case "", "i32", "i64":
			return 0, nil, panicDeviceIndexNegative(n.Suffix).on(i + 1)
		}
	}
	return int(n.V), nil, nil
}

// deviceKindArg takes a DeviceKind (or Default::default(), DefaultDevice).
func deviceKindArg(a argList, i int) (DeviceKind, *UsageError) {
	v := a.get(i)
	if isDefaultMarker(v) {
		return DeviceKind{Name: "DefaultDevice"}, nil
	}
	e, ok := v.(*Enum)
	if !ok || e.Type != "DeviceKind" {
		return DeviceKind{}, errArgType(i+1, "DeviceKind", a.c.Args[i])
	}
	arity, known := deviceKindArity[e.Variant]
	if !known || len(e.Fields) != arity {
		return DeviceKind{}, errArgType(i+1, "DeviceKind", a.c.Args[i])
	}
	k := DeviceKind{Name: e.Variant}
	if arity == 1 {
		n, ok := Deref(e.Fields[0]).(Int)
		if !ok {
			return DeviceKind{}, errArgType(i+1, "DeviceKind", a.c.Args[i])
		}
		k.Index = n.V
	}
	return k, nil
}

// defaultDevice is DispatchDevice::default() (crates/burn-dispatch/src/device.rs:269-395):
// BURN_DEVICE first (lowercased; the unknown-value message keeps the
// original text), then the first compiled backend in a fixed priority.
func (w *World) defaultDevice() (*Device, *Panic) {
	if raw, set := w.cfg.Env["BURN_DEVICE"]; set && w.dispatchFeature("std") {
		name := strings.ToLower(raw)
		b, known := burnDeviceBackends[name]
		if !known {
			return nil, panicBurnDeviceUnknown(raw)
		}
		if !w.compiled(b) {
			return nil, panicBurnDeviceDisabled(name)
		}
		return w.backendDefault(b)
	}
	for _, b := range defaultPriority {
		if w.compiled(b) {
			return w.backendDefault(b)
		}
	}
	return &Device{backend: Flex}, nil
}

var burnDeviceBackends = map[string]Backend{
	"cuda": Cuda, "metal": Metal, "rocm": Rocm, "vulkan": Vulkan, "webgpu": WebGpu, "wgpu": Wgpu,
	"cpu": Cpu, "tch": LibTorch, "remote": Remote, "flex": Flex, "ndarray": NdArray,
}

// defaultPriority is the order of device.rs:360-393; Flex deliberately
// beats NdArray, and the specific wgpu flavours beat Wgpu.
var defaultPriority = []Backend{Cuda, Metal, Rocm, Vulkan, WebGpu, Wgpu, Cpu, LibTorch, Flex, Remote, NdArray}

// backendDefault is each backend's Default device.
func (w *World) backendDefault(b Backend) (*Device, *Panic) {
	switch b {
	case Metal, Vulkan, Wgpu, WebGpu:
		return &Device{backend: b, wgpu: DeviceKind{Name: "DefaultDevice"}}, nil
	case LibTorch:
		return &Device{backend: b, torch: "Cpu"}, nil
	case Remote:
		return w.remoteDefault()
	}
	return &Device{backend: b}, nil
}

func (w *World) deviceMethod(d *Device, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	gated := map[string]string{"autodiff": "autodiff", "gradient_checkpointing": "autodiff",
		"gradient_checkpointing_strategy": "autodiff", "capture_scope": "capture"}
	if f, ok := gated[c.Method]; ok && !w.apiFeature(f) {
		return nil, errGatedMethod(deviceStruct, c.Method, f), nil
	}
	switch c.Method {
	case "clone", "to_owned", "into":
		// `device.into()` of an `impl Into<Device>` argument: the device.
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return d, nil, nil
	case "autodiff":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		if d.autodiff {
			p := panicAutodiffTwice().on(0)
			p.Fixes = []FixHint{{Title: "The device already has autodiff: drop the second .autodiff()", Arg: -1, NewText: "{0}"}}
			return nil, nil, p
		}
		return d.withAutodiff(Disabled), nil, nil
	case "inner":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return d.Inner(), nil, nil
	case "is_autodiff":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return Bool(d.autodiff), nil, nil
	case "gradient_checkpointing":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		if !d.autodiff {
			p := panicGradientCheckpointingPlain().on(0)
			p.Fixes = []FixHint{{Title: "Enable autodiff first", Arg: -1, NewText: "{0}.autodiff().gradient_checkpointing()"}}
			return nil, nil, p
		}
		return d.Inner().withAutodiff(Balanced), nil, nil
	case "gradient_checkpointing_strategy":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		if !d.autodiff {
			return nil, nil, panicCheckpointStrategyPlain().on(0)
		}
		return &Enum{Type: "GradientCheckpointingStrategy", Variant: d.strategy.String()}, nil, nil
	case "eq", "ne":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		o, ok := a.get(0).(*Device)
		if !ok {
			return nil, errArgType(1, "Device", c.Args[0]), nil
		}
		return Bool(d.Equal(o) == (c.Method == "eq")), nil, nil
	case "seed", "sync", "flush":
		want := 0
		if c.Method == "seed" {
			want = 1
		}
		if ue := a.want(want); ue != nil {
			return nil, ue, nil
		}
		if p := w.deviceLevel(c.Method, d); p != nil {
			return nil, nil, p
		}
		if c.Method == "seed" && d.Inner().backend == Capture {
			return nil, nil, panicCaptureSeed().on(0)
		}
		if c.Method == "seed" {
			n, ue := a.int(0)
			if ue != nil {
				return nil, ue, nil
			}
			w.seed(d, n)
		}
		if c.Method == "sync" {
			return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{Unit{}}}, nil, nil
		}
		return Unit{}, nil, nil
	case "supports_dtype":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		dt, ue := dtypeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		if p := w.dtypeUsageFault(d); p != nil {
			return nil, nil, p
		}
		if d.Inner().backend == Capture {
			// The capture client answers dtype_usage (capture.rs:533-541).
			if p := w.prepare(d); p != nil {
				return nil, nil, p.on(0)
			}
		}
		return Bool(w.supportsDType(d, dt)), nil, nil
	case "configure":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		return w.configure(d, a)
	case "capture_scope":
		return w.captureScope(d, a)
	case "settings":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return w.deviceSettings(d), nil, nil
	case "memory_cleanup", "memory_persistent_allocations":
		return nil, errUnsupported("Device::" + c.Method), nil
	}
	return nil, errUnknownMethod(deviceStruct, c.Method), nil
}

// deviceLevel records a dispatch_device! call (macros.rs:84-145): an
// autodiff device runs it on Autodiff<V> with the default strategy.
func (w *World) deviceLevel(op string, d *Device) *Panic {
	if p := w.prepare(d); p != nil {
		return p
	}
	inner := d.Inner()
	w.record(TraceEvent{Op: op, Backend: inner.backend.String(), Device: inner.Debug(), Autodiff: d.autodiff})
	return nil
}

// supportsDType is Dispatch::supports_dtype: the backend's dtype_usage
// includes general use (storage and arithmetic). Flex, NdArray and
// LibTorch answer from tables (burn-flex/src/backend.rs:138-164,
// burn-ndarray/src/backend.rs:83-100, burn-tch/src/backend.rs:165-175);
// cubecl backends ask the GPU, so the model answers for the common
// hardware of each family.
func (w *World) supportsDType(d *Device, dt DType) bool {
	d = d.Inner()
	switch d.backend {
	case Flex:
		switch dt {
		case F64, F32, F16, BF16, "Bool(Native)", "Bool(U8)":
			return true
		}
		return dt.IsInt()
	case NdArray:
		switch dt {
		case F64, F32, "Flex32", "Bool(Native)":
			return true
		}
		return dt.IsInt()
	case LibTorch:
		switch dt {
		case F64, F32, F16, BF16, I64, I32, I16, I8, U8:
			return true
		}
		return dt.IsBool()
	case Remote:
		if d.remote != nil && d.remote.server != nil {
			if host := hostedBackend(d.remote.server.Device); host != nil {
				return w.supportsDType(host, dt)
			}
		}
	case Capture:
		// Capture records every dtype but the quantized ones
		// (CaptureClient::dtype_usage, capture.rs:533-541).
		return true
	}
	switch dt {
	case F32, I32, U32, "Flex32", "Bool(U8)", "Bool(U32)":
		return true
	case F64, I64:
		return d.backend != Metal && d.backend != WebGpu && d.backend != Wgpu
	case F16, BF16:
		return d.backend == Cuda || d.backend == Rocm
	}
	return dt.IsInt() && d.backend != WebGpu
}

// prepare is what happens when an operation first touches a device: the
// simulated machine must have the hardware, and a remote device opens its
// session lazily when it was not connected eagerly.
func (w *World) prepare(d *Device) *Panic {
	d = d.Inner()
	switch d.backend {
	case Remote:
		return w.connect(d)
	case Capture:
		_, p := w.captureClient(d)
		return p
	}
	hw := w.cfg.Hardware
	switch d.backend {
	case Cuda:
		if d.index >= hw.Cuda {
			return panicMissingHardware(d, fmt.Sprintf("hardware.cuda = %d", hw.Cuda))
		}
	case Rocm:
		if d.index >= hw.Rocm {
			return panicMissingHardware(d, fmt.Sprintf("hardware.rocm = %d", hw.Rocm))
		}
	case LibTorch:
		if d.torch == "Cuda" && d.index >= hw.Cuda {
			return panicMissingHardware(d, fmt.Sprintf("hardware.cuda = %d", hw.Cuda))
		}
	case Metal:
		if !hw.Metal {
			return panicMissingHardware(d, "hardware.metal = false")
		}
		return w.adapter(d)
	case Vulkan:
		if !hw.Vulkan {
			return panicMissingHardware(d, "hardware.vulkan = false")
		}
		return w.adapter(d)
	case Wgpu, WebGpu:
		return w.adapter(d)
	}
	return nil
}

// adapter checks that a wgpu-family DeviceKind names an adapter of the
// simulated machine: an indexed kind needs that many adapters of its kind,
// DefaultDevice any adapter.
func (w *World) adapter(d *Device) *Panic {
	adapters := w.cfg.Hardware.Wgpu
	have := fmt.Sprintf("hardware.wgpu = [%s]", strings.Join(adapters, ", "))
	count := func(kind string) int {
		n := 0
		for _, a := range adapters {
			if a == kind {
				n++
			}
		}
		return n
	}
	switch d.wgpu.Name {
	case "DefaultDevice":
		if len(adapters) == 0 {
			return panicMissingHardware(d, have)
		}
	case "DiscreteGpu", "IntegratedGpu", "VirtualGpu":
		if int(d.wgpu.Index) >= count(d.wgpu.Name) {
			return panicMissingHardware(d, have)
		}
	case "Cpu":
		if count("Cpu") == 0 {
			return panicMissingHardware(d, have)
		}
	}
	return nil
}

// configure is Device::configure(config) (crates/burn-tensor/src/device.rs:725-772):
// each dtype must be supported, then the settings registry takes them
// unless the device's settings were already read or set. Both failures
// are a Result's Err, not a panic.
func (w *World) configure(d *Device, a argList) (Value, *UsageError, *Panic) {
	var parts []Value
	switch v := a.get(0).(type) {
	case Tuple:
		parts = v
	case *Enum:
		parts = []Value{v}
		if v.Type == "DeviceConfig" {
			parts = deviceConfigParts(v)
		}
	default:
		parts = []Value{v}
	}
	s := w.builtinDefaults(d.Inner())
	for _, part := range parts {
		e, ok := Deref(part).(*Enum)
		if !ok {
			return nil, errArgType(1, "impl Into<DeviceConfig>", a.c.Args[0]), nil
		}
		dt, ue := dtypeValue(e)
		if ue != nil {
			return nil, errArgType(1, "impl Into<DeviceConfig>", a.c.Args[0]), nil
		}
		switch {
		case e.Type == "FloatDType" || (e.Type == "DType" && dt.IsFloat()):
			s.float = dt
		case e.Type == "IntDType" || (e.Type == "DType" && dt.IsInt()):
			s.int = dt
		default:
			s.bool = dt
		}
	}
	if d.Inner().backend == Capture {
		// supports_dtype asks the capture client (capture.rs:533-541).
		if p := w.prepare(d); p != nil {
			return nil, nil, p.on(0)
		}
	}
	for _, dt := range []DType{s.float, s.int, s.bool} {
		if !w.supportsDType(d, dt) {
			return deviceError("UnsupportedDType", d, dt), nil, nil
		}
	}
	key := d.Inner().Debug()
	if _, locked := w.settings[key]; locked {
		return deviceError("AlreadyInitialized", d, ""), nil, nil
	}
	w.setSettings(key, s)
	return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{Unit{}}}, nil, nil
}

// deviceSettings is Device::settings() (crates/burn-tensor/src/device.rs:725-727):
// get_device_settings reads the registry and, on a first read, locks the
// device's defaults (crates/burn-backend/src/backend/device.rs:134-136).
// The quantization config is the backend's (quantConfig, api_quant.go).
func (w *World) deviceSettings(d *Device) *Enum {
	s := w.defaultsFor(d)
	store := strings.TrimSuffix(strings.TrimPrefix(string(s.bool), "Bool("), ")")
	return &Enum{Type: "DeviceSettings", Variant: "DeviceSettings", Named: map[string]Value{
		"float_dtype":  &Enum{Type: "FloatDType", Variant: string(s.float)},
		"int_dtype":    &Enum{Type: "IntDType", Variant: string(s.int)},
		"bool_dtype":   &Enum{Type: "BoolDType", Variant: store},
		"quantization": quantConfig(d),
	}}
}

// deviceError is Err(DeviceError::..) (crates/burn-std/src/device_settings.rs:59-101);
// the device is the DispatchDevice's Debug.
func deviceError(variant string, d *Device, dt DType) *Enum {
	named := map[string]Value{"device": Str(d.Debug())}
	if dt != "" {
		named["dtype"] = dtypeEnum(dt)
	}
	row := "bt-configure-already-init"
	if variant == "UnsupportedDType" {
		row = "bt-configure-unsupported-dtype"
	}
	return &Enum{Type: "Result", Variant: "Err", Fields: []Value{&Enum{Type: "DeviceError", Variant: variant, Named: named, ErrorRow: row}}}
}

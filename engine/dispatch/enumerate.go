package dispatch

import "fmt"

// Device::enumerate(filter) (crates/burn-tensor/src/device.rs:791-837):
// each DeviceType of the filter lists its backend's devices through
// Dispatch::enumerate (crates/burn-dispatch/src/backend.rs:900-955), in
// filter order; DeviceType::Remote(address) connects to the server's
// device 0 and lists every device the handshake reports
// (rem/src/client/runner.rs:272-289). Filters combine with `|`
// (device.rs:1027-1041).

// DeviceFilter is burn-tensor's DeviceFilter: DeviceTypes in order.
type DeviceFilter struct{ types []*Enum }

// Devices is what Device::enumerate returns.
type Devices struct{ devices []*Device }

func (*DeviceFilter) TypeName() string { return "DeviceFilter" }
func (*Devices) TypeName() string      { return "Devices" }

// deviceTypeFeatures maps each DeviceType variant to the burn-tensor
// feature that compiles it (device.rs:944-970).
var deviceTypeFeatures = map[string]string{
	"Cpu": "cpu", "Cuda": "cuda", "Rocm": "rocm", "Wgpu": "wgpu", "Metal": "metal", "Vulkan": "vulkan",
	"WebGpu": "webgpu", "Flex": "flex", "NdArray": "ndarray", "LibTorch": "tch", "Remote": "remote-websocket",
}

// HasOperator reports whether Burn's API defines the operator method for
// v although v is a plain enum value, as `DeviceType::Cuda | DeviceType::Cpu`.
func HasOperator(v Value, method string) bool {
	if method != "bitor" {
		return false
	}
	switch x := Deref(v).(type) {
	case *DeviceFilter:
		return true
	case *Enum:
		return x.Type == "DeviceType"
	}
	return false
}

func (w *World) deviceTypeFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "remote_websocket", "Remote":
		if !w.apiFeature("remote-websocket") {
			return nil, errGatedFunction("enum `DeviceType`", name, "remote-websocket"), nil
		}
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		if _, ue := a.str(0); ue != nil {
			return nil, ue, nil
		}
		return &Enum{Type: "DeviceType", Variant: "Remote", Fields: []Value{a.get(0)}}, nil, nil
	}
	return nil, errUnknownFunction("enum `DeviceType`", name), nil
}

func (w *World) deviceFilterFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if (name == "new" || name == "default") && a.n() == 0 {
		return &DeviceFilter{}, nil, nil
	}
	return nil, errUnknownFunction("struct `DeviceFilter`", name), nil
}

// deviceTypeValue checks a DeviceType the program names: its variant
// must exist in this build.
func (w *World) deviceTypeValue(v Value, arg int, orig Value) (*Enum, *UsageError) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "DeviceType" {
		return nil, errArgType(arg, "DeviceType", orig)
	}
	feature, known := deviceTypeFeatures[e.Variant]
	if !known {
		return nil, &UsageError{Code: "unknown-function", Arg: arg,
			Message: "no variant named `" + e.Variant + "` found for enum `DeviceType`"}
	}
	if !w.apiFeature(feature) {
		ue := &UsageError{Code: "feature-not-enabled", Arg: arg, Feature: feature,
			Message: "no variant named `" + e.Variant + "` found for enum `DeviceType`"}
		ue.Help = []string{fmt.Sprintf("`DeviceType::%s` is only compiled with the `%s` feature of burn", e.Variant, feature)}
		ue.Fixes = []FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", feature), Arg: NoArg, AddFeature: feature}}
		return nil, ue
	}
	if e.Variant == "Remote" {
		if len(e.Fields) != 1 {
			return nil, errArgType(arg, "DeviceType", orig)
		}
		if _, ok := Deref(e.Fields[0]).(Str); !ok {
			return nil, errArgType(arg, "DeviceType", orig)
		}
	} else if len(e.Fields) != 0 {
		return nil, errArgType(arg, "DeviceType", orig)
	}
	return e, nil
}

// filterArg reads `impl Into<DeviceFilter>`: a DeviceType, a DeviceFilter
// or a Vec<DeviceType>.
func (w *World) filterArg(a argList, i int) ([]*Enum, *UsageError) {
	switch v := a.get(i).(type) {
	case *DeviceFilter:
		return v.types, nil
	case *Array:
		types := make([]*Enum, len(v.Elems))
		for j, e := range v.Elems {
			t, ue := w.deviceTypeValue(e, i+1, a.c.Args[i])
			if ue != nil {
				return nil, ue
			}
			types[j] = t
		}
		return types, nil
	}
	t, ue := w.deviceTypeValue(a.get(i), i+1, a.c.Args[i])
	if ue != nil {
		return nil, ue
	}
	return []*Enum{t}, nil
}

// filterOperator is `DeviceType | DeviceType` and `DeviceFilter | DeviceType`.
func (w *World) filterOperator(recv Value, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if c.Method != "bitor" || a.n() != 1 {
		return nil, errUnknownMethod("`"+recv.TypeName()+"`", c.Method), nil
	}
	var types []*Enum
	switch r := Deref(recv).(type) {
	case *DeviceFilter:
		types = append(types, r.types...)
	default:
		t, ue := w.deviceTypeValue(r, 0, recv)
		if ue != nil {
			return nil, ue, nil
		}
		types = append(types, t)
	}
	t, ue := w.deviceTypeValue(a.get(0), 1, c.Args[0])
	if ue != nil {
		return nil, ue, nil
	}
	return &DeviceFilter{types: append(types, t)}, nil, nil
}

func (w *World) deviceFilterMethod(f *DeviceFilter, c Call) (Value, *UsageError, *Panic) {
	switch c.Method {
	case "bitor":
		return w.filterOperator(f, c)
	case "with":
		a := argList{c: c, method: true}
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		t, ue := w.deviceTypeValue(a.get(0), 1, c.Args[0])
		if ue != nil {
			return nil, ue, nil
		}
		return &DeviceFilter{types: append(append([]*Enum{}, f.types...), t)}, nil, nil
	case "clone":
		return f, nil, nil
	}
	return nil, errUnknownMethod("struct `DeviceFilter`", c.Method), nil
}

// enumerate is Device::enumerate(filter).
func (w *World) enumerate(a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	types, ue := w.filterArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	var devices []*Device
	for _, t := range types {
		if t.Variant == "Remote" {
			found, p := w.enumerateRemote(string(Deref(t.Fields[0]).(Str)))
			if p != nil {
				return nil, nil, p.on(1)
			}
			devices = append(devices, found...)
			continue
		}
		devices = append(devices, w.enumerateBackend(t.Variant)...)
	}
	return &Devices{devices: devices}, nil, nil
}

// enumerateBackend is Dispatch::enumerate for one backend: the devices the
// simulated machine has, indexed kinds for the wgpu family (DiscreteGpu)
// and LibTorch (Cuda).
func (w *World) enumerateBackend(variant string) []*Device {
	hw := w.cfg.Hardware
	discrete := 0
	for _, k := range hw.Wgpu {
		if k == "DiscreteGpu" {
			discrete++
		}
	}
	var out []*Device
	switch variant {
	case "Cpu":
		out = append(out, &Device{backend: Cpu})
	case "Flex":
		out = append(out, &Device{backend: Flex})
	case "NdArray":
		out = append(out, &Device{backend: NdArray})
	case "Cuda", "Rocm":
		b, n := Cuda, hw.Cuda
		if variant == "Rocm" {
			b, n = Rocm, hw.Rocm
		}
		for i := range n {
			out = append(out, &Device{backend: b, index: i})
		}
	case "LibTorch":
		for i := range hw.Cuda {
			out = append(out, &Device{backend: LibTorch, torch: "Cuda", index: i})
		}
	case "Wgpu", "WebGpu", "Metal", "Vulkan":
		b := map[string]Backend{"Wgpu": Wgpu, "WebGpu": WebGpu, "Metal": Metal, "Vulkan": Vulkan}[variant]
		n := discrete
		if (b == Metal && !hw.Metal) || (b == Vulkan && !hw.Vulkan) {
			n = 0
		}
		for i := range n {
			out = append(out, &Device{backend: b, wgpu: DeviceKind{Name: "DiscreteGpu", Index: int64(i)}})
		}
	}
	return out
}

// enumerateRemote is RemoteDevice::enumerate_websocket(address).
func (w *World) enumerateRemote(address string) ([]*Device, *Panic) {
	first := w.websocketDevice(address, 0)
	if p := w.connect(first); p != nil {
		return nil, p
	}
	host := hostedBackend(first.remote.server.Device)
	out := []*Device{first}
	for i := 1; i < w.hostedCount(host.backend); i++ {
		out = append(out, w.websocketDevice(address, i))
	}
	return out, nil
}

func (w *World) devicesMethod(d *Devices, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	list := func(vec bool) *Array {
		elems := make([]Value, len(d.devices))
		for i, dev := range d.devices {
			elems[i] = dev
		}
		return &Array{Elems: elems, Vec: vec}
	}
	switch c.Method {
	case "into_vec", "to_vec", "iter", "into_iter", "as_slice", "deref", "first", "autodiff", "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
	}
	switch c.Method {
	case "into_vec", "to_vec":
		return list(true), nil, nil
	case "iter", "into_iter", "as_slice", "deref":
		return list(false), nil, nil
	case "len", "is_empty":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		if c.Method == "is_empty" {
			return Bool(len(d.devices) == 0), nil, nil
		}
		return Int{V: int64(len(d.devices)), Suffix: "usize"}, nil, nil
	case "first", "get":
		i := int64(0)
		if c.Method == "get" {
			if ue := a.want(1); ue != nil {
				return nil, ue, nil
			}
			n, ue := a.int(0)
			if ue != nil {
				return nil, ue, nil
			}
			i = n
		}
		if i < 0 || i >= int64(len(d.devices)) {
			return none(), nil, nil
		}
		return some(d.devices[i]), nil, nil
	case "autodiff":
		if !w.apiFeature("autodiff") {
			return nil, errGatedMethod("struct `Devices`", "autodiff", "autodiff"), nil
		}
		out := &Devices{}
		for _, dev := range d.devices {
			v, ue, p := w.deviceMethod(dev, Call{Recv: dev, Method: "autodiff"})
			if ue != nil || p != nil {
				return nil, ue, p
			}
			out.devices = append(out.devices, v.(*Device))
		}
		return out, nil, nil
	case "configure":
		// Each device in turn; the first Err stops the loop (device.rs:1150-1157).
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		for _, dev := range d.devices {
			v, ue, p := w.configure(dev, a)
			if ue != nil || p != nil {
				return nil, ue, p
			}
			if r := v.(*Enum); r.Variant == "Err" {
				return r, nil, nil
			}
		}
		return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{Unit{}}}, nil, nil
	case "clone":
		return &Devices{devices: append([]*Device(nil), d.devices...)}, nil, nil
	}
	return nil, errUnknownMethod("struct `Devices`", c.Method), nil
}

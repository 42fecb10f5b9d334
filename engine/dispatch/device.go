package dispatch

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Strategy is burn-dispatch's GradientCheckpointingStrategy
// (crates/burn-dispatch/src/device.rs:197-207).
type Strategy int

const (
	// Disabled is the default strategy of Device::autodiff().
	Disabled Strategy = iota
	// Balanced is what Device::gradient_checkpointing() selects.
	Balanced
)

func (s Strategy) String() string {
	if s == Balanced {
		return "Balanced"
	}
	return "Disabled"
}

// DeviceKind selects a wgpu adapter: burn-tensor's DeviceKind, mapped
// one-to-one onto cubecl's WgpuDevice (crates/burn-tensor/src/device.rs:245-277,
// 911-921). Name is the variant; Index is its payload where it has one.
type DeviceKind struct {
	Name  string // DiscreteGpu, IntegratedGpu, VirtualGpu, Cpu, DefaultDevice, Existing
	Index int64
}

// deviceKindArity is the number of fields of each DeviceKind variant.
var deviceKindArity = map[string]int{
	"DiscreteGpu": 1, "IntegratedGpu": 1, "VirtualGpu": 1, "Cpu": 0, "DefaultDevice": 0, "Existing": 1,
}

// Debug is the derived Debug of WgpuDevice (and of DeviceKind).
func (k DeviceKind) Debug() string {
	if deviceKindArity[k.Name] == 1 {
		return fmt.Sprintf("%s(%d)", k.Name, k.Index)
	}
	return k.Name
}

// Device is burn_tensor::Device: an opaque box around a DispatchDevice. It
// is immutable; every method that changes it returns a new one.
type Device struct {
	backend Backend
	index   int        // Cuda and Rocm hardware index; LibTorch's Cuda index
	wgpu    DeviceKind // Metal, Vulkan, Wgpu and WebGpu payload
	torch   string     // LibTorch variant: Cpu, Cuda, Mps, Vulkan
	remote  *remoteDevice
	capture int // CaptureDevice id
	// session is the capture session a capture tensor was recorded in; it
	// is set only on the devices of capture tensors, never on a Device a
	// program holds.
	session *captureSession

	autodiff bool
	strategy Strategy
	// origin is the interpreter's site (plus one) of the program's call of
	// a Device constructor this device comes from, 0 when none is known:
	// a fix that makes the device autodiff edits that call.
	origin int
}

func (*Device) TypeName() string { return "Device" }

// WithOrigin is a copy of d made at the interpreter's site site by the
// program's own call of a Device constructor.
func (d *Device) WithOrigin(site int) *Device {
	c := *d
	c.origin = site + 1
	return &c
}

// autodiffDeviceFix is the fix of a panic that needs t to be an autodiff
// tensor: append .autodiff() to the Device constructor the program made
// t's device with. ok is false when that call is not known.
func autodiffDeviceFix(t *Tensor) (FixHint, bool) {
	if t.on == nil || t.on.origin == 0 || t.on.autodiff {
		return FixHint{}, false
	}
	return FixHint{Title: "Make the device an autodiff device", Arg: NoArg, AfterSite: t.on.origin, NewText: ".autodiff()"}, true
}

// Backend is the dispatch variant, with autodiff seen through.
func (d *Device) Backend() Backend { return d.backend }

// IsAutodiff is Device::is_autodiff.
func (d *Device) IsAutodiff() bool { return d.autodiff }

// Strategy is the checkpointing strategy of an autodiff device.
func (d *Device) Strategy() Strategy { return d.strategy }

// Inner strips the autodiff wrapper and its strategy, keeping backend and
// index (DispatchDevice::inner, crates/burn-dispatch/src/device.rs:472-479).
func (d *Device) Inner() *Device {
	if !d.autodiff {
		return d
	}
	c := *d
	// The program made an autodiff device: no constructor of its made
	// this plain one.
	c.autodiff, c.strategy, c.origin = false, Disabled, 0
	return &c
}

// withAutodiff is DispatchDevice::autodiff_with_gradient_checkpointing on
// a plain device.
func (d *Device) withAutodiff(s Strategy) *Device {
	c := *d
	c.autodiff, c.strategy = true, s
	return &c
}

// Equal is DispatchDevice's PartialEq: hardware identity only, ignoring
// autodiff and the checkpointing strategy (device.rs:397-442).
func (d *Device) Equal(o *Device) bool {
	if d.backend != o.backend {
		return false
	}
	switch d.backend {
	case Cuda, Rocm:
		return d.index == o.index
	case Metal, Vulkan, Wgpu, WebGpu:
		return d.wgpu == o.wgpu
	case LibTorch:
		return d.torch == o.torch && d.index == o.index
	case Remote:
		// RemoteDevice compares its registry id (rem/src/client/runner.rs:305-309).
		return d.remote.id == o.remote.id
	case Capture:
		return d.capture == o.capture
	}
	return true
}

// Debug is the DispatchDevice Debug form (device.rs:231-267), e.g.
// "Flex(Cpu)", "Cuda(Cuda(0))" or
// "Autodiff { device: Flex(Cpu), checkpointing: Disabled }".
func (d *Device) Debug() string {
	if d.autodiff {
		inner := d.Inner().Debug()
		key := debugKey{inner, d.strategy}
		if s, ok := autodiffDebugs.Load(key); ok {
			return s.(string)
		}
		s := fmt.Sprintf("Autodiff { device: %s, checkpointing: %s }", inner, d.strategy)
		if autodiffDebugCount.Add(1) <= maxAutodiffDebugs {
			autodiffDebugs.Store(key, s)
		}
		return s
	}
	if s := cpuDebugs[d.backend]; s != "" {
		return s
	}
	return d.backend.String() + "(" + d.payloadDebug() + ")"
}

// Every operation's trace entry names its device, so the Debug texts that
// need no payload, and those of autodiff devices, are made once.
var (
	cpuDebugs = map[Backend]string{Flex: "Flex(Cpu)", NdArray: "NdArray(Cpu)", Cpu: "Cpu(CpuDevice)"}
	// autodiffDebugs maps a debugKey to its text; a sync.Map, as native
	// runs of the engine share the package. A program names its devices
	// (a remote server's address, a Cuda index), so it keeps at most
	// maxAutodiffDebugs of them.
	autodiffDebugs     sync.Map
	autodiffDebugCount atomic.Int64
)

const maxAutodiffDebugs = 256

type debugKey struct {
	inner    string
	strategy Strategy
}

// payloadDebug is the Debug of the backend's own device type. cubecl's
// CudaDevice prints `Cuda({index})` and AmdDevice `AmdDevice({index})`
// (cubecl 48348968 crates/cubecl-cuda/src/device.rs:14-18,
// crates/cubecl-hip/src/device.rs:14-18); FlexDevice prints `Cpu`
// (crates/burn-flex/src/backend.rs:60-70); the others are derived.
func (d *Device) payloadDebug() string {
	switch d.backend {
	case Cpu:
		return "CpuDevice"
	case Cuda:
		return fmt.Sprintf("Cuda(%d)", d.index)
	case Rocm:
		return fmt.Sprintf("AmdDevice(%d)", d.index)
	case Metal, Vulkan, Wgpu, WebGpu:
		return d.wgpu.Debug()
	case Flex, NdArray:
		return "Cpu"
	case LibTorch:
		if d.torch == "Cuda" {
			return fmt.Sprintf("Cuda(%d)", d.index)
		}
		return d.torch
	case Remote:
		return d.remote.debug()
	case Capture:
		return fmt.Sprintf("CaptureDevice { id: %d }", d.capture)
	}
	return ""
}

// rustDebug is the Debug of burn_tensor::Device (crates/burn-tensor/src/device.rs:102-106).
func (d *Device) rustDebug() string { return "Device<" + d.Debug() + ">" }

// remoteDevice is burn-remote's RemoteDevice: an endpoint, the index of
// the device on the server and the id of the process-wide registry entry
// for (endpoint, index).
type remoteDevice struct {
	iroh    bool
	address Address // WebSocket endpoint
	peer    string  // Iroh endpoint id
	index   int
	id      int
	server  *Server // the configured server that answers, nil if none does
}

// debug is RemoteDevice's derived Debug (rem/src/client/runner.rs:164-176).
// For Iroh the endpoint's node and dialing hints are iroh's own types; the
// playground shows the peer id only.
func (r *remoteDevice) debug() string {
	var endpoint string
	if r.iroh {
		endpoint = fmt.Sprintf("Iroh { node: RemoteNode { .. }, peer: EndpointAddr { id: PublicKey(%s), .. }, authorization: [] }", r.peer)
	} else {
		endpoint = fmt.Sprintf("WebSocket { address: %s, authorization: [] }", r.address.Debug())
	}
	return fmt.Sprintf("RemoteDevice { endpoint: %s, device_index: %d, id: %d }", endpoint, r.index, r.id)
}

// peerDebug is the derived Debug of the peer's PeerId
// (rem/src/transport/identity.rs:11-19); iroh's EndpointId prints as
// PublicKey(..).
func (r *remoteDevice) peerDebug() string {
	if r.iroh {
		return "Iroh(PublicKey(" + r.peer + "))"
	}
	return "WebSocket(" + r.address.Debug() + ")"
}

// peerText is how burn-remote prints the peer in its errors (PeerAddr's
// Display, rem/src/transport/identity.rs:21-29, 84-88).
func (r *remoteDevice) peerText() string {
	if r.iroh {
		return "iroh://" + r.peer
	}
	return r.address.String()
}

// Address is burn-communication's parsed endpoint
// (crates/burn-communication/src/base.rs:18-92).
type Address struct {
	Scheme string
	Host   string
	Port   int // valid when HasPort
	// HasPort is false when the text had no `:port` that parses as u16.
	HasPort bool
}

// ParseAddress canonicalizes like Address::parse: trim, a missing scheme
// defaults to ws, the scheme is lowercased, path/query/fragment are
// dropped, and the port is split from the right so IPv6 literals survive.
// Hosts are kept as written: `localhost` and `127.0.0.1` differ.
func ParseAddress(s string) Address {
	s = strings.TrimSpace(s)
	scheme, rest := "ws", s
	if i := strings.Index(s, "://"); i >= 0 {
		scheme, rest = strings.ToLower(s[:i]), s[i+3:]
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	authority = strings.TrimRight(authority, "/")
	a := Address{Scheme: scheme, Host: authority}
	if i := strings.LastIndex(authority, ":"); i > 0 {
		if p, err := strconv.ParseUint(authority[i+1:], 10, 16); err == nil {
			a.Host, a.Port, a.HasPort = authority[:i], int(p), true
		}
	}
	return a
}

// String is Address's Display: `{scheme}://{host}[:{port}]`.
func (a Address) String() string {
	if a.HasPort {
		return fmt.Sprintf("%s://%s:%d", a.Scheme, a.Host, a.Port)
	}
	return a.Scheme + "://" + a.Host
}

// Debug is Address's derived Debug.
func (a Address) Debug() string {
	port := "None"
	if a.HasPort {
		port = fmt.Sprintf("Some(%d)", a.Port)
	}
	return fmt.Sprintf("Address { scheme: %s, host: %s, port: %s }", debugString(a.Scheme), debugString(a.Host), port)
}

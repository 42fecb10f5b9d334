package dispatch

import (
	"fmt"
	"strings"
)

// Remote execution (spec §8): remote devices, their sessions with the
// servers configured in [[package.metadata.playground.servers]], and
// burn::server::start. The servers run on the machine the config
// describes: the hardware section sizes what they host.

// hostedBackend is the plain device a server configured with a
// BURN_DEVICE-style name hosts, nil when that backend cannot host a server
// (LibTorch has no BackendIr impl; Remote and Capture are refused).
func hostedBackend(name string) *Device {
	switch strings.ToLower(name) {
	case "cpu":
		return &Device{backend: Cpu}
	case "cuda":
		return &Device{backend: Cuda}
	case "rocm":
		return &Device{backend: Rocm}
	case "flex":
		return &Device{backend: Flex}
	case "ndarray":
		return &Device{backend: NdArray}
	case "wgpu", "vulkan", "metal", "webgpu":
		b := map[string]Backend{"wgpu": Wgpu, "vulkan": Vulkan, "metal": Metal, "webgpu": WebGpu}[strings.ToLower(name)]
		return &Device{backend: b, wgpu: DeviceKind{Name: "DefaultDevice"}}
	}
	return nil
}

// hostedCount is the length of host_devices! (remote_server.rs:32-47):
// every enumerated device of the backend when there is more than one,
// otherwise the backend's single default device.
func (w *World) hostedCount(b Backend) int {
	n := 1
	switch b {
	case Cuda:
		n = w.cfg.Hardware.Cuda
	case Rocm:
		n = w.cfg.Hardware.Rocm
	case Metal, Vulkan, Wgpu, WebGpu:
		n = 0
		for _, a := range w.cfg.Hardware.Wgpu {
			if a == "DiscreteGpu" {
				n++
			}
		}
	}
	if n > 1 {
		return n
	}
	return 1
}

// registryID is burn-remote's endpoint registry: one id per (endpoint,
// device index), assigned from zero in registration order
// (rem/src/client/service/registry.rs:49-79). It remembers each id's peer,
// which the remote all_reduce looks up (registry.rs:81-88).
func (w *World) registryID(key string, r *remoteDevice) int {
	if id, ok := w.remoteIDs[key]; ok {
		return id
	}
	id := len(w.remoteIDs)
	if w.remoteIDs == nil {
		w.remoteIDs, w.remotePeers = map[string]int{}, map[int]remotePeer{}
	}
	w.remoteIDs[key] = id
	w.remotePeers[id] = remotePeer{text: r.peerText(), debug: r.peerDebug()}
	return id
}

// remotePeer is a registered endpoint's PeerId as Display and Debug print it.
type remotePeer struct{ text, debug string }

func (w *World) websocketDevice(address string, index int) *Device {
	r := &remoteDevice{address: ParseAddress(address), index: index}
	r.id = w.registryID(fmt.Sprintf("ws %s %d", r.address, index), r)
	return &Device{backend: Remote, remote: r}
}

// remoteWebsocket is Device::remote_websocket(address, index), which
// registers the endpoint and connects at once (crates/burn-tensor/src/device.rs:387-392).
func (w *World) remoteWebsocket(a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	address, ue := a.str(0)
	if ue != nil {
		return nil, ue, nil
	}
	idx, ue, p := deviceIndex(a, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	d := w.websocketDevice(address, idx)
	if p := w.connect(d); p != nil {
		return nil, nil, p.on(-1)
	}
	return d, nil, nil
}

// remoteIroh is Device::remote_iroh(&endpoint, peer, index): the peer is
// the server's endpoint id, which a configured Iroh server uses as its
// address.
func (w *World) remoteIroh(a argList, authorized bool) (Value, *UsageError, *Panic) {
	want := 3
	if authorized {
		want = 4
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	d, ue, p := w.irohDevice(a, authorized)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if p := w.connect(d); p != nil {
		return nil, nil, p
	}
	return d, nil, nil
}

// irohDevice registers the Iroh remote device of remote_iroh's arguments
// without connecting.
func (w *World) irohDevice(a argList, authorized bool) (*Device, *UsageError, *Panic) {
	if _, ok := a.get(0).(*Endpoint); !ok {
		return nil, errArgType(1, "&Endpoint", a.c.Args[0]), nil
	}
	var peer string
	switch v := a.get(1).(type) {
	case Str:
		peer = string(v)
	case *RemoteSecret:
		peer = v.id
	default:
		return nil, errArgType(2, "EndpointAddr", a.c.Args[1]), nil
	}
	idx, ue, p := deviceIndex(a, 2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	r := &remoteDevice{iroh: true, peer: peer, index: idx}
	r.id = w.registryID(fmt.Sprintf("iroh %s %d %t", peer, idx, authorized), r)
	return &Device{backend: Remote, remote: r}, nil, nil
}

// remoteDefault is RemoteDevice::default(): websocket at
// $BURN_REMOTE_ADDRESS or ws://127.0.0.1:3000, without connecting
// (rem/src/client/runner.rs:313-329).
func (w *World) remoteDefault() (*Device, *Panic) {
	if !w.dispatchFeature("remote-websocket") {
		return nil, panicRemoteDefaultNoWebsocket()
	}
	address := "ws://127.0.0.1:3000"
	if v, ok := w.cfg.Env["BURN_REMOTE_ADDRESS"]; ok {
		address = v
	}
	return w.websocketDevice(address, 0), nil
}

// connect opens the device's session: RemoteDevice::connect runs the
// connect and the handshake on the device's runner thread; a panic there
// reaches the caller through `.expect("Service call failed")`
// (rem/src/client/base.rs:29-33, service.rs:146-208).
func (w *World) connect(d *Device) *Panic {
	r := d.remote
	if w.connected[r.id] {
		return nil
	}
	if w.wasm() {
		return wasmNotConnected(r).label("a wasm32 build opens remote sessions only with connect_async, e.g. through Device::remote_iroh_async")
	}
	return w.openSession(d, panicServiceCallFailed)
}

// openSession connects and runs the handshake; fail turns the panic of
// the connect task into the caller's.
func (w *World) openSession(d *Device, fail func(*Panic) *Panic) *Panic {
	r := d.remote
	server, cause := w.findServer(r)
	if cause != nil {
		p := fail(cause)
		if r.iroh || r.address.Scheme == "ws" || r.address.Scheme == "wss" {
			p.withServerFix("Declare a server at "+r.serverAddress(), ServerEdit{Add: r.serverAddress(), Device: "flex"})
		}
		return p
	}
	host := hostedBackend(server.Device)
	if hosted := w.hostedCount(host.backend); r.index >= hosted {
		// The server's session task panics and drops the socket; the
		// client's handshake reads end-of-stream.
		cause := panicServerDisconnectedDuringInit()
		cause.Cause = panicServerDeviceIndex(r.index, hosted)
		return fail(cause).label("the server panicked first: %s (%s)", cause.Cause.Message, cause.Cause.Location)
	}
	if p := handshakeFault(r, server); p != nil {
		fault := handshakeFaultName(r, server)
		return fail(p).withServerFix(fmt.Sprintf("Remove the server's `%s` fault", fault), ServerEdit{Address: server.Address, DropFault: fault})
	}
	r.server = server
	if w.connected == nil {
		w.connected = map[int]bool{}
	}
	w.connected[r.id] = true
	w.record(TraceEvent{Op: "connect", Backend: Remote.String(), Device: d.Debug(),
		Note: fmt.Sprintf("session opened with %s, which hosts %s", r.peerText(), plural(w.hostedCount(host.backend), host.backend.String()+" device"))})
	return nil
}

// findServer finds the configured server a remote device reaches, or the
// panic of the runner thread's failed connect.
func (w *World) findServer(r *remoteDevice) (*Server, *Panic) {
	if r.iroh {
		for i := range w.cfg.Servers {
			s := &w.cfg.Servers[i]
			if s.Address == r.peer && hostedBackend(s.Device) != nil {
				return s, nil
			}
		}
		// iroh's own ConnectError text depends on the network; the model
		// names the failure instead of inventing it.
		connect := returnedError("rem-iroh-connect", at(locIrohNode, 173),
			fmt.Sprintf("Failed to connect to Iroh peer %s: %s", r.peer, "no Iroh server with this endpoint id is configured"))
		p := panicConnectFailed(connect.Message).label("the part after the colon is iroh's connection error, which depends on the network")
		p.Cause = connect
		return nil, p
	}
	if r.address.Scheme != "ws" && r.address.Scheme != "wss" {
		// burn-communication's parse_ws_address (websocket/base.rs:21-26)
		scheme := returnedError("rem-comm-invalid-scheme", at(locCommWebsocket, 24), "Invalid scheme: "+r.address.Scheme)
		return nil, connectFailedWith(connectError(r.peerText(), fmt.Sprintf("Address(%s)", debugString(scheme.Message))), scheme)
	}
	for i := range w.cfg.Servers {
		s := &w.cfg.Servers[i]
		if strings.Contains(s.Address, "://") || strings.Contains(s.Address, ":") {
			if ParseAddress(s.Address) == r.address && hostedBackend(s.Device) != nil {
				return s, nil
			}
		}
	}
	// Nothing listens: tokio's connect fails with ECONNREFUSED (Linux errno
	// 111), which tungstenite wraps as Io.
	return nil, connectFailedWith(connectError(r.peerText(),
		`Tungstenite(Io(Os { code: 111, kind: ConnectionRefused, message: "Connection refused" }))`), nil).
		label("no configured server listens at %s (servers are matched by scheme, host as written, and port)", r.peerText())
}

// serverFunction is burn::server::start / start_async (crates/burn-tensor/src/server.rs:104-114,
// crates/burn-dispatch/src/remote_server.rs:137-155).
func (w *World) serverFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "start" && name != "start_async" {
		if name == "protocol" {
			return nil, errUnsupported("burn::server::protocol"), nil
		}
		return nil, errUnknownFunction("module `server`", name), nil
	}
	if !w.apiFeature("remote-server") {
		return nil, errGatedPath("burn::server::"+name, "server", "burn", "remote-server"), nil
	}
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	d, ue, p := w.deviceArg(a, 0)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	channel, ue := w.channelArg(a, 1)
	if ue != nil {
		return nil, ue, nil
	}
	// The autodiff graph is a client-side concern: the server hosts the
	// inner device's backend.
	inner := d.Inner()
	switch inner.backend {
	case LibTorch:
		p := panicServerLibTorch().on(1).label("LibTorch has no BackendIr implementation, so a burn-remote server cannot replay client operations on it")
		fix := FixHint{Title: "Host the server on Flex instead", Arg: 1, NewText: "Device::flex()"}
		if !w.apiFeature("flex") {
			fix.AddFeature = "flex"
		}
		p.Fixes = append(p.Fixes, fix)
		return nil, nil, p
	case Remote:
		return nil, nil, panicServerRemote().on(1)
	case Capture:
		return nil, nil, panicServerCapture().on(1)
	}
	if p := w.prepare(inner); p != nil {
		return nil, nil, p
	}
	w.serving = true
	w.record(TraceEvent{Op: "remote_server_" + name, Backend: inner.backend.String(), Device: inner.Debug(),
		Note: fmt.Sprintf("serving %s on %s; the call blocks until Ctrl-C or SIGTERM, so the statements after it never run",
			plural(w.hostedCount(inner.backend), inner.backend.String()+" device"), channel)})
	return Unit{}, nil, nil
}

// channelArg reads a burn::server::Channel: WebSocket { port } binds
// 0.0.0.0:port, Iroh { secret } listens on the secret's endpoint id; the
// default is WebSocket on 3000 when websocket is compiled in
// (rem/src/server/builder.rs:9-51).
func (w *World) channelArg(a argList, i int) (string, *UsageError) {
	v := a.get(i)
	websocket := w.dispatchFeature("remote-websocket")
	if isDefaultMarker(v) {
		if websocket {
			return "WebSocket 0.0.0.0:3000", nil
		}
		return "Iroh (random secret)", nil
	}
	e, ok := v.(*Enum)
	if !ok || e.Type != "Channel" {
		return "", errArgType(i+1, "Channel", a.c.Args[i])
	}
	switch e.Variant {
	case "WebSocket":
		if !websocket {
			ue := &UsageError{Code: "feature-not-enabled", Arg: i + 1, Feature: "remote-websocket",
				Message: "no variant named `WebSocket` found for enum `Channel`"}
			ue.Fixes = []FixHint{{Title: "Enable the `remote-websocket` feature of burn", Arg: NoArg, AddFeature: "remote-websocket"}}
			return "", ue
		}
		port, ok := Deref(e.Named["port"]).(Int)
		if _, unknown := Deref(e.Named["port"]).(Unknown); unknown {
			return "WebSocket on a port the playground does not know", nil
		}
		if !ok {
			return "", errArgType(i+1, "u16", e.Named["port"])
		}
		return fmt.Sprintf("WebSocket 0.0.0.0:%d (all interfaces, no authentication)", port.V), nil
	case "Iroh":
		secret, ok := Deref(e.Named["secret"]).(*RemoteSecret)
		if _, unknown := Deref(e.Named["secret"]).(Unknown); unknown {
			return "Iroh endpoint of a secret the playground does not know", nil
		}
		if !ok {
			return "", errArgType(i+1, "Box<RemoteSecret>", e.Named["secret"])
		}
		return "Iroh endpoint " + secret.id, nil
	}
	return "", errArgType(i+1, "Channel", a.c.Args[i])
}

// The Iroh values a snippet builds before it can reach a peer.

// EndpointBuilder is iroh's Endpoint::builder(preset).
type EndpointBuilder struct{}

// Endpoint is a bound iroh Endpoint owned by the application.
type Endpoint struct{}

// RemoteSecret is burn-remote's RemoteSecret; its id is the public key a
// server listens on.
type RemoteSecret struct{ id string }

func (*EndpointBuilder) TypeName() string { return "Builder" }
func (*Endpoint) TypeName() string        { return "Endpoint" }
func (*RemoteSecret) TypeName() string    { return "RemoteSecret" }

// boundEndpoint is what iroh's `Endpoint::bind` and `Builder::bind` give:
// `Result<Endpoint, BindError>`, which binding a socket in the model never
// makes an Err.
func boundEndpoint() Value {
	return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{&Endpoint{}}}
}

func (w *World) remoteFunction(typ, name string, c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("remote") {
		return nil, errGatedPath("burn::remote::"+typ, typ, "remote", "remote"), nil
	}
	switch typ + "::" + name {
	case "Channel::default":
		return &Enum{Type: "Default", Variant: "default"}, nil, nil
	case "Endpoint::builder":
		return &EndpointBuilder{}, nil, nil
	case "Endpoint::bind":
		return boundEndpoint(), nil, nil
	case "RemoteSecret::random", "RemoteSecret::generate":
		// A fresh key: the model numbers them, since randomness has no
		// place in a reproducible run. Keys are not remote devices, so
		// they take no registry id.
		s := &RemoteSecret{id: fmt.Sprintf("secret%d", w.nextSecret)}
		w.nextSecret++
		return s, nil, nil
	}
	return nil, errUnknownFunction("struct `"+typ+"`", name), nil
}

func (w *World) remoteValueMethod(recv Value, c Call) (Value, *UsageError, *Panic) {
	switch r := recv.(type) {
	case *EndpointBuilder:
		switch c.Method {
		case "bind":
			return boundEndpoint(), nil, nil
		case "alpns", "secret_key", "relay_mode", "discovery_n0":
			return r, nil, nil
		}
	case *Endpoint:
		switch c.Method {
		case "clone":
			return r, nil, nil
		}
	case *RemoteSecret:
		switch c.Method {
		case "id", "public":
			return Str(r.id), nil, nil
		case "clone":
			return r, nil, nil
		}
	}
	return nil, errUnknownMethod("`"+recv.TypeName()+"`", c.Method), nil
}

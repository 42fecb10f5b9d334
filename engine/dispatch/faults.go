package dispatch

import (
	"fmt"
	"slices"
)

// Faults of a remote server's process and the browser build target: the
// situations no snippet creates on its own but a user meets in practice,
// described in Cargo.toml so the client-side code paths Burn takes in
// them can run (burn-remote client/service.rs:146-320, runner.rs:32-100,
// transport/iroh/node.rs:207-242, server/pump.rs:30-70; cubecl
// 48348968 cubecl-environment future/reader.rs:8-30).

// TargetWasm is the browser target: Burn compiles its
// cfg(target_family = "wasm") branches.
const TargetWasm = "wasm32-unknown-unknown"

// Targets are the build targets a config may name.
var Targets = []string{TargetWasm, "x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "aarch64-apple-darwin", "x86_64-apple-darwin", "x86_64-pc-windows-msvc"}

// A ServerFault is what a misbehaving server process does; IrohOnly
// faults happen in the Iroh transport's framing, which WebSocket servers
// do not use.
type ServerFault struct {
	Name     string
	IrohOnly bool
	Meaning  string
}

// ServerFaults are the faults [[package.metadata.playground.servers]]
// accepts, in the order a session meets them.
var ServerFaults = []ServerFault{
	{Name: "close-before-init", Meaning: "closes the session stream without answering the handshake"},
	{Name: "rejects-protocol-version", Meaning: "is built from a burn-remote release with protocol version 2 and refuses version 1 clients"},
	{Name: "protocol-version", Meaning: "accepts the handshake but answers with protocol version 2"},
	{Name: "garbled-init-reply", Meaning: "answers the handshake with an empty frame"},
	{Name: "wrong-init-reply", Meaning: "answers the handshake with a SyncBackend reply instead of Init"},
	{Name: "oversized-frame", IrohOnly: true, Meaning: "announces a 2 GiB frame in reply to the handshake"},
	{Name: "truncated-frame", IrohOnly: true, Meaning: "finishes its stream right after a reply frame's length"},
	{Name: "reset-stream", IrohOnly: true, Meaning: "resets its stream before replying"},
	{Name: "exit-after-init", Meaning: "exits right after the handshake, so every later request goes unanswered"},
}

// ServerFaultNames lists ServerFaults' names.
func ServerFaultNames() []string {
	names := make([]string, len(ServerFaults))
	for i, f := range ServerFaults {
		names[i] = f.Name
	}
	return names
}

// LookupServerFault finds a fault by name.
func LookupServerFault(name string) (ServerFault, bool) {
	for _, f := range ServerFaults {
		if f.Name == name {
			return f, true
		}
	}
	return ServerFault{}, false
}

func (s *Server) has(fault string) bool { return s != nil && slices.Contains(s.Faults, fault) }

// wasm reports whether the program is built for the browser.
func (w *World) wasm() bool { return w.cfg.Target == TargetWasm }

// irohMaxFrame is MAX_FRAME_SIZE (transport/iroh/node.rs:31).
const irohMaxFrame = 1024 * 1024 * 1024

// handshakeFault is the panic of the handshake with a faulty server
// (client/service.rs:159-208), nil when the server answers as it should.
// On the native target it happens on the device runner thread.
func handshakeFault(r *remoteDevice, s *Server) *Panic {
	switch {
	case s.has("close-before-init"):
		return panicServerDisconnectedDuringInit().label("the server closed the session stream before answering (fault `close-before-init`)")
	case s.has("rejects-protocol-version"):
		// The server's pump returns the handshake error and drops the
		// streams (server/pump.rs:46); the client reads end-of-stream.
		p := panicServerDisconnectedDuringInit()
		p.Cause = returnedError("rem-handshake-version", at(locRemoteServerBase, 16),
			"Unsupported Burn Remote protocol version 1 (expected 2)")
		return p.label("the server logged: %s (%s)", p.Cause.Message, p.Cause.Location)
	case s.has("protocol-version"):
		return newPanic("rem-protocol-version", at(locRemoteService, 191), "Server uses Burn Remote protocol version 2, expected 1")
	case s.has("garbled-init-reply"):
		// rmp_serde reads the first marker with read_exact on an empty
		// slice, which fails with std's READ_EXACT_EOF.
		return newPanic("rem-deserialize-init", at(locRemoteService, 181),
			`Can deserialize init handshake payload: InvalidMarkerRead(Error { kind: UnexpectedEof, message: "failed to fill whole buffer" })`)
	case s.has("wrong-init-reply"):
		return newPanic("rem-expected-init", at(locRemoteService, 197), "Expected Init response, got SyncBackend(Ok(()))")
	}
	if !r.iroh {
		return nil
	}
	var transport *Panic
	switch {
	case s.has("oversized-frame"):
		transport = returnedError("rem-iroh-oversized", at(locIrohNode, 233),
			fmt.Sprintf("Peer sent an oversized Burn Remote frame: %d bytes (max %d)", 2*irohMaxFrame, irohMaxFrame))
	case s.has("truncated-frame"):
		// quinn's ReadExactError::FinishedEarly names the bytes it read.
		transport = returnedError("rem-iroh-read-frame", at(locIrohNode, 239), "Failed to read Iroh frame: stream finished early (0 bytes read)")
	case s.has("reset-stream"):
		transport = returnedError("rem-iroh-read-len", at(locIrohNode, 228), "Failed to read Iroh frame length: stream reset by peer: error 0")
	default:
		return nil
	}
	p := newPanic("rem-init-failed", at(locRemoteService, 203),
		fmt.Sprintf("Failed to initialize remote session at %s: %s", r.peerText(), transport.Message))
	p.Cause = transport
	return p
}

// withServerFix adds the fix of the servers in Cargo.toml that edit stands
// for, titled title.
func (p *Panic) withServerFix(title string, edit ServerEdit) *Panic {
	p.Fixes = append(p.Fixes, FixHint{Title: title, Arg: NoArg, Server: &edit})
	return p
}

// serverAddress is how the playground's config names the server a remote
// device reaches: its WebSocket address, or its Iroh endpoint id.
func (r *remoteDevice) serverAddress() string {
	if r.iroh {
		return r.peer
	}
	return r.address.String()
}

// withoutFault adds the fix that takes fault off the server at r.
func (p *Panic) withoutFault(r *remoteDevice, fault string) *Panic {
	return p.withServerFix(fmt.Sprintf("Remove the server's `%s` fault", fault), ServerEdit{Address: r.server.Address, DropFault: fault})
}

// handshakeFaultName is the fault handshakeFault raises for s, the first of
// s's faults in the order a session meets them.
func handshakeFaultName(r *remoteDevice, s *Server) string {
	for _, f := range ServerFaults {
		if f.Name != "exit-after-init" && (!f.IrohOnly || r.iroh) && s.has(f.Name) {
			return f.Name
		}
	}
	return ""
}

// remoteDown reports whether a remote tensor's server has gone away after
// the handshake: its response stream closed, so the client's responder
// fails every request (client/service/pending.rs:60-114).
func remoteDown(d *Device) bool {
	d = d.Inner()
	return d.backend == Remote && d.remote != nil && d.remote.server.has("exit-after-init")
}

// readFailedError is read_tensor_async's error once the response channel
// is gone (client/runner.rs:44-51): ExecutionError::Generic, whose Debug
// is its Display (burn-std device_settings.rs:103-127), around tokio's
// oneshot RecvError.
func readFailedError() (*Panic, string) {
	cause := returnedError("rem-read-failed", at(locRemoteRunner, 49), "Failed to read tensor: RecvError(())")
	return cause, "An error happened during execution\nCaused by:\n  " + cause.Message
}

// asyncRead reports whether a read on the device completes only after the
// current task yields: GPU readbacks through cubecl, and a remote
// server's answer. Flex, NdArray and LibTorch read in place.
func asyncRead(d *Device) bool {
	switch d.Inner().backend {
	case Wgpu, WebGpu, Vulkan, Metal, Cuda, Rocm, Remote:
		return true
	}
	return false
}

// readBack is the failure, if any, of reading t's values to the host:
// try_read_sync polls the read once in the browser (reader.rs:16-30), and
// a server that went away answers nothing. sync is the panic the caller's
// synchronous read raises when the poll finds the read pending; failed
// wraps the read's error Debug in the caller's panic.
func (w *World) readBack(t *Tensor, sync func() *Panic, failed func(debug string) *Panic) *Panic {
	if w.wasm() && asyncRead(t.on) {
		return sync().label("in a wasm32 build the read of %s cannot block: try_read_sync polls it once and finds it pending", t.on.Inner().Debug())
	}
	if remoteDown(t.on) {
		cause, debug := readFailedError()
		p := failed(debug)
		p.Cause = cause
		return p.label("the server at %s exited after the handshake (fault `exit-after-init`), so the read is never answered", t.on.Inner().remote.peerText()).
			withoutFault(t.on.Inner().remote, "exit-after-init")
	}
	return nil
}

func panicReadSync() *Panic {
	return newPanic("bt-read-sync", at(locTensorBase, 3643), "Failed to read tensor data synchronously.\n        This can happen on platforms that don't support blocking futures like WASM.\n        If possible, try using into_data_async instead.").on(0)
}

func panicMaskSelectSync() *Panic {
	return newPanic("bt-mask-select-sync", at(locTensorBase, 1786), "Failed to read tensor data synchronously. Try using mask_select_async instead.").on(-1)
}

// panicToDeviceRead is the cross-backend to_device's `.expect("Should
// read data")` (burn-dispatch ops/tensor.rs:54, int_tensor.rs:25,
// bool_tensor.rs:48, qtensor.rs:48).
func panicToDeviceRead(kind Kind, debug string) *Panic {
	id, file, line := "disp-float-todev-read", "crates/burn-dispatch/src/ops/tensor.rs", 54
	switch kind {
	case KindInt:
		id, file, line = "disp-int-todev-read", "crates/burn-dispatch/src/ops/int_tensor.rs", 25
	case KindBool:
		id, file, line = "disp-bool-todev-read", "crates/burn-dispatch/src/ops/bool_tensor.rs", 48
	case KindQFloat:
		id, file, line = "disp-q-todev-read", "crates/burn-dispatch/src/ops/qtensor.rs", 48
	}
	return newPanic(id, at(file, line), "Should read data: "+debug).on(0)
}

// dtypeUsageFault is the panic of Device::supports_dtype on a remote
// device whose dtype_usage request cannot complete: the runner thread's
// task panics (client/service.rs:519-526, runtime.rs:55-70) and the
// caller's `.expect("Service call failed")` (runner.rs:98) re-raises it.
func (w *World) dtypeUsageFault(d *Device) *Panic {
	d = d.Inner()
	if d.backend != Remote || d.remote == nil {
		return nil
	}
	var cause *Panic
	switch {
	case w.wasm():
		cause = newPanic("rem-wasm-block-on", "crates/burn-remote/src/client/runtime.rs:67",
			"Blocking remote calls are not supported on wasm. Establish the session with `RemoteDevice::connect_async(...).await` and read tensors with `into_data_async().await`.")
	case remoteDown(d):
		cause = newPanic("rem-dtype-usage-closed", at(locRemoteService, 524), "Remote response channel closed before dtype_usage completed")
	default:
		return nil
	}
	p := newPanic("rem-dtype-usage-service-call", at(locRemoteRunner, 98),
		fmt.Sprintf("Service call failed: CallError(task panicked on device runner thread: %s)", cause.Message))
	p.Cause = cause
	if cause.ID == "rem-dtype-usage-closed" {
		p.withoutFault(d.remote, "exit-after-init")
	}
	return p.on(0)
}

// wasmNotConnected is RemoteService::ensure_connected in a wasm32 build
// (client/service.rs:606-611): a session can only be opened with
// connect_async, so a blocking connect panics on the runner thread.
func wasmNotConnected(r *remoteDevice) *Panic {
	cause := newPanic("rem-wasm-not-connected", at(locRemoteService, 607),
		fmt.Sprintf("Remote session to %s is not connected. On wasm, establish it with `RemoteDevice::connect_async(...).await` before running tensor operations.", r.peerText()))
	return panicServiceCallFailed(cause)
}

const locRemoteServerBase = "crates/burn-remote/src/server/service/base.rs"

// errNotForTarget is a function whose cfg leaves it out of this build
// target: rustc finds no such function.
func errNotForTarget(name, cfg, instead string) *UsageError {
	e := errUnknownFunction(deviceStruct, name)
	e.Help = append(e.Help, fmt.Sprintf("`Device::%s` is compiled only with %s", name, cfg))
	if instead != "" {
		e.Help = append(e.Help, "use `"+instead+"` in this build")
	}
	return e
}

// targetGate is the cfg(target_family) of the device constructors that
// exist on one side only (crates/burn-tensor/src/device.rs:401-440).
func (w *World) targetGate(name string) *UsageError {
	switch name {
	case "remote_iroh", "remote_iroh_authorized":
		if w.wasm() {
			return errNotForTarget(name, `cfg(not(target_family = "wasm"))`, "Device::"+name+"_async(..).await")
		}
	case "remote_iroh_async", "remote_iroh_authorized_async":
		if !w.wasm() {
			return errNotForTarget(name, `cfg(target_family = "wasm")`, "Device::"+name[:len(name)-len("_async")])
		}
	}
	return nil
}

// remoteIrohAsync is Device::remote_iroh_async(&endpoint, peer, index)
// (crates/burn-tensor/src/device.rs:413-425): connect_async runs the
// connect and the handshake on the browser's event loop, in the caller's
// task, so their panics are the caller's (client/service.rs:290-318).
func (w *World) remoteIrohAsync(a argList, authorized bool) (Value, *UsageError, *Panic) {
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
	if w.connected[d.remote.id] {
		return d, nil, nil
	}
	p = w.openSession(d, func(p *Panic) *Panic {
		if p.ID != "rem-connect-failed" {
			return p
		}
		// wasm_connect's own `panic!("{err}")` (service.rs:301).
		q := newPanic("rem-wasm-connect-failed", at(locRemoteService, 301), p.Message)
		q.Cause, q.Labels = p.Cause, p.Labels
		return q
	})
	if p != nil {
		return nil, nil, p.on(-1)
	}
	return d, nil, nil
}

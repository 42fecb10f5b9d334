package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// toDevice is Tensor::to_device (spec §5): float_to_device, int_to_device,
// bool_to_device and q_to_device, each recorded in the trace with how the
// data moved.
func (w *World) toDevice(t *Tensor, target *Device) (*Tensor, *Panic) {
	op := t.kind.opPrefix() + "_to_device"
	var (
		out  *Tensor
		note string
		p    *Panic
	)
	if t.kind == KindFloat {
		out, note, p = w.floatToDevice(t, target)
	} else {
		out, note, p = w.handleToDevice(t, target)
	}
	if p != nil {
		return nil, w.failOp(op, t, p)
	}
	w.record(TraceEvent{Op: op, Backend: out.on.backend.String(), Device: out.on.Debug(), Autodiff: out.tracked,
		Kind: out.kind.String(), Shape: out.Shape(), Note: note, out: out})
	return out, nil
}

// moved is t's data on the plain device dst.
func (w *World) moved(t *Tensor, dst *Device) *Tensor {
	out := w.newTensor(t.kind, t.shape, t.dtype, dst)
	out.ckp = copyStrategy(t.ckp)
	out.literal = t.literal
	out.derive(t, nil)
	out.q = t.q
	return out
}

// floatToDevice follows ops/tensor.rs:33-58 and macros.rs:292-414, rules
// in the order they are tried.
func (w *World) floatToDevice(t *Tensor, target *Device) (*Tensor, string, *Panic) {
	src := t.on
	dst := target.Inner()
	switch {
	case target.autodiff && !t.tracked:
		// 1. A plain float onto an autodiff device lands, untracked, on the
		// inner device.
		out, note, p := w.floatToDevice(t, dst)
		if p == nil {
			note = "untracked: a plain float moved onto an autodiff device is not tracked until require_grad; " + note
		}
		return out, note, p
	case t.tracked && target.autodiff:
		// 2. Tracked to autodiff: only within the backend.
		if src.backend != dst.backend {
			return nil, "", panicTrackedAcrossBackends()
		}
		if p := w.sameBackendMove(t, dst); p != nil {
			return nil, "", p
		}
		if src.backend == Capture {
			if _, _, p := w.captureMove(t, dst); p != nil {
				return nil, "", p
			}
		}
		out := w.moved(t, dst)
		out.tracked = true
		out.node = w.newOpNode(t.node)
		// A tracked move is a step of the graph (float_to_device).
		out.derive(t, (*tensor.Tensor).ToDevice)
		return out, "tracked move within " + src.backend.String(), nil
	case t.tracked:
		// 7. A tracked float cannot drop to a plain device.
		return nil, "", panicTrackedToPlain()
	case src.backend == Capture && dst.backend != Capture:
		// 8.
		return nil, "", panicFloatFromCapture()
	}
	return w.plainMove(t, dst)
}

// handleToDevice is to_device! for int, bool and quantized handles
// (macros.rs:150-287): they are never tracked; onto an autodiff device they
// take its strategy, onto a plain device they keep their own, which is why
// an int tensor keeps reporting an autodiff device after moving off one.
func (w *World) handleToDevice(t *Tensor, target *Device) (*Tensor, string, *Panic) {
	src := t.on
	dst := target.Inner()
	if target.autodiff {
		if src.backend == Capture || dst.backend == Capture {
			return nil, "", panicToAutodiffNoInnerArm()
		}
		out, note, p := w.plainMove(t, dst)
		if p != nil {
			return nil, "", p
		}
		out.ckp = strategyPtr(target.strategy)
		return out, note, nil
	}
	if src.backend == Capture && dst.backend != Capture {
		return nil, "", panicFromCapture()
	}
	return w.plainMove(t, dst)
}

// plainMove moves a plain handle: within a backend the backend moves it;
// onto a capture device it is read and re-created; across backends it goes
// through host memory (read_sync(into_data) then from_data).
func (w *World) plainMove(t *Tensor, dst *Device) (*Tensor, string, *Panic) {
	src := t.on
	if src.backend == Capture && dst.backend == Capture {
		return w.captureMove(t, dst)
	}
	if p := w.prepare(dst); p != nil {
		return nil, "", p
	}
	switch {
	case src.backend == dst.backend:
		if p := w.sameBackendMove(t, dst); p != nil {
			return nil, "", p
		}
		return w.moved(t, dst), w.sameBackendNote(src, dst), nil
	case dst.backend == Capture:
		// Capture::float_from_data on the read values: an Init operation
		// that gives the session the tensor's value.
		out := w.moved(t, dst)
		out.on.session.ops++
		out.on.session.values[out.handle] = true
		return out, fmt.Sprintf("read from %s and recorded on the capture device as a value", src.Debug()), nil
	}
	if remoteDown(src) {
		// The source is read back with read_sync(..).expect("Should read data").
		cause, debug := readFailedError()
		p := panicToDeviceRead(t.kind, debug)
		p.Cause = cause
		return nil, "", p.label("the server at %s exited after the handshake (fault `exit-after-init`), so the read is never answered", src.Inner().remote.peerText()).
			withoutFault(src.Inner().remote, "exit-after-init")
	}
	return w.moved(t, dst), fmt.Sprintf("cross-backend: %s -> host memory -> %s", src.Debug(), dst.Debug()), nil
}

// captureMove is BackendRouter's to_device between capture devices
// (burn-router ops/tensor.rs:89-94, channel/base.rs:42-64): nothing for
// the tensor's own device; otherwise the source session must hold the
// tensor's value, and the target's scope takes it as a value.
func (w *World) captureMove(t *Tensor, dst *Device) (*Tensor, string, *Panic) {
	if t.on.capture == dst.capture {
		return t, "same device", nil
	}
	if t.on.session == nil || !t.on.session.values[t.handle] {
		return nil, "", panicCaptureNoValue(t.handle)
	}
	if p := w.prepare(dst); p != nil {
		return nil, "", p
	}
	out := w.moved(t, dst)
	out.on.session.values[out.handle] = true
	return out, "a value handed from one capture session to another", nil
}

// sameBackendMove checks the one same-backend move Burn refuses: between a
// WebSocket and an Iroh compute peer (rem/src/client/runner.rs:399-414).
func (w *World) sameBackendMove(t *Tensor, dst *Device) *Panic {
	src := t.on
	if src.backend == Remote && src.remote.iroh != dst.remote.iroh {
		return panicIrohWebsocketTransfer(src.remote.iroh, dst.remote.iroh)
	}
	return nil
}

func (w *World) sameBackendNote(src, dst *Device) string {
	if src.backend != Remote {
		if src.Equal(dst) {
			return "same device"
		}
		return "within " + src.backend.String()
	}
	if src.remote.peerText() == dst.remote.peerText() {
		return "same peer: the server moves the tensor between its devices, no host round-trip"
	}
	return fmt.Sprintf("server to server: %s downloads the tensor from %s, the client never sees the data", dst.remote.peerText(), src.remote.peerText())
}

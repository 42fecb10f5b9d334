package dispatch

import "fmt"

// Graph capture (crates/burn-capture/src/capture.rs, feature capture): a
// capture device records the operations of its tensors instead of running
// them, and only inside `device.capture_scope(|scope| ..)`, which registers
// a session client for the device while the closure runs
// (burn-router's register_scoped_client). Every lookup of the device's
// client outside a scope reaches CaptureChannel::init_client and panics;
// tensors keep the session they were recorded in, and the session refuses
// operations once `scope.complete(..)` closed it. Only tensors given data
// (from_data, or moved onto the device) have values that can be read or
// moved to another capture device.

const locCapture = "crates/burn-capture/src/capture.rs"

// captureSession is one capture scope's session (CaptureState).
type captureSession struct {
	device int
	open   bool
	ops    int             // recorded operations (Drop excluded)
	values map[uint64]bool // tensor ids with a concrete value
}

// Callback is what Call returns when Burn's API calls a closure of the
// snippet: the interpreter calls Fn with Args and hands what the closure
// returned to Done, whose result is the call's. Done is given Unknown when
// the closure could not be evaluated.
type Callback struct {
	Fn   Value
	Args []Value
	Done func(ret Value) (Value, error)
}

// CaptureScope is the token a capture_scope closure receives.
type CaptureScope struct{ session *captureSession }

// CompletedCaptureScope is what scope.complete(..) returns and the closure
// must hand back.
type CompletedCaptureScope struct{ session *captureSession }

func (*Callback) TypeName() string              { return "callback" }
func (*CaptureScope) TypeName() string          { return "CaptureScope" }
func (*CompletedCaptureScope) TypeName() string { return "CompletedCaptureScope" }

func panicCaptureOutsideScope() *Panic {
	return newPanic("capture-outside-scope", at(locCapture, 349), "capture tensor operations must run inside CaptureDevice::capture_scope")
}

func panicCaptureNoValue(id uint64) *Panic {
	return newPanic("capture-no-value", at(locCapture, 357), fmt.Sprintf("capture tensor TensorId(%d) has no initialized value", id))
}

func panicCaptureComplete() *Panic {
	return newPanic("capture-scope-complete", at(locCapture, 427), "capture scope is already complete")
}

func panicCaptureSeed() *Panic {
	return newPanic("capture-seed", at(locCapture, 530), "seeding is not supported during graph capture")
}

// captureClient is the session an operation on d reaches: the session a
// capture tensor was recorded in, or else the scope registered for the
// device, which must exist (init_client) and still be open (assert_open).
func (w *World) captureClient(d *Device) (*captureSession, *Panic) {
	s := d.session
	if s == nil {
		s = w.captures[d.capture]
	}
	if s == nil {
		return nil, panicCaptureOutsideScope()
	}
	if !s.open {
		return nil, panicCaptureComplete()
	}
	return s, nil
}

// captureScope is Device::capture_scope(f) (crates/burn-tensor/src/device.rs:300-308,
// capture.rs:53-69): a device that is not a plain capture device gives
// Err(InvalidDevice) and an active scope Err(AlreadyActive), without
// calling f. Otherwise f runs with a fresh session, and the scope ends
// when f returns, however it ends.
func (w *World) captureScope(d *Device, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	if d.autodiff || d.backend != Capture {
		return captureError("InvalidDevice"), nil, nil
	}
	if w.captures[d.capture] != nil {
		return captureError("AlreadyActive"), nil, nil
	}
	s := &captureSession{device: d.capture, open: true, values: map[uint64]bool{}}
	if w.captures == nil {
		w.captures = map[int]*captureSession{}
	}
	w.captures[d.capture] = s
	done := func(ret Value) (Value, error) {
		delete(w.captures, d.capture)
		s.open = false
		switch r := Deref(ret).(type) {
		case Unknown:
			return Unknown{}, nil
		case *CompletedCaptureScope:
			if r.session == s {
				return w.capturedGraph(s), nil
			}
		}
		return nil, errArgType(1, "impl FnOnce(CaptureScope) -> CompletedCaptureScope", a.c.Args[0])
	}
	return &Callback{Fn: a.c.Args[0], Args: []Value{&CaptureScope{session: s}}, Done: done}, nil, nil
}

func captureError(variant string) *Enum {
	err := &Enum{Type: "CaptureError", Variant: variant}
	if variant == "InvalidDevice" {
		err.ErrorRow = "bt-capture-invalid-device"
	}
	return &Enum{Type: "Result", Variant: "Err", Fields: []Value{err}}
}

// capturedGraph is Ok(CapturedGraph { graph, values }): the recorded
// operations, no declared boundaries and the values given to the session.
// The model keeps counts, not the operations themselves.
func (w *World) capturedGraph(s *captureSession) Value {
	ops := make([]Value, s.ops)
	for i := range ops {
		ops[i] = &Opaque{Type: "OperationIr"}
	}
	values := make([]Value, len(s.values))
	for i := range values {
		values[i] = &Opaque{Type: "TensorData"}
	}
	graph := &Enum{Type: "GraphIr", Variant: "GraphIr", Named: map[string]Value{
		"operations": &Array{Elems: ops, Vec: true}, "inputs": &Array{Vec: true}, "outputs": &Array{Vec: true}}}
	captured := &Enum{Type: "CapturedGraph", Variant: "CapturedGraph", Named: map[string]Value{"graph": graph, "values": &Array{Elems: values}}}
	return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{captured}}
}

// captureScopeMethod is CaptureScope::complete(inputs, outputs): it
// closes the session at once. Boundary tensor ids are not modelled: the
// model has no user-visible TensorId.
func (w *World) captureScopeMethod(s *CaptureScope, c Call) (Value, *UsageError, *Panic) {
	if c.Method != "complete" {
		return nil, errUnknownMethod("struct `CaptureScope`", c.Method), nil
	}
	a := argList{c: c, method: true}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	for i := range 2 {
		arr, ok := a.get(i).(*Array)
		if !ok {
			return nil, errArgType(i+1, "impl IntoIterator<Item = TensorId>", c.Args[i]), nil
		}
		if len(arr.Elems) > 0 {
			return nil, errUnsupported("CaptureScope::complete with boundary tensor ids"), nil
		}
	}
	s.session.open = false
	return &CompletedCaptureScope{session: s.session}, nil, nil
}

package dispatch

import "testing"

// closureArg stands for the snippet's closure; dispatch only hands it back.
var closureArg = &Opaque{Type: "closure"}

// openScope enters capture_scope on d the way the interpreter does: the
// call returns a Callback whose argument is the scope.
func openScope(t testing.TB, w *World, d *Device) (*CaptureScope, *Callback) {
	t.Helper()
	cb, ok := mustCall(t, w, method(d, "capture_scope", closureArg)).(*Callback)
	if !ok || cb.Fn != closureArg || len(cb.Args) != 1 {
		t.Fatalf("capture_scope must call back the closure with the scope, got %+v", cb)
	}
	return cb.Args[0].(*CaptureScope), cb
}

// scopedCapture is a new capture device with a scope left open on it.
func scopedCapture(t testing.TB, w *World) *Device {
	t.Helper()
	d := device(t, w, "capture")
	openScope(t, w, d)
	return d
}

// finish completes the scope and returns what capture_scope returns.
func finish(t testing.TB, w *World, s *CaptureScope, cb *Callback) *Enum {
	t.Helper()
	done := mustCall(t, w, method(s, "complete", arr(), arr()))
	v, err := cb.Done(done)
	if err != nil {
		t.Fatalf("capture_scope: %v", err)
	}
	return v.(*Enum)
}

func TestCaptureScopeResults(t *testing.T) {
	w := world(t, "flex", "capture")
	plain := mustCall(t, w, fn("Device::default")).(*Device)
	for _, d := range []*Device{plain, autodiffOf(t, w, device(t, w, "capture"))} {
		res := mustCall(t, w, method(d, "capture_scope", closureArg)).(*Enum)
		if err := res.Fields[0].(*Enum); res.Variant != "Err" || err.Variant != "InvalidDevice" || err.ErrorRow != "bt-capture-invalid-device" {
			t.Errorf("capture_scope on %s = %s (row %q), want Err(InvalidDevice) standing for bt-capture-invalid-device", d.Debug(), Debug(res), err.ErrorRow)
		}
	}
	capture := device(t, w, "capture")
	scope, cb := openScope(t, w, capture)
	if res := mustCall(t, w, method(capture, "capture_scope", closureArg)).(*Enum); res.Fields[0].(*Enum).Variant != "AlreadyActive" {
		t.Errorf("a second scope on the same device = %s, want Err(AlreadyActive)", Debug(res))
	}
	x := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(1), f(2)), ref(capture))).(*Tensor)
	y := mustCall(t, w, method(x, "exp")).(*Tensor)
	z := mustCall(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "to_device", ref(capture))).(*Tensor)
	mustCall(t, w, method(y, "add", z))
	// A value the session was given can be read; a computed one cannot.
	mustCall(t, w, method(x, "into_data"))
	p := mustPanic(t, w, method(y, "into_data"))
	want := "Error while reading data: use `try_into_data` instead to catch the error at runtime: An error happened during execution\nCaused by:\n  captured tensor TensorId(1) has no concrete value"
	if p.ID != "bt-into-data" || p.Message != want {
		t.Errorf("reading a computed capture tensor: %s %q\nwant %q", p.ID, p.Message, want)
	}
	checkAgainstTable(t, p)
	res := finish(t, w, scope, cb)
	graph := res.Fields[0].(*Enum)
	ops := graph.Named["graph"].(*Enum).Named["operations"].(*Array)
	values := graph.Named["values"].(*Array)
	// from_data (Init), exp, the moved-in tensor's Init, add.
	if res.Variant != "Ok" || len(ops.Elems) != 4 || len(values.Elems) != 2 {
		t.Errorf("captured %d operations and %d values, want 4 and 2", len(ops.Elems), len(values.Elems))
	}
	// The device can be reused for another scope once the first returned.
	s2, cb2 := openScope(t, w, capture)
	if len(finish(t, w, s2, cb2).Fields[0].(*Enum).Named["graph"].(*Enum).Named["operations"].(*Array).Elems) != 0 {
		t.Error("a fresh scope starts with no operations")
	}
	// The closure must return the completion token.
	_, cb3 := openScope(t, w, capture)
	if _, err := cb3.Done(Unit{}); err == nil {
		t.Error("a closure returning () must be rejected")
	}
}

func TestCapturePanics(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, w *World) *Panic
		id   string
	}{
		{"create outside a scope", func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fnG("Tensor::ones", []string{"1"}, dims(2), ref(device(t, w, "capture"))))
		}, "capture-outside-scope"},
		{"create on autodiff capture outside a scope", func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, fnG("Tensor::zeros", []string{"1"}, dims(2), ref(autodiffOf(t, w, device(t, w, "capture")))))
		}, "capture-outside-scope"},
		{"move onto capture outside a scope", func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(ones(t, w, device(t, w, "flex"), "", 2), "to_device", ref(device(t, w, "capture"))))
		}, "capture-outside-scope"},
		{"operate after complete", func(t *testing.T, w *World) *Panic {
			d := device(t, w, "capture")
			s, _ := openScope(t, w, d)
			x := ones(t, w, d, "", 2)
			mustCall(t, w, method(s, "complete", arr(), arr()))
			return mustPanic(t, w, method(x, "exp"))
		}, "capture-scope-complete"},
		{"operate after the scope returned, in a new scope", func(t *testing.T, w *World) *Panic {
			d := device(t, w, "capture")
			s, cb := openScope(t, w, d)
			x := ones(t, w, d, "", 2)
			finish(t, w, s, cb)
			openScope(t, w, d)
			return mustPanic(t, w, method(x, "exp"))
		}, "capture-scope-complete"},
		{"move a computed tensor to another capture device", func(t *testing.T, w *World) *Panic {
			a, b := scopedCapture(t, w), scopedCapture(t, w)
			return mustPanic(t, w, method(ones(t, w, a, "", 2), "to_device", ref(b)))
		}, "capture-no-value"},
		{"seed inside a scope", func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(scopedCapture(t, w), "seed", i(1)))
		}, "capture-seed"},
		{"seed outside a scope", func(t *testing.T, w *World) *Panic {
			return mustPanic(t, w, method(device(t, w, "capture"), "seed", i(1)))
		}, "capture-outside-scope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := world(t, "flex", "capture")
			p := c.run(t, w)
			if p.ID != c.id {
				t.Fatalf("panic %s (%q), want %s", p.ID, p.Message, c.id)
			}
			checkAgainstTable(t, p)
		})
	}
}

// Values move between capture devices and within one; reads of a value
// work after the scope closed.
func TestCaptureValuesMove(t *testing.T) {
	w := world(t, "flex", "capture")
	a := device(t, w, "capture")
	s, cb := openScope(t, w, a)
	x := mustCall(t, w, method(ones(t, w, device(t, w, "flex"), "Int", 3), "to_device", ref(a))).(*Tensor)
	if same := mustCall(t, w, method(x, "to_device", ref(a))); same != x {
		t.Error("a move onto the tensor's own capture device returns it unchanged")
	}
	b := scopedCapture(t, w)
	y := mustCall(t, w, method(x, "to_device", ref(b))).(*Tensor)
	if y.on.capture != b.capture || !y.on.session.values[y.handle] {
		t.Errorf("the value must land in b's session")
	}
	finish(t, w, s, cb)
	mustCall(t, w, method(x, "into_data"))
	if got := x.kindDebug(); got != "Capture(Int({ id: TensorId { value: 0 }, shape: Shape { dims: [3] }, dtype: I32, device: CaptureDevice { id: 0 } }))" {
		t.Errorf("the primitive's Debug = %s", got)
	}
	if d := x.Device(); d.session != nil || !d.Equal(a) {
		t.Error("tensor.device() is the plain capture device")
	}
}

package dispatch

import (
	"strings"
	"testing"
)

// Every arm of float_to_device (spec §5.1) and of to_device! for int and
// bool handles (§5.2).
func TestFloatTransferArms(t *testing.T) {
	type dev struct {
		name     string // flex, cuda, capture
		autodiff bool
	}
	mk := func(t *testing.T, w *World, d dev) *Device {
		var out *Device
		switch d.name {
		case "cuda":
			out = device(t, w, "cuda", i(1))
		case "capture":
			out = scopedCapture(t, w)
		default:
			out = device(t, w, "flex")
		}
		if d.autodiff {
			out = mustCall(t, w, method(out, "autodiff")).(*Device)
		}
		return out
	}
	cases := []struct {
		rule       string
		from, to   dev
		want       string // panic id, or ""
		tracked    bool
		onBackend  string
		noteSubstr string
	}{
		{"1 plain onto autodiff", dev{"flex", false}, dev{"flex", true}, "", false, "Flex", "untracked"},
		{"1 plain onto autodiff of another backend", dev{"flex", false}, dev{"cuda", true}, "", false, "Cuda", "host memory"},
		{"2 tracked within backend", dev{"flex", true}, dev{"flex", true}, "", true, "Flex", "tracked move"},
		{"2 tracked across backends", dev{"flex", true}, dev{"cuda", true}, "disp-float-todev-ad-cross", false, "", ""},
		{"3 capture to capture: a computed tensor has no value to hand over", dev{"capture", false}, dev{"capture", false}, "capture-no-value", false, "", ""},
		{"4 same backend", dev{"cuda", false}, dev{"cuda", false}, "", false, "Cuda", "same device"},
		{"5 onto capture", dev{"flex", false}, dev{"capture", false}, "", false, "Capture", "capture device"},
		{"6 cross-backend", dev{"flex", false}, dev{"cuda", false}, "", false, "Cuda", "host memory"},
		{"7 tracked to plain", dev{"flex", true}, dev{"flex", false}, "disp-float-todev-ad-mix", false, "", ""},
		{"7 tracked to plain of another backend", dev{"flex", true}, dev{"cuda", false}, "disp-float-todev-ad-mix", false, "", ""},
		{"8 off capture", dev{"capture", false}, dev{"flex", false}, "disp-float-todev-from-capture", false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			w := world(t, "flex", "cuda", "capture")
			x := ones(t, w, mk(t, w, c.from), "", 2)
			id, v := runRoute(t, w, method(x, "to_device", ref(mk(t, w, c.to))))
			if id != c.want {
				t.Fatalf("panic %q, want %q", id, c.want)
			}
			if id != "" {
				return
			}
			out := v.(*Tensor)
			if out.Tracked() != c.tracked || out.Backend().String() != c.onBackend {
				t.Errorf("result tracked=%v on %s, want tracked=%v on %s", out.Tracked(), out.Backend(), c.tracked, c.onBackend)
			}
			ev := w.Trace()[len(w.Trace())-1]
			if ev.Op != "float_to_device" || !strings.Contains(ev.Note, c.noteSubstr) {
				t.Errorf("trace %+v, want float_to_device noting %q", ev, c.noteSubstr)
			}
		})
	}
}

func TestIntTransferKeepsAutodiffQuirk(t *testing.T) {
	w := world(t, "flex", "cuda")
	flex := device(t, w, "flex")
	ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
	labels := ones(t, w, ad, "Int", 3)
	if !labels.Device().IsAutodiff() {
		t.Fatalf("an int tensor made on an autodiff device reports it")
	}
	// Moving to a plain device keeps the old checkpointing: it still
	// reports an autodiff device (spec §5.2 quirk).
	moved := mustCall(t, w, method(labels, "to_device", ref(device(t, w, "cuda", i(0))))).(*Tensor)
	if got := moved.Device().Debug(); got != "Autodiff { device: Cuda(Cuda(0)), checkpointing: Disabled }" {
		t.Errorf("moved int reports %s", got)
	}
	// So does inner(), which is identity for ints.
	inner := mustCall(t, w, method(labels, "inner")).(*Tensor)
	if !inner.Device().IsAutodiff() {
		t.Errorf("int inner() must keep reporting autodiff")
	}
	// A plain int moved onto a checkpointing autodiff device takes its
	// strategy.
	ckp := mustCall(t, w, method(ad, "gradient_checkpointing")).(*Device)
	onto := mustCall(t, w, method(ones(t, w, flex, "Int", 3), "to_device", ref(ckp))).(*Tensor)
	if got := onto.Device().Debug(); got != "Autodiff { device: Flex(Cpu), checkpointing: Balanced }" {
		t.Errorf("int onto a Balanced device reports %s", got)
	}
	if w.Trace()[len(w.Trace())-1].Op != "int_to_device" {
		t.Errorf("trace op = %q", w.Trace()[len(w.Trace())-1].Op)
	}
}

// The spec's snippet 10: a plain float moved onto an autodiff device stays
// untracked until require_grad, and then is a leaf that gets gradients.
func TestPlainFloatOntoAutodiffThenRequireGrad(t *testing.T) {
	w := world(t)
	plain := mustCall(t, w, fn("Device::default")).(*Device)
	ad := mustCall(t, w, method(plain, "autodiff")).(*Device)
	bias := ones(t, w, plain, "", 2, 3)
	moved := mustCall(t, w, method(bias, "to_device", ref(ad))).(*Tensor)
	if moved.Tracked() || moved.Device().IsAutodiff() {
		t.Fatalf("moved bias must stay untracked on the inner device")
	}
	// require_grad on it is the plain backend's no-op.
	same := mustCall(t, w, method(moved, "require_grad")).(*Tensor)
	if same.Tracked() {
		t.Errorf("require_grad on a plain float must not track it")
	}
	if ev := w.Trace()[len(w.Trace())-1]; ev.Op != "float_set_require_grad" || !strings.Contains(ev.Note, "no-op") {
		t.Errorf("trace = %+v", ev)
	}
}

func TestRemoteTransfers(t *testing.T) {
	cfg := Config{Features: features(t, true, "remote-websocket"), Servers: []Server{
		{Address: "ws://localhost:3000", Device: "flex"},
		{Address: "ws://localhost:3001", Device: "cuda"},
	}, Hardware: Hardware{Cuda: 2}}
	w := NewWorld(cfg)
	here := mustCall(t, w, fn("Device::default")).(*Device)
	a := mustCall(t, w, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(0))).(*Device)
	b := mustCall(t, w, fn("Device::remote_websocket", Str("ws://localhost:3001"), i(1))).(*Device)
	x := ones(t, w, here, "", 3, 2)
	onA := mustCall(t, w, method(x, "to_device", ref(a))).(*Tensor)
	if ev := w.Trace()[len(w.Trace())-1]; !strings.Contains(ev.Note, "host memory") {
		t.Errorf("local -> remote goes through the host: %+v", ev)
	}
	mustCall(t, w, method(onA, "to_device", ref(b)))
	if ev := w.Trace()[len(w.Trace())-1]; !strings.Contains(ev.Note, "server to server") {
		t.Errorf("remote -> remote on another peer is server to server: %+v", ev)
	}
	if got := onA.DType(); got != F32 {
		t.Errorf("dtype on a flex server = %s", got)
	}
	// Tensors on two remote devices of different peers are the same
	// backend for dispatch, but different devices for burn-tensor.
	p := mustPanic(t, w, method(onA, "add", ones(t, w, b, "", 3, 2)))
	if p.ID != "bt-check-device" || !strings.Contains(p.Message, "Device<Remote(RemoteDevice { endpoint: WebSocket { address: Address { scheme: \"ws\", host: \"localhost\", port: Some(3000) }, authorization: [] }, device_index: 0, id: 0 })>") {
		t.Errorf("remote device check: %s %q", p.ID, p.Message)
	}
}

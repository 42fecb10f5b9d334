package dispatch

import (
	"strings"
	"testing"
)

func remoteWorld(t *testing.T, servers ...Server) *World {
	return NewWorld(Config{Features: features(t, true, "remote-websocket", "remote-server", "flex", "tch"),
		Servers: servers, Hardware: Hardware{Cuda: 2}})
}

func TestRemoteWebsocketConnect(t *testing.T) {
	servers := []Server{{Address: "ws://localhost:3000", Device: "flex"}, {Address: "ws://gpu-box:4000/", Device: "cuda"}, {Address: "ws://localhost:5000", Device: "tch"}}
	cases := []struct {
		address string
		index   int64
		panicID string // the re-raising panic is rem-service-call-ensure; this is its cause
		cause   string
		message string
	}{
		{"ws://localhost:3000", 0, "", "", ""},
		{"localhost:3000", 0, "", "", ""},             // a missing scheme defaults to ws
		{"ws://localhost:3000/path?q", 0, "", "", ""}, // path and query are dropped
		{"ws://gpu-box:4000", 1, "", "", ""},          // a CUDA server with two GPUs hosts both
		{"ws://127.0.0.1:3000", 0, "rem-service-call-ensure", "rem-connect-failed",
			"Failed to open remote 'session' channel to ws://127.0.0.1:3000: Tungstenite(Io(Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" })). Is a `burn-remote` compute node running at that peer?"},
		{"http://localhost:3000", 0, "rem-service-call-ensure", "rem-connect-failed",
			"Failed to open remote 'session' channel to http://localhost:3000: Address(\"Invalid scheme: http\"). Is a `burn-remote` compute node running at that peer?"},
		{"ws://localhost:3000", 5, "rem-service-call-ensure", "rem-disconnected-init", "Server disconnected during initialization"},
		// A LibTorch server cannot start, so nothing listens.
		{"ws://localhost:5000", 0, "rem-service-call-ensure", "rem-connect-failed", ""},
	}
	for _, c := range cases {
		w := remoteWorld(t, servers...)
		id, v := runRoute(t, w, fn("Device::remote_websocket", Str(c.address), i(c.index)))
		if id != c.panicID {
			t.Errorf("%s #%d: panic %q, want %q", c.address, c.index, id, c.panicID)
			continue
		}
		if id == "" {
			d := v.(*Device)
			if d.Backend() != Remote || w.Trace()[len(w.Trace())-1].Op != "connect" {
				t.Errorf("%s: device %s, trace %+v", c.address, d.Debug(), w.Trace())
			}
			continue
		}
		p := mustPanic(t, remoteWorld(t, servers...), fn("Device::remote_websocket", Str(c.address), i(c.index)))
		checkAgainstTable(t, p)
		if p.Cause == nil || p.Cause.ID != c.cause {
			t.Errorf("%s: cause %+v, want %s", c.address, p.Cause, c.cause)
			continue
		}
		if c.message != "" && p.Cause.Message != c.message {
			t.Errorf("%s: cause message\n got %q\nwant %q", c.address, p.Cause.Message, c.message)
		}
		if !strings.HasPrefix(p.Message, "Service call failed: CallError(task panicked on device runner thread: "+p.Cause.Message) {
			t.Errorf("%s: main thread message %q", c.address, p.Message)
		}
	}
}

func TestServerDeviceIndexCause(t *testing.T) {
	w := remoteWorld(t, Server{Address: "ws://host:3000", Device: "flex"})
	p := mustPanic(t, w, fn("Device::remote_websocket", Str("ws://host:3000"), i(5)))
	server := p.Cause.Cause
	if server == nil || server.ID != "rem-server-device-index" || server.Message != "Requested device index 5 but server hosts only 1 device(s)" {
		t.Fatalf("server-side cause = %+v", server)
	}
	checkAgainstTable(t, p)
}

func TestRemoteRegistryIDs(t *testing.T) {
	w := remoteWorld(t, Server{Address: "ws://localhost:3000", Device: "cuda"})
	a := mustCall(t, w, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(0))).(*Device)
	b := mustCall(t, w, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(1))).(*Device)
	again := mustCall(t, w, fn("Device::remote_websocket", Str("localhost:3000/"), i(0))).(*Device)
	if !a.Equal(again) || a.Equal(b) {
		t.Errorf("registry ids: a=%d b=%d again=%d", a.remote.id, b.remote.id, again.remote.id)
	}
	if !strings.HasSuffix(b.Debug(), "device_index: 1, id: 1 })") {
		t.Errorf("second registration: %s", b.Debug())
	}
	// One session per registry id: the second connect does not redo it.
	connects := 0
	for _, ev := range w.Trace() {
		if ev.Op == "connect" {
			connects++
		}
	}
	if connects != 2 {
		t.Errorf("%d connects, want 2", connects)
	}
}

func TestServerStart(t *testing.T) {
	ws := &Enum{Type: "Channel", Variant: "WebSocket", Named: map[string]Value{"port": i(3000)}}
	cases := []struct {
		device  func(t *testing.T, w *World) Value
		panicID string
	}{
		{func(t *testing.T, w *World) Value { return device(t, w, "flex") }, ""},
		{func(t *testing.T, w *World) Value { return mustCall(t, w, method(device(t, w, "flex"), "autodiff")) }, ""},
		{func(t *testing.T, w *World) Value { return device(t, w, "libtorch") }, "disp-remote-server-libtorch"},
		{func(t *testing.T, w *World) Value {
			return mustCall(t, w, method(device(t, w, "libtorch"), "autodiff"))
		}, "disp-remote-server-libtorch"},
		// Device::default() with tch on is LibTorch (tch beats flex).
		{func(t *testing.T, w *World) Value { return mustCall(t, w, fn("Device::default")) }, "disp-remote-server-libtorch"},
	}
	for n, c := range cases {
		w := remoteWorld(t, Server{Address: "ws://localhost:3000", Device: "flex"})
		id, _ := runRoute(t, w, fn("burn::server::start", c.device(t, w), ws))
		if id != c.panicID {
			t.Errorf("case %d: panic %q, want %q", n, id, c.panicID)
		}
		if id == "" && (!w.Serving() || !strings.Contains(w.Trace()[len(w.Trace())-1].Note, "blocks")) {
			t.Errorf("case %d: the server must be serving and the trace must say the call blocks", n)
		}
	}
	w := remoteWorld(t, Server{Address: "ws://localhost:3000", Device: "flex"})
	remote := mustCall(t, w, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(0)))
	p := mustPanic(t, w, fn("burn::server::start", remote, ws))
	if p.ID != "disp-remote-server-remote" || p.Input != 1 {
		t.Errorf("remote host: %s input %d", p.ID, p.Input)
	}
}

// The LibTorch fix replaces the device with Device::flex() and adds the
// flex feature; the fixed program must run clean in the model.
func TestLibTorchServerFixRunsClean(t *testing.T) {
	build := []string{"tch", "remote-server", "remote-websocket"}
	ws := &Enum{Type: "Channel", Variant: "WebSocket", Named: map[string]Value{"port": i(3000)}}
	w := world(t, build...)
	p := mustPanic(t, w, fn("burn::server::start", device(t, w, "libtorch"), ws))
	if p.Input != 1 || len(p.Fixes) != 1 {
		t.Fatalf("panic input %d, fixes %+v", p.Input, p.Fixes)
	}
	fix := p.Fixes[0]
	if fix.Arg != 1 || fix.NewText != "Device::flex()" || fix.AddFeature != "flex" {
		t.Fatalf("fix = %+v", fix)
	}
	fixed := world(t, append(build, fix.AddFeature)...)
	mustCall(t, fixed, fn("burn::server::start", mustCall(t, fixed, fn("Device::flex")), ws))
	if !fixed.Serving() {
		t.Errorf("the fixed program must start serving")
	}
	// Without the feature, Device::flex() would not compile: the fix must
	// carry it.
	ue := mustReject(t, world(t, build...), fn("Device::flex"))
	if ue.Feature != "flex" {
		t.Errorf("Device::flex() without the feature: %+v", ue)
	}
}

func TestServerNeedsFeatures(t *testing.T) {
	ws := &Enum{Type: "Channel", Variant: "WebSocket", Named: map[string]Value{"port": i(3000)}}
	w := world(t, "flex")
	ue := mustReject(t, w, fn("burn::server::start", device(t, w, "flex"), ws))
	if ue.Code != "feature-not-enabled" || ue.Feature != "remote-server" || ue.Message != "failed to resolve: could not find `server` in `burn`" {
		t.Errorf("without remote-server: %+v", ue)
	}
	w = world(t, "flex", "remote-server")
	ue = mustReject(t, w, fn("burn::server::start", device(t, w, "flex"), ws))
	if ue.Feature != "remote-websocket" || ue.Arg != 2 {
		t.Errorf("Channel::WebSocket without remote-websocket: %+v", ue)
	}
	// The Iroh channel exists with remote alone.
	secret := mustCall(t, w, fn("RemoteSecret::random"))
	iroh := &Enum{Type: "Channel", Variant: "Iroh", Named: map[string]Value{"secret": secret}}
	mustCall(t, w, fn("burn::server::start_async", device(t, w, "flex"), iroh))
	if ev := w.Trace()[len(w.Trace())-1]; ev.Op != "remote_server_start_async" || !strings.Contains(ev.Note, "Iroh endpoint") {
		t.Errorf("trace = %+v", ev)
	}
}

func TestRemoteIroh(t *testing.T) {
	w := NewWorld(Config{Features: features(t, true, "remote"), Servers: []Server{{Address: "abc123", Device: "flex"}}})
	builder := mustCall(t, w, fn("Endpoint::builder", enum("presets", "N0")))
	bound := mustCall(t, w, method(builder, "bind"))
	ok, isResult := bound.(*Enum)
	if !isResult || ok.Type != "Result" || ok.Variant != "Ok" {
		t.Fatalf("bind gave %T %+v, want Ok(Endpoint)", bound, bound)
	}
	endpoint := ok.Fields[0]
	d := mustCall(t, w, fn("Device::remote_iroh", ref(endpoint), Str("abc123"), i(0))).(*Device)
	if !strings.Contains(d.Debug(), "PublicKey(abc123)") {
		t.Errorf("iroh device %s", d.Debug())
	}
	p := mustPanic(t, w, fn("Device::remote_iroh", ref(endpoint), Str("nobody"), i(0)))
	if p.ID != "rem-service-call-ensure" || p.Cause.ID != "rem-connect-failed" || !strings.HasPrefix(p.Cause.Message, "Failed to connect to Iroh peer nobody: ") {
		t.Errorf("unreachable peer: %s / %+v", p.Message, p.Cause)
	}
	// Moving between a WebSocket and an Iroh peer is refused.
	w2 := NewWorld(Config{Features: features(t, true, "remote", "remote-websocket"),
		Servers: []Server{{Address: "abc123", Device: "flex"}, {Address: "ws://localhost:3000", Device: "flex"}}})
	ep := mustCall(t, w2, method(mustCall(t, w2, fn("Endpoint::builder", enum("presets", "N0"))), "bind")).(*Enum).Fields[0]
	irohDev := mustCall(t, w2, fn("Device::remote_iroh", ref(ep), Str("abc123"), i(0))).(*Device)
	wsDev := mustCall(t, w2, fn("Device::remote_websocket", Str("ws://localhost:3000"), i(0))).(*Device)
	p = mustPanic(t, w2, method(ones(t, w2, wsDev, "", 2), "to_device", ref(irohDev)))
	if p.ID != "rem-iroh-ws-transfer" || p.Message != "assertion `left == right` failed: Moving a tensor between Iroh and legacy WebSocket compute peers is not supported\n  left: false\n right: true" {
		t.Errorf("ws -> iroh: %s %q", p.ID, p.Message)
	}
	checkAgainstTable(t, p)
}

func TestMissingHardware(t *testing.T) {
	w := world(t, "cuda", "wgpu")
	// Creating the device is lazy; the first op fails.
	d := device(t, w, "cuda", i(2))
	p := mustPanic(t, w, fnG("Tensor::zeros", []string{"1"}, dims(4), ref(d)))
	if p.ID != "playground-missing-hardware" || p.Location != "" || !strings.Contains(p.Message, "hardware.cuda = 2") {
		t.Errorf("cuda(2) with two GPUs: %+v", p)
	}
	mustCall(t, w, fnG("Tensor::zeros", []string{"1"}, dims(4), ref(device(t, w, "cuda", i(1)))))
	gpu := device(t, w, "wgpu", enum("DeviceKind", "IntegratedGpu", i(1)))
	if p := mustPanic(t, w, method(gpu, "sync")); p.ID != "playground-missing-hardware" {
		t.Errorf("second integrated GPU: %s", p.ID)
	}
}

// The runner thread's panic carries the errors Burn returned on the way:
// connect_error's text, around burn-communication's scheme check.
func TestConnectErrorChain(t *testing.T) {
	cases := []struct {
		address string
		chain   string
	}{
		{"http://localhost:3000", "rem-service-call-ensure rem-connect-failed rem-ws-connect-error rem-comm-invalid-scheme"},
		{"ws://localhost:3999", "rem-service-call-ensure rem-connect-failed rem-ws-connect-error"},
	}
	for _, c := range cases {
		w := remoteWorld(t)
		p := mustPanic(t, w, fn("Device::remote_websocket", Str(c.address), i(0)))
		var ids []string
		for q := p; q != nil; q = q.Cause {
			ids = append(ids, q.ID)
		}
		if got := strings.Join(ids, " "); got != c.chain {
			t.Errorf("%s: chain %s, want %s", c.address, got, c.chain)
		}
		checkAgainstTable(t, p)
		if errs := p.Cause.Cause; !errs.Returned || p.Cause.Returned || errs.Message != p.Cause.Message {
			t.Errorf("%s: the connect error is a returned value whose text is the runner's panic", c.address)
		}
	}
}

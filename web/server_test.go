package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// Snippets the fault guest (wasm/internal/faultguest) misbehaves on.
const (
	spin  = "spin"
	crash = "crash"
)

const hello = `{"config":"","snippet":"let t = Tensor::<2>::ones([2, 3], &Device::default());"}`

type fixture struct {
	t      testing.TB
	server *web.Server
	sb     *wasm.Sandbox
}

func newFixture(t testing.TB, module []byte, limits wasm.Limits, edit func(*web.Config)) *fixture {
	t.Helper()
	// The isolation `playground serve` uses.
	sb := wasmtest.NewIsolatedSandbox(t, module, limits, wasm.ProcessIsolation)
	shares, err := store.OpenSQLite(filepath.Join(t.TempDir(), "shares.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shares.Close() })
	cfg := web.Config{Sandbox: sb, Shares: shares, Limits: web.DefaultLimits(), CORS: web.DefaultCORSConfig, Version: "test"}
	if edit != nil {
		edit(&cfg)
	}
	s, err := web.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, server: s, sb: sb}
}

func smallLimits() wasm.Limits {
	l := wasm.DefaultLimits()
	l.PoolSize, l.QueueLength = 1, 0
	return l
}

func (f *fixture) do(method, target, body string, header ...string) *httptest.ResponseRecorder {
	f.t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	return rec
}

// wantError checks a JSON error answer.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, status int, code string) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d: %s", rec.Code, status, rec.Body)
	}
	var body struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", rec.Body, err)
	}
	if body.Error.Code != code || body.Error.Message == "" {
		t.Fatalf("error %+v, want code %q and a message", body.Error, code)
	}
}

func TestRunReturnsTheNativeResult(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	rec := f.do(http.MethodPost, "/api/run", hello)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("content type %q", ct)
	}
	want, err := abi.Handle([]byte(hello))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Body.String() != string(want)+"\n" {
		t.Fatalf("got  %s\nwant %s", rec.Body, want)
	}
}

func TestRunLimits(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) {
		c.Limits = web.Limits{BodyBytes: 2048, SnippetBytes: 100}
	})
	wantError(t, f.do(http.MethodPost, "/api/run", `{"snippet":"`+strings.Repeat("x", 3000)+`"}`), http.StatusRequestEntityTooLarge, "request_too_large")
	wantError(t, f.do(http.MethodPost, "/api/run", `{"snippet":"`+strings.Repeat("x", 101)+`"}`), http.StatusRequestEntityTooLarge, "snippet_too_large")
	wantError(t, f.do(http.MethodPost, "/api/run", `{"snippet":`), http.StatusBadRequest, "bad_request")
	wantError(t, f.do(http.MethodPost, "/api/run", `{"snippet":1}`), http.StatusBadRequest, "bad_request")
	wantError(t, f.do(http.MethodGet, "/api/run", ""), http.StatusMethodNotAllowed, "method_not_allowed")
	wantError(t, f.do(http.MethodGet, "/api/nothing", ""), http.StatusNotFound, "not_found")
	if rec := f.do(http.MethodPost, "/api/run", `{"snippet":"`+strings.Repeat("x", 100)+`"}`); rec.Code != http.StatusOK {
		t.Errorf("a snippet at the limit: %d %s", rec.Code, rec.Body)
	}
	metrics := f.do(http.MethodGet, "/metrics", "").Body.String()
	for _, line := range []string{`playground_limit_hits_total{limit="body"} 1`, `playground_limit_hits_total{limit="snippet"} 1`} {
		if !strings.Contains(metrics, line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, metrics)
		}
	}
}

func TestBusyAnswers429WithRetryAfter(t *testing.T) {
	l := smallLimits()
	l.WallTime = 500 * time.Millisecond
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, nil)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- f.do(http.MethodPost, "/api/run", `{"snippet":"spin"}`) }()
	for f.sb.Stats().Running == 0 {
		time.Sleep(time.Millisecond)
	}
	rec := f.do(http.MethodPost, "/api/run", hello)
	wantError(t, rec, http.StatusTooManyRequests, "busy")
	if rec.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
	spun := <-done
	var res engine.Result
	if err := json.Unmarshal(spun.Body.Bytes(), &res); err != nil || spun.Code != http.StatusOK {
		t.Fatalf("spinning run: %d %s", spun.Code, spun.Body)
	}
	if res.Status != engine.StatusRejected || res.Diagnostics[0].Code != wasm.CodeTimeLimit {
		t.Fatalf("spinning run gave %+v", res)
	}
	if rec := f.do(http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Fatalf("after the time limit: %d %s", rec.Code, rec.Body)
	}
	metrics := f.do(http.MethodGet, "/metrics", "").Body.String()
	for _, line := range []string{
		`playground_limit_hits_total{limit="time"} 1`,
		`playground_limit_hits_total{limit="queue"} 1`,
	} {
		if !strings.Contains(metrics, line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, metrics)
		}
	}
}

func TestMemoryLimitIsAResultAndTheServerGoesOn(t *testing.T) {
	l := smallLimits()
	l.MemoryPages, l.RecyclePages = 512, 512
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, nil)
	rec := f.do(http.MethodPost, "/api/run", `{"snippet":"grow"}`)
	var res engine.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if res.Status != engine.StatusRejected || res.Diagnostics[0].Code != wasm.CodeMemoryLimit {
		t.Fatalf("got %+v", res)
	}
	if rec := f.do(http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Fatalf("after the memory limit: %d %s", rec.Code, rec.Body)
	}
	if m := f.do(http.MethodGet, "/metrics", "").Body.String(); !strings.Contains(m, `playground_limit_hits_total{limit="memory"} 1`+"\n") {
		t.Errorf("metrics:\n%s", m)
	}
}

// TestCrashIsAResultAndTheServerGoesOn: a guest that dies on every run is
// run again once on a fresh worker, and then answered with a Result that
// says the sandbox stopped: 200, never a server error.
func TestCrashIsAResultAndTheServerGoesOn(t *testing.T) {
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), smallLimits(), nil)
	rec := f.do(http.MethodPost, "/api/run", `{"snippet":"crash"}`)
	var res engine.Result
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &res) != nil {
		t.Fatalf("%d %s, want 200 and a Result", rec.Code, rec.Body)
	}
	if res.Status != engine.StatusRejected || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != wasm.CodeSandboxStopped {
		t.Fatalf("Result %s, want rejected with %s", rec.Body, wasm.CodeSandboxStopped)
	}
	if rec := f.do(http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Fatalf("after a crash: %d %s", rec.Code, rec.Body)
	}
	m := f.do(http.MethodGet, "/metrics", "").Body.String()
	for _, line := range []string{`playground_runs_total{status="rejected"} 1`, "playground_sandbox_crashes_total 1", "playground_sandbox_retries_total 1"} {
		if !strings.Contains(m, line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, m)
		}
	}
}

func TestNoSandboxAnswers503(t *testing.T) {
	s, err := web.New(web.Config{Limits: web.DefaultLimits(), SandboxError: wasm.ErrUnavailable})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, server: s}
	wantError(t, f.do(http.MethodPost, "/api/run", hello), http.StatusServiceUnavailable, "sandbox_unavailable")
	wantError(t, f.do(http.MethodPost, "/api/share", `{}`), http.StatusServiceUnavailable, "sandbox_unavailable")
	if rec := f.do(http.MethodGet, "/healthz", ""); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("healthz %d", rec.Code)
	}
	if m := f.do(http.MethodGet, "/metrics", "").Body.String(); !strings.Contains(m, "playground_sandbox_up 0\n") {
		t.Errorf("metrics:\n%s", m)
	}
}

func TestMetricsAfterRuns(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	want, _ := abi.Handle([]byte(hello))
	var res engine.Result
	_ = json.Unmarshal(want, &res)
	for range 3 {
		f.do(http.MethodPost, "/api/run", hello)
	}
	rec := f.do(http.MethodGet, "/metrics", "")
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content type %q", ct)
	}
	m := rec.Body.String()
	for _, line := range []string{
		`playground_runs_total{status="` + res.Status + `"} 3`,
		`playground_run_duration_seconds_bucket{le="+Inf"} 3`,
		`playground_run_duration_seconds_count 3`,
		`playground_sandbox_pool_size 1`,
		`playground_sandbox_instances 1`,
		`playground_sandbox_up 1`,
		`# TYPE playground_run_duration_seconds histogram`,
	} {
		if !strings.Contains(m, line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, m)
		}
	}
	if rec := f.do(http.MethodGet, "/healthz", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"ok"`) {
		t.Errorf("healthz %d %s", rec.Code, rec.Body)
	}
}

func TestCatalog(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	rec := f.do(http.MethodGet, "/api/catalog", "")
	var records []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &records); err != nil {
		t.Fatal(err)
	}
	all := catalog.All()
	if len(records) != len(all) || len(all) == 0 {
		t.Fatalf("%d records, the catalog has %d", len(records), len(all))
	}
	if records[0]["slug"] != all[0].Code {
		t.Errorf("first record %v, want slug %q", records[0]["slug"], all[0].Code)
	}
}

func TestShare(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	state := `{"v":1,"config":"","snippet":"let a = 1;","mode":"panic"}`
	rec := f.do(http.MethodPost, "/api/share", state)
	var created struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || rec.Code != http.StatusOK || len(created.ID) != store.IDLength {
		t.Fatalf("share: %d %s", rec.Code, rec.Body)
	}
	got := f.do(http.MethodGet, "/api/share/"+created.ID, "")
	if got.Code != http.StatusOK || got.Body.String() != state+"\n" {
		t.Fatalf("get: %d %s", got.Code, got.Body)
	}
	wantError(t, f.do(http.MethodGet, "/api/share/AAAAAAAAAAA", ""), http.StatusNotFound, "not_found")
	wantError(t, f.do(http.MethodPost, "/api/share", "not json"), http.StatusBadRequest, "bad_request")
	wantError(t, f.do(http.MethodPost, "/api/share", `"`+strings.Repeat("a", store.MaxStateBytes)+`"`), http.StatusRequestEntityTooLarge, "state_too_large")
}

func TestCORS(t *testing.T) {
	origin := "https://docs.example"
	t.Run("reads by default", func(t *testing.T) {
		f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
		rec := f.do(http.MethodGet, "/api/catalog", "", "Origin", origin)
		if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("GET: Allow-Origin %q", got)
		}
		pre := f.do(http.MethodOptions, "/api/run", "", "Origin", origin, "Access-Control-Request-Method", "POST")
		if pre.Code != http.StatusNoContent || pre.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("POST preflight allowed by default: %d %v", pre.Code, pre.Header())
		}
		post := f.do(http.MethodPost, "/api/run", hello, "Origin", origin)
		if post.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("cross-origin POST readable by default")
		}
		if page := f.do(http.MethodGet, "/healthz", "", "Origin", origin); page.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("CORS outside /api/")
		}
	})
	t.Run("writes for listed origins", func(t *testing.T) {
		f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) {
			c.CORS = web.CORSConfig{AllowOrigins: []string{origin}, AllowWrites: true, MaxAge: time.Minute}
		})
		pre := f.do(http.MethodOptions, "/api/run", "", "Origin", origin, "Access-Control-Request-Method", "POST")
		if pre.Header().Get("Access-Control-Allow-Origin") != origin || !strings.Contains(pre.Header().Get("Access-Control-Allow-Methods"), "POST") ||
			pre.Header().Get("Access-Control-Max-Age") != "60" {
			t.Errorf("preflight: %v", pre.Header())
		}
		if other := f.do(http.MethodGet, "/api/catalog", "", "Origin", "https://evil.example"); other.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("an unlisted origin was allowed")
		}
	})
	t.Run("off", func(t *testing.T) {
		f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) { c.CORS = web.CORSConfig{} })
		if rec := f.do(http.MethodGet, "/api/catalog", "", "Origin", origin); rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("CORS not off")
		}
	})
}

func TestStaticFiles(t *testing.T) {
	files := fstest.MapFS{
		"engine.wasm":    {Data: []byte("\x00asm module")},
		"engine.wasm.br": {Data: []byte("brotli bytes")},
		"engine.wasm.gz": {Data: []byte("gzip bytes")},
		"dist/app.js":    {Data: []byte("console.log(1)")},
	}
	f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) { c.Static = files })
	url := f.server.AssetURL("engine.wasm")
	if !strings.HasPrefix(url, "/static/engine.") || !strings.HasSuffix(url, ".wasm") || url == "/static/engine.wasm" {
		t.Fatalf("versioned URL %q", url)
	}
	for _, c := range []struct{ accept, encoding, body string }{
		{"gzip, deflate, br", "br", "brotli bytes"},
		{"gzip", "gzip", "gzip bytes"},
		{"br;q=0, gzip", "gzip", "gzip bytes"},
		{"", "", "\x00asm module"},
	} {
		rec := f.do(http.MethodGet, url, "", "Accept-Encoding", c.accept)
		if rec.Code != http.StatusOK || rec.Body.String() != c.body || rec.Header().Get("Content-Encoding") != c.encoding {
			t.Errorf("Accept-Encoding %q: %d %q encoding %q", c.accept, rec.Code, rec.Body, rec.Header().Get("Content-Encoding"))
		}
		if rec.Header().Get("Content-Type") != "application/wasm" || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("headers %v", rec.Header())
		}
	}
	plain := f.do(http.MethodGet, "/static/dist/app.js", "")
	if plain.Code != http.StatusOK || plain.Header().Get("Cache-Control") != "no-cache" || !strings.Contains(plain.Header().Get("Content-Type"), "javascript") {
		t.Errorf("plain name: %d %v", plain.Code, plain.Header())
	}
	versioned := f.do(http.MethodGet, f.server.AssetURL("dist/app.js"), "")
	etag := versioned.Header().Get("ETag")
	if again := f.do(http.MethodGet, f.server.AssetURL("dist/app.js"), "", "If-None-Match", etag); again.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", again.Code)
	}
	if stale := f.do(http.MethodGet, "/static/dist/app.000000000000.js", ""); stale.Code != http.StatusNotFound {
		t.Errorf("a stale version was served: %d", stale.Code)
	}
	if got := f.server.AssetURL("missing.css"); got != "/static/missing.css" {
		t.Errorf("missing asset URL %q", got)
	}
}

func TestGracefulShutdownFinishesRunsInFlight(t *testing.T) {
	l := smallLimits()
	l.WallTime = 300 * time.Millisecond
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error)
	go func() { served <- f.server.Serve(ctx, ln) }()

	var wg sync.WaitGroup
	var status int
	var body []byte
	wg.Go(func() {
		resp, err := http.Post("http://"+ln.Addr().String()+"/api/run", "application/json", strings.NewReader(`{"snippet":"spin"}`))
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		status = resp.StatusCode
		body, _ = io.ReadAll(resp.Body)
	})
	for f.sb.Stats().Running == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	wg.Wait()
	if status != http.StatusOK || !strings.Contains(string(body), wasm.CodeTimeLimit) {
		t.Fatalf("run in flight: %d %s", status, body)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("still accepting after shutdown")
	}
}

func TestClientGoneIs499NotAServerError(t *testing.T) {
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), smallLimits(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodPost, "/api/run", strings.NewReader(`{"snippet":"spin"}`)).WithContext(ctx)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { f.server.ServeHTTP(rec, req); close(done) }()
	for f.sb.Stats().Running == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	wantError(t, rec, 499, "canceled")
	if m := f.do(http.MethodGet, "/metrics", "").Body.String(); !strings.Contains(m, `playground_runs_total{status="canceled"} 1`+"\n") {
		t.Errorf("metrics:\n%s", m)
	}
}

// The acceptance test of the wall time: a loop of the real engine that
// would run for hours is stopped within the limit plus half a second, and
// the server goes on.
func TestEndlessLoopIsStoppedInTime(t *testing.T) {
	l := smallLimits()
	l.WallTime = 500 * time.Millisecond
	f := newFixture(t, wasmtest.Build(t), l, nil)
	body, _ := json.Marshal(engine.Request{Snippet: "use burn::tensor::{Device, Tensor};\n\nfn main() {\n" +
		"    let device = Device::default();\n    let mut t = Tensor::<1>::ones([4], &device);\n" +
		"    for i in 0..u64::MAX {\n        t = t + 1.0;\n    }\n    println!(\"{}\", t);\n}\n"})
	start := time.Now()
	rec := f.do(http.MethodPost, "/api/run", string(body))
	took := time.Since(start)
	var res engine.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if res.Status != engine.StatusRejected || !slices.ContainsFunc(res.Diagnostics, func(d engine.Diagnostic) bool { return d.Code == wasm.CodeTimeLimit }) {
		t.Fatalf("got %+v", res)
	}
	if took > l.WallTime+500*time.Millisecond {
		t.Errorf("answered after %v, more than the limit of %v plus 500ms", took, l.WallTime)
	}
	if rec := f.do(http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Fatalf("the next run: %d %s", rec.Code, rec.Body)
	}
}

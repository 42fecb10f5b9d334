package ui

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/examples"
)

// memoryShares is a ShareStore in memory.
type memoryShares struct {
	mu    sync.Mutex
	items map[string][]byte
}

func (m *memoryShares) Put(_ context.Context, state []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := "s" + string(rune('a'+len(m.items)))
	m.items[id] = state
	return id, nil
}

func (m *memoryShares) Get(_ context.Context, id string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.items[id]
	if !ok {
		return nil, errors.New("no such state")
	}
	return b, nil
}

const libtorchCode = "libtorch-is-not-supported-as-a-remote-server-backe"

// panickingRunner answers every request as the engine answers the LibTorch
// remote-server program: a panic at `Device::libtorch()`, reported by the
// check and by the run, with a fix that hosts the server on Flex. It
// records the requests it saw.
type panickingRunner struct {
	mu   sync.Mutex
	seen []engine.Request
}

func (p *panickingRunner) run(_ context.Context, req engine.Request) (engine.Result, error) {
	p.mu.Lock()
	p.seen = append(p.seen, req)
	p.mu.Unlock()
	f := source.NewFile("main.rs", req.Snippet)
	start := strings.Index(req.Snippet, "Device::libtorch()")
	if start < 0 {
		return engine.Result{Status: engine.StatusOK, Diagnostics: []engine.Diagnostic{}, Trace: []engine.TraceEntry{}, Engine: engine.EngineInfo{Version: engine.Version, Burn: engine.BurnCommit}}, nil
	}
	span := f.Span(source.Range{Start: start, End: start + len("Device::libtorch()")})
	rec, _ := catalog.ByCode(libtorchCode)
	msg := "LibTorch is not supported as a remote-server backend (no BackendIr impl)"
	fix := engine.Fix{Title: "Host the server on Flex", Edits: []engine.Edit{{File: "main.rs", Span: span, NewText: "Device::flex()"}}}
	diag := func(phase string) engine.Diagnostic {
		return engine.Diagnostic{Code: libtorchCode, Severity: "error", Phase: phase, Message: msg, File: "main.rs", Span: span,
			Labels: []engine.Label{}, Record: rec.JSON(), Fixes: []engine.Fix{fix}}
	}
	return engine.Result{
		Status: engine.StatusPanicked,
		Panic: &engine.Panic{Message: msg, Location: "crates/burn-dispatch/src/remote_server.rs:115", Code: libtorchCode, Span: span,
			Rendered: "thread 'main' panicked at crates/burn-dispatch/src/remote_server.rs:115:17:\n" + msg},
		Diagnostics: []engine.Diagnostic{diag("check"), diag("run")},
		Trace:       []engine.TraceEntry{},
		Engine:      engine.EngineInfo{Version: engine.Version, Burn: engine.BurnCommit},
	}, nil
}

func newTestServer(t *testing.T) (*echo.Echo, *panickingRunner, *memoryShares) {
	t.Helper()
	r := &panickingRunner{}
	shares := &memoryShares{items: map[string][]byte{}}
	e := echo.New()
	Register(e, Deps{Run: r.run, Shares: shares, Version: "v-test"})
	return e, r, shares
}

func do(t *testing.T, e *echo.Echo, method, target string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	var req *http.Request
	if form != nil {
		req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(method, target, nil)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func TestHomeShowsTheDefaultExampleWithItsResults(t *testing.T) {
	e, runner, _ := newTestServer(t)
	rec := do(t, e, http.MethodGet, "/", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET / = %d", rec.Code)
	}
	body := rec.Body.String()
	ex, _ := defaultExample(examples.All())
	if ex.Group != "tour" {
		t.Errorf("default example %q is not from the tour", ex.Name)
	}
	if len(runner.seen) != 1 || runner.seen[0].Snippet != ex.Snippet || runner.seen[0].Config != ex.Config {
		t.Errorf("the sandbox ran %+v, want the default example", runner.seen)
	}
	for _, want := range []string{
		`data-testid="results" data-status="ok"`,
		`data-testid="engine-version">` + engine.Version + `<`,
		"playground v-test",
		`data-origin="/"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The textarea holds the snippet exactly, after the newline the HTML
	// parser drops.
	if !strings.Contains(body, `data-testid="snippet">`+"\n"+htmlEscape(ex.Snippet)+"</textarea>") {
		t.Error("snippet textarea does not hold the example's text")
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestPagesCarryAContentSecurityPolicyWithTheirNonce(t *testing.T) {
	e, _, _ := newTestServer(t)
	var nonces []string
	for _, path := range []string{"/", "/catalog", "/catalog/" + libtorchCode, "/examples/nope"} {
		rec := do(t, e, http.MethodGet, path, nil)
		csp := rec.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
			t.Errorf("%s: script-src of %q", path, csp)
		}
		m := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)
		if m == nil {
			t.Fatalf("%s: no style nonce in %q", path, csp)
		}
		if !strings.Contains(rec.Body.String(), `<meta name="csp-nonce" content="`+m[1]+`">`) {
			t.Errorf("%s: the page does not carry the header's nonce", path)
		}
		nonces = append(nonces, m[1])
	}
	if nonces[0] == nonces[1] {
		t.Error("two responses share a nonce")
	}
}

func TestPanicShowsRawTextBesideTheCard(t *testing.T) {
	e, _, _ := newTestServer(t)
	body := do(t, e, http.MethodGet, "/examples/remote-server-libtorch", nil).Body.String()
	for _, want := range []string{
		`data-testid="panic-raw">thread &#39;main&#39; panicked at crates/burn-dispatch/src/remote_server.rs:115:17:` + "\nLibTorch is not supported",
		"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
		`data-testid="diagnostic" data-code="` + libtorchCode + `" data-phase="run"`,
		`data-testid="burn-source">crates/burn-dispatch/src/remote_server.rs:`,
		`data-testid="record-solutions"`,
		`data-fix="1:0"`,
		`data-testid="diagnostic-location">main.rs:5:25<`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("panic page lacks %q", want)
		}
	}
	if strings.Contains(body, `data-phase="check"`) {
		t.Error("the panic view shows the check's finding too")
	}
	rec := do(t, e, http.MethodPost, "/run", url.Values{
		"config": {"[dependencies]\r\nburn = \"0.22\"\r\n"}, "snippet": {"burn::server::start(Device::libtorch(), c);"}, "mode": {"validation"},
	})
	body = rec.Body.String()
	if !strings.Contains(body, `data-phase="check"`) || strings.Contains(body, `data-phase="run"`) || strings.Contains(body, `data-testid="panic-raw"`) {
		t.Error("the validation view should show the check's finding and no panic")
	}
	if !strings.Contains(body, `value="validation" checked`) {
		t.Error("the mode switch does not keep the posted mode")
	}
}

func TestFormPostRunsTheTextsAndAppliesAFix(t *testing.T) {
	e, runner, _ := newTestServer(t)
	snippet := "fn main() {\n    burn::server::start(Device::libtorch(), c);\n}\n"
	rec := do(t, e, http.MethodPost, "/run", url.Values{
		"config": {"[dependencies]\r\nburn = { version = \"0.22\", features = [\"tch\"] }\r\n"}, "snippet": {snippet},
		"mode": {"panic"}, "origin": {"/examples/remote-server-libtorch"}, "fix": {"1:0"},
	})
	if rec.Code != http.StatusOK {
		t.Fatalf("POST /run = %d", rec.Code)
	}
	if n := len(runner.seen); n != 2 {
		t.Fatalf("a fix runs the posted texts, then the fixed ones: %d runs", n)
	}
	if got := runner.seen[0].Config; got != "[dependencies]\nburn = { version = \"0.22\", features = [\"tch\"] }\n" {
		t.Errorf("CRLF not normalized: %q", got)
	}
	want := strings.Replace(snippet, "Device::libtorch()", "Device::flex()", 1)
	if runner.seen[1].Snippet != want {
		t.Errorf("fixed snippet = %q, want %q", runner.seen[1].Snippet, want)
	}
	body := rec.Body.String()
	if !strings.Contains(body, `data-status="ok"`) || !strings.Contains(body, htmlEscape(want)) {
		t.Error("the page does not show the fixed program and its clean result")
	}
	if !strings.Contains(body, `href="/examples/remote-server-libtorch" data-action="reset"`) {
		t.Error("Reset does not lead back to the example the form came from")
	}
}

func TestShareStoresTheStateBehindAShortLink(t *testing.T) {
	e, _, shares := newTestServer(t)
	form := url.Values{"config": {"[dependencies]\nburn = \"0.22\"\n"}, "snippet": {"let 𝑥 = 1; // <é>\n"}, "mode": {"validation"}}
	rec := do(t, e, http.MethodPost, "/share", form)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("POST /share = %d", rec.Code)
	}
	loc := rec.Header().Get("Location")
	stored, err := shares.Get(context.Background(), strings.TrimPrefix(loc, "/s/"))
	if err != nil {
		t.Fatalf("redirect to %q, not a stored state: %v", loc, err)
	}
	s, err := decodeState(stored)
	if err != nil || !reflect.DeepEqual(s, newState(form.Get("config"), form.Get("snippet"), ModeValidation)) {
		t.Fatalf("stored %s (%v)", stored, err)
	}
	body := do(t, e, http.MethodGet, loc, nil).Body.String()
	if !strings.Contains(body, htmlEscape(form.Get("snippet"))+"</textarea>") || !strings.Contains(body, `value="validation" checked`) {
		t.Error("the short link does not restore the snippet and the mode")
	}
	if got := do(t, e, http.MethodGet, "/s/unknown", nil).Code; got != http.StatusNotFound {
		t.Errorf("unknown share = %d", got)
	}
}

func TestLimitsAndUnknownPages(t *testing.T) {
	e, runner, _ := newTestServer(t)
	big := strings.Repeat("x", maxStateBytes+1)
	if got := do(t, e, http.MethodPost, "/run", url.Values{"snippet": {big}}).Code; got != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized run = %d", got)
	}
	if got := do(t, e, http.MethodPost, "/share", url.Values{"snippet": {big}}).Code; got != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized share = %d", got)
	}
	if len(runner.seen) != 0 {
		t.Error("an oversized program reached the sandbox")
	}
	for _, path := range []string{"/examples/no-such", "/catalog/no-such"} {
		if got := do(t, e, http.MethodGet, path, nil).Code; got != http.StatusNotFound {
			t.Errorf("%s = %d", path, got)
		}
	}
}

func TestOriginStaysOnThisSite(t *testing.T) {
	e := echo.New()
	for posted, want := range map[string]string{
		"/examples/tour-hello":     "/examples/tour-hello",
		"/s/abc":                   "/s/abc",
		"//evil.example/x":         "/",
		"https://evil.example/":    "/",
		"/examples/../../etc":      "/",
		"/catalog/code?x=1":        "/",
		"javascript:alert(1)":      "/",
		"/examples/a/b":            "/",
		"/catalog/" + libtorchCode: "/catalog/" + libtorchCode,
	} {
		req := httptest.NewRequest(http.MethodPost, "/run", strings.NewReader(url.Values{"origin": {posted}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if got := origin(e.NewContext(req, httptest.NewRecorder())); got != want {
			t.Errorf("origin(%q) = %q, want %q", posted, got, want)
		}
	}
}

func TestCatalogFindsARecordByItsPanicMessage(t *testing.T) {
	e, _, _ := newTestServer(t)
	all := do(t, e, http.MethodGet, "/catalog", nil).Body.String()
	if n := strings.Count(all, `data-testid="catalog-record"`); n != len(catalog.All()) {
		t.Errorf("catalog lists %d records, want %d", n, len(catalog.All()))
	}
	pasted := "thread 'main' panicked at crates/burn-dispatch/src/remote_server.rs:115:17:\nLibTorch is not supported as a remote-server backend (no BackendIr impl)"
	found := do(t, e, http.MethodGet, "/catalog?q="+url.QueryEscape(pasted), nil).Body.String()
	first := regexp.MustCompile(`data-testid="catalog-record" data-code="([^"]+)"`).FindStringSubmatch(found)
	if first == nil || first[1] != libtorchCode {
		t.Errorf("first match for the pasted panic = %v, want %s", first, libtorchCode)
	}
	page := do(t, e, http.MethodGet, "/catalog/"+libtorchCode, nil)
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-testid="record-message">LibTorch is not supported`) {
		t.Errorf("record page = %d", page.Code)
	}
}

// TestCatalogShowsNoLineZero: a record with no single line is listed with
// its file alone, never as file:0, and every title is written for people.
func TestCatalogShowsNoLineZero(t *testing.T) {
	e, _, _ := newTestServer(t)
	all := do(t, e, http.MethodGet, "/catalog", nil).Body.String()
	if m := regexp.MustCompile(`catalog-where">[^<]*:0<`).FindString(all); m != "" {
		t.Errorf("the catalog lists a record at line 0: %s", m)
	}
	for _, li := range regexp.MustCompile(`(?s)data-testid="catalog-record".*?</li>`).FindAllString(all, -1) {
		if strings.Contains(li, "…") {
			t.Errorf("the catalog lists a title with …: %s", li)
		}
	}
}

package ui

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

func newEmbedServer(t *testing.T) (*echo.Echo, *memoryShares) {
	t.Helper()
	shares := &memoryShares{items: map[string][]byte{}}
	e := echo.New()
	Register(e, Deps{Shares: shares, Version: "v-test", AssetURL: func(name string) string {
		return "/static/" + strings.Replace(name, ".", ".hash.", 1)
	}})
	return e, shares
}

func TestEmbedScriptRedirectsToItsVersionedName(t *testing.T) {
	e, _ := newEmbedServer(t)
	rec := do(t, e, http.MethodGet, "/embed.js", nil)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/static/dist/embed.hash.js" {
		t.Fatalf("GET /embed.js = %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	if got := rec.Header().Get("Cache-Control"); got != embedScriptMaxAge {
		t.Errorf("Cache-Control = %q", got)
	}
	if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin = %q; a module script from another page needs it", got)
	}
}

func TestEmbedManifestNamesTheEngineAndItsWatchdog(t *testing.T) {
	e, _ := newEmbedServer(t)
	rec := do(t, e, http.MethodGet, "/embed/v1/engine.json", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET manifest = %d", rec.Code)
	}
	var m embedManifest
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != EmbedVersion || m.EngineVersion != engine.Version || m.Engine != "/static/engine.hash.wasm" || m.Worker != "/static/dist/worker.hash.js" {
		t.Errorf("manifest = %+v", m)
	}
	if m.TimeLimitMs != browserTimeLimit.Milliseconds() || len(m.TimeLimitResult.Diagnostics) != 1 || m.TimeLimitResult.Diagnostics[0].Code != "playground-time-limit" {
		t.Errorf("watchdog = %d ms, %+v", m.TimeLimitMs, m.TimeLimitResult)
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("headers %v", rec.Header())
	}
}

func TestFramePageShowsTheStateAndMayBeFramedAnywhere(t *testing.T) {
	e, shares := newEmbedServer(t)
	state := newState("[dependencies]\nburn = \"0.22\"\n", "let a = Tensor::<1>::ones([2], &device); // <&>\n", ModeValidation)
	data, _ := state.encode()
	id, _ := shares.Put(t.Context(), data)

	rec := do(t, e, http.MethodGet, "/embed/"+id+"?theme=dark&editable", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /embed/%s = %d", id, rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{
		`<html lang="en" data-dispatch-frame>`,
		`<script src="/static/dist/embed.hash.js" defer></script>`,
		`config="[dependencies]` + "\n" + `burn = &#34;0.22&#34;` + "\n" + `"`,
		`mode="validate"`,
		`theme="dark"`,
		`engine="browser"`,
		` editable>`,
		">" + htmlEscape(state.Snippet) + "</dispatch-snippet>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("frame page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "readonly") || strings.Contains(body, "site-header") {
		t.Errorf("frame page has more than the snippet:\n%s", body)
	}
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors *") || !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
		t.Errorf("frame CSP = %q", csp)
	}
	// Every other page may be framed by this site only.
	if csp := do(t, e, http.MethodGet, "/catalog", nil).Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") {
		t.Errorf("catalog CSP = %q", csp)
	}
}

func TestFramePagesOfExamplesAndRecords(t *testing.T) {
	e, _ := newEmbedServer(t)
	byName, ok := examples.ByName("remote-server-libtorch")
	if !ok {
		t.Fatal("no remote-server-libtorch example")
	}
	byRecord, ok := recordExample(libtorchCode)
	if !ok {
		t.Fatalf("no example shows %s", libtorchCode)
	}
	for path, ex := range map[string]examples.Example{"/embed/examples/remote-server-libtorch": byName, "/embed/catalog/" + libtorchCode: byRecord} {
		rec := do(t, e, http.MethodGet, path+"?mode=panic&readonly=1&engine=server", nil)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, ">"+htmlEscape(ex.Snippet)+"</dispatch-snippet>") {
			t.Errorf("%s = %d, without the example's snippet", path, rec.Code)
		}
		for _, want := range []string{`mode="panic"`, `engine="server"`, ` readonly>`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
	}
	rec := do(t, e, http.MethodGet, "/embed/nope", nil)
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `data-testid="frame-message">There is no shared program “nope”.`) {
		t.Errorf("unknown id = %d:\n%s", rec.Code, rec.Body.String())
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") {
		t.Errorf("the not-found frame cannot be shown in its frame: %q", csp)
	}
}

func TestFrameOptionsFallBackToTheDefaults(t *testing.T) {
	s := newState("", "", ModePanic)
	q, _ := url.ParseQuery("mode=fast&theme=purple&engine=gpu&editable=false&readonly=off")
	got := frameOptions(q, s)
	want := embedView{Mode: "panic", Theme: "auto", Engine: "browser"}
	if got != want {
		t.Errorf("frameOptions = %+v, want %+v", got, want)
	}
}

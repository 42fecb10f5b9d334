package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// TestSecurityHeaders: every response, whatever answers it (a page, the
// API, a static file, an error), forbids content sniffing and keeps
// referrers on the site; only the frame pages under /embed/ may be framed
// by other sites, and the pages carry a content security policy.
func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	pages := []string{"/", "/catalog", "/catalog?q=tensor", "/examples/tour-hello", "/examples/nope", "/s/zzzzzzzzzzz"}
	others := []string{"/api/catalog", "/api/nothing", "/healthz", "/metrics", "/static/favicon.svg", "/nothing", "/embed.js"}
	frames := []string{"/embed/examples/tour-hello", "/embed/zzzzzzzzzzz"}
	for _, path := range append(append(append([]string{}, pages...), others...), frames...) {
		rec := f.do(http.MethodGet, path, "")
		h := rec.Header()
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "same-origin" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, Referrer-Policy %q", path, rec.Code, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
		csp := h.Get("Content-Security-Policy")
		framed := strings.HasPrefix(path, "/embed/")
		switch {
		case framed && (h.Get("X-Frame-Options") != "" || !strings.Contains(csp, "frame-ancestors *")):
			t.Errorf("%s (%d): a frame page must be frameable: X-Frame-Options %q, CSP %q", path, rec.Code, h.Get("X-Frame-Options"), csp)
		case !framed && h.Get("X-Frame-Options") != "SAMEORIGIN":
			t.Errorf("%s (%d): X-Frame-Options %q, want SAMEORIGIN", path, rec.Code, h.Get("X-Frame-Options"))
		case !framed && csp != "" && !strings.Contains(csp, "frame-ancestors 'self'"):
			t.Errorf("%s (%d): CSP %q lets other sites frame it", path, rec.Code, csp)
		}
	}
	for _, path := range pages {
		if csp := f.do(http.MethodGet, path, "").Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "object-src 'none'") {
			t.Errorf("%s: content security policy %q", path, csp)
		}
	}
}

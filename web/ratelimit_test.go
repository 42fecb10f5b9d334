package web_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// TestRateLimitAnswers429WithRetryAfter: past its burst a client gets 429
// with Retry-After, the API's JSON error body and a metric; other clients,
// and requests that cost no run, go on.
func TestRateLimitAnswers429WithRetryAfter(t *testing.T) {
	f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) {
		c.RateLimit = web.RateLimit{PerSecond: 0.5, Burst: 2, Clients: 100}
	})
	from := func(method, target, body, addr string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		f.server.ServeHTTP(rec, req)
		return rec
	}
	const client, other = "192.0.2.1:4000", "192.0.2.2:4000"
	for i := range 2 {
		if rec := from(http.MethodPost, "/api/run", hello, client); rec.Code != http.StatusOK {
			t.Fatalf("run %d within the burst: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := from(http.MethodPost, "/api/run", hello, client)
	wantError(t, rec, http.StatusTooManyRequests, "rate_limited")
	if seconds, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || seconds < 1 || seconds > 2 {
		t.Errorf("Retry-After %q, want the 1 to 2 s until the next token", rec.Header().Get("Retry-After"))
	}
	if rec := from(http.MethodGet, "/", "", client); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a page that runs a program: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	for _, path := range []string{"/api/catalog", "/healthz", "/metrics"} {
		if rec := from(http.MethodGet, path, "", client); rec.Code != http.StatusOK {
			t.Errorf("GET %s from a limited client: %d", path, rec.Code)
		}
	}
	if rec := from(http.MethodPost, "/api/run", hello, other); rec.Code != http.StatusOK {
		t.Errorf("another client: %d %s", rec.Code, rec.Body)
	}
	metrics := from(http.MethodGet, "/metrics", "", other).Body.String()
	if !strings.Contains(metrics, `playground_limit_hits_total{limit="rate"} 2`+"\n") {
		t.Errorf("metrics lack the two refusals:\n%s", metrics)
	}
}

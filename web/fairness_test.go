package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// from sends a request from the client at addr.
func (f *fixture) from(addr, method, target, body string) *httptest.ResponseRecorder {
	f.t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = addr
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	f.server.ServeHTTP(rec, req)
	return rec
}

// wantTimeLimit checks that rec is the Result of a run the wall time
// stopped.
func wantTimeLimit(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	var res engine.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("spinning run: %d %s", rec.Code, rec.Body)
	}
	if res.Status != engine.StatusRejected || len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != wasm.CodeTimeLimit {
		t.Fatalf("spinning run gave %+v", res)
	}
}

// TestOneRunInFlightPerClient: with the limits of `playground serve`, a
// client whose run is in the sandbox gets 429 with Retry-After for a second
// one, from the API or a page that runs a program, at once rather than
// waiting; another client's run goes through meanwhile on the other
// instance, and the first client may run again once its run is over and
// the sandbox has replaced the instance that run used up.
func TestOneRunInFlightPerClient(t *testing.T) {
	l := smallLimits()
	l.PoolSize, l.QueueLength = 2, 4
	l.WallTime = time.Second
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, func(c *web.Config) {
		c.RateLimit = web.DefaultRateLimit
	})
	const client, sameHost, other = "192.0.2.1:4000", "192.0.2.1:4001", "[2001:db8::1]:4000"
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- f.from(client, http.MethodPost, "/api/run", `{"snippet":"spin"}`) }()
	for f.sb.Stats().Running == 0 {
		time.Sleep(time.Millisecond)
	}

	start := time.Now()
	rec := f.from(sameHost, http.MethodPost, "/api/run", hello)
	wantError(t, rec, http.StatusTooManyRequests, "run_in_progress")
	if seconds, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || seconds < 1 {
		t.Errorf("Retry-After %q, want a number of seconds", rec.Header().Get("Retry-After"))
	}
	page := f.from(sameHost, http.MethodGet, "/examples/tour-hello", "")
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "already has a run in progress") {
		t.Errorf("a page that runs a program, from a client with a run in progress: %d, want 200 saying why it has no result:\n%.2000s", page.Code, page.Body)
	}
	if waited := time.Since(start); waited > l.WallTime/2 {
		t.Errorf("the refusals took %v: they must not wait for the run in progress", waited)
	}
	if rec := f.from(other, http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Errorf("another client while the first one's run is in progress: %d %s", rec.Code, rec.Body)
	}

	wantTimeLimit(t, <-done)
	// The client's place is taken until the sandbox has replaced the
	// instance the stopped run used up.
	for deadline := time.Now().Add(30 * time.Second); f.sb.Stats().Instances < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the server polls the sandbox every 10 ms
	if rec := f.from(sameHost, http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Errorf("the first client once its run is over and the sandbox whole again: %d %s", rec.Code, rec.Body)
	}
	metrics := f.from(other, http.MethodGet, "/metrics", "").Body.String()
	if !strings.Contains(metrics, `playground_limit_hits_total{limit="client_runs"} 2`+"\n") {
		t.Errorf("metrics lack the two refusals:\n%s", metrics)
	}
}

// TestRunsStoppedByTheWallTimeCostTheirTime: a run the wall time stopped
// costs its client one request of its allowance per 100 ms it held an
// instance, so a client that keeps hitting the wall time is slowed down
// while another client, whose runs finish, is not.
func TestRunsStoppedByTheWallTimeCostTheirTime(t *testing.T) {
	l := smallLimits()
	l.WallTime = 500 * time.Millisecond
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, func(c *web.Config) {
		c.RateLimit = web.DefaultRateLimit
		// Five requests at once, and no refill to speak of while the test
		// runs.
		c.RateLimit.Burst, c.RateLimit.PerSecond = 5, 0.01
	})
	const greedy, polite = "192.0.2.1:4000", "192.0.2.2:4000"
	wantTimeLimit(t, f.from(greedy, http.MethodPost, "/api/run", `{"snippet":"spin"}`))
	// The spin cost 1 + 5 requests of the 5 the client had.
	rec := f.from(greedy, http.MethodPost, "/api/run", hello)
	wantError(t, rec, http.StatusTooManyRequests, "rate_limited")
	if seconds, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || seconds < 100 {
		t.Errorf("Retry-After %q, want the 200 s until the client's allowance is back above one request", rec.Header().Get("Retry-After"))
	}
	for i := range 5 {
		if rec := f.from(polite, http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
			t.Fatalf("the other client's run %d of its 5: %d %s", i+1, rec.Code, rec.Body)
		}
	}
}

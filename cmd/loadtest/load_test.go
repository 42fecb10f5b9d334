package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A short run of the load test against an in-process server must pass all
// its own checks.
func TestShortLoad(t *testing.T) {
	module := moduleFile(t)
	o := options{clients: 40, duration: 3 * time.Second, wasm: module, maxRSSMiB: 2048,
		filter: regexp.MustCompile(`^(tour|wrong|book|autodiff)`)}
	var out bytes.Buffer
	r, err := run(context.Background(), o, &out)
	if err != nil {
		t.Fatal(err)
	}
	if f := r.failures(o); len(f) > 0 {
		t.Fatalf("%v\n%s", f, &out)
	}
	if r.ok == 0 || r.busy == 0 || !strings.Contains(out.String(), "latency p50") {
		t.Fatalf("40 clients on a pool of %d should see both 200s and 429s:\n%s", 2, &out)
	}
}

func TestLoopbackOnly(t *testing.T) {
	for target, ok := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://localhost:8080": true, "http://[::1]:8080": true,
		"http://10.0.0.1:8080": false, "https://example.com": false,
	} {
		if err := requireLoopback(target); (err == nil) != ok {
			t.Errorf("%s: %v", target, err)
		}
	}
}

func TestFailuresAreReported(t *testing.T) {
	o := options{maxRSSMiB: 100}
	r := &report{ok: 1, serverErrors: 2, wrong: 1, firstWrong: "x", busy: 3, busyWithRetryAfter: 2, rssPeak: 200 << 20}
	if f := r.failures(o); len(f) != 4 {
		t.Fatalf("failures %q", f)
	}
	if f := (&report{ok: 5, busy: 2, busyWithRetryAfter: 2}).failures(o); len(f) != 0 {
		t.Fatalf("a clean run failed: %q", f)
	}
}

// TestClientsSpreadOverServers: with several -url servers, as behind a
// load balancer, every server gets its share of the clients.
func TestClientsSpreadOverServers(t *testing.T) {
	var counts [2]atomic.Int64
	var targets []string
	for i := range counts {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			counts[i].Add(1)
			_, _ = w.Write([]byte("{}\n"))
		}))
		defer srv.Close()
		targets = append(targets, srv.URL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r := &report{}
	sendUntilDone(ctx, http.DefaultClient, targets, []job{{name: "x", body: []byte("{}")}}, 4, r)
	// A request the deadline cut short reached a server but not the report.
	if counts[0].Load() == 0 || counts[1].Load() == 0 || r.requests == 0 || r.requests > counts[0].Load()+counts[1].Load() {
		t.Errorf("requests %d and %d, %d in the report", counts[0].Load(), counts[1].Load(), r.requests)
	}
}

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/wasm"
)

// TestGreedyClientDoesNotStarveAPoliteOne is the fairness test: one client
// sends an endless program from six connections as fast as the server
// lets it while another runs tour-hello twice a second; the polite
// client's p99 must stay under the wall time plus one of its own runs, and
// the greedy client must have been held back with 429s. It runs the
// -fairness mode on an in-process server with the rate limit of
// `playground serve`, a pool of two and a wall time of one second, five
// seconds per phase.
func TestGreedyClientDoesNotStarveAPoliteOne(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test of about 12 s")
	}
	o := options{fairness: true, duration: 5 * time.Second, wallTime: time.Second, pool: 2, greedy: 6,
		politeEvery: 500 * time.Millisecond, wasm: moduleFile(t), isolation: wasm.ProcessIsolation}
	var out bytes.Buffer
	r, err := fairness(context.Background(), o, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", &out)
	if f := r.failures(); len(f) > 0 {
		t.Fatalf("%s", strings.Join(f, "\n"))
	}
	refused := 0
	for outcome, n := range r.greedy {
		if strings.HasPrefix(outcome, "429 ") {
			refused += n
		}
	}
	if refused == 0 {
		t.Fatalf("the greedy client was never refused: %s", counts(r.greedy))
	}
}

func TestPercentileIsNearestRank(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, time.Duration(n)*time.Millisecond)
		}
		return d
	}
	ten := ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	for _, c := range []struct {
		p    float64
		want int
	}{{0.5, 5}, {0.9, 9}, {0.99, 10}, {1, 10}, {0, 1}} {
		if got := percentile(ten, c.p); got != time.Duration(c.want)*time.Millisecond {
			t.Errorf("p%v of 1..10 ms = %v, want %d ms", c.p*100, got, c.want)
		}
	}
	if got := percentile(nil, 0.99); got != 0 {
		t.Errorf("p99 of nothing = %v", got)
	}
}

func TestFairnessFailures(t *testing.T) {
	ms := time.Millisecond
	good := &fairReport{wallTime: time.Second, alone: []time.Duration{10 * ms, 20 * ms},
		with:         []time.Duration{15 * ms, 900 * ms},
		politeFailed: map[string]int{}, greedy: map[string]int{"200": 3, "429 rate_limited": 5}}
	if f := good.failures(); len(f) != 0 {
		t.Fatalf("a fair run failed: %q", f)
	}
	starved := *good
	starved.with = []time.Duration{15 * ms, 1020 * ms} // the bound is 1 s + 20 ms
	refused := *good
	refused.politeFailed = map[string]int{"429 busy": 1}
	broken := *good
	broken.greedy = map[string]int{"200": 1, "500 engine_crashed": 1, "429 busy without Retry-After": 2}
	for name, c := range map[string]struct {
		r    *fairReport
		want int
	}{"starved": {&starved, 1}, "refused": {&refused, 1}, "broken": {&broken, 2}} {
		if f := c.r.failures(); len(f) != c.want {
			t.Errorf("%s: failures %q, want %d", name, f, c.want)
		}
	}
}

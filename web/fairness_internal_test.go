package web

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
)

func encode(t *testing.T, res engine.Result) []byte {
	t.Helper()
	b, err := abi.Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStoppedByLimit(t *testing.T) {
	ok, err := abi.HandleRequest(engine.Request{Snippet: "fn main() { println!(\"playground-time-limit\"); }"})
	if err != nil {
		t.Fatal(err)
	}
	budget, err := abi.HandleRequest(engine.Request{Snippet: "fn main() { loop {} }"})
	if err != nil {
		t.Fatal(err)
	}
	syntax, err := abi.HandleRequest(engine.Request{Snippet: "fn main() { let x = ; }"})
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		result []byte
		want   bool
	}{
		"wall time":                   {encode(t, wasm.TimeLimitResult("loop {}", 2*time.Second)), true},
		"memory":                      {encode(t, wasm.MemoryLimitResult("x", 1024)), true},
		"engine step budget":          {budget, true},
		"ok, printing the code":       {ok, false},
		"rejected for another reason": {syntax, false},
		"result over the size limit":  {encode(t, wasm.ResultLimitResult("x", 5<<20, 4<<20)), false},
		"no result":                   {nil, false},
	} {
		if got := stoppedByLimit(c.result); got != c.want {
			t.Errorf("%s: stoppedByLimit = %v, want %v: %.300s", name, got, c.want, c.result)
		}
	}
}

func TestInFlightCountsEachClientsRuns(t *testing.T) {
	f := &inFlight{limit: 2, runs: map[string]int{}}
	if !f.acquire("a") || !f.acquire("a") {
		t.Fatal("refused within the limit")
	}
	if f.acquire("a") {
		t.Fatal("a third run of a client with a limit of 2")
	}
	if !f.acquire("b") {
		t.Fatal("another client was refused")
	}
	f.release("a")
	if !f.acquire("a") {
		t.Fatal("refused after a run was over")
	}
	f.release("a")
	f.release("a")
	f.release("b")
	if len(f.runs) != 0 {
		t.Fatalf("clients with no run are still held: %v", f.runs)
	}
}

func TestAdmitOneRunPerClientAndChargeStoppedRuns(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	cl := newClients(RateLimit{PerSecond: 1, Burst: 30, Clients: 10, ClientRuns: 1, TimeCost: 100 * time.Millisecond}, clock.now)
	greedy, polite := withClient(context.Background(), "192.0.2.1"), withClient(context.Background(), "192.0.2.2")
	stopped := encode(t, wasm.TimeLimitResult("loop {}", 2*time.Second))
	finished, err := abi.HandleRequest(engine.Request{Snippet: "fn main() {}"})
	if err != nil {
		t.Fatal(err)
	}

	done, err := cl.admit(greedy)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.admit(greedy)
	var ae *apiError
	if !errors.As(err, &ae) || ae.Status != http.StatusTooManyRequests || ae.Code != codeRunInProgress {
		t.Fatalf("a second run of one client: %v, want 429 %s", err, codeRunInProgress)
	}
	politeDone, err := cl.admit(polite)
	if err != nil {
		t.Fatalf("another client: %v", err)
	}
	politeDone(finished, 1500*time.Millisecond, func() { t.Error("a run that finished waited for the sandbox") })

	// The greedy run is stopped at the wall time; its place stays taken
	// until the sandbox has replaced the instance.
	replaced := make(chan struct{})
	settled := make(chan struct{})
	done(stopped, 2050*time.Millisecond, func() { <-replaced; close(settled) })
	if _, err := cl.admit(greedy); err == nil {
		t.Fatal("admitted while the sandbox replaces the instance its last run used up")
	}
	close(replaced)
	<-settled
	var again func([]byte, time.Duration, func())
	for again == nil {
		again, _ = cl.admit(greedy) // release follows settle in its goroutine
		time.Sleep(time.Millisecond)
	}
	again(nil, time.Millisecond, nil)

	// The stopped run cost 20 requests more (2.05 s at 100 ms each,
	// rounded down) than the one the middleware took for it; the polite
	// run of 1.5 s that finished, nothing more.
	if got, want := cl.rate.buckets["192.0.2.1"].tokens, 30.0-20; got != want {
		t.Errorf("greedy client's allowance %v, want %v", got, want)
	}
	if b, charged := cl.rate.buckets["192.0.2.2"]; charged {
		t.Errorf("the polite client was charged: %v left", b.tokens)
	}
}

func TestAdmitWithoutLimits(t *testing.T) {
	cl := newClients(RateLimit{}, time.Now)
	if cl.limited() {
		t.Fatal("the zero RateLimit limits something")
	}
	ctx := withClient(context.Background(), "192.0.2.1")
	for range 3 {
		done, err := cl.admit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer done(nil, 0, nil)
	}
	// Runs that no middleware saw (no client) are never refused.
	strict := newClients(RateLimit{ClientRuns: 1}, time.Now)
	for range 2 {
		if _, err := strict.admit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

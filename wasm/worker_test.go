package wasm_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// TestWorkerKilledFromOutside: a worker that the kernel's OOM killer or an
// operator kills while it waits for a run is noticed when it dies, without
// a run: the live count drops, a new worker replaces it, and the next run
// meets the new one.
func TestWorkerKilledFromOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the workers in Linux's /proc")
	}
	l := testLimits()
	l.PoolSize = 1
	sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, wasm.ProcessIsolation)
	old := onlyWorker(t)
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	live := liveCounts(t, sb, func(s wasm.Stats) bool { return s.Exits == 1 && s.Instances == 1 })
	if !slices.Contains(live, 0) {
		// The new worker takes a few hundred milliseconds to start, so a
		// look every millisecond sees the pool without one.
		t.Errorf("the live count went %v, never 0", live)
	}
	if w := onlyWorker(t); w == old {
		t.Errorf("worker %d still runs", old)
	}
	if s := sb.Stats(); s.Runs != 0 || s.Crashes != 0 || s.Retries != 0 {
		t.Errorf("stats %+v: the pool needed a run to notice", s)
	}
	afterFailure(t, sb)
	if s := sb.Stats(); s.Retries != 0 || s.Instances != 1 {
		t.Errorf("stats %+v: the run after met a dead worker", s)
	}
}

// TestWorkerKilledUnderARun: a run whose worker is killed under it is run
// again on a fresh worker, and answers what it would have.
func TestWorkerKilledUnderARun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the workers in Linux's /proc")
	}
	l := testLimits()
	l.PoolSize = 1
	l.WallTime = time.Minute // the retry, not the clock, is under test
	sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, wasm.ProcessIsolation)
	req := engine.Request{Snippet: slow}
	want, err := abi.HandleRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	worker := onlyWorker(t)
	type answer struct {
		out []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := sb.RunJSON(context.Background(), req)
		done <- answer{out, err}
	}()
	liveCounts(t, sb, func(s wasm.Stats) bool { return s.Running == 1 })
	if err := syscall.Kill(worker, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil || string(got.out) != string(want) {
		t.Fatalf("got %v, %.300s; want the engine's Result %.300s", got.err, got.out, want)
	}
	if s := sb.Stats(); s.Retries != 1 || s.Exits != 1 || s.Crashes != 0 || s.Runs != 1 {
		t.Errorf("stats %+v, want one run, run again once after one worker exit", s)
	}
	liveCounts(t, sb, func(s wasm.Stats) bool { return s.Instances == 1 })
}

// onlyWorker is the one worker process of a pool of one.
func onlyWorker(t *testing.T) int {
	t.Helper()
	workers := procmem.Children(os.Getpid())
	if len(workers) != 1 {
		t.Fatalf("%d child processes, want the one worker", len(workers))
	}
	return workers[0]
}

// liveCounts looks at the pool every millisecond until done holds, and
// returns the live counts it saw, each change once.
func liveCounts(t *testing.T, sb *wasm.Sandbox, done func(wasm.Stats) bool) []int64 {
	t.Helper()
	var seen []int64
	deadline := time.Now().Add(time.Minute)
	for {
		s := sb.Stats()
		if len(seen) == 0 || seen[len(seen)-1] != s.Instances {
			seen = append(seen, s.Instances)
		}
		if done(s) {
			return seen
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v after a minute; live counts %v", s, seen)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestWorkerThatCannotStart: a worker command that fails makes New fail,
// instead of a server that answers nothing.
func TestWorkerThatCannotStart(t *testing.T) {
	for name, command := range map[string][]string{
		"missing":       {"/nonexistent/playground"},
		"not a worker":  {"true"},
		"prints things": {"sh", "-c", "echo hello; sleep 1"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := wasm.Config{Module: wasmtest.Build(t), Limits: testLimits(), Isolation: wasm.ProcessIsolation,
				WorkerCommand: command, CacheDir: wasmtest.CacheDir(t)}
			if _, err := wasm.New(context.Background(), cfg); !errors.Is(err, wasm.ErrUnavailable) {
				t.Fatalf("got %v, want ErrUnavailable", err)
			}
		})
	}
}

package wasm_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// TestWorkerKilledFromOutside: a worker the kernel's OOM killer or an
// operator kills while it waits fails the run it is given, with
// ErrCrashed rather than a hang, and is replaced.
func TestWorkerKilledFromOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the workers in Linux's /proc")
	}
	l := testLimits()
	l.PoolSize = 1
	sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, wasm.ProcessIsolation)
	workers := procmem.Children(os.Getpid())
	if len(workers) != 1 {
		t.Fatalf("%d child processes, want the one worker", len(workers))
	}
	if err := syscall.Kill(workers[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, err := sb.RunJSON(context.Background(), requests[1]); !errors.Is(err, wasm.ErrCrashed) {
		t.Fatalf("got %v, want ErrCrashed", err)
	}
	afterFailure(t, sb)
	if s := sb.Stats(); s.Crashes != 1 || s.Instances != 1 {
		t.Errorf("stats %+v, want one crash and one instance", s)
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

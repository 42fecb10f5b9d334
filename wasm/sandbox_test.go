package wasm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// Snippets the fault guest (wasm/internal/faultguest) misbehaves on.
const (
	spin  = "spin"
	grow  = "grow"
	crash = "crash"
	hoard = "hoard"
	slow  = "slow"
)

var requests = []engine.Request{
	{},
	{Snippet: "let device = Device::default();\nlet t = Tensor::<2>::ones([2, 3], &device);\nprintln!(\"{}\", t);\n"},
	{Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n", Snippet: "let a = Tensor::<1>::from_floats([1.0, 2.0], &Device::cuda(0));"},
	{Snippet: "fn main() { let x = \"<&>\u00e9\"; }"},
}

func testLimits() wasm.Limits {
	l := wasm.DefaultLimits()
	l.PoolSize = 2
	return l
}

// forEachIsolation runs a test of the pool once per isolation: the pool
// behaves the same whether its instances live in this process or in
// workers.
func forEachIsolation(t *testing.T, test func(t *testing.T, iso wasm.Isolation)) {
	for _, iso := range []wasm.Isolation{wasm.InProcess, wasm.ProcessIsolation} {
		t.Run(iso.String(), func(t *testing.T) { test(t, iso) })
	}
}

func encode(t testing.TB, req engine.Request) []byte {
	t.Helper()
	b, err := abi.EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t testing.TB, b []byte) engine.Result {
	t.Helper()
	var res engine.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return res
}

func TestRunJSONMatchesNative(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), testLimits(), iso)
		for _, req := range requests {
			want, err := abi.HandleRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 { // a reused instance must answer the same
				got, err := sb.RunJSON(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Fatalf("request %+v:\nsandbox %s\nnative  %s", req, got, want)
				}
			}
		}
	})
}

func TestRunDecodesResult(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), testLimits(), iso)
		got, err := sb.Run(context.Background(), requests[1])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := abi.Encode(engine.Run(requests[1]))
		if b, _ := abi.Encode(got); string(b) != string(want) {
			t.Fatalf("Run gave %s, native %s", b, want)
		}
	})
}

// limitDiagnostic checks a Result produced by the host for a limit.
func limitDiagnostic(t *testing.T, res engine.Result, code, snippet string) {
	t.Helper()
	if res.Status != engine.StatusRejected || len(res.Diagnostics) != 1 {
		t.Fatalf("want one rejected diagnostic, got %+v", res)
	}
	d := res.Diagnostics[0]
	if d.Code != code || d.Severity != "error" || d.Phase != "run" || d.File != "main.rs" {
		t.Fatalf("diagnostic %+v, want code %s, error, run, main.rs", d, code)
	}
	if rec, ok := catalog.ByCode(code); ok {
		var got, want any
		if json.Unmarshal(d.Record, &got) != nil || json.Unmarshal(rec.JSON(), &want) != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("record %s, want the catalog's record of %s", d.Record, code)
		}
	} else if string(d.Record) != "null" {
		t.Fatalf("record %s for %s, which the catalog does not have", d.Record, code)
	}
	if d.Span.Start.Offset != 0 || d.Span.End.Offset != len(snippet) {
		t.Fatalf("span %+v does not cover the snippet %q", d.Span, snippet)
	}
}

// afterFailure checks that the sandbox still serves a normal request.
func afterFailure(t *testing.T, sb *wasm.Sandbox) {
	t.Helper()
	want, _ := abi.HandleRequest(requests[1])
	got, err := sb.RunJSON(context.Background(), requests[1])
	if err != nil || string(got) != string(want) {
		t.Fatalf("next run: %v, %s", err, got)
	}
}

func TestTimeLimit(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.WallTime = 200 * time.Millisecond
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		start := time.Now()
		out, err := sb.RunJSON(context.Background(), engine.Request{Snippet: spin})
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if elapsed > l.WallTime+500*time.Millisecond {
			t.Errorf("stopped after %v, want at most %v", elapsed, l.WallTime+500*time.Millisecond)
		}
		res := decode(t, out)
		limitDiagnostic(t, res, wasm.CodeTimeLimit, spin)
		if want := "the run did not finish within the playground's time limit of 200ms"; res.Diagnostics[0].Message != want {
			t.Errorf("message %q, want %q", res.Diagnostics[0].Message, want)
		}
		afterFailure(t, sb)
		if s := sb.Stats(); s.TimeLimits != 1 || s.Instances != 1 {
			t.Errorf("stats %+v, want one time limit and one instance", s)
		}
	})
}

func TestMemoryLimit(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.MemoryPages = 512
		l.RecyclePages = 512 // so that a used instance stays in the pool
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		out, err := sb.RunJSON(context.Background(), engine.Request{Snippet: grow})
		if err != nil {
			t.Fatal(err)
		}
		res := decode(t, out)
		limitDiagnostic(t, res, wasm.CodeMemoryLimit, grow)
		if want := "the run needed more memory than the playground's limit of 32 MiB"; res.Diagnostics[0].Message != want {
			t.Errorf("message %q, want %q", res.Diagnostics[0].Message, want)
		}
		// The instance was fresh: running it again would change nothing.
		if s := sb.Stats(); s.MemoryLimits != 1 || s.Retries != 0 {
			t.Errorf("stats %+v, want one memory limit and no retry", s)
		}
		// afterFailure runs on the instance that replaced it, which is then
		// no longer fresh: the limit is reported after a run on a fresh one.
		afterFailure(t, sb)
		again, err := sb.RunJSON(context.Background(), engine.Request{Snippet: grow})
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(out) {
			t.Errorf("the second memory limit reads %s, the first %s", again, out)
		}
		if s := sb.Stats(); s.MemoryLimits != 2 || s.Retries != 1 {
			t.Errorf("stats %+v, want two memory limits and one retry", s)
		}
	})
}

// TestMemoryLimitIsRunAgainOnAFreshInstance: whether a request fits in the
// memory limit depends on the request, not on what the instance ran
// before. The fault guest's hoard keeps 12 MiB more at each run, so on an
// instance of 32 MiB (never recycled: the threshold is the limit) the third
// run in a row runs out of memory, where a fresh instance would not.
func TestMemoryLimitIsRunAgainOnAFreshInstance(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.MemoryPages, l.RecyclePages = 512, 512
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		want, err := abi.HandleRequest(engine.Request{Snippet: hoard})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			got, err := sb.RunJSON(context.Background(), engine.Request{Snippet: hoard})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("run %d: %.300s, want the engine's Result %.300s", i+1, got, want)
			}
		}
		if s := sb.Stats(); s.MemoryLimits != 0 || s.Retries < 2 || s.Instances != 1 {
			t.Errorf("stats %+v, want no memory limit and at least two runs on a fresh instance", s)
		}
	})
}

// TestCrashIsRunAgainThenAnswered: a guest that traps is replaced and the
// request run once more on a fresh instance; when that one traps too, the
// Result says the sandbox stopped, with its catalog record. Never an error:
// a server answers it with 200.
func TestCrashIsRunAgainThenAnswered(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		out, err := sb.RunJSON(context.Background(), engine.Request{Snippet: crash})
		if err != nil {
			t.Fatalf("got %v, want the Result of a stopped sandbox", err)
		}
		res := decode(t, out)
		limitDiagnostic(t, res, wasm.CodeSandboxStopped, crash)
		if want := "the sandbox stopped twice while running this program"; res.Diagnostics[0].Message != want {
			t.Errorf("message %q, want %q", res.Diagnostics[0].Message, want)
		}
		if _, ok := catalog.ByCode(wasm.CodeSandboxStopped); !ok {
			t.Errorf("the catalog has no record of %s", wasm.CodeSandboxStopped)
		}
		afterFailure(t, sb)
		if s := sb.Stats(); s.Crashes != 1 || s.Retries != 1 || s.Instances != 1 {
			t.Errorf("stats %+v, want one crash after one retry, and one instance", s)
		}
	})
}

func TestBusyWhenQueueIsFull(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.QueueLength = 0
		l.WallTime = time.Second
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		started := make(chan struct{})
		done := make(chan error)
		go func() {
			close(started)
			_, err := sb.RunJSON(context.Background(), engine.Request{Snippet: spin})
			done <- err
		}()
		<-started
		deadline := time.Now().Add(time.Second)
		for sb.Stats().Running == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if _, err := sb.RunJSON(context.Background(), requests[0]); !errors.Is(err, wasm.ErrBusy) {
			t.Fatalf("got %v, want ErrBusy", err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if s := sb.Stats(); s.Busy != 1 {
			t.Errorf("stats %+v, want one busy refusal", s)
		}
	})
}

func TestQueuedRunWaitsForAnInstance(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.QueueLength = 1
		l.WallTime = 300 * time.Millisecond
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		done := make(chan error)
		go func() {
			_, err := sb.RunJSON(context.Background(), engine.Request{Snippet: spin})
			done <- err
		}()
		for sb.Stats().Running == 0 {
			time.Sleep(time.Millisecond)
		}
		afterFailure(t, sb) // waits for the spinning run's replacement
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

func TestCallerCancellation(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, iso)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := sb.RunJSON(ctx, engine.Request{Snippet: spin}); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want the caller's deadline", err)
		}
		afterFailure(t, sb)
		if s := sb.Stats(); s.TimeLimits != 0 {
			t.Errorf("the caller's own deadline counted as a time limit: %+v", s)
		}
	})
}

func TestRecycleAfterMemoryGrowth(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.PoolSize = 1
		l.RecyclePages = 1 // every instance is above it after any run
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, iso)
		for range 3 {
			afterFailure(t, sb)
		}
		if s := sb.Stats(); s.Recycled != 3 || s.Crashes != 0 {
			t.Errorf("stats %+v, want three recycled instances", s)
		}
	})
}

func TestResultLimit(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := testLimits()
		l.ResultBytes = 10
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, iso)
		out, err := sb.RunJSON(context.Background(), requests[1])
		if err != nil {
			t.Fatal(err)
		}
		limitDiagnostic(t, decode(t, out), wasm.CodeResultLimit, requests[1].Snippet)
	})
}

func TestConcurrentRunsAreIsolated(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), testLimits(), iso)
		want := make([][]byte, len(requests))
		for i, req := range requests {
			want[i], _ = abi.HandleRequest(req)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for g := range 8 {
			wg.Go(func() {
				for i := range 20 {
					k := (g + i) % len(requests)
					got, err := sb.RunJSON(context.Background(), requests[k])
					switch {
					case errors.Is(err, wasm.ErrBusy):
					case err != nil:
						errs <- err
					case string(got) != string(want[k]):
						errs <- fmt.Errorf("wrong result for request %+v", requests[k])
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	})
}

func TestCloseRefusesRuns(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		cfg := wasm.Config{Module: wasmtest.Build(t), Limits: testLimits(), Isolation: iso, Cache: wasmtest.Cache()}
		if iso == wasm.ProcessIsolation {
			cfg.Cache = nil // a temporary directory, which Close removes
		}
		sb, err := wasm.New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := sb.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := sb.RunJSON(context.Background(), requests[0]); !errors.Is(err, wasm.ErrClosed) {
			t.Fatalf("got %v, want ErrClosed", err)
		}
		if s := sb.Stats(); s.Instances != 0 {
			t.Errorf("%d instances after Close", s.Instances)
		}
	})
}

func TestNewRejectsBadModuleAndLimits(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		if _, err := wasm.New(context.Background(), wasm.Config{Module: []byte("not wasm"), Limits: testLimits(), Isolation: iso}); !errors.Is(err, wasm.ErrUnavailable) {
			t.Errorf("bad module: got %v, want ErrUnavailable", err)
		}
		bad := testLimits()
		bad.RecyclePages = bad.MemoryPages + 1
		if _, err := wasm.New(context.Background(), wasm.Config{Module: []byte{}, Limits: bad, Isolation: iso}); err == nil {
			t.Error("a recycle threshold above the memory limit was accepted")
		}
		tooSmall := testLimits()
		tooSmall.MemoryPages, tooSmall.RecyclePages = 8, 8
		cfg := wasm.Config{Module: wasmtest.Build(t), Limits: tooSmall, Isolation: iso, Cache: wasmtest.Cache()}
		if iso == wasm.ProcessIsolation {
			cfg.Cache, cfg.CacheDir = nil, wasmtest.CacheDir(t)
		}
		if _, err := wasm.New(context.Background(), cfg); !errors.Is(err, wasm.ErrUnavailable) {
			t.Errorf("8 pages: got %v, want ErrUnavailable", err)
		}
	})
}

// TestGuestSeesNothing asks the fault guest what it can see of the world.
func TestGuestSeesNothing(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), testLimits(), iso)
		out, err := sb.RunJSON(context.Background(), engine.Request{Snippet: "probe"})
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			Args, Env                 []string
			ReadErr, ListErr, DialErr string
			UnixTime                  int64
		}
		if err := json.Unmarshal(out, &w); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		t.Logf("the guest sees %s", out)
		if len(w.Env) != 0 || len(w.Args) > 0 {
			t.Errorf("the guest sees arguments %q and environment %q", w.Args, w.Env)
		}
		if w.ReadErr == "" || w.ListErr == "" || w.DialErr == "" {
			t.Errorf("the guest reached files or the network: %+v", w)
		}
		// wazero's fake wall clock starts at 2022-01-01 and does not follow the host's.
		if now := time.Now().Unix(); w.UnixTime > now-365*24*3600 {
			t.Errorf("the guest's clock reads %v, close to the host's %v", time.Unix(w.UnixTime, 0), time.Unix(now, 0))
		}
	})
}

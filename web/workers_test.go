package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// health is what /healthz and /metrics say of the pool.
type health struct {
	status    int
	instances int64 // /healthz
	exits     int64 // /healthz
	gauge     int64 // playground_sandbox_instances in /metrics
	exitsSeen int64 // playground_sandbox_worker_exits_total in /metrics
}

var (
	instancesGauge = regexp.MustCompile(`(?m)^playground_sandbox_instances (\d+)$`)
	exitsCounter   = regexp.MustCompile(`(?m)^playground_sandbox_worker_exits_total (\d+)$`)
)

func (f *fixture) health(t *testing.T) health {
	t.Helper()
	rec := f.do(http.MethodGet, "/healthz", "")
	var h struct {
		Status      string
		Instances   int64
		PoolSize    int
		WorkerExits int64
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil || h.Status != "ok" || h.PoolSize != 1 {
		t.Fatalf("healthz %d %s", rec.Code, rec.Body)
	}
	m := f.do(http.MethodGet, "/metrics", "").Body.String()
	gauge, exits := instancesGauge.FindStringSubmatch(m), exitsCounter.FindStringSubmatch(m)
	if gauge == nil || exits == nil {
		t.Fatalf("metrics lack the instances gauge or the exits counter:\n%s", m)
	}
	n, _ := strconv.ParseInt(gauge[1], 10, 64)
	e, _ := strconv.ParseInt(exits[1], 10, 64)
	return health{status: rec.Code, instances: h.Instances, exits: h.WorkerExits, gauge: n, exitsSeen: e}
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

// TestHealthFollowsAWorkerThatDies: a worker killed while it waits for a
// run is counted out of /healthz and /metrics when it dies, without any
// run, and back in once its successor is warm.
func TestHealthFollowsAWorkerThatDies(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the workers in Linux's /proc")
	}
	f := newFixture(t, wasmtest.Build(t), smallLimits(), nil)
	if h := f.health(t); h.status != http.StatusOK || h.instances != 1 || h.gauge != 1 || h.exits != 0 {
		t.Fatalf("before: %+v", h)
	}
	old := onlyWorker(t)
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var fromHealthz, fromMetrics []int64
	deadline := time.Now().Add(time.Minute)
	for {
		h := f.health(t)
		if h.status != http.StatusOK {
			t.Fatalf("healthz answered %d while a worker was replaced", h.status)
		}
		if len(fromHealthz) == 0 || fromHealthz[len(fromHealthz)-1] != h.instances {
			fromHealthz = append(fromHealthz, h.instances)
		}
		if len(fromMetrics) == 0 || fromMetrics[len(fromMetrics)-1] != h.gauge {
			fromMetrics = append(fromMetrics, h.gauge)
		}
		if h.exits == 1 && h.exitsSeen == 1 && h.instances == 1 && h.gauge == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: %+v", h)
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("live instances after the kill: /healthz %v, /metrics %v", fromHealthz, fromMetrics)
	// A new worker takes a few hundred milliseconds to start.
	if !slices.Contains(fromHealthz, 0) || !slices.Contains(fromMetrics, 0) {
		t.Errorf("the live count never dropped to 0: /healthz %v, /metrics %v", fromHealthz, fromMetrics)
	}
	if w := onlyWorker(t); w == old {
		t.Errorf("worker %d still runs", old)
	}
	if st := f.sb.Stats(); st.Runs != 0 {
		t.Errorf("stats %+v: the pool needed a run to notice", st)
	}
	if rec := f.do(http.MethodPost, "/api/run", hello); rec.Code != http.StatusOK {
		t.Fatalf("after the kill: %d %s", rec.Code, rec.Body)
	}
	if st := f.sb.Stats(); st.Retries != 0 {
		t.Errorf("stats %+v: the run after the kill met a dead worker", st)
	}
}

// TestWorkerKilledUnderARunAnswers200: the run is run again on a fresh
// worker and answers the engine's Result.
func TestWorkerKilledUnderARunAnswers200(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the workers in Linux's /proc")
	}
	l := smallLimits()
	l.WallTime = time.Minute // the retry, not the clock, is under test
	f := newFixture(t, wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), l, nil)
	want, err := abi.HandleRequest(engine.Request{Snippet: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	worker := onlyWorker(t)
	done := make(chan *struct {
		code int
		body string
	}, 1)
	go func() {
		rec := f.do(http.MethodPost, "/api/run", `{"snippet":"slow"}`)
		done <- &struct {
			code int
			body string
		}{rec.Code, rec.Body.String()}
	}()
	deadline := time.Now().Add(time.Minute)
	for f.sb.Stats().Running == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the run did not start within a minute")
		}
		time.Sleep(time.Millisecond)
	}
	if err := syscall.Kill(worker, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.code != http.StatusOK || got.body != string(want)+"\n" {
		t.Fatalf("%d %.300s, want 200 and the engine's Result %.300s", got.code, got.body, want)
	}
	if st := f.sb.Stats(); st.Retries != 1 || st.Exits != 1 || st.Crashes != 0 {
		t.Errorf("stats %+v, want one exit and one retry", st)
	}
}

package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
)

// The metrics are written by hand in Prometheus' text format (version
// 0.0.4): a dozen counters and one histogram do not justify the client
// library and its dependencies.

// runStatuses are the label values of playground_runs_total: the Result
// statuses, "canceled" for a run whose client went away, and "error" for
// a run that produced no Result for another reason.
var runStatuses = [...]string{engine.StatusOK, engine.StatusPanicked, engine.StatusRejected, "canceled", "error"}

// latencyBuckets are the upper bounds of the run latency histogram: from a
// warm run of a small snippet to the default wall time limit.
var latencyBuckets = [...]time.Duration{
	250 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2500 * time.Microsecond, 5 * time.Millisecond,
	10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2500 * time.Millisecond,
}

// Limits the server refuses requests for, besides the sandbox's.
const (
	limitBody    = "body"
	limitSnippet = "snippet"
	limitState   = "state"
	limitRate    = "rate"
	// limitClientRuns: a run from a client with RateLimit.ClientRuns
	// runs in the sandbox already.
	limitClientRuns = "client_runs"
)

type metrics struct {
	runs    [len(runStatuses)]atomic.Int64
	buckets [len(latencyBuckets) + 1]atomic.Int64
	sumNS   atomic.Int64

	body, snippet, state atomic.Int64 // requests refused with 413
	rate                 atomic.Int64 // requests refused with 429 by the rate limit
	clientRuns           atomic.Int64 // runs refused because their client had enough in the sandbox

	databaseErrors atomic.Int64 // share reads and writes that found the database unreachable
}

func (m *metrics) observe(status string, took time.Duration) {
	for i, s := range runStatuses {
		if s == status {
			m.runs[i].Add(1)
			break
		}
	}
	i := 0
	for i < len(latencyBuckets) && took > latencyBuckets[i] {
		i++
	}
	m.buckets[i].Add(1)
	m.sumNS.Add(int64(took))
}

func (m *metrics) refuse(limit string) {
	switch limit {
	case limitBody:
		m.body.Add(1)
	case limitSnippet:
		m.snippet.Add(1)
	case limitState:
		m.state.Add(1)
	case limitRate:
		m.rate.Add(1)
	case limitClientRuns:
		m.clientRuns.Add(1)
	}
}

// write prints every metric. stats is nil when the sandbox did not start;
// database is the share store's state (Server.databaseState).
func (m *metrics) write(w io.Writer, stats *wasm.Stats, database string) {
	family(w, "playground_runs_total", "counter", "Runs through the sandbox, by Result status; canceled and error mean no Result.")
	for i, s := range runStatuses {
		fmt.Fprintf(w, "playground_runs_total{status=%q} %d\n", s, m.runs[i].Load())
	}

	family(w, "playground_run_duration_seconds", "histogram", "Time a run spent in the sandbox, queueing included.")
	var cumulative int64
	for i, le := range latencyBuckets {
		cumulative += m.buckets[i].Load()
		fmt.Fprintf(w, "playground_run_duration_seconds_bucket{le=%q} %d\n", strconv.FormatFloat(le.Seconds(), 'g', -1, 64), cumulative)
	}
	cumulative += m.buckets[len(latencyBuckets)].Load()
	fmt.Fprintf(w, "playground_run_duration_seconds_bucket{le=\"+Inf\"} %d\n", cumulative)
	fmt.Fprintf(w, "playground_run_duration_seconds_sum %s\n", strconv.FormatFloat(time.Duration(m.sumNS.Load()).Seconds(), 'g', -1, 64))
	fmt.Fprintf(w, "playground_run_duration_seconds_count %d\n", cumulative)

	var s wasm.Stats
	if stats != nil {
		s = *stats
	}
	family(w, "playground_limit_hits_total", "counter", "Requests and runs stopped by a limit.")
	for _, hit := range []struct {
		limit string
		n     int64
	}{
		{"body", m.body.Load()}, {"snippet", m.snippet.Load()}, {"state", m.state.Load()}, {"rate", m.rate.Load()}, {"client_runs", m.clientRuns.Load()},
		{"queue", s.Busy}, {"time", s.TimeLimits}, {"memory", s.MemoryLimits}, {"result", s.ResultLimits},
	} {
		fmt.Fprintf(w, "playground_limit_hits_total{limit=%q} %d\n", hit.limit, hit.n)
	}

	gauge(w, "playground_sandbox_up", "1 if the sandbox started.", boolInt(stats != nil))
	gauge(w, "playground_sandbox_pool_size", "Configured sandbox instances.", int64(s.PoolSize))
	gauge(w, "playground_sandbox_instances", "Live sandbox instances: a worker that dies is counted out when it dies.", s.Instances)
	gauge(w, "playground_sandbox_running", "Runs executing now.", s.Running)
	gauge(w, "playground_sandbox_waiting", "Runs waiting for an instance.", s.Waiting)
	counter(w, "playground_sandbox_crashes_total", "Runs answered playground-sandbox-stopped: their instance ended under them, and so did a fresh one.", s.Crashes)
	counter(w, "playground_sandbox_recycled_total", "Instances replaced because their memory had grown.", s.Recycled)
	counter(w, "playground_sandbox_retries_total", "Runs run again on a fresh instance after theirs ran out of memory or ended under them.", s.Retries)
	counter(w, "playground_sandbox_worker_exits_total", "Workers that ended on their own (killed from outside, say), and were replaced.", s.Exits)

	if database != databaseOff {
		gauge(w, "playground_database_up", "1 if the database of shared states answered a ping now.", boolInt(database == databaseOK))
		counter(w, "playground_database_errors_total", "Share reads and writes answered 503 because the database could not be reached.", m.databaseErrors.Load())
	}
}

// observedShares is the server's share store: it counts the reads and
// writes that found the database unreachable, for the API and the pages
// alike.
type observedShares struct {
	ShareStore
	m *metrics
}

func (o observedShares) Put(ctx context.Context, state []byte) (string, error) {
	id, err := o.ShareStore.Put(ctx, state)
	o.count(err)
	return id, err
}

func (o observedShares) Get(ctx context.Context, id string) ([]byte, error) {
	state, err := o.ShareStore.Get(ctx, id)
	o.count(err)
	return state, err
}

func (o observedShares) count(err error) {
	if errors.Is(err, store.ErrUnavailable) {
		o.m.databaseErrors.Add(1)
	}
}

func family(w io.Writer, name, kind, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, kind)
}

func gauge(w io.Writer, name, help string, v int64) {
	family(w, name, "gauge", help)
	fmt.Fprintf(w, "%s %d\n", name, v)
}

func counter(w io.Writer, name, help string, v int64) {
	family(w, name, "counter", help)
	fmt.Fprintf(w, "%s %d\n", name, v)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
)

// The sandbox has a few instances for every client. A client within its
// rate limit could still hold all of them, and fill the queue behind them,
// with runs that take the whole wall time: two runs a second of 2 s each
// keep four instances busy. So admission also counts what a client has in
// the sandbox (RateLimit.ClientRuns: one run at a time by default, which
// leaves every other instance and place in the queue to the others) and
// what its runs cost (RateLimit.TimeCost: a run stopped by the wall time
// pays for the time it took, so a client that keeps hitting the limit is
// slowed down long before anyone else is).

// codeRunInProgress answers a run from a client that has
// RateLimit.ClientRuns runs in the sandbox already.
const codeRunInProgress = "run_in_progress"

// clients is what the server keeps per client.
type clients struct {
	rate     *limiter  // nil: no rate limit
	runs     *inFlight // nil: no bound on a client's runs at once
	timeCost time.Duration
}

func newClients(cfg RateLimit, now func() time.Time) *clients {
	cl := &clients{}
	if cfg.PerSecond > 0 {
		cl.rate = newLimiter(cfg, now)
		cl.timeCost = max(cfg.TimeCost, 0)
	}
	if cfg.ClientRuns > 0 {
		cl.runs = &inFlight{limit: cfg.ClientRuns, runs: map[string]int{}}
	}
	return cl
}

// limited reports whether any per-client limit is on.
func (cl *clients) limited() bool { return cl.rate != nil || cl.runs != nil }

type clientContextKey struct{}

// withClient records the client a request counts against for its runs.
func withClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientContextKey{}, client)
}

// clientFrom is the client withClient recorded; ok is false for a run
// that no client limit applies to.
func clientFrom(ctx context.Context) (client string, ok bool) {
	client, ok = ctx.Value(clientContextKey{}).(string)
	return client, ok
}

// admit lets a run of the client in ctx into the sandbox, or refuses it
// with 429 when the client has as many runs there as it may. Call done
// once the run is over, with its Result (nil when it has none), the time
// it took, and, for a sandbox, settle (see Server.settle).
func (cl *clients) admit(ctx context.Context) (done func(result []byte, took time.Duration, settle func()), err error) {
	client, ok := clientFrom(ctx)
	if cl == nil || !ok || !cl.limited() {
		return func([]byte, time.Duration, func()) {}, nil
	}
	if cl.runs != nil && !cl.runs.acquire(client) {
		return nil, &apiError{Status: http.StatusTooManyRequests, Code: codeRunInProgress,
			Message: fmt.Sprintf("this client already has a run in progress, and may have %d at once "+
				"(a run stopped by a limit counts until the sandbox has replaced the instance it used up); retry once it has finished", cl.runs.limit)}
	}
	return func(result []byte, took time.Duration, settle func()) {
		stopped := stoppedByLimit(result)
		if cl.rate != nil && stopped && cl.timeCost > 0 {
			cl.rate.charge(client, float64(took/cl.timeCost))
		}
		if cl.runs == nil {
			return
		}
		if stopped && settle != nil {
			go func() {
				settle()
				cl.runs.release(client)
			}()
			return
		}
		cl.runs.release(client)
	}, nil
}

// A run that finished by itself costs nothing more however long it took:
// with ClientRuns it holds one instance, and the engine's step budget
// bounds it. A run stopped by a limit costs a request per
// RateLimit.TimeCost it took (the wall time's whole length for an endless
// loop), and keeps its client's place in ClientRuns until the sandbox has
// replaced the instance it used up: a worker that was killed takes 0.3 s
// and more to start again, and its slot is taken meanwhile, so without
// that a client could hold one instance with a run and another with the
// wreck of its last one.

// settleWait bounds how long a client's place stays taken after its run,
// while the sandbox replaces an instance.
const settleWait = 10 * time.Second

// settle returns, for a server with a sandbox, a function that waits until
// the sandbox has all its instances again (at most settleWait).
func (s *Server) settle() func() {
	sb := s.cfg.Sandbox
	if sb == nil || s.cfg.Runner != nil {
		return nil
	}
	return func() {
		deadline := time.Now().Add(settleWait)
		for st := sb.Stats(); st.Instances < int64(st.PoolSize) && time.Now().Before(deadline); st = sb.Stats() {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// limitCodes are the codes of a Result whose run a limit on time or
// memory stopped: the sandbox's wall time and memory limit, and the
// engine's step budget (the same code as the wall time).
var limitCodes = []string{wasm.CodeTimeLimit, wasm.CodeMemoryLimit}

// stoppedByLimit reports whether result is the Result of a run that a
// limit on time or memory stopped: rejected, with a diagnostic of one of
// limitCodes. Only a Result whose bytes hold such a code is decoded.
func stoppedByLimit(result []byte) bool {
	if statusOf(result) != engine.StatusRejected {
		return false
	}
	found := false
	for _, code := range limitCodes {
		found = found || bytes.Contains(result, []byte(`"code":"`+code+`"`))
	}
	if !found {
		return false
	}
	var r struct {
		Diagnostics []struct {
			Code string `json:"code"`
		} `json:"diagnostics"`
	}
	if json.Unmarshal(result, &r) != nil {
		return false
	}
	for _, d := range r.Diagnostics {
		for _, code := range limitCodes {
			if d.Code == code {
				return true
			}
		}
	}
	return false
}

// inFlight counts each client's runs in the sandbox. It holds only the
// clients with a run there, so it is as large as the runs in progress.
type inFlight struct {
	limit int

	mu   sync.Mutex
	runs map[string]int
}

// acquire counts one more run of client, unless it has limit already.
func (f *inFlight) acquire(client string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.runs[client] >= f.limit {
		return false
	}
	f.runs[client]++
	return true
}

// release counts a run of client out.
func (f *inFlight) release(client string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := f.runs[client] - 1; n > 0 {
		f.runs[client] = n
	} else {
		delete(f.runs, client)
	}
}

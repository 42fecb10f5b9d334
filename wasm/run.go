package wasm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// A run's Result must depend on its request alone, never on what the
// instance ran before or on a worker that died while it waited. So:
//
//   - an instance that ran out of memory is replaced, and the request is run
//     once more on a fresh instance, which holds nothing of earlier runs,
//     before the memory limit is reported. Whether a request fits then
//     depends on the request alone: the garbage of earlier runs and the
//     heap they grew no longer decide it. A run that ran out on a fresh
//     instance already is not run again.
//   - an instance that ended under a run for another reason (its guest
//     trapped, its worker died or was killed from outside) is replaced, and
//     the request is run once more on a fresh instance; if that one ends
//     too, the Result is SandboxStoppedResult, never an error.
//   - a worker that dies while it waits for a run is noticed when it dies
//     (watch) and replaced, so that the live count (Stats.Instances) is
//     true and no run meets a dead worker.
//
// A run is retried at most once, and each attempt has the whole wall time.

// RunJSON runs one request and returns the Result JSON, byte for byte what
// abi.HandleRequest returns natively for it. A run stopped by a limit
// returns the Result that says so, not an error.
func (s *Sandbox) RunJSON(ctx context.Context, req engine.Request) ([]byte, error) {
	select {
	case s.admitted <- struct{}{}:
	default:
		s.counters.busy.Add(1)
		return nil, ErrBusy
	}
	defer func() { <-s.admitted }()

	var in runner
	select {
	case <-s.slots.ready:
		in = s.slots.pop()
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, ErrClosed
	}
	if s.isClosed() {
		// select chose the slot over a closed sandbox.
		s.slots.put(in)
		return nil, ErrClosed
	}
	if in == nil {
		var err error
		if in, err = s.instantiate(); err != nil {
			s.slots.put(nil)
			s.log.Error("sandbox: start an instance", "err", err)
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}

	for attempt := 1; ; attempt++ {
		if attempt > 1 && ctx.Err() != nil {
			// The caller went away while the fresh instance started.
			s.release(in)
			return nil, ctx.Err()
		}
		fresh := !in.used()
		s.counters.running.Add(1)
		runCtx, cancel := context.WithTimeout(ctx, s.limits.WallTime)
		out, err := in.call(runCtx, req)
		cancel()
		s.counters.running.Add(-1)

		switch {
		case err == nil:
			s.counters.runs.Add(1)
			s.release(in)
			if len(out) > s.limits.ResultBytes {
				s.counters.resultLimits.Add(1)
				return abi.Encode(ResultLimitResult(req.Snippet, len(out), s.limits.ResultBytes))
			}
			return out, nil
		case errors.Is(err, abi.ErrBadRequest):
			// Refused before the guest ran anything.
			s.slots.put(in)
			return nil, err
		}

		stderr := in.guestStderr()
		outOfMemory := strings.Contains(stderr, "out of memory")
		if errors.Is(err, errWorkerDied) {
			s.counters.exits.Add(1)
		}
		stopped := !errors.Is(err, context.DeadlineExceeded) && !outOfMemory
		canRetry := attempt == 1 && ctx.Err() == nil && !s.isClosed()
		if canRetry && (stopped || outOfMemory && !fresh) {
			s.discard(in, "run failed, run again on a fresh instance", slog.String("err", err.Error()), slog.String("stderr", stderr))
			s.counters.retries.Add(1)
			next, startErr := s.instantiate()
			if startErr != nil {
				s.slots.put(nil)
				if s.isClosed() {
					return nil, ErrClosed
				}
				s.log.Error("sandbox: start an instance", "err", startErr)
				return nil, fmt.Errorf("%w: %v", ErrUnavailable, startErr)
			}
			in = next
			continue
		}

		s.replace(in, "run failed", slog.String("err", err.Error()), slog.String("stderr", stderr))
		switch {
		case s.isClosed():
			return nil, ErrClosed
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			s.counters.runs.Add(1)
			s.counters.timeLimits.Add(1)
			return abi.Encode(TimeLimitResult(req.Snippet, s.limits.WallTime))
		case outOfMemory:
			s.counters.runs.Add(1)
			s.counters.memoryLimits.Add(1)
			return abi.Encode(MemoryLimitResult(req.Snippet, s.limits.MemoryPages))
		}
		s.counters.runs.Add(1)
		s.counters.crashes.Add(1)
		s.log.Error("sandbox: the instance stopped twice on one request", "err", err.Error(), "stderr", firstLines(stderr, 3))
		return abi.Encode(SandboxStoppedResult(req.Snippet))
	}
}

// release returns an instance that answered to the pool, or replaces it
// when its memory grew past Limits.RecyclePages (wasm memory never shrinks)
// or its worker ended after answering.
func (s *Sandbox) release(in runner) {
	if pages := in.memoryPages(); pages > s.limits.RecyclePages {
		s.counters.recycled.Add(1)
		s.replace(in, "memory grew", slog.Uint64("pages", uint64(pages)))
		return
	}
	s.mu.Lock()
	if p, ok := in.(*process); ok && !s.closed && p.hasExited() {
		// watch saw it end while it was out of the pool and left it to
		// us; once it is back in the pool, watch takes care of it.
		s.mu.Unlock()
		s.counters.exits.Add(1)
		s.replace(in, "the worker ended after its run")
		return
	}
	s.slots.put(in)
	s.mu.Unlock()
}

// discard counts an instance out and closes it; its slot stays with the
// caller.
func (s *Sandbox) discard(in runner, why string, attrs ...any) {
	// Counted out first, so that watch, seeing the worker end, knows the
	// pool ended it.
	s.mu.Lock()
	if !s.closed {
		// Close has counted every instance out already.
		s.retire(in)
	}
	s.mu.Unlock()
	_ = in.close(context.Background())
	s.log.Info("sandbox: replace instance", append([]any{"why", why}, attrs...)...)
}

// retire counts a live instance out: the caller holds mu.
func (s *Sandbox) retire(in runner) {
	if p, ok := in.(*process); ok {
		if _, live := s.workers[p]; !live {
			return
		}
		delete(s.workers, p)
	}
	s.counters.instances.Add(-1)
}

// replace closes in and starts its successor in the background, so the run
// that failed can answer at once; the slot stays taken until the successor
// is ready, or is returned empty if it cannot start.
func (s *Sandbox) replace(in runner, why string, attrs ...any) {
	s.discard(in, why, attrs...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		s.slots.put(nil)
		return
	}
	s.replacing.Add(1)
	go func() {
		defer s.replacing.Done()
		next, err := s.instantiate()
		if err != nil {
			s.log.Error("sandbox: start an instance", "err", err)
			next = nil
		}
		s.slots.put(next)
	}()
}

// watch waits for a worker to end, and replaces it if it ended on its own
// while it waited in the pool. A worker out of the pool, with a run, is
// the run's to deal with (RunJSON, release).
func (s *Sandbox) watch(p *process) {
	select {
	case <-p.exited:
	case <-s.done:
		return
	}
	s.mu.Lock()
	_, live := s.workers[p]
	if s.closed || !live || !s.slots.swap(p, nil) {
		s.mu.Unlock()
		return
	}
	s.retire(p)
	s.counters.exits.Add(1)
	s.replacing.Add(1)
	s.mu.Unlock()
	s.log.Warn("sandbox: a worker ended while it waited for a run; replacing it",
		"state", p.cmd.ProcessState.String(), "stderr", firstLines(p.stderr.String(), 3))
	_ = p.close(context.Background())
	go func() {
		defer s.replacing.Done()
		next, err := s.instantiate()
		if err != nil {
			// The slot stays empty: the next run starts an instance.
			s.log.Error("sandbox: start an instance", "err", err)
			return
		}
		s.mu.Lock()
		filled := !s.closed && s.slots.swap(nil, next)
		s.mu.Unlock()
		if !filled {
			// A run took the empty slot and started its own instance.
			s.discard(next, "its slot was filled meanwhile")
		}
	}()
}

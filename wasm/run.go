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
// instance ran before: an instance that ran out of memory is replaced, and
// the request is run once more on a fresh instance, which holds nothing of
// earlier runs, before the memory limit is reported. Whether a request fits
// then depends on the request alone: the garbage of earlier runs and the
// heap they grew no longer decide it. A run that ran out on a fresh instance
// already is not run again, and a run is retried at most once, each attempt
// with the whole wall time.

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
		canRetry := attempt == 1 && ctx.Err() == nil && !s.isClosed()
		if canRetry && outOfMemory && !fresh {
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
		s.counters.crashes.Add(1)
		return nil, fmt.Errorf("%w: %v: %s", ErrCrashed, err, firstLines(stderr, 3))
	}
}

// release returns an instance that answered to the pool, or replaces it
// when its memory grew past Limits.RecyclePages (wasm memory never shrinks).
func (s *Sandbox) release(in runner) {
	if pages := in.memoryPages(); pages > s.limits.RecyclePages {
		s.counters.recycled.Add(1)
		s.replace(in, "memory grew", slog.Uint64("pages", uint64(pages)))
		return
	}
	s.slots.put(in)
}

// discard counts an instance out and closes it; its slot stays with the
// caller.
func (s *Sandbox) discard(in runner, why string, attrs ...any) {
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

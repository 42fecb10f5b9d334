package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/dispatch-playground/playground/engine"
)

// Errors of Run. A run stopped by a limit is not an error: it has a Result
// that says which limit it hit.
var (
	// ErrBusy: every instance is running and the queue is full.
	ErrBusy = errors.New("wasm: every instance is busy and the queue is full")
	// ErrUnavailable: no instance could be started.
	ErrUnavailable = errors.New("wasm: the sandbox cannot start an instance")
	// ErrClosed: the sandbox was closed.
	ErrClosed = errors.New("wasm: the sandbox is closed")
	// ErrCrashed was the error of a run whose guest trapped for a reason
	// other than a limit. Such a run is now run again on a fresh instance,
	// and answered with SandboxStoppedResult if that one ends too (see
	// run.go), so Run no longer returns it; it stays for callers that
	// still map it.
	ErrCrashed = errors.New("wasm: the engine crashed")
)

// instantiateTimeout bounds starting one instance and its warm-up run
// (about a second together).
const instantiateTimeout = 30 * time.Second

// Isolation says where a Sandbox's instances run.
type Isolation int

const (
	// InProcess runs every instance in this process. wazero then checks
	// for a closed module at every loop iteration of the guest
	// (WithCloseOnContextDone), which is how a deadline stops a spinning
	// guest without hanging the host, and which makes a run take about
	// twice as long.
	InProcess Isolation = iota
	// ProcessIsolation runs each instance in a worker process (this
	// program started again, see WorkerEnv), compiled without those checks:
	// a run that overruns its deadline is stopped by killing its worker.
	// Workers share compiled code through a directory, so a new one starts
	// in well under a second.
	ProcessIsolation
)

// String is the name --isolation takes.
func (i Isolation) String() string {
	switch i {
	case InProcess:
		return "in-process"
	case ProcessIsolation:
		return "process"
	}
	return fmt.Sprintf("Isolation(%d)", int(i))
}

// Set reads a name String returns, so that an Isolation is a flag.Value.
func (i *Isolation) Set(s string) error {
	for _, known := range []Isolation{InProcess, ProcessIsolation} {
		if s == known.String() {
			*i = known
			return nil
		}
	}
	return fmt.Errorf("%q is neither %q nor %q", s, InProcess, ProcessIsolation)
}

// Config configures New.
type Config struct {
	// Module is the bytes of engine.wasm.
	Module []byte
	Limits Limits
	// Isolation is where instances run; the zero value is InProcess.
	Isolation Isolation
	// WorkerCommand starts a worker for ProcessIsolation. Nil means this
	// program, which can serve as one because it imports this package.
	WorkerCommand []string
	// CacheDir keeps compiled code on disk, so that a restart skips
	// compiling. ProcessIsolation needs a directory for its workers to share
	// and makes a temporary one, removed by Close, when this is empty.
	CacheDir string
	// Cache shares compiled code between InProcess sandboxes of one
	// process. Nil means CacheDir's, or none: the sandbox compiles once.
	Cache wazero.CompilationCache
	// Logger receives a record for every instance replaced after a failure.
	// Nil discards them.
	Logger *slog.Logger
	// WorkerUser, a user name or uid, is the user ProcessIsolation's
	// workers run as when this process runs as root (see harden.go). Empty
	// means this process's user.
	WorkerUser string
}

// Sandbox runs requests through a pool of engine.wasm instances. It is safe
// for concurrent use.
type Sandbox struct {
	limits    Limits
	isolation Isolation
	log       *slog.Logger

	// InProcess: the runtime the instances live in.
	runtime  wazero.Runtime
	compiled wazero.CompiledModule

	// ProcessIsolation: how to start a worker, and the live ones, which
	// Close kills.
	module   []byte
	command  []string
	cacheDir string
	tempDir  string // a cacheDir of our own, removed by Close
	workers  map[*process]struct{}
	policy   *workerPolicy // how workers start: their user, environment and limits

	// slots holds one entry per idle pool slot: an instance, or nil for a
	// slot whose instance was discarded and not yet replaced.
	slots *slots
	// admitted holds a token for each run either executing or waiting.
	admitted chan struct{}

	done chan struct{}
	// mu orders replace against Close: a replacement starts only while the
	// sandbox is open, and Close waits for those already started. It also
	// guards workers.
	mu        sync.Mutex
	closed    bool
	replacing sync.WaitGroup

	counters counters
}

type counters struct {
	instances, running                                                    atomic.Int64
	runs, busy, timeLimits, memoryLimits, resultLimits, crashes, recycled atomic.Int64
	retries, exits                                                        atomic.Int64
}

// Stats is a snapshot of the sandbox's gauges and counters.
type Stats struct {
	PoolSize  int   // configured instances
	Instances int64 // live instances
	Running   int64 // runs executing now
	Waiting   int64 // runs admitted and waiting for an instance

	Runs         int64 // runs that returned a Result
	Busy         int64 // runs refused with ErrBusy
	TimeLimits   int64 // runs stopped by the wall time limit
	MemoryLimits int64 // runs stopped by the memory limit
	ResultLimits int64 // runs whose Result was over the size limit
	// Crashes counts runs answered with SandboxStoppedResult: their
	// instance ended under them, and so did the fresh one they were run
	// on again.
	Crashes  int64
	Recycled int64 // instances replaced because their memory had grown
	// Retries counts runs run again on a fresh instance, after their
	// instance ran out of memory or ended under them.
	Retries int64
	// Exits counts workers that ended on their own (killed from outside,
	// say), noticed when they ended if they were waiting for a run, or by
	// their run.
	Exits int64
}

// New compiles the module and starts Limits.PoolSize instances.
func New(ctx context.Context, cfg Config) (*Sandbox, error) {
	if err := cfg.Limits.validate(); err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Sandbox{
		limits:    cfg.Limits,
		log:       logger,
		isolation: cfg.Isolation,
		slots:     newSlots(cfg.Limits.PoolSize),
		admitted:  make(chan struct{}, cfg.Limits.PoolSize+cfg.Limits.QueueLength),
		done:      make(chan struct{}),
	}
	var err error
	switch cfg.Isolation {
	case InProcess:
		err = s.compileInProcess(ctx, cfg)
	case ProcessIsolation:
		err = s.prepareWorkers(ctx, cfg)
	default:
		err = fmt.Errorf("unknown %v", cfg.Isolation)
	}
	if err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	// Start the instances side by side: each warm-up takes a while.
	started := make(chan error, cfg.Limits.PoolSize)
	for range cfg.Limits.PoolSize {
		go func() {
			in, err := s.instantiate()
			if err == nil {
				s.slots.put(in)
			}
			started <- err
		}()
	}
	var errs []error
	for range cfg.Limits.PoolSize {
		errs = append(errs, <-started)
	}
	if err := errors.Join(errs...); err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return s, nil
}

// compileInProcess starts the runtime the instances will share.
func (s *Sandbox) compileInProcess(ctx context.Context, cfg Config) error {
	rc := runtimeConfig(true, cfg.Limits.MemoryPages)
	dir := cfg.CacheDir
	if cfg.Cache != nil {
		rc, dir = rc.WithCompilationCache(cfg.Cache), ""
	}
	rt, err := newRuntime(ctx, rc, dir)
	if err != nil {
		return err
	}
	s.runtime = rt
	s.compiled, err = compile(ctx, rt, cfg.Module)
	return err
}

// prepareWorkers compiles the module into the directory the workers load
// it from, so that they start without compiling, and a module that does not
// compile fails here, once.
func (s *Sandbox) prepareWorkers(ctx context.Context, cfg Config) error {
	s.module, s.command, s.cacheDir = cfg.Module, cfg.WorkerCommand, cfg.CacheDir
	s.workers = map[*process]struct{}{}
	policy, err := newWorkerPolicy(cfg.WorkerUser, cfg.Limits)
	if err != nil {
		return err
	}
	s.policy = policy
	if s.command == nil {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find this program to start workers: %w", err)
		}
		s.command = []string{exe}
	}
	if s.cacheDir == "" {
		dir, err := os.MkdirTemp("", "playground-wazero-")
		if err != nil {
			return err
		}
		s.cacheDir, s.tempDir = dir, dir
	}
	rt, err := newRuntime(ctx, runtimeConfig(false, cfg.Limits.MemoryPages), s.cacheDir)
	if err != nil {
		return err
	}
	_, err = compile(ctx, rt, cfg.Module)
	_ = rt.Close(ctx)
	// Compiling takes a few hundred MB that this process no longer needs.
	debug.FreeOSMemory()
	if err != nil {
		return err
	}
	return s.shareCompiledCode()
}

// Run runs one request and decodes its Result.
func (s *Sandbox) Run(ctx context.Context, req engine.Request) (engine.Result, error) {
	out, err := s.RunJSON(ctx, req)
	if err != nil {
		return engine.Result{}, err
	}
	var res engine.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return engine.Result{}, fmt.Errorf("decode the guest's Result: %w", err)
	}
	return res, nil
}

// Isolation is where the instances run.
func (s *Sandbox) Isolation() Isolation { return s.isolation }

// Stats returns the current gauges and counters.
func (s *Sandbox) Stats() Stats {
	c := &s.counters
	running := c.running.Load()
	return Stats{
		PoolSize:     s.limits.PoolSize,
		Instances:    c.instances.Load(),
		Running:      running,
		Waiting:      max(0, int64(len(s.admitted))-running),
		Runs:         c.runs.Load(),
		Busy:         c.busy.Load(),
		TimeLimits:   c.timeLimits.Load(),
		MemoryLimits: c.memoryLimits.Load(),
		ResultLimits: c.resultLimits.Load(),
		Crashes:      c.crashes.Load(),
		Recycled:     c.recycled.Load(),
		Retries:      c.retries.Load(),
		Exits:        c.exits.Load(),
	}
}

// Close stops accepting runs, closes every instance and releases the
// compiled code. Runs still executing fail with ErrClosed.
func (s *Sandbox) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	s.mu.Unlock()
	s.replacing.Wait()
	var err error
	if s.runtime != nil {
		err = s.runtime.Close(ctx)
	}
	s.mu.Lock()
	for p := range s.workers {
		_ = p.close(ctx)
	}
	s.mu.Unlock()
	if s.tempDir != "" {
		err = errors.Join(err, os.RemoveAll(s.tempDir))
	}
	s.counters.instances.Store(0)
	return err
}

func (s *Sandbox) isClosed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// instantiate starts an instance and warms it up.
func (s *Sandbox) instantiate() (runner, error) {
	ctx, cancel := context.WithTimeout(context.Background(), instantiateTimeout)
	defer cancel()
	if s.isolation == ProcessIsolation {
		return s.startWorker(ctx)
	}
	in, err := instantiate(ctx, s.runtime, s.compiled, s.limits.MemoryPages)
	if err != nil {
		return nil, err
	}
	if err := in.warm(ctx); err != nil {
		_ = in.close(context.Background())
		return nil, err
	}
	s.counters.instances.Add(1)
	return in, nil
}

func (s *Sandbox) startWorker(ctx context.Context) (runner, error) {
	p, err := startProcess(ctx, s.policy, s.command, s.cacheDir, s.module, s.limits.MemoryPages)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = p.close(ctx)
		return nil, ErrClosed
	}
	s.workers[p] = struct{}{}
	s.counters.instances.Add(1)
	go s.watch(p)
	return p, nil
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

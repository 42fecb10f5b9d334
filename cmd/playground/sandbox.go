package main

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/web"
)

// sandboxFlags are the sandbox's limits and where its module comes from.
type sandboxFlags struct {
	limits       wasm.Limits
	memoryPages  uint
	recyclePages uint
	module       string
	cacheDir     string
	isolation    wasm.Isolation
	workerUser   string // serve's --worker-user
}

func addSandboxFlags(fs *flag.FlagSet) *sandboxFlags {
	sf := &sandboxFlags{limits: wasm.DefaultLimits(), isolation: wasm.ProcessIsolation}
	fs.StringVar(&sf.module, "wasm", "", "engine.wasm to run (default: the one embedded in this binary)")
	fs.Var(&sf.isolation, "isolation", "where instances run: \"process\" (each in a worker process, killed when a run overruns: runs take about half as long) or \"in-process\" (wazero's loop checks stop an overrunning run)")
	fs.StringVar(&sf.cacheDir, "cache-dir", defaultCacheDir(), "directory for compiled engine code, so a restart skips compiling (empty: memory only)")
	fs.UintVar(&sf.memoryPages, "memory-pages", wasm.DefaultMemoryPages, "memory limit of an instance, in 64 KiB pages")
	fs.UintVar(&sf.recyclePages, "recycle-pages", wasm.DefaultRecyclePages, "replace an instance whose memory grew past this many pages")
	fs.DurationVar(&sf.limits.WallTime, "wall-time", wasm.DefaultWallTime, "wall time limit of a run")
	fs.IntVar(&sf.limits.ResultBytes, "max-result", wasm.DefaultResultBytes, "largest Result JSON of a run, in bytes")
	fs.IntVar(&sf.limits.PoolSize, "pool", sf.limits.PoolSize, "sandbox instances, so runs at once")
	fs.IntVar(&sf.limits.QueueLength, "queue", wasm.DefaultQueueLength, "runs that may wait for an instance before the server answers 429")
	return sf
}

func defaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "dispatch-playground", "wazero")
}

// errNoModule explains how to get an engine.wasm.
var errNoModule = errors.New("engine.wasm is not built into this binary: run `go tool task build:wasm` and rebuild, or pass --wasm PATH")

// moduleBytes reads --wasm, or the engine.wasm embedded from web/static.
func (sf *sandboxFlags) moduleBytes() ([]byte, error) {
	if sf.module != "" {
		return os.ReadFile(sf.module)
	}
	b, err := fs.ReadFile(web.Static(), web.EngineWasm)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoModule
	}
	return b, err
}

// start compiles the module and starts the pool.
func (sf *sandboxFlags) start(ctx context.Context, logger *slog.Logger) (*wasm.Sandbox, error) {
	if sf.memoryPages > 65536 || sf.recyclePages > 65536 {
		return nil, usageError("--memory-pages and --recycle-pages are at most 65536 (4 GiB)")
	}
	sf.limits.MemoryPages, sf.limits.RecyclePages = uint32(sf.memoryPages), uint32(sf.recyclePages)
	module, err := sf.moduleBytes()
	if err != nil {
		return nil, err
	}
	return wasm.New(ctx, wasm.Config{Module: module, Limits: sf.limits, Isolation: sf.isolation, CacheDir: sf.cacheDir, Logger: logger, WorkerUser: sf.workerUser})
}

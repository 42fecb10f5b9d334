// Package wasmtest builds guest modules for tests, so that `go test ./...`
// on a fresh clone needs no prior build step, and shares one compilation
// cache per test binary, so each module is compiled once.
//
// It is for tests only; servers and the CLI load web/static/engine.wasm.
package wasmtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm"
)

// GuestPackage is the package engine.wasm is built from.
const GuestPackage = "./wasm/guest"

// FaultGuestPackage is a guest with deliberate faults (see its doc).
const FaultGuestPackage = "./wasm/internal/faultguest"

// BuildFlags are the `go build` flags of engine.wasm, besides GOOS=wasip1
// GOARCH=wasm; the build:wasm task in Taskfile.yml uses the same (a test
// checks).
func BuildFlags() []string {
	return []string{"-buildmode=c-shared", "-trimpath", "-ldflags=-s -w"}
}

type built struct {
	module []byte
	err    error
}

var (
	mu     sync.Mutex
	builds = map[string]built{}
	cache  wazero.CompilationCache
	// cacheDir is shared by the ProcessIsolation sandboxes of a test binary.
	cacheDir string
)

// Build returns engine.wasm built from the working tree.
func Build(tb testing.TB) []byte { return BuildPackage(tb, GuestPackage) }

// BuildPackage builds the main package pkg (relative to the module root)
// for wasip1, once per test binary.
func BuildPackage(tb testing.TB, pkg string) []byte {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	b, ok := builds[pkg]
	if !ok {
		b.module, b.err = build(pkg)
		builds[pkg] = b
	}
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.module
}

func build(pkg string) ([]byte, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "wasmtest")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "module.wasm")
	args := append(append([]string{"build"}, BuildFlags()...), "-o", out, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return os.ReadFile(out)
}

// ModuleRoot is the directory of go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the module")
	}
	return filepath.Dir(gomod), nil
}

// Cache is the compilation cache shared by the sandboxes of this test binary.
func Cache() wazero.CompilationCache {
	mu.Lock()
	defer mu.Unlock()
	if cache == nil {
		cache = wazero.NewCompilationCache()
	}
	return cache
}

// NewSandbox starts an InProcess sandbox on module with the shared cache
// and closes it when the test ends.
func NewSandbox(tb testing.TB, module []byte, limits wasm.Limits) *wasm.Sandbox {
	tb.Helper()
	return NewIsolatedSandbox(tb, module, limits, wasm.InProcess)
}

// NewIsolatedSandbox starts a sandbox with the given isolation. Its workers
// are the test binary itself, which serves as one because it imports
// package wasm; they share a cache directory of this test binary's.
func NewIsolatedSandbox(tb testing.TB, module []byte, limits wasm.Limits, isolation wasm.Isolation) *wasm.Sandbox {
	tb.Helper()
	cfg := wasm.Config{Module: module, Limits: limits, Isolation: isolation, Cache: Cache()}
	if isolation == wasm.ProcessIsolation {
		cfg.Cache, cfg.CacheDir = nil, CacheDir(tb)
	}
	sb, err := wasm.New(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = sb.Close(context.Background()) })
	return sb
}

// CacheDir is a directory of compiled code shared by this test binary's
// workers, removed when the tests end only if the system cleans its
// temporary directory: tests have no hook after the last one.
func CacheDir(tb testing.TB) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if cacheDir == "" {
		dir, err := os.MkdirTemp("", "wasmtest-cache-")
		if err != nil {
			tb.Fatal(err)
		}
		cacheDir = dir
	}
	return cacheDir
}

// ReportCPU adds a cpu-ns/op metric to a benchmark: the CPU time of the
// whole process (every goroutine, the HTTP server's included) and of its
// sandbox workers per iteration. On a shared machine it varies less than
// ns/op, which counts the time other processes hold the CPUs too. Use as
// `defer wasmtest.ReportCPU(b)()` after the benchmark's setup.
func ReportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// cpuTime is the CPU time of this process, of the children it waited for,
// and of the live ones (workers, read from /proc in 10 ms steps).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total + procmem.ChildrenCPU(os.Getpid())
}

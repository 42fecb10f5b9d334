package wasm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// A worker is a child process that holds one instance for a Sandbox with
// ProcessIsolation. It is this same program, started again with WorkerEnv
// set: package wasm's init sees the variable and serves the protocol below
// on stdin and stdout instead of running main, so every program that can
// start a Sandbox can also be its worker, test binaries included.
//
// The protocol is a sequence of messages, each a kind byte, a number and a
// payload (see writeMessage). The parent sends msgStart once, then msgRun
// for each request; the worker answers msgStart with msgReady and each
// msgRun with msgResult, msgBadRequest or msgFailed. After msgFailed the
// worker exits: its instance is no longer trusted. It exits too when its
// stdin closes.

// WorkerEnv is the environment variable that makes this program a worker,
// and WorkerProtocol its value: the version of the protocol.
const (
	WorkerEnv      = "DISPATCH_PLAYGROUND_SANDBOX_WORKER"
	WorkerProtocol = "3"
)

// Kinds of messages.
const (
	// parent to worker
	msgStart   byte = 'S' // number: memory pages; payload: cache dir, NUL, resource limits (encodeRlimits), NUL, module
	msgRun     byte = 'R' // number: length of the config; payload: config then snippet
	msgRunJSON byte = 'J' // payload: a Request of contract version 2 as JSON (abi.NeedsJSON)
	// worker to parent
	msgReady      byte = 'Y' // number: memory pages
	msgResult     byte = 'O' // number: memory pages; payload: Result JSON
	msgBadRequest byte = 'B' // payload: the error
	msgFailed     byte = 'F' // number: memory pages; payload: the error, NUL, the guest's stderr
)

// maxMessage bounds a payload, so a corrupt length cannot make either side
// allocate gigabytes. The largest legitimate payload is the module.
const maxMessage = 256 << 20

func init() {
	switch os.Getenv(WorkerEnv) {
	case "":
		return
	case WorkerProtocol:
		closeInheritedFiles()
		os.Exit(serveWorker(os.Stdin, os.Stdout, os.Stderr))
	default:
		fmt.Fprintf(os.Stderr, "sandbox worker: protocol %q, this program speaks %q\n", os.Getenv(WorkerEnv), WorkerProtocol)
		os.Exit(2)
	}
}

func writeMessage(w *bufio.Writer, kind byte, n uint32, payload ...[]byte) error {
	var header [9]byte
	header[0] = kind
	binary.LittleEndian.PutUint32(header[1:5], n)
	size := 0
	for _, p := range payload {
		size += len(p)
	}
	if size > maxMessage {
		return fmt.Errorf("message of %d bytes is over the limit of %d", size, maxMessage)
	}
	binary.LittleEndian.PutUint32(header[5:9], uint32(size))
	w.Write(header[:])
	for _, p := range payload {
		w.Write(p)
	}
	return w.Flush()
}

// readMessage reads one message into buf's storage when it fits.
func readMessage(r *bufio.Reader, buf []byte) (kind byte, n uint32, payload []byte, err error) {
	var header [9]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return 0, 0, nil, err
	}
	size := binary.LittleEndian.Uint32(header[5:9])
	if size > maxMessage {
		return 0, 0, nil, fmt.Errorf("message of %d bytes is over the limit of %d", size, maxMessage)
	}
	if int(size) <= cap(buf) {
		payload = buf[:size]
	} else {
		payload = make([]byte, size)
	}
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, 0, nil, fmt.Errorf("message cut short: %w", err)
	}
	return header[0], binary.LittleEndian.Uint32(header[1:5]), payload, nil
}

// serveWorker is a worker's whole life; it returns the exit code.
func serveWorker(stdin io.Reader, stdout, stderr io.Writer) int {
	r, w := bufio.NewReaderSize(stdin, 64<<10), bufio.NewWriterSize(stdout, 64<<10)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sandbox worker: %v\n", err)
		return 1
	}
	kind, pages, payload, err := readMessage(r, nil)
	if err != nil {
		return fail(fmt.Errorf("read the start message: %w", err))
	}
	cacheDir, rest, ok := bytes.Cut(payload, []byte{0})
	encodedLimits, module, ok2 := bytes.Cut(rest, []byte{0})
	if kind != msgStart || !ok || !ok2 {
		return fail(fmt.Errorf("the first message is %q, not a start message", kind))
	}
	// The limits come before anything is compiled or loaded.
	limits, err := decodeRlimits(encodedLimits)
	if err == nil {
		err = setOwnRlimits(limits)
	}
	if err != nil {
		err = fmt.Errorf("set the resource limits: %w", err)
		_ = writeMessage(w, msgFailed, 0, []byte(err.Error()))
		return fail(err)
	}
	ctx := context.Background()
	in, err := startWorkerInstance(ctx, string(cacheDir), module, pages)
	if err != nil {
		_ = writeMessage(w, msgFailed, 0, []byte(err.Error()))
		return fail(err)
	}
	// Compiling or loading the code left garbage several times the size of
	// what stays; give it back before serving.
	payload, cacheDir, rest, module = nil, nil, nil, nil
	debug.FreeOSMemory()
	if err := writeMessage(w, msgReady, in.memoryPages()); err != nil {
		return fail(err)
	}
	var buf []byte
	for {
		kind, configLen, payload, err := readMessage(r, buf)
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			return fail(err)
		}
		if cap(payload) > cap(buf) {
			buf = payload
		}
		var req engine.Request
		switch {
		case kind == msgRunJSON:
			if req, err = abi.DecodeRequest(payload); err != nil {
				if werr := writeMessage(w, msgBadRequest, 0, []byte(err.Error())); werr != nil {
					return fail(werr)
				}
				continue
			}
		case kind == msgRun && int64(configLen) <= int64(len(payload)):
			req = engine.Request{Config: string(payload[:configLen]), Snippet: string(payload[configLen:])}
		default:
			return fail(fmt.Errorf("unexpected message %q", kind))
		}
		out, err := in.call(ctx, req)
		switch {
		case err == nil:
			err = writeMessage(w, msgResult, in.memoryPages(), out)
		case errors.Is(err, abi.ErrBadRequest):
			err = writeMessage(w, msgBadRequest, 0, []byte(err.Error()))
		default:
			_ = writeMessage(w, msgFailed, in.memoryPages(), []byte(err.Error()), []byte{0}, []byte(in.stderr.String()))
			return 1
		}
		if err != nil {
			return fail(err)
		}
	}
}

// startWorkerInstance compiles (or loads from the cache in dir) and starts
// the module without WithCloseOnContextDone: the parent stops an overrunning
// run by killing this process, so the guest's loops need not call out to
// the host at every iteration, which makes the guest about three times
// faster (BenchmarkTerminationChecks).
func startWorkerInstance(ctx context.Context, dir string, module []byte, pages uint32) (*instance, error) {
	// A worker's memory is its instance's: reserving the limit up front
	// (only the pages the guest touches become resident) spares it the
	// copy, and the transient double, of every growth.
	rt, err := newRuntime(ctx, runtimeConfig(false, pages).WithMemoryCapacityFromMax(true), dir)
	if err != nil {
		return nil, err
	}
	compiled, err := compile(ctx, rt, module)
	if err != nil {
		return nil, err
	}
	in, err := instantiate(ctx, rt, compiled, pages)
	if err != nil {
		return nil, err
	}
	return in, in.warm(ctx)
}

// runtimeConfig is the wazero configuration of both isolations; only
// whether loops check for a closed module differs.
func runtimeConfig(terminationChecks bool, pages uint32) wazero.RuntimeConfig {
	return wazero.NewRuntimeConfigCompiler().
		WithCloseOnContextDone(terminationChecks).
		WithMemoryLimitPages(pages)
}

// newRuntime starts a runtime with WASI and, when dir is not empty, the
// compiled code cached there.
func newRuntime(ctx context.Context, cfg wazero.RuntimeConfig, dir string) (wazero.Runtime, error) {
	if dir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("compilation cache: %w", err)
		}
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("WASI: %w", err)
	}
	return rt, nil
}

// compile compiles engine.wasm, or loads it from the runtime's cache, with a
// compilation worker per CPU.
func compile(ctx context.Context, rt wazero.Runtime, module []byte) (wazero.CompiledModule, error) {
	compiled, err := rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), module)
	if err != nil {
		return nil, fmt.Errorf("compile engine.wasm: %w", err)
	}
	// Compiling the 18 MB module takes a few hundred MB that are garbage
	// once it is done; give them back to the system now rather than when
	// the scavenger gets to them, so a server's resident memory after its
	// start is what it keeps.
	debug.FreeOSMemory()
	return compiled, nil
}

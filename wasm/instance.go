package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// minInputCapacity is the smallest request buffer allocated in a guest, so
// that typical requests reuse one buffer for the life of the instance.
const minInputCapacity = 64 << 10

// stderrHead is how much of the guest's stderr is kept per run: the Go
// runtime prints the reason first ("fatal error: out of memory", "panic:
// ...") and then the stacks of every goroutine, which can be long.
const stderrHead = 4 << 10

// runner is one instance of the pool: an instance in this process, or a
// process holding one.
type runner interface {
	// call runs a request. An error wrapping abi.ErrBadRequest means the
	// guest ran nothing and the runner may serve again; after any other
	// error it must be closed.
	call(ctx context.Context, req engine.Request) ([]byte, error)
	// memoryPages is the size of the guest's linear memory after the last call.
	memoryPages() uint32
	// guestStderr is the head of what the guest printed in the last call.
	guestStderr() string
	// used reports whether the runner was called since its warm-up: a
	// runner that was not holds nothing of an earlier request.
	used() bool
	close(ctx context.Context) error
}

// instance is one guest module. It is used by one goroutine at a time.
type instance struct {
	mod                              api.Module
	runRequest, runJSON, alloc, free api.Function
	stack                            []uint64 // reused for CallWithStack, so a call allocates nothing
	inPtr, inCap                     uint32   // the request buffer, reused across runs
	stderr                           *headWriter
	calls                            int // since the warm-up
}

// instantiate starts an instance whose memory is capped at pages.
func instantiate(ctx context.Context, rt wazero.Runtime, compiled wazero.CompiledModule, pages uint32) (*instance, error) {
	stderr := &headWriter{max: stderrHead}
	// NewModuleConfig denies by default: no args, env, files or sockets;
	// the clocks are fake and the random source deterministic.
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions(abi.ExportInitialize).
		WithStderr(stderr)
	mod, err := rt.InstantiateModule(ctx, compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("instantiate engine.wasm: %w (guest stderr: %q)", err, stderr.String())
	}
	in := &instance{
		mod:        mod,
		runRequest: mod.ExportedFunction(abi.ExportRunRequest),
		runJSON:    mod.ExportedFunction(abi.ExportRun),
		alloc:      mod.ExportedFunction(abi.ExportAlloc),
		free:       mod.ExportedFunction(abi.ExportFree),
		stack:      make([]uint64, 3),
		stderr:     stderr,
	}
	if in.runRequest == nil || in.alloc == nil || in.free == nil || mod.Memory() == nil {
		_ = mod.Close(ctx)
		return nil, fmt.Errorf("engine.wasm does not export %s, %s, %s and a memory", abi.ExportAlloc, abi.ExportFree, abi.ExportRunRequest)
	}
	if configure := mod.ExportedFunction(abi.ExportConfigure); configure != nil {
		in.stack[0] = uint64(pages)
		if err := configure.CallWithStack(ctx, in.stack); err != nil {
			_ = mod.Close(ctx)
			return nil, fmt.Errorf("configure engine.wasm: %w", err)
		}
	}
	return in, nil
}

// call writes the request's two texts into the guest, runs it and returns a
// copy of the Result JSON: the guest overwrites its copy on the next run.
func (in *instance) call(ctx context.Context, req engine.Request) ([]byte, error) {
	in.calls++
	in.stderr.Reset()
	if abi.NeedsJSON(req) {
		return in.callJSON(ctx, req)
	}
	size := len(req.Config) + len(req.Snippet)
	if size > math.MaxUint32/2 {
		return nil, fmt.Errorf("%w: a request of %d bytes", abi.ErrBadRequest, size)
	}
	if err := in.reserve(ctx, uint32(size)); err != nil {
		return nil, err
	}
	mem := in.mod.Memory()
	if !mem.WriteString(in.inPtr, req.Config) || !mem.WriteString(in.inPtr+uint32(len(req.Config)), req.Snippet) {
		return nil, fmt.Errorf("request buffer at %#x is outside guest memory", in.inPtr)
	}
	in.stack[0], in.stack[1], in.stack[2] = uint64(in.inPtr), uint64(len(req.Config)), uint64(len(req.Snippet))
	return in.invoke(ctx, in.runRequest)
}

// invoke calls a run export whose arguments are on in.stack and returns a
// copy of the Result JSON it packed into its one result.
func (in *instance) invoke(ctx context.Context, run api.Function) ([]byte, error) {
	if err := run.CallWithStack(ctx, in.stack); err != nil {
		return nil, err
	}
	if in.stack[0] == 0 {
		return nil, errNoResult
	}
	ptr, n := abi.Unpack(in.stack[0])
	view, ok := in.mod.Memory().Read(ptr, n)
	if !ok {
		return nil, fmt.Errorf("result at %#x+%d is outside guest memory", ptr, n)
	}
	return bytes.Clone(view), nil
}

// callJSON runs a Request of contract version 2 through the run export,
// which reads the whole Request as JSON.
func (in *instance) callJSON(ctx context.Context, req engine.Request) ([]byte, error) {
	if in.runJSON == nil {
		return nil, fmt.Errorf("%w: this engine.wasm has no %s export for a request with files or an entry", abi.ErrBadRequest, abi.ExportRun)
	}
	body, err := abi.EncodeRequest(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", abi.ErrBadRequest, err)
	}
	if len(body) > math.MaxUint32/2 {
		return nil, fmt.Errorf("%w: a request of %d bytes", abi.ErrBadRequest, len(body))
	}
	if err := in.reserve(ctx, uint32(len(body))); err != nil {
		return nil, err
	}
	mem := in.mod.Memory()
	if !mem.Write(in.inPtr, body) {
		return nil, fmt.Errorf("request buffer at %#x is outside guest memory", in.inPtr)
	}
	in.stack[0], in.stack[1] = uint64(in.inPtr), uint64(len(body))
	return in.invoke(ctx, in.runJSON)
}

// warm runs the warm-up program, so that the instance's first user does
// not pay for the engine's first use (see warmUp).
func (in *instance) warm(ctx context.Context) error {
	if _, err := in.call(ctx, warmUp); err != nil {
		return fmt.Errorf("warm-up run: %w (guest stderr: %q)", err, firstLines(in.stderr.String(), 3))
	}
	in.calls = 0
	return nil
}

// errNoResult: the guest returned no Result, which only an engine that
// cannot encode its own Result does.
var errNoResult = errors.New("the guest returned no Result")

// reserve makes the request buffer hold at least n bytes; an empty
// request needs a buffer too, since the guest reads only buffers it gave.
func (in *instance) reserve(ctx context.Context, n uint32) error {
	if in.inCap != 0 && n <= in.inCap {
		return nil
	}
	capacity := uint32(minInputCapacity)
	for capacity < n {
		capacity *= 2
	}
	if in.inCap != 0 {
		in.stack[0] = uint64(in.inPtr)
		if err := in.free.CallWithStack(ctx, in.stack); err != nil {
			return err
		}
		in.inPtr, in.inCap = 0, 0
	}
	in.stack[0] = uint64(capacity)
	if err := in.alloc.CallWithStack(ctx, in.stack); err != nil {
		return err
	}
	in.inPtr, in.inCap = uint32(in.stack[0]), capacity
	return nil
}

// memoryPages is the current size of the guest's linear memory.
func (in *instance) memoryPages() uint32 { return in.mod.Memory().Size() / PageSize }

func (in *instance) guestStderr() string { return in.stderr.String() }

func (in *instance) used() bool { return in.calls > 0 }

func (in *instance) close(ctx context.Context) error { return in.mod.Close(ctx) }

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	max int
	buf []byte
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (w *headWriter) Reset()         { w.buf = w.buf[:0] }
func (w *headWriter) String() string { return string(w.buf) }

package wasm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// process is the parent's side of a worker (see worker.go): one instance in
// a child process. It is used by one goroutine at a time, but kill may come
// from another.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File // the read end of the worker's stdout
	// exited is closed once the worker has ended and been waited for, which
	// a goroutine does from its start: that is how the pool notices a
	// worker that dies while it waits for a run (Sandbox.watch).
	exited chan struct{}
	w      *bufio.Writer
	r      *bufio.Reader
	stderr *lockedHeadWriter // the worker's own stderr: its Go runtime's last words
	pages  uint32            // the instance's memory after the last run
	guest  string            // the guest's stderr from a failed run
	buf    []byte
	calls  int // runs sent to it

	closeOnce sync.Once
}

// errWorkerDied: the worker ended without answering, which a bug in the
// host side of the worker or the machine (the kernel's OOM killer) causes.
var errWorkerDied = errors.New("the sandbox worker process ended without an answer")

// startProcess starts a worker running command and waits until its instance
// is warm.
func startProcess(ctx context.Context, policy *workerPolicy, command []string, cacheDir string, module []byte, pages uint32) (*process, error) {
	if len(command) == 0 {
		return nil, errors.New("no worker command")
	}
	cmd := exec.Command(command[0], command[1:]...)
	policy.prepare(cmd)
	stderr := &lockedHeadWriter{headWriter: headWriter{max: stderrHead}}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// A pipe of our own rather than cmd.StdoutPipe, which Wait closes as
	// soon as the worker exits: a worker that reports a failed run exits
	// right after, and the report must still be readable then.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = stdoutW
	err = policy.start(cmd)
	stdoutW.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		return nil, fmt.Errorf("start the worker %s: %w", command[0], err)
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{}),
		w: bufio.NewWriterSize(stdin, 64<<10), r: bufio.NewReaderSize(stdout, 64<<10), stderr: stderr}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	stop := context.AfterFunc(ctx, p.kill)
	defer stop()
	err = writeMessage(p.w, msgStart, pages, []byte(cacheDir), []byte{0}, encodeRlimits(policy.limits), []byte{0}, module)
	var kind byte
	var payload []byte
	if err == nil {
		kind, p.pages, payload, err = readMessage(p.r, nil)
	}
	switch {
	case err != nil, kind == msgReady:
	case kind == msgFailed:
		err = errors.New(string(payload))
	default:
		err = fmt.Errorf("the worker answered %q to its start", kind)
	}
	if err != nil {
		_ = p.close(context.Background())
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("worker: %w (its stderr: %q)", err, firstLines(stderr.String(), 3))
	}
	return p, nil
}

func (p *process) call(ctx context.Context, req engine.Request) ([]byte, error) {
	p.guest = ""
	p.calls++
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if size := len(req.Config) + len(req.Snippet); size > maxMessage {
		return nil, fmt.Errorf("%w: a request of %d bytes", abi.ErrBadRequest, size)
	}
	// Killing the worker is how a deadline stops it: its reply then never
	// comes and the read below fails.
	stop := context.AfterFunc(ctx, p.kill)
	kind, n, payload, err := p.exchange(req)
	if !stop() {
		// The deadline came first, whatever the read returned.
		return nil, ctx.Err()
	}
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("%w: %v", errWorkerDied, err)
	}
	switch kind {
	case msgResult:
		p.pages = n
		return bytes.Clone(payload), nil
	case msgBadRequest:
		return nil, fmt.Errorf("%w: %s", abi.ErrBadRequest, payload)
	case msgFailed:
		p.pages = n
		msg, stderr, _ := bytes.Cut(payload, []byte{0})
		p.guest = string(stderr)
		return nil, errors.New(string(msg))
	}
	p.kill()
	return nil, fmt.Errorf("the worker answered %q to a run", kind)
}

func (p *process) exchange(req engine.Request) (kind byte, n uint32, payload []byte, err error) {
	if abi.NeedsJSON(req) {
		body, err := abi.EncodeRequest(req)
		if err != nil {
			return 0, 0, nil, fmt.Errorf("%w: %v", abi.ErrBadRequest, err)
		}
		if err := writeMessage(p.w, msgRunJSON, 0, body); err != nil {
			return 0, 0, nil, err
		}
	} else if err := writeMessage(p.w, msgRun, uint32(len(req.Config)), []byte(req.Config), []byte(req.Snippet)); err != nil {
		return 0, 0, nil, err
	}
	kind, n, payload, err = readMessage(p.r, p.buf)
	if cap(payload) > cap(p.buf) {
		p.buf = payload
	}
	return kind, n, payload, err
}

func (p *process) memoryPages() uint32 { return p.pages }

func (p *process) used() bool { return p.calls > 0 }

// hasExited reports whether the worker has ended.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// guestStderr is what the guest printed in the run that failed, or, when
// the worker itself died, the worker's own last words (a Go runtime out of
// memory says so there).
func (p *process) guestStderr() string {
	if p.guest == "" {
		return p.stderr.String()
	}
	return p.guest
}

func (p *process) kill() { _ = p.cmd.Process.Kill() }

// close ends the worker. It holds nothing worth a graceful exit, so it is
// killed, and then waited for so that it leaves no zombie behind.
func (p *process) close(context.Context) error {
	p.closeOnce.Do(func() {
		p.kill()
		_ = p.stdin.Close()
		<-p.exited
		_ = p.stdout.Close()
	})
	return nil
}

// lockedHeadWriter is a headWriter that exec's copying goroutine writes
// while the pool reads it.
type lockedHeadWriter struct {
	mu sync.Mutex
	headWriter
}

func (w *lockedHeadWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.headWriter.Write(p)
}

func (w *lockedHeadWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.headWriter.String()
}

//go:build linux

package wasm

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// The sizes of a worker's limits (set by the worker itself: see
// setOwnRlimits), from what workers use: measured on linux/amd64 with Go
// 1.26, a cgo-linked binary and GOMAXPROCS=2, sampling a worker's
// /proc/PID/{status,fd} every 2 ms while it ran the adversarial corpus
// (testdata/adversarial) and the fault guest's allocation to its limit.
//
//   - Address space: an idle worker with the default 64 MiB memory limit
//     maps 1.67 to 1.79 GiB (VmSize), nearly all of it reservations that
//     hold no memory: 1.2 GiB of the Go runtime's, a 64 MiB malloc arena
//     and an 8 MiB stack per thread (cgo), and the instance's memory,
//     which wazero reserves at its limit up front (WithMemoryCapacityFromMax).
//     The corpus took it to 1.92 GiB at most (VmPeak 1971 MiB, the TOML
//     parser's deepest recursion growing wazero's stack; VmData 319 MiB,
//     VmHWM 199 MiB). A memory limit of 256 MiB or 1 GiB raised VmSize by
//     as much (1.85 and 2.60 GiB idle). Under a limit of 1.5 GiB a worker
//     does not even start. The limit is workerAddressSpace plus twice the
//     memory limit (the collector lets the heap around the instance's
//     memory grow to twice what is live): 3.125 GiB by default, 1.2 GiB
//     above the peak.
//   - Open files: stdin, stdout, stderr, the runtime's epoll and eventfd and
//     the two files of the cgroup's CPU quota, which it keeps open, plus its
//     mount table while it starts and a cache file while the code loads: 8
//     at most. The limit is 64.
//   - Processes: RLIMIT_NPROC counts every thread of the user, in all of its
//     processes, so it is set only for workers with a user of their own;
//     with the server's user it would count the server's threads (and
//     everything else that user runs), and for root it is not enforced.
//     A worker had 5 to 8 threads (28 with GOMAXPROCS=64, hence
//     workerProcs); the limit allows workerThreads per worker, for twice
//     the pool (replacements overlap the workers they replace). Other
//     processes of that user count too: the user should be the workers'
//     own, not a nobody that other services share.
//   - Core dumps: none. A worker's memory holds requests.
const (
	workerAddressSpace = 3 << 30
	workerFiles        = 64
	workerThreads      = 32
)

// workerRlimits are the limits of a worker of a pool with limits l.
func workerRlimits(l Limits, ownUser bool) []rlimit {
	limits := []rlimit{
		{unix.RLIMIT_AS, "Max address space", workerAddressSpace + 2*uint64(l.MemoryPages)*PageSize},
		{unix.RLIMIT_NOFILE, "Max open files", workerFiles},
		{unix.RLIMIT_CORE, "Max core file size", 0},
	}
	if ownUser {
		limits = append(limits, rlimit{unix.RLIMIT_NPROC, "Max processes", uint64(2 * l.PoolSize * workerThreads)})
	}
	return limits
}

// start starts cmd, a worker, with no_new_privs.
//
// no_new_privs belongs to a thread, and a process inherits it from the
// thread that forked it: set in the worker at start, it would cover only
// the threads the Go runtime creates after that moment, not those it has
// already. So the fork is done from a thread of this process that sets it
// first and that is then thrown away (see onThrowawayThread), and every
// thread of the worker has it from its first instruction.
func (p *workerPolicy) start(cmd *exec.Cmd) error {
	var err error
	onThrowawayThread(func() {
		if err = unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			err = fmt.Errorf("set no_new_privs: %w", err)
			return
		}
		err = cmd.Start()
	})
	return err
}

// onThrowawayThread runs f on a thread that ends when f returns: its
// goroutine exits still locked to it, which ends the thread, so whatever f
// changes about its thread goes with it. The main thread never ends (the
// runtime parks it for good instead), so f must not run there: a goroutine
// that finds itself on it holds it, which keeps every other goroutine off
// it, while another one runs f.
func onThrowawayThread(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		if unix.Gettid() == unix.Getpid() {
			onThrowawayThread(f)
			runtime.UnlockOSThread()
			return
		}
		f()
		// Never unlocked.
	}()
	<-done
}

// setOwnRlimits lowers each of this process's limits to its value, soft and
// hard, or to the hard limit it has when that is lower already: only a
// privileged process may raise one.
//
// A worker sets its limits itself, from its start message, before it
// compiles or loads anything and long before its first request, rather
// than have the server set them with prlimit(2) after starting it: setting
// another process's limits takes CAP_SYS_RESOURCE as soon as that process
// runs as another user, which --worker-user makes it, and containers
// commonly run root without that capability (Docker's default set lacks
// it; prlimit on a worker running as nobody failed with EPERM on this
// machine), whereas lowering one's own needs nothing. A worker that cannot
// set them answers its start with msgFailed, so the start fails.
func setOwnRlimits(limits []rlimit) error {
	for _, l := range limits {
		var old unix.Rlimit
		if err := unix.Getrlimit(l.resource, &old); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		v := min(l.value, old.Max)
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
	}
	return nil
}

// closeInheritedFiles closes every descriptor above stderr that lacks
// close-on-exec: os/exec passes on only stdin, stdout and stderr, but a
// descriptor that an ancestor of the server (a shell, a supervisor) left
// open without close-on-exec survives every exec, so the worker would hold
// it. Go opens all of its own with close-on-exec (the runtime's epoll and
// eventfd among them), so those stay. It runs first thing in a worker,
// before the runtime has opened anything.
func closeInheritedFiles() {
	dir, err := os.Open("/proc/self/fd")
	if err != nil {
		// No /proc: try every descriptor the limit allows.
		var lim unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil {
			for fd := 3; uint64(fd) < min(lim.Cur, 1<<16); fd++ {
				closeIfInherited(fd)
			}
		}
		return
	}
	defer dir.Close()
	names, _ := dir.Readdirnames(-1)
	for _, name := range names {
		if fd, err := strconv.Atoi(name); err == nil && fd > 2 {
			// dir's own descriptor has close-on-exec, like every file
			// Go opens: it stays.
			closeIfInherited(fd)
		}
	}
}

func closeIfInherited(fd int) {
	if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
		_ = unix.Close(fd)
	}
}

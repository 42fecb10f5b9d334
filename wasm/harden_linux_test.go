//go:build linux

package wasm_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/adversarial"
	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// oneWorker starts a sandbox of one worker with cfg's limits and the
// engine unless cfg says otherwise, and returns it and the worker's pid.
func oneWorker(t *testing.T, cfg wasm.Config) (*wasm.Sandbox, int) {
	t.Helper()
	if cfg.Module == nil {
		cfg.Module = wasmtest.Build(t)
	}
	if cfg.Limits == (wasm.Limits{}) {
		cfg.Limits = testLimits()
	}
	cfg.Limits.PoolSize = 1
	cfg.Isolation = wasm.ProcessIsolation
	if cfg.CacheDir == "" {
		cfg.CacheDir = wasmtest.CacheDir(t)
	}
	sb, err := wasm.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close(context.Background()) })
	return sb, theWorker(t)
}

// theWorker is the one child process of this test that is a worker.
func theWorker(t *testing.T) int {
	t.Helper()
	var workers []int
	for _, pid := range procmem.Children(os.Getpid()) {
		if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil && bytes.Contains(cmd, []byte(wasm.WorkerEnv+"=")) {
			workers = append(workers, pid)
		}
	}
	if len(workers) != 1 {
		t.Fatalf("%d workers among this test's child processes, want 1", len(workers))
	}
	return workers[0]
}

// TestWorkerEnvironment: a worker's environment is the protocol variable
// and GOMAXPROCS, none of the server's.
func TestWorkerEnvironment(t *testing.T) {
	t.Setenv("PLAYGROUND_TEST_SECRET", "not for the workers")
	_, pid := oneWorker(t, wasm.Config{})
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(strings.TrimSuffix(string(environ), "\x00"), "\x00")
	slices.Sort(env)
	procs := min(2, runtime.GOMAXPROCS(0))
	want := []string{wasm.WorkerEnv + "=" + wasm.WorkerProtocol, fmt.Sprintf("GOMAXPROCS=%d", procs)}
	if !slices.Equal(env, want) {
		t.Errorf("the worker's environment is %q, want %q", env, want)
	}
}

// TestWorkerFiles: a worker holds its stdin, stdout and stderr (pipes to
// this process) and the descriptors its Go runtime opens for itself, and
// not a descriptor this process inherited without close-on-exec.
func TestWorkerFiles(t *testing.T) {
	leaked, err := os.Create(filepath.Join(t.TempDir(), "leaked"))
	if err != nil {
		t.Fatal(err)
	}
	defer leaked.Close()
	// A duplicate has no close-on-exec, as a descriptor a shell or a
	// supervisor leaves open to the server.
	fd, err := syscall.Dup(int(leaked.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC != 0 {
		t.Fatalf("the duplicate's flags are %#x (%v), want no close-on-exec", flags, err)
	}
	_, pid := oneWorker(t, wasm.Config{})
	files := openFiles(t, pid)
	for fd, target := range files {
		switch {
		case fd <= 2 && strings.HasPrefix(target, "pipe:["):
		case fd > 2 && runtimeFile(target) && closeOnExec(t, pid, fd):
		default:
			t.Errorf("the worker holds descriptor %d, %s", fd, target)
		}
	}
	for fd := range 3 {
		if _, ok := files[fd]; !ok {
			t.Errorf("the worker has no descriptor %d", fd)
		}
	}
	t.Logf("the worker's descriptors: %v", files)
}

// runtimeFile reports whether a descriptor is of a kind the Go runtime opens
// in every program: epoll and its wake-up eventfd, and the files of the
// cgroup's CPU quota, which it keeps open to follow (Go 1.25 and later).
func runtimeFile(target string) bool {
	return target == "anon_inode:[eventpoll]" || target == "anon_inode:[eventfd]" ||
		strings.HasPrefix(target, "/sys/fs/cgroup/")
}

// closeOnExec reports whether the worker opened fd itself: Go opens every
// file with close-on-exec, and the inherited ones lack it.
func closeOnExec(t *testing.T, pid, fd int) bool {
	t.Helper()
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, fd))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(info), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&unix.O_CLOEXEC != 0
		}
	}
	return false
}

func openFiles(t *testing.T, pid int) map[int]string {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[int]string{}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if files[fd], err = os.Readlink(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// limits reads /proc/PID/limits: soft and hard by name, unlimited as the
// largest uint64.
func limits(t *testing.T, pid int) map[string][2]uint64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][2]uint64{}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, line := range lines[1:] {
		// The columns are aligned under the header: name, soft, hard, units.
		name := strings.TrimSpace(line[:26])
		f := strings.Fields(line[26:])
		var v [2]uint64
		for i := range v {
			if f[i] == "unlimited" {
				v[i] = unix.RLIM_INFINITY
			} else if v[i], err = strconv.ParseUint(f[i], 10, 64); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		m[name] = v
	}
	return m
}

// status reads the fields of /proc/PID/status.
func status(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m
}

// TestWorkerLimits: a worker runs under the limits sized in
// harden_linux.go (or this process's hard limit, when that is lower), its
// address space leaves room to spare above what it maps, and the limit on
// processes, counted for the whole user, is left alone.
func TestWorkerLimits(t *testing.T) {
	l := testLimits()
	_, pid := oneWorker(t, wasm.Config{Limits: l})
	got, own := limits(t, pid), limits(t, os.Getpid())
	want := wasm.WorkerRlimits(l, false)
	if len(want) == 0 {
		t.Fatal("no limits for workers")
	}
	for name, v := range want {
		v = min(v, own[name][1])
		if got[name] != [2]uint64{v, v} {
			t.Errorf("%s: %v, want %d", name, got[name], v)
		}
	}
	if _, ok := want["Max processes"]; ok {
		t.Error("a worker with the server's user has a limit on processes")
	}
	if got["Max processes"] != own["Max processes"] {
		t.Errorf("the worker's limit on processes is %v, this process's %v", got["Max processes"], own["Max processes"])
	}
	st := status(t, fmt.Sprintf("/proc/%d/status", pid))
	peak, err := strconv.ParseUint(strings.TrimSuffix(st["VmPeak"], " kB"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if as := got["Max address space"][0]; as < peak<<10+512<<20 {
		t.Errorf("the address space limit, %d MiB, leaves less than 512 MiB above the %d MiB the worker has mapped", as>>20, peak>>10)
	}
	if files := len(openFiles(t, pid)); got["Max open files"][0] < uint64(4*files) {
		t.Errorf("the limit on open files, %d, is less than four times the %d the worker has", got["Max open files"][0], files)
	}
	t.Logf("the worker maps %d MiB (VmPeak) and has %s threads", peak>>10, st["Threads"])
}

// TestWorkerNoNewPrivs: every thread of a worker has no_new_privs, so
// nothing it might exec could gain privileges.
func TestWorkerNoNewPrivs(t *testing.T) {
	_, pid := oneWorker(t, wasm.Config{})
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("the worker's threads: %v, %v", tasks, err)
	}
	for _, task := range tasks {
		if v := status(t, task)["NoNewPrivs"]; v != "1" {
			t.Errorf("%s: NoNewPrivs %q, want 1", task, v)
		}
	}
	// This process keeps none: the fork came from a thread of its own,
	// which is gone.
	own, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range own {
		if v := status(t, task)["NoNewPrivs"]; v != "0" {
			t.Errorf("this process's %s: NoNewPrivs %q, want 0", task, v)
		}
	}
}

// TestWorkerUser: a server running as root starts its workers as the
// --worker-user it is given, with that user's group only and no
// capabilities, and a limit on the user's processes; and they still load
// the compiled code from a cache directory only root can enter, and run.
func TestWorkerUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("workers change user only when the server runs as root, and this test runs as uid", os.Geteuid())
	}
	name, uid, gid := workerTestUser(t)
	// The worker is this test binary, which lives in a directory only
	// root may enter: a copy the user can run.
	exe := filepath.Join(publicDir(t), "worker")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyExecutable(t, exe, self)
	// The cache directory is root's own, as --cache-dir is by default.
	private := t.TempDir()
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	l := testLimits()
	l.PoolSize = 1 // as oneWorker makes it
	sb, pid := oneWorker(t, wasm.Config{Limits: l, WorkerCommand: []string{exe}, CacheDir: filepath.Join(private, "cache"), WorkerUser: name})
	st := status(t, fmt.Sprintf("/proc/%d/status", pid))
	ids := func(id uint32) string { s := strconv.Itoa(int(id)); return strings.Join([]string{s, s, s, s}, "\t") }
	for field, want := range map[string]string{"Uid": ids(uid), "Gid": ids(gid), "Groups": "", "CapEff": "0000000000000000", "CapPrm": "0000000000000000", "NoNewPrivs": "1"} {
		if st[field] != want {
			t.Errorf("%s: %q, want %q", field, st[field], want)
		}
	}
	want := wasm.WorkerRlimits(l, true)["Max processes"]
	if got := limits(t, pid)["Max processes"]; want == 0 || got != [2]uint64{want, want} {
		t.Errorf("Max processes: %v, want %d", got, want)
	}
	native, _ := abi.HandleRequest(requests[1])
	if got, err := sb.RunJSON(context.Background(), requests[1]); err != nil || !bytes.Equal(got, native) {
		t.Errorf("a run as %s: %v, %s", name, err, got)
	}
}

// workerTestUser is an unprivileged user: nobody when there is one, else a
// user made for the test (when useradd exists), else the test skips.
func workerTestUser(t *testing.T) (string, uint32, uint32) {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		if _, err := exec.LookPath("useradd"); err != nil {
			t.Skip("no user nobody and no useradd to make a user")
		}
		name := fmt.Sprintf("pgw%d", os.Getpid()%100000)
		if out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
			t.Skipf("useradd %s: %v: %s", name, err, out)
		}
		t.Cleanup(func() { _ = exec.Command("userdel", name).Run() })
		if u, err = user.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil || uid == 0 {
		t.Skipf("user %s has uid %s, gid %s", u.Username, u.Uid, u.Gid)
	}
	return u.Username, uint32(uid), uint32(gid)
}

// publicDir is a temporary directory every user may enter.
func publicDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "playground-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mayEnterAsOthers(filepath.Dir(dir)); err != nil {
		t.Skip(err)
	}
	return dir
}

func mayEnterAsOthers(dir string) error {
	for ; ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if info.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("other users cannot enter %s (TMPDIR)", dir)
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}

func copyExecutable(t *testing.T, dst, src string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWorkerLimitsLeaveRoomForTheMemoryLimit: a guest that allocates until
// its memory limit, at the default limit and at four times it, is stopped
// by that limit, which the worker reports, and not by the worker's own
// limit on its address space, which would end the worker; and so is every
// input of the adversarial corpus that hits the engine's memory budget.
func TestWorkerLimitsLeaveRoomForTheMemoryLimit(t *testing.T) {
	for _, pages := range []uint32{wasm.DefaultMemoryPages, 4 * wasm.DefaultMemoryPages} {
		t.Run(fmt.Sprintf("%d pages", pages), func(t *testing.T) {
			l := testLimits()
			l.MemoryPages, l.RecyclePages = pages, pages
			logs := &lockedBuffer{}
			sb, _ := oneWorker(t, wasm.Config{Module: wasmtest.BuildPackage(t, wasmtest.FaultGuestPackage), Limits: l,
				Logger: slog.New(slog.NewTextHandler(logs, nil))})
			out, err := sb.RunJSON(context.Background(), engine.Request{Snippet: grow})
			if err != nil {
				t.Fatal(err)
			}
			limitDiagnostic(t, decode(t, out), wasm.CodeMemoryLimit, grow)
			if strings.Contains(logs.String(), wasm.ErrWorkerDied.Error()) || !strings.Contains(logs.String(), "out of memory") {
				t.Errorf("the worker did not report the guest's memory limit itself:\n%s", logs)
			}
		})
	}
	cases, err := adversarial.Load(adversarial.Dir)
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	sb, _ := oneWorker(t, wasm.Config{Limits: wasm.DefaultLimits(), Logger: slog.New(slog.NewTextHandler(logs, nil))})
	n := 0
	for _, c := range cases {
		if c.Want.Run == nil || !slices.Contains(c.Want.Run.Codes, wasm.CodeMemoryLimit) || c.Body != nil {
			continue
		}
		n++
		res, err := sb.Run(context.Background(), engine.Request{Config: c.Config, Snippet: c.Snippet})
		if err != nil || len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != wasm.CodeMemoryLimit {
			t.Errorf("%s: %v, %+v", c.Name, err, res)
		}
	}
	if n == 0 {
		t.Fatal("no case of the corpus hits the memory limit")
	}
	if strings.Contains(logs.String(), wasm.ErrWorkerDied.Error()) {
		t.Errorf("a worker died:\n%s", logs)
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package wasm

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// A worker gets what it needs to hold one instance and nothing more of the
// server's: see harden_linux.go for how each piece is applied there, and
// process_unix.go and process_other.go for the other systems.
//
//   - its environment is workerEnviron: the protocol variable and the Go
//     runtime's GOMAXPROCS, nothing inherited;
//   - its files are its stdin, stdout and stderr: os/exec passes no other
//     descriptor that has close-on-exec, and the worker closes, first
//     thing, any that a careless ancestor of the server left without it;
//   - on Linux it runs with no_new_privs and with limits on its address
//     space, open files and core dumps, and on its user's processes when
//     it has a user of its own;
//   - when Config.WorkerUser names one and the server runs as root, it runs
//     as that user, with no supplementary groups, so no capabilities.

// workerProcs is a worker's GOMAXPROCS. A worker runs one guest call at a
// time on one goroutine; more Ps only add threads for the collector (a
// worker started with GOMAXPROCS=64 on this 2-CPU machine had 28 threads
// and 2.5 GiB of address space, against 6 and 1.8 GiB with 2), and the
// limits below are sized for this many.
const workerProcs = 2

// workerPolicy is how workers are started: with which environment, which
// user and which resource limits. One is made per Sandbox.
type workerPolicy struct {
	env    []string
	user   *workerUser // nil: the server's own user
	limits []rlimit    // set by the worker at start (Linux only)
}

// workerUser is the user workers run as.
type workerUser struct {
	name     string
	uid, gid uint32
}

// rlimit is one resource limit, named as /proc/PID/limits names it.
type rlimit struct {
	resource int
	name     string
	value    uint64
}

// newWorkerPolicy resolves the user workers run as (empty: the server's)
// and sizes their limits for l.
func newWorkerPolicy(userName string, l Limits) (*workerPolicy, error) {
	p := &workerPolicy{env: workerEnviron()}
	if userName != "" {
		u, err := lookupWorkerUser(userName)
		if err != nil {
			return nil, err
		}
		p.user = u
	}
	p.limits = workerRlimits(l, p.user != nil)
	return p, nil
}

// CheckWorkerUser reports whether workers can run as the user name (a name
// or a numeric uid): it exists, is not root, and this process may switch to
// it (it runs as root, or as that user already).
func CheckWorkerUser(name string) error {
	_, err := lookupWorkerUser(name)
	return err
}

// workerEnviron is a worker's whole environment. The protocol variable is
// the one it needs; GOMAXPROCS keeps its threads, and so the limits sized
// from them, the same on any machine, never above what this process uses
// (which follows the CPUs and the cgroup's quota). Nothing of the server's
// own environment is passed on: not its secrets, not a GOMEMLIMIT or GOGC
// meant for the server (which sets its own limit in-process, through
// debug.SetMemoryLimit, and so passes nothing either).
func workerEnviron() []string {
	return []string{
		WorkerEnv + "=" + WorkerProtocol,
		"GOMAXPROCS=" + strconv.Itoa(min(workerProcs, runtime.GOMAXPROCS(0))),
	}
}

// encodeRlimits writes limits for a worker's start message:
// resource=value, comma-separated (both ends are this program, so the
// resources' numbers are the same).
func encodeRlimits(limits []rlimit) []byte {
	var b []byte
	for i, l := range limits {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(l.resource), 10)
		b = append(b, '=')
		b = strconv.AppendUint(b, l.value, 10)
	}
	return b
}

// decodeRlimits reads what encodeRlimits wrote.
func decodeRlimits(b []byte) ([]rlimit, error) {
	var limits []rlimit
	for field := range strings.SplitSeq(string(b), ",") {
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		resource, err1 := strconv.Atoi(k)
		value, err2 := strconv.ParseUint(v, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("resource limit %q: %w", field, err)
		}
		limits = append(limits, rlimit{resource: resource, name: "resource " + k, value: value})
	}
	return limits, nil
}

// prepare sets up cmd to start a worker under the policy.
func (p *workerPolicy) prepare(cmd *exec.Cmd) {
	cmd.Env = p.env
	setProcAttr(cmd, p.user)
}

// shareCompiledCode gives workers that run as their own user a copy of the
// compiled code they can read and not write: wazero writes its cache files
// and directories for their owner only, the operator's --cache-dir is
// usually under root's home, which no other user may enter, and a worker
// that could write compiled code that this process loads at its next start
// could run code as root. The copy is a temporary directory owned by this
// process's user and readable by the workers' group, removed by Close.
func (s *Sandbox) shareCompiledCode() error {
	u := s.policy.user
	if u == nil {
		return nil
	}
	dir := s.tempDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "playground-workers-"); err != nil {
			return err
		}
		s.tempDir = dir
		if err := copyTree(dir, s.cacheDir); err != nil {
			return fmt.Errorf("copy the compiled code for the workers: %w", err)
		}
	}
	if err := shareTree(dir, u.gid); err != nil {
		return fmt.Errorf("share the compiled code with the workers: %w", err)
	}
	if err := reachable(dir, u); err != nil {
		return err
	}
	s.cacheDir = dir
	return nil
}

// copyTree copies the regular files under src into dst, which exists,
// leaving out the temporary files of a write in progress.
func copyTree(dst, src string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(target, 0o700)
		case !d.Type().IsRegular() || strings.HasSuffix(path, ".tmp"):
			return nil
		}
		return copyFile(target, path)
	})
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// shareTree gives the group gid read access to dir and everything in it,
// and no one else but the owner any access.
func shareTree(dir string, gid uint32) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o640)
		if d.IsDir() {
			mode = 0o750
		}
		if err := os.Lchown(path, -1, int(gid)); err != nil {
			return err
		}
		return os.Chmod(path, mode)
	})
}

// reachable checks that u may enter every directory above dir, so that a
// private TMPDIR fails here, with a message, rather than in every worker.
func reachable(dir string, u *workerUser) error {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil {
			return err
		}
		if !mayEnter(info, u) {
			return fmt.Errorf("workers running as %s cannot enter %s, where the compiled code for them is: set TMPDIR to a directory they can reach", u.name, d)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

var errNoUsers = errors.New("workers cannot run as another user on " + runtime.GOOS)

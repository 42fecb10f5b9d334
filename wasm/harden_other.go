//go:build !linux

package wasm

import "os/exec"

// Elsewhere than Linux a worker gets its environment (workerEnviron), its
// three standard files (os/exec passes no others that have close-on-exec;
// one an ancestor left without it is not looked for) and, on other Unix
// systems, its user (process_unix.go); it gets no resource limits (their
// sizes are measured on Linux, and macOS does not enforce one on the
// address space) and no no_new_privs, which is Linux's (prctl(2)).

func workerRlimits(Limits, bool) []rlimit { return nil }

func (p *workerPolicy) start(cmd *exec.Cmd) error { return cmd.Start() }

func setOwnRlimits([]rlimit) error { return nil }

func closeInheritedFiles() {}

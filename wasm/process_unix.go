//go:build unix

package wasm

import (
	"os/exec"
	"syscall"
)

// detach puts a worker in a process group of its own, so that a Ctrl-C
// at the terminal reaches the server, which shuts down gracefully and then
// ends its workers, and not the workers in the middle of their runs. A
// worker whose parent dies anyway sees its stdin close and exits.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

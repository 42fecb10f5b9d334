//go:build !unix

package wasm

import "os/exec"

// detach does nothing here: see process_unix.go.
func detach(*exec.Cmd) {}

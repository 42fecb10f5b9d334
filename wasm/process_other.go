//go:build !unix

package wasm

import (
	"io/fs"
	"os/exec"
)

// On systems that are not Unix (Windows), a worker gets the environment of
// workerEnviron and the standard handles only, which os/exec arranges;
// there is no process group to leave, no user to switch to without the
// user's password, and no resource limits or no_new_privs (a Job Object
// would hold limits: not done here). Serve with --isolation process on
// Linux for the rest.

func setProcAttr(*exec.Cmd, *workerUser) {}

func lookupWorkerUser(string) (*workerUser, error) { return nil, errNoUsers }

func mayEnter(fs.FileInfo, *workerUser) bool { return true }

//go:build unix

package wasm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// setProcAttr puts a worker in a process group of its own, so that a Ctrl-C
// at the terminal reaches the server, which shuts down gracefully and then
// ends its workers, and not the workers in the middle of their runs. A
// worker whose parent dies anyway sees its stdin close and exits.
//
// With a user, the worker is started as that user and its primary group,
// with no supplementary groups: a process that root starts as another user
// keeps no capabilities.
func setProcAttr(cmd *exec.Cmd, u *workerUser) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if u != nil {
		attr.Credential = &syscall.Credential{Uid: u.uid, Gid: u.gid, Groups: []uint32{}}
	}
	cmd.SysProcAttr = attr
}

// lookupWorkerUser finds the user name: a user name, or a numeric uid,
// which may have no entry in the user database (as in many containers: its
// group is then the same number). Nil, no error, means the server runs as
// that user already.
func lookupWorkerUser(name string) (*workerUser, error) {
	uid, gid, err := userIDs(name)
	if err != nil {
		return nil, fmt.Errorf("worker user %q: %w", name, err)
	}
	switch euid := os.Geteuid(); {
	case uid == 0:
		return nil, fmt.Errorf("worker user %q is root: name an unprivileged user", name)
	case uint64(euid) == uid:
		return nil, nil
	case euid != 0:
		return nil, fmt.Errorf("workers can run as %q only when the server runs as root (it runs as uid %d)", name, euid)
	}
	return &workerUser{name: name, uid: uint32(uid), gid: uint32(gid)}, nil
}

func userIDs(name string) (uid, gid uint64, err error) {
	u, err := user.Lookup(name)
	if n, numeric := strconv.ParseUint(name, 10, 32); numeric == nil && errors.As(err, new(user.UnknownUserError)) {
		if u, err = user.LookupId(name); errors.As(err, new(user.UnknownUserIdError)) {
			return n, n, nil
		}
	}
	if err != nil {
		return 0, 0, err
	}
	if uid, err = strconv.ParseUint(u.Uid, 10, 32); err != nil {
		return 0, 0, fmt.Errorf("uid %q: %w", u.Uid, err)
	}
	if gid, err = strconv.ParseUint(u.Gid, 10, 32); err != nil {
		return 0, 0, fmt.Errorf("gid %q: %w", u.Gid, err)
	}
	return uid, gid, nil
}

// mayEnter reports whether u may search the directory info describes.
func mayEnter(info fs.FileInfo, u *workerUser) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	perm := info.Mode().Perm()
	switch {
	case st.Uid == u.uid:
		return perm&0o100 != 0
	case st.Gid == u.gid:
		return perm&0o010 != 0
	}
	return perm&0o001 != 0
}

// Package procmem reads how much memory a process and the processes it
// started hold, from Linux's /proc: a server with ProcessIsolation keeps
// its sandbox instances in worker processes, so its own resident memory is
// only part of what it uses.
package procmem

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// RSS is the resident memory of pid, in bytes.
func RSS(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
}

// TreeRSS is the resident memory of pid and of every process it started,
// and their children in turn, in bytes. A child that ends while it is read
// counts as nothing.
func TreeRSS(pid int) (int64, error) {
	total, err := RSS(pid)
	if err != nil {
		return 0, err
	}
	for _, child := range children(pid) {
		if sub, err := TreeRSS(child); err == nil {
			total += sub
		}
	}
	return total, nil
}

// children lists the processes pid started, from every thread's children
// file (a process's children are filed under the thread that forked them).
func children(pid int) []int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var pids []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for field := range strings.FieldsSeq(string(b)) {
			if p, err := strconv.Atoi(field); err == nil {
				pids = append(pids, p)
			}
		}
	}
	return pids
}

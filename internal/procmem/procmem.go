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
	"time"
)

// RSS is the resident memory of pid, in bytes.
func RSS(pid int) (int64, error) { return statusBytes(pid, "VmRSS") }

// PeakRSS is the most resident memory pid has had, in bytes.
func PeakRSS(pid int) (int64, error) { return statusBytes(pid, "VmHWM") }

// statusBytes reads a field of /proc/PID/status that counts kB.
func statusBytes(pid int, field string) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// TreeRSS is the resident memory of pid and of every process it started,
// and their children in turn, in bytes. A child that ends while it is read
// counts as nothing.
func TreeRSS(pid int) (int64, error) {
	total, err := RSS(pid)
	if err != nil {
		return 0, err
	}
	for _, child := range Children(pid) {
		if sub, err := TreeRSS(child); err == nil {
			total += sub
		}
	}
	return total, nil
}

// Children lists the live processes pid started, from every thread's
// children file (a process's children are filed under the thread that
// forked them).
func Children(pid int) []int {
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

// userHZ is the unit of the times in /proc/PID/stat: USER_HZ, which Linux
// fixes at 100 for every architecture Go supports.
const userHZ = 100

// ChildrenCPU is the CPU time, user and system, that the live processes pid
// started (and their children in turn) have used so far. It has the
// resolution of /proc: 10 ms. The processes that ended are in
// getrusage(RUSAGE_CHILDREN) instead, once waited for.
func ChildrenCPU(pid int) time.Duration {
	var total time.Duration
	for _, child := range Children(pid) {
		total += ownCPU(child) + ChildrenCPU(child)
	}
	return total
}

func ownCPU(pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: the fields
	// counted from 1 start after its closing parenthesis, at field 3.
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(stat[i+1:]))
	const utime, stime = 14 - 3, 15 - 3
	if len(fields) <= stime {
		return 0
	}
	u, _ := strconv.ParseInt(fields[utime], 10, 64)
	s, _ := strconv.ParseInt(fields[stime], 10, 64)
	return time.Duration(u+s) * time.Second / userHZ
}

package main

import (
	"strings"
	"testing"
)

// TestServeChecksTheWorkerUser: a --worker-user that the workers cannot run
// as is a usage error that says why, before anything starts, rather than a
// server whose runs all fail.
func TestServeChecksTheWorkerUser(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--worker-user", "no-such-user-of-the-playground"}, "unknown user"},
		{[]string{"serve", "--worker-user", "root"}, "is root"},
		{[]string{"serve", "--worker-user", "0"}, "is root"},
		{[]string{"serve", "--isolation", "in-process", "--worker-user", "nobody"}, "needs --isolation process"},
	} {
		code, _, errOut := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %d and %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

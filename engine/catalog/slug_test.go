package catalog

import (
	"strings"
	"testing"
)

// slugOf is the code of a message: lowercased, each run of characters other
// than a-z and 0-9 turned into one '-', trimmed, cut to 50 characters.
func slugOf(msg string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(msg) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	s := b.String()
	if len(s) > 50 {
		s = s[:50]
	}
	return strings.TrimRight(s, "-")
}

func TestSlugOfTheSeeds(t *testing.T) {
	for msg, want := range map[string]string{
		"LibTorch is not supported as a remote-server backend (no BackendIr impl)": "libtorch-is-not-supported-as-a-remote-server-backe",
		"input tensor `{}` is on the wrong backend":                                "input-tensor-is-on-the-wrong-backend",
	} {
		if got := slugOf(msg); got != want {
			t.Errorf("slugOf(%q) = %q, want %q", msg, got, want)
		}
	}
}

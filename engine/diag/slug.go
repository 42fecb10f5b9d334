package diag

import "strings"

// slugLimit is the length at which catalog codes are cut; the published
// catalog records were keyed this way, so the limit is part of the contract.
const slugLimit = 50

// Slug turns a message template into its catalog code: lowercase, every run
// of characters other than ASCII letters and digits becomes one '-', leading
// and trailing '-' are dropped, and the result is cut to 50 characters and
// trimmed of '-' again.
//
//	Slug("input tensor `{}` is on the wrong backend") == "input-tensor-is-on-the-wrong-backend"
func Slug(template string) string {
	var b strings.Builder
	pendingDash := false
	for i := 0; i < len(template); i++ {
		c := template[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
			if pendingDash && b.Len() > 0 {
				b.WriteByte('-')
			}
			pendingDash = false
			b.WriteByte(c)
			continue
		}
		pendingDash = true
	}
	s := b.String()
	if len(s) > slugLimit {
		s = s[:slugLimit]
	}
	return strings.TrimRight(s, "-")
}

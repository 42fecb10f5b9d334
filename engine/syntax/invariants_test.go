package syntax

import (
	"testing"
)

// checkRanges verifies that every node's range lies inside the text and
// inside its parent's, and that siblings come in source order without
// overlapping.
func checkRanges(t testing.TB, src string, f *File) {
	t.Helper()
	if f.Range.Start != 0 || f.Range.End != len(src) {
		t.Errorf("file range %v, want [0, %d)", f.Range, len(src))
	}
	var check func(n Node)
	failures := 0
	check = func(n Node) {
		r := n.Span()
		prevEnd := r.Start
		forEachChild(n, func(c Node) {
			cr := c.Span()
			if failures > 10 {
				return
			}
			switch {
			case cr.Start < 0 || cr.End > len(src) || cr.Start > cr.End:
				failures++
				t.Errorf("%T range %v outside the text (len %d)", c, cr, len(src))
			case cr.Start < r.Start || cr.End > r.End:
				failures++
				t.Errorf("%T %v %q sticks out of its parent %T %v %q", c, cr, slice(src, cr.Start, cr.End), n, r, slice(src, r.Start, r.End))
			case cr.Start < prevEnd:
				failures++
				t.Errorf("%T %v %q starts before its previous sibling ends (%d) in %T %q", c, cr, slice(src, cr.Start, cr.End), prevEnd, n, slice(src, r.Start, r.End))
			}
			if cr.End > prevEnd {
				prevEnd = cr.End
			}
			check(c)
		})
	}
	check(f)
}

package dispatch

import "testing"

// TestRangeTypeNames: each way of writing a range is its own std::ops
// type, which rustc's mismatched-types errors name.
func TestRangeTypeNames(t *testing.T) {
	one := int64(1)
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{Lo: &one, Hi: &one}, "Range<_>"},
		{Range{Lo: &one, Hi: &one, Inclusive: true}, "RangeInclusive<_>"},
		{Range{Lo: &one}, "RangeFrom<_>"},
		{Range{Hi: &one}, "RangeTo<_>"},
		{Range{Hi: &one, Inclusive: true}, "RangeToInclusive<_>"},
		{Range{}, "RangeFull"},
	} {
		if got := c.r.TypeName(); got != c.want {
			t.Errorf("%+v is a %s, want %s", c.r, got, c.want)
		}
	}
}

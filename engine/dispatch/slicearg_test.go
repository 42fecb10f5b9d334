package dispatch

import "testing"

// TestSliceNewStepZero: Slice::new's assert is on the line after its
// signature (crates/burn-std/src/tensor/slice.rs:396), from_range_stepped's
// at slice.rs:468.
func TestSliceNewStepZero(t *testing.T) {
	w := world(t, "flex")
	for _, c := range []struct {
		call Call
		loc  string
	}{
		{fn("Slice::new", i(0), enum("Option", "None"), i(0)), "crates/burn-std/src/tensor/slice.rs:396"},
		{fn("Slice::from_range_stepped", &Range{}, i(0)), "crates/burn-std/src/tensor/slice.rs:468"},
	} {
		p := mustPanic(t, w, c.call)
		if p.Message != "Step cannot be zero" || p.Location != c.loc {
			t.Errorf("%s: %q at %s, want %s", describe(c.call), p.Message, p.Location, c.loc)
		}
	}
}

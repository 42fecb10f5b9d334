package dispatch

import "testing"

// TestFold4dUsizeArithmetic: ModuleOps::fold4d's default computes in
// usize, so a kernel dim of 0 divides by zero in `channels_col %
// kernel_elems` (crates/burn-backend/src/backend/ops/modules/base.rs:532)
// and a kernel larger than the padded output underflows the block grid
// (base.rs:540 for the height, 544 for the width) in a debug build,
// before either assert can compare anything.
func TestFold4dUsizeArithmetic(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	opts := mustCall(t, w, fn("UnfoldOptions::new", dims(1, 1), dims(0, 0), dims(1, 1)))
	padded := mustCall(t, w, fn("UnfoldOptions::new", dims(1, 1), dims(1, 0), dims(1, 1)))
	const base = "crates/burn-backend/src/backend/ops/modules/base.rs:"
	for _, c := range []struct {
		name           string
		x              []int64
		size, kernel   []int64
		opts           Value
		id, msg, where string
	}{
		{"kernel [0, 2]", []int64{1, 4, 9}, []int64{4, 4}, []int64{0, 2}, opts, "rust-fold4d-remainder-by-zero", "attempt to calculate the remainder with a divisor of zero", base + "532"},
		{"kernel [0, 0], no channel", []int64{1, 0, 9}, []int64{4, 4}, []int64{0, 0}, opts, "rust-fold4d-remainder-by-zero", "attempt to calculate the remainder with a divisor of zero", base + "532"},
		{"kernel 3 over height 2", []int64{1, 9, 1}, []int64{2, 3}, []int64{3, 3}, opts, "rust-fold4d-sub-overflow", "attempt to subtract with overflow", base + "540"},
		{"kernel 3 over width 2", []int64{1, 9, 1}, []int64{3, 2}, []int64{3, 3}, opts, "rust-fold4d-sub-overflow", "attempt to subtract with overflow", base + "544"},
		// The `- 1` underflows when the dilated kernel equals the padded output.
		{"kernel 4 over height 4 minus one", []int64{1, 4, 1}, []int64{3, 1}, []int64{4, 1}, opts, "rust-fold4d-sub-overflow", "attempt to subtract with overflow", base + "540"},
		// Padding makes room: 1 + 2 * 1 = 3 fits a kernel of 3, one block.
		{"kernel 3 over padded height 1", []int64{1, 9, 2}, []int64{1, 3}, []int64{3, 3}, padded, "fold4d-blocks",
			"assertion `left == right` failed: fold4d: number of blocks (2) does not match the expected grid (1 x 1) for the given output size and options\n  left: 2\n right: 1", base + "547"},
	} {
		p := mustPanic(t, w, fn("fold4d", ones(t, w, d, "", c.x...), dims(c.size...), dims(c.kernel...), c.opts))
		if p.ID != c.id || p.Message != c.msg || p.Location != c.where {
			t.Errorf("%s: %s %q at %s, want %s %q at %s", c.name, p.ID, p.Message, p.Location, c.id, c.msg, c.where)
		}
	}
}

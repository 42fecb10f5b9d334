package dispatch

import (
	"strings"
	"testing"
)

// TestTransaction reads the registered tensors as Dispatch's transaction
// does: floats, then ints, then bools, each for the backend of the first
// float, the data in the order they were registered.
func TestTransaction(t *testing.T) {
	w := world(t, "flex", "cuda")
	flex := device(t, w, "flex")
	n := ones(t, w, flex, "Int", 2)
	x := ones(t, w, flex, "", 3)
	tx := mustCall(t, w, fn("Transaction::default"))
	tx = mustCall(t, w, method(tx, "register", n))
	tx = mustCall(t, w, method(tx, "register", x))
	before := len(w.Trace())
	out := mustCall(t, w, method(tx, "execute")).(*Array)
	if len(out.Elems) != 2 {
		t.Fatalf("%d data, want 2", len(out.Elems))
	}
	if got := out.Elems[0].(*TensorData).shape; len(got) != 1 || got[0] != 2 {
		t.Errorf("first data has shape %v: want the int tensor's [2], registered first", got)
	}
	var ops []string
	for _, ev := range w.Trace()[before:] {
		ops = append(ops, ev.Op)
	}
	if got := strings.Join(ops, " "); got != "float_into_data int_into_data" {
		t.Errorf("reads %q: want the floats read before the ints", got)
	}

	// A tensor of another backend panics as vec_op!'s inputs do.
	cuda := ones(t, w, device(t, w, "cuda", i(0)), "", 3)
	tx = mustCall(t, w, method(mustCall(t, w, method(mustCall(t, w, fn("Transaction::default")), "register", x)), "register", cuda))
	if p := mustPanic(t, w, method(tx, "execute")); p.Message != "Tensor is on the wrong backend (expected Flex)." {
		t.Errorf("panic %q", p.Message)
	}
	if got := mustCall(t, w, method(mustCall(t, w, fn("Transaction::default")), "execute")).(*Array); len(got.Elems) != 0 {
		t.Errorf("an empty transaction reads %d data", len(got.Elems))
	}
}

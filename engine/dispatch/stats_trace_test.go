package dispatch

import "testing"

// TestStatsEmptyDimPanicsAfterTheirFirstOp: Burn's var and var_mean take
// the mean before var_with_mean's `shape[dim] - 1` (crates/burn-tensor/src/
// tensor/stats/mod.rs:4 then 9; api/float.rs:169), and median sorts before
// `(total_elem_numbers - 1) / 2` (stats/mod.rs:38 then 47, 56 then 65), so on
// an empty dim the trace holds that op before the debug build's panic.
func TestStatsEmptyDimPanicsAfterTheirFirstOp(t *testing.T) {
	for _, c := range []struct {
		method, op, loc string
	}{
		{"var", "float_mean_dim", "crates/burn-tensor/src/tensor/stats/mod.rs:9"},
		{"var_mean", "float_mean_dim", "crates/burn-tensor/src/tensor/stats/mod.rs:9"},
		{"median", "float_sort", "crates/burn-tensor/src/tensor/stats/mod.rs:47"},
		{"median_with_indices", "float_sort_with_indices", "crates/burn-tensor/src/tensor/stats/mod.rs:65"},
	} {
		fx := newOpFixture(t)
		empty := mustCall(t, fx.w, fnG("Tensor::empty", []string{"2"}, dims(2, 0), ref(fx.d))).(*Tensor)
		before := len(fx.w.Trace())
		p := mustPanic(t, fx.w, method(empty, c.method, i(1)))
		if p.Message != "attempt to subtract with overflow" || p.Location != c.loc {
			t.Errorf("%s: %q at %s, want %s", c.method, p.Message, p.Location, c.loc)
		}
		var ops []string
		for _, ev := range fx.w.Trace()[before:] {
			ops = append(ops, ev.Op)
		}
		if len(ops) != 1 || ops[0] != c.op {
			t.Errorf("%s of an empty dim: trace %v, want [%s]", c.method, ops, c.op)
		}
	}
}

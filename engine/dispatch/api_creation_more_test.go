package dispatch

import (
	"math/rand/v2"
	"testing"
)

// triu_mask, tril_mask and diag_mask (bool.rs:290-412), eye
// (numeric.rs:883-889) and arange_step (int.rs:30-38): values worked by
// hand, the ops of each composition, and step_by's assert.
func TestCreationCompositions(t *testing.T) {
	fx := newOpFixture(t)
	d := ref(fx.d)
	cases := []struct {
		name      string
		call      Call
		want, ops string
	}{
		{"triu_mask", fnG("Tensor::triu_mask", []string{"2", "Bool"}, dims(3, 3), i(0), d),
			"[[false, false, false], [true, false, false], [true, true, false]]",
			"int_arange int_arange int_reshape int_reshape int_sub_scalar int_sub int_greater_elem bool_reshape"},
		{"tril_mask offset 1", fnG("Tensor::tril_mask", []string{"2", "Bool"}, dims(2, 3), i(1), d),
			"[[false, false, true], [false, false, false]]",
			"int_arange int_arange int_reshape int_reshape int_sub_scalar int_sub int_lower_elem bool_reshape"},
		{"diag_mask offset -1", fnG("Tensor::diag_mask", []string{"2", "Bool"}, dims(3, 2), i(-1), d),
			"[[true, true], [false, true], [true, false]]",
			"int_arange int_arange int_reshape int_reshape int_sub_scalar int_sub int_not_equal_elem bool_reshape"},
		{"eye", fnG("Tensor::eye", []string{"2"}, i(3), d),
			"[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]",
			"int_arange int_reshape float_ones float_zeros float_scatter"},
		{"int eye", fnG("Tensor::eye", []string{"2", "Int"}, i(2), d), "[[1, 0], [0, 1]]",
			"int_arange int_reshape int_ones int_zeros int_scatter"},
		{"arange_step", fnG("Tensor::arange_step", []string{"1", "Int"}, irange(-3, 3), i(2), d), "[-3, -1, 1]", "int_arange_step"},
		{"arange_step past the end", fnG("Tensor::arange_step", []string{"1", "Int"}, irange(0, 2), i(5), d), "[0]", "int_arange_step"},
	}
	for _, c := range cases {
		before := len(fx.w.Trace())
		out, ok := mustCall(t, fx.w, c.call).(*Tensor)
		if !ok || out.vals() == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if got := out.vals().Preview(64); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
		if got := lastOps(fx.w, len(fx.w.Trace())-before); got != c.ops {
			t.Errorf("%s dispatches %q, want %q", c.name, got, c.ops)
		}
	}
	p := mustPanic(t, fx.w, fnG("Tensor::arange_step", []string{"1", "Int"}, irange(0, 3), i(0), d))
	if p.Message != "assertion failed: step != 0" || p.Location != "crates/burn-flex/src/ops/int.rs:1103" || p.ID != "flex-arange-step-zero" {
		t.Errorf("arange_step with step 0: %s %q at %s", p.ID, p.Message, p.Location)
	}
	// The masks against their definitions at random shapes and offsets.
	// The leading dims of the shape are not broadcast: tri_mask's matrix
	// is [1, .., 1, h, w] (bool.rs:300-310), and so is the mask.
	r := rand.New(rand.NewPCG(4, 4))
	for range 30 {
		h, w, off := int64(1+r.IntN(4)), int64(1+r.IntN(4)), int64(r.IntN(7)-3)
		for _, name := range []string{"triu_mask", "tril_mask", "diag_mask"} {
			out := mustCall(t, fx.w, fnG("Tensor::"+name, []string{"3", "Bool"}, dims(2, h, w), i(off), d)).(*Tensor)
			if !sameShape(out.shape, []int64{1, h, w}) {
				t.Fatalf("%s([2, %d, %d]) has shape %v", name, h, w, out.shape)
			}
			for k := range int(h * w) {
				row, col := int64(k/int(w))%h, int64(k%int(w))
				// true where the element is masked out: outside the part.
				want := map[string]bool{"triu_mask": col-row < off, "tril_mask": col-row > off, "diag_mask": col-row != off}[name]
				if got := out.vals().Data.Bool(k); got != want {
					t.Fatalf("%s([2, %d, %d], %d) at (%d, %d) = %v", name, h, w, off, row, col, got)
				}
			}
		}
	}
}

// cartesian_grid (cartesian_grid.rs:25-52): the index of every element of
// the shape, along a last dim of size D.
func TestCartesianGrid(t *testing.T) {
	fx := newOpFixture(t)
	out := mustCall(t, fx.w, fnG("Tensor::cartesian_grid", []string{"2", "Int"}, dims(2, 3), ref(fx.d))).(*Tensor)
	if got := out.vals().Preview(64); got != "[[[0, 0], [0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]]]" {
		t.Errorf("cartesian_grid([2, 3]) = %s", got)
	}
	if !sameShape(out.shape, []int64{2, 3, 2}) || out.kind != KindInt {
		t.Errorf("cartesian_grid([2, 3]) is %s %v", out.kind, out.shape)
	}
	g := mustCall(t, fx.w, fnG("Tensor::cartesian_grid", []string{"3", "Int"}, dims(2, 1, 3), ref(fx.d))).(*Tensor)
	for k := range 6 {
		// Element (a, 0, c) holds [a, 0, c].
		a, c := int64(k/3), int64(k%3)
		if g.vals().Data.Int(3*k) != a || g.vals().Data.Int(3*k+1) != 0 || g.vals().Data.Int(3*k+2) != c {
			t.Fatalf("cartesian_grid([2, 1, 3]) = %s", g.vals().Preview(64))
		}
	}
}

func irange(lo, hi int64) *Range { return &Range{Lo: &lo, Hi: &hi} }

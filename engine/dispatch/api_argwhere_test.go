package dispatch

import (
	"math/rand/v2"
	"testing"
)

// argwhere and nonzero (bool.rs:224-275): the coordinates of the true
// values in row-major order, worked by hand and against a naive scan.
func TestArgwhereAndNonzero(t *testing.T) {
	fx := newOpFixture(t)
	b := func(vals Value) *Tensor {
		return mustCall(t, fx.w, method(fx.ints("2", vals), "bool")).(*Tensor)
	}
	m := b(arr(arr(i(0), i(1), i(0)), arr(i(1), i(0), i(1))))
	out := mustCall(t, fx.w, method(m, "argwhere")).(*Tensor)
	if got := out.vals().Preview(32); got != "[[0, 1], [1, 0], [1, 2]]" || out.kind != KindInt {
		t.Errorf("argwhere = %s (%s)", got, out.kind)
	}
	if got := lastOps(fx.w, 1); got != "bool_argwhere" {
		t.Errorf("argwhere dispatches %s", got)
	}
	nz := mustCall(t, fx.w, method(m, "nonzero")).(*Array)
	if len(nz.Elems) != 2 || nz.Elems[0].(*Tensor).vals().Preview(8) != "[0, 1, 1]" || nz.Elems[1].(*Tensor).vals().Preview(8) != "[1, 0, 2]" {
		t.Errorf("nonzero = %s", Debug(nz))
	}
	none := b(arr(arr(i(0), i(0))))
	if e := mustCall(t, fx.w, method(none, "argwhere")).(*Tensor); !sameShape(e.shape, []int64{0, 2}) {
		t.Errorf("argwhere of no true values has shape %v", e.shape)
	}
	if nz := mustCall(t, fx.w, method(none, "nonzero")).(*Array); len(nz.Elems) != 0 {
		t.Errorf("nonzero of no true values = %s", Debug(nz))
	}
	if _, err := fx.w.Call(method(fx.floats("1", arr(f(1))), "argwhere")); err == nil {
		t.Error("argwhere of a Float tensor ran")
	}
	r := rand.New(rand.NewPCG(1, 8))
	for range 20 {
		h, w := int64(1+r.IntN(4)), int64(1+r.IntN(4))
		rows := &Array{}
		var want []int64
		for y := range h {
			row := &Array{}
			for x := range w {
				v := int64(r.IntN(2))
				row.Elems = append(row.Elems, i(v))
				if v == 1 {
					want = append(want, y, x)
				}
			}
			rows.Elems = append(rows.Elems, row)
		}
		got := mustCall(t, fx.w, method(b(rows), "argwhere")).(*Tensor)
		if int(got.shape[0])*2 != len(want) {
			t.Fatalf("argwhere of %s has shape %v", Debug(rows), got.shape)
		}
		for k, v := range want {
			if got.vals().Data.Int(k) != v {
				t.Fatalf("argwhere of %s = %s", Debug(rows), got.vals().Preview(64))
			}
		}
	}
}

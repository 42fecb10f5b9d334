package dispatch

import (
	"math/rand/v2"
	"testing"
)

// affine_grid_2d (grid/affine_grid.rs:22-60): the identity and a
// translation worked by hand, and random transforms against the formula
// x' = a11 x + a12 y + tx, y' = a21 x + a22 y + ty at each point.
func TestAffineGrid2d(t *testing.T) {
	fx := newOpFixture(t)
	grid := func(tr *Tensor, dims *Array) *Tensor {
		return mustCall(t, fx.w, Call{Path: []string{"burn", "tensor", "grid", "affine_grid_2d"}, Args: []Value{tr, dims}}).(*Tensor)
	}
	id := fx.floats("3", arr(arr(arr(f(1), f(0), f(0)), arr(f(0), f(1), f(0)))))
	out := grid(id, dims(1, 3, 2, 2))
	if got := out.vals().Preview(64); got != "[[[[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 1.0], [1.0, 1.0]]]]" {
		t.Errorf("identity grid = %s", got)
	}
	shift := fx.floats("3", arr(arr(arr(f(1), f(0), f(0.5)), arr(f(0), f(2), f(0)))))
	if got := grid(shift, dims(1, 1, 2, 3)).vals().Preview(64); got != "[[[[-0.5, -2.0], [0.5, -2.0], [1.5, -2.0]], [[-0.5, 2.0], [0.5, 2.0], [1.5, 2.0]]]]" {
		t.Errorf("scaled and shifted grid = %s", got)
	}
	// A height of 1 divides 0 by (1 - 1) / 2 = 0: Burn's y is NaN, and so
	// is every coordinate it is multiplied into.
	if got := grid(shift, dims(1, 1, 1, 2)).vals().Preview(64); got != "[[[[NaN, NaN], [NaN, NaN]]]]" {
		t.Errorf("grid of height 1 = %s", got)
	}
	r := rand.New(rand.NewPCG(5, 2))
	for range 10 {
		b, h, w := int64(1+r.IntN(2)), int64(2+r.IntN(3)), int64(2+r.IntN(3))
		vals := make([][6]float64, b)
		batches := &Array{}
		for k := range vals {
			for j := range vals[k] {
				vals[k][j] = float64(float32(r.Float64()*4 - 2))
			}
			v := vals[k]
			batches.Elems = append(batches.Elems, arr(arr(f(v[0]), f(v[1]), f(v[2])), arr(f(v[3]), f(v[4]), f(v[5]))))
		}
		out := grid(fx.floats("3", batches), dims(b, 1, h, w))
		if !sameShape(out.shape, []int64{b, h, w, 2}) {
			t.Fatalf("grid of [%d, 1, %d, %d] has shape %v", b, h, w, out.shape)
		}
		for k := range b {
			for yi := range h {
				for xi := range w {
					x := float64(float32(float32(xi)/(float32(w-1)/2) - 1))
					y := float64(float32(float32(yi)/(float32(h-1)/2) - 1))
					v := vals[k]
					at := int(((k*h+yi)*w + xi) * 2)
					for c, want := range []float64{v[0]*x + v[1]*y + v[2], v[3]*x + v[4]*y + v[5]} {
						if got := out.vals().F[at+c]; got-want > 1e-5 || want-got > 1e-5 {
							t.Fatalf("grid[%d, %d, %d, %d] = %v, want %v", k, yi, xi, c, got, want)
						}
					}
				}
			}
		}
	}
}

// meshgrid and meshgrid_stack (grid/meshgrid.rs:45-122) with each form of
// their options, worked by hand.
func TestMeshgrid(t *testing.T) {
	fx := newOpFixture(t)
	x := fx.ints("1", arr(i(1), i(2), i(3)))
	y := fx.ints("1", arr(i(5), i(6)))
	mesh := func(opts Value) []string {
		out := mustCall(t, fx.w, Call{Path: []string{"burn_tensor", "grid", "meshgrid"}, Args: []Value{ref(arr(x, y)), opts}}).(*Array)
		var got []string
		for _, e := range out.Elems {
			got = append(got, e.(*Tensor).vals().Preview(32))
		}
		return got
	}
	defaults := mustCall(t, fx.w, Call{Path: []string{"GridOptions", "default"}})
	dense := []string{"[[1, 1], [2, 2], [3, 3]]", "[[5, 6], [5, 6], [5, 6]]"}
	for name, opts := range map[string]Value{
		"GridOptions::default()": defaults,
		"GridSparsity::Dense":    &Enum{Type: "GridSparsity", Variant: "Dense"},
		"a struct literal":       gridOptions("Matrix", "Dense"),
	} {
		if got := mesh(opts); len(got) != 2 || got[0] != dense[0] || got[1] != dense[1] {
			t.Errorf("meshgrid with %s = %v, want %v", name, got, dense)
		}
	}
	if got := mesh(&Enum{Type: "GridSparsity", Variant: "Sparse"}); got[0] != "[[1], [2], [3]]" || got[1] != "[[5, 6]]" {
		t.Errorf("sparse meshgrid = %v", got)
	}
	cart := mustCall(t, fx.w, Call{Path: []string{"GridOptions", "new"}, Args: []Value{
		&Enum{Type: "GridIndexing", Variant: "Cartesian"}, &Enum{Type: "GridSparsity", Variant: "Dense"}}})
	if got := mesh(cart); got[0] != "[[1, 2, 3], [1, 2, 3]]" || got[1] != "[[5, 5, 5], [6, 6, 6]]" {
		t.Errorf("Cartesian meshgrid = %v", got)
	}
	st := mustCall(t, fx.w, Call{Path: []string{"grid", "meshgrid_stack"}, Args: []Value{ref(arr(x, y)), &Enum{Type: "IndexPos", Variant: "Last"}}}).(*Tensor)
	if got := st.vals().Preview(64); got != "[[[1, 5], [1, 6]], [[2, 5], [2, 6]], [[3, 5], [3, 6]]]" {
		t.Errorf("meshgrid_stack(Last) = %s", got)
	}
}

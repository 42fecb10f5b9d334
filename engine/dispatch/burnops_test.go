package dispatch

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// opCase is one call of a Burn op and the values it must give, printed as
// Preview prints them.
type opCase struct {
	name string
	call Call
	want string
}

func runOpCases(t *testing.T, w *World, cases []opCase) {
	t.Helper()
	for _, c := range cases {
		out, ok := mustCall(t, w, c.call).(*Tensor)
		if !ok || out.vals() == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if got := out.vals().Preview(64); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
	}
}

type opFixture struct {
	w      *World
	d      *Device
	floats func(rank string, vals Value) *Tensor
	ints   func(rank string, vals Value) *Tensor
}

func newOpFixture(t *testing.T, extra ...string) opFixture {
	w := world(t, append([]string{"flex"}, extra...)...)
	d := device(t, w, "flex")
	return opFixture{w: w, d: d,
		floats: func(rank string, vals Value) *Tensor {
			return mustCall(t, w, fnG("Tensor::from_floats", []string{rank}, vals, ref(d))).(*Tensor)
		},
		ints: func(rank string, vals Value) *Tensor {
			return mustCall(t, w, fnG("Tensor::from_ints", []string{rank, "Int"}, vals, ref(d))).(*Tensor)
		}}
}

// cumprod, cummin and cummax: the examples of their doc comments
// (numeric.rs:570-584, orderable.rs:1040-1088) and the int tests.
func TestCumulativeOps(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	mn := fx.floats("2", arr(arr(f(3), f(5), f(2)), arr(f(4), f(1), f(6))))
	mx := fx.floats("2", arr(arr(f(3), f(1), f(2)), arr(f(4), f(5), f(2))))
	ints := fx.ints("2", arr(arr(i(1), i(2), i(3)), arr(i(4), i(5), i(6))))
	runOpCases(t, fx.w, []opCase{
		{"cumprod(0)", method(m, "cumprod", i(0)), "[[1.0, 2.0, 3.0], [4.0, 10.0, 18.0]]"},
		{"cumprod(-1)", method(m, "cumprod", i(-1)), "[[1.0, 2.0, 6.0], [4.0, 20.0, 120.0]]"},
		{"cummin(0)", method(mn, "cummin", i(0)), "[[3.0, 5.0, 2.0], [3.0, 1.0, 2.0]]"},
		{"cummin(1)", method(mn, "cummin", i(1)), "[[3.0, 3.0, 2.0], [4.0, 1.0, 1.0]]"},
		{"cummax(1)", method(mx, "cummax", i(1)), "[[3.0, 3.0, 3.0], [4.0, 5.0, 5.0]]"},
		{"int cumprod(1)", method(ints, "cumprod", i(1)), "[[1, 2, 6], [4, 20, 120]]"},
		{"int cummax(0)", method(ints, "cummax", i(0)), "[[1, 2, 3], [4, 5, 6]]"},
	})
	out := mustCall(t, fx.w, method(m, "cummin", i(1))).(*Tensor)
	if op := fx.w.trace[len(fx.w.trace)-1].Op; op != "float_cummin" || !sameShape(out.shape, []int64{2, 3}) {
		t.Errorf("cummin dispatches %s with shape %v", op, out.shape)
	}
	p := mustPanic(t, fx.w, method(m, "cumprod", i(2)))
	if !strings.Contains(p.Message, "dimension 2 out of bounds: 0..2") || !strings.Contains(p.Location, "numeric.rs:586") {
		t.Errorf("cumprod(2): %s at %s", p.Message, p.Location)
	}
	bools := mustCall(t, fx.w, method(m, "greater_elem", f(2))).(*Tensor)
	mustReject(t, fx.w, method(bools, "cummax", i(0)))
}

func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pad's three modes on the examples of Burn's padding tests
// (crates/burn-backend-tests/tests/tensor/float/ops/padding.rs), its
// asserts with their messages, and its gradient through slice_assign.
func TestPad(t *testing.T) {
	fx := newOpFixture(t, "autodiff")
	m := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	row := fx.floats("2", arr(arr(f(1), f(2), f(3), f(4))))
	pair := func(a, b int64) Tuple { return Tuple{i(a), i(b)} }
	mode := func(v string) *Enum { return enum("PadMode", v) }
	ints := fx.ints("1", arr(i(7), i(8)))
	runOpCases(t, fx.w, []opCase{
		{"constant (l, r, t, b)", method(m, "pad", Tuple{i(1), i(0), i(0), i(1)}, f(1.5)),
			"[[1.5, 1.0, 2.0, 3.0], [1.5, 4.0, 5.0, 6.0], [1.5, 1.5, 1.5, 1.5]]"},
		{"constant pairs of the last dims", method(m, "pad", arr(pair(0, 1)), i(0)),
			"[[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0]]"},
		{"constant of an int tensor", method(ints, "pad", arr(pair(1, 1)), f(2.9)), "[2, 7, 8, 2]"},
		{"edge", method(m, "pad", Tuple{i(1), i(1), i(1), i(1)}, mode("Edge")),
			"[[1.0, 1.0, 2.0, 3.0, 3.0], [1.0, 1.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 6.0, 6.0], [4.0, 4.0, 5.0, 6.0, 6.0]]"},
		{"reflect", method(row, "pad", Tuple{i(3), i(3), i(0), i(0)}, mode("Reflect")),
			"[[4.0, 3.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0]]"},
		{"reflect of two dims", method(m, "pad", Tuple{i(1), i(1), i(1), i(0)}, mode("Reflect")),
			"[[5.0, 4.0, 5.0, 6.0, 5.0], [2.0, 1.0, 2.0, 3.0, 2.0], [5.0, 4.0, 5.0, 6.0, 5.0]]"},
	})
	panics := []struct {
		call     Call
		message  string
		location string
	}{
		{method(m, "pad", arr(pair(1, 1), pair(1, 1), pair(1, 1)), f(0)),
			"Padding has 3 pairs but tensor only has 2 dimensions", "pad.rs:18"},
		{method(m, "pad", Tuple{i(3), i(0), i(0), i(0)}, mode("Reflect")),
			"Reflect padding (3, 0) must be less than dimension 1 size (3)", "pad.rs:209"},
	}
	for _, c := range panics {
		p := mustPanic(t, fx.w, c.call)
		if p.Message != c.message || !strings.HasSuffix(p.Location, c.location) {
			t.Errorf("%s at %s, want %s at %s", p.Message, p.Location, c.message, c.location)
		}
	}
	empty := mustCall(t, fx.w, fnG("Tensor::empty", []string{"2"}, dims(0, 3), ref(fx.d))).(*Tensor)
	if p := mustPanic(t, fx.w, method(empty, "pad", Tuple{i(0), i(0), i(1), i(1)}, mode("Edge"))); p.Message != "Cannot apply edge padding to zero-sized dimension 0" {
		t.Errorf("edge of an empty dim: %s", p.Message)
	}
	bools := mustCall(t, fx.w, method(m, "greater_elem", f(2))).(*Tensor)
	mustReject(t, fx.w, method(bools, "pad", Tuple{i(1), i(1), i(1), i(1)}, f(0)))

	// The gradient of a reflect pad: each input element gets one per copy.
	ad := mustCall(t, fx.w, method(fx.d, "autodiff")).(*Device)
	x := mustCall(t, fx.w, fnG("Tensor::from_floats", []string{"1"}, arr(f(1), f(2), f(3)), ref(ad))).(*Tensor)
	x = mustCall(t, fx.w, method(x, "require_grad")).(*Tensor)
	padded := mustCall(t, fx.w, method(x, "pad", arr(pair(2, 1)), mode("Reflect"))).(*Tensor)
	if got := padded.vals().Preview(16); got != "[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]" {
		t.Fatalf("reflect pad on autodiff = %s", got)
	}
	loss := mustCall(t, fx.w, method(padded, "sum")).(*Tensor)
	grads := mustCall(t, fx.w, method(loss, "backward"))
	g := mustCall(t, fx.w, method(x, "grad", ref(grads)))
	if e, ok := g.(*Enum); !ok || e.Variant != "Some" || e.Fields[0].(*Tensor).vals().Preview(8) != "[1.0, 3.0, 2.0]" {
		t.Errorf("reflect pad gradient: %s", Debug(g))
	}
}

// TestPadAgainstNaiveIndexing pads random 1-3 dim tensors with random
// pairs in each mode and checks every output element against the
// definition: constant outside the input, the mirror index excluding the
// edge for Reflect, the clamped index for Edge.
func TestPadAgainstNaiveIndexing(t *testing.T) {
	fx := newOpFixture(t)
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 60 {
		rank := 1 + r.IntN(3)
		shape := make([]int64, rank)
		n := int64(1)
		for d := range shape {
			shape[d] = 1 + int64(r.IntN(4))
			n *= shape[d]
		}
		flat := &Array{}
		for k := range n {
			flat.Elems = append(flat.Elems, f(float64(k+1)))
		}
		x := fx.floats("1", flat)
		x = mustCall(t, fx.w, method(x, "reshape", dims(shape...))).(*Tensor)
		for _, m := range []string{"Constant", "Reflect", "Edge"} {
			pairs := &Array{}
			pads := make([][2]int64, rank)
			for d := range rank {
				limit := 3
				if m == "Reflect" {
					limit = int(shape[d]) // padding < size
				}
				pads[d] = [2]int64{int64(r.IntN(limit)), int64(r.IntN(limit))}
				pairs.Elems = append(pairs.Elems, Tuple{i(pads[d][0]), i(pads[d][1])})
			}
			var modeArg Value = f(-1)
			if m != "Constant" {
				modeArg = enum("PadMode", m)
			}
			out := mustCall(t, fx.w, method(x, "pad", pairs, modeArg)).(*Tensor)
			for p := range out.vals().NumElements() {
				// Decode p into output coords, map each to an input coord.
				rem := p
				coords := make([]int64, rank)
				for d := rank - 1; d >= 0; d-- {
					coords[d] = int64(rem) % out.shape[d]
					rem /= int(out.shape[d])
				}
				want := 0.0
				inside := true
				src := int64(0)
				for d := range rank {
					c := coords[d] - pads[d][0]
					switch {
					case c >= 0 && c < shape[d]:
					case m == "Constant":
						inside = false
					case m == "Edge":
						c = min(max(c, 0), shape[d]-1)
					case c < 0:
						c = -c
					default:
						c = 2*(shape[d]-1) - c
					}
					src = src*shape[d] + c
				}
				if inside {
					want = float64(src + 1)
				} else {
					want = -1
				}
				if got := out.vals().Data.Float(p); got != want {
					t.Fatalf("trial %d: %s pad %v of %v at %v = %v, want %v", trial, m, pads, shape, coords, got, want)
				}
			}
		}
	}
}

// fmod and fmod_scalar (fmod.rs) on the cases of Burn's fmod tests, trunc
// and hypot; fmod is composed from div, trunc, mul, is_inf and mask_where
// as burn-tensor composes it, so the trace shows those ops.
func TestFmodTruncHypot(t *testing.T) {
	fx := newOpFixture(t)
	inf := math.Inf(1)
	x := fx.floats("1", arr(f(5.3), f(-5.3), f(5.3), f(-5.3), f(7), f(inf)))
	y := fx.floats("1", arr(f(2), f(2), f(-2), f(-2), f(inf), f(2)))
	runOpCases(t, fx.w, []opCase{
		// C fmod's signs: the result takes the dividend's; x mod inf is x;
		// inf mod y is NaN.
		{"fmod", method(x, "fmod", y), "[1.3000002, -1.3000002, 1.3000002, -1.3000002, 7.0, NaN]"},
		{"fmod_scalar", method(x, "fmod_scalar", f(2)), "[1.3000002, -1.3000002, 1.3000002, -1.3000002, 1.0, NaN]"},
		{"fmod_scalar by infinity", method(x, "fmod_scalar", f(inf)), "[5.3, -5.3, 5.3, -5.3, 7.0, inf]"},
		{"trunc", method(fx.floats("1", arr(f(2.7), f(-2.7), f(0.2))), "trunc"), "[2.0, -2.0, 0.0]"},
		{"hypot", method(fx.floats("1", arr(f(3), f(5))), "hypot", fx.floats("1", arr(f(4), f(12)))), "[5.0, 13.0]"},
		{"is_inf", method(x, "is_inf"), "[false, false, false, false, false, true]"},
	})
	mustCall(t, fx.w, method(x, "fmod", y))
	var ops []string
	for _, e := range fx.w.trace[len(fx.w.trace)-9:] {
		ops = append(ops, e.Op)
	}
	if got := strings.Join(ops, " "); got != "float_div float_trunc float_mul float_equal_elem float_is_inf bool_and float_mul_scalar float_mask_where float_sub" {
		t.Errorf("fmod dispatches %s", got)
	}
	ints := fx.ints("1", arr(i(5)))
	mustReject(t, fx.w, method(ints, "fmod", ints))
	mustReject(t, fx.w, method(ints, "trunc"))
}

// TestFmodAgainstItsFormula checks fmod of random broadcast pairs against
// Burn's formula x - y * trunc(x / y) worked in f32 one operation at a
// time, which is what the backend computes (it can differ from C's fmod
// in the last bits).
func TestFmodAgainstItsFormula(t *testing.T) {
	fx := newOpFixture(t)
	r := rand.New(rand.NewPCG(9, 4))
	for trial := range 40 {
		n := 1 + r.IntN(6)
		xs, ys := make([]float64, n), make([]float64, n)
		xa, ya := &Array{}, &Array{}
		for k := range n {
			xs[k] = float64(float32((r.Float64()*40 - 20)))
			ys[k] = float64(float32((r.Float64()*10 - 5)))
			if r.IntN(8) == 0 {
				ys[k] = math.Inf(1 - 2*r.IntN(2))
			}
			xa.Elems, ya.Elems = append(xa.Elems, f(xs[k])), append(ya.Elems, f(ys[k]))
		}
		out := mustCall(t, fx.w, method(fx.floats("1", xa), "fmod", fx.floats("1", ya))).(*Tensor)
		for k := range n {
			x, y := float32(xs[k]), float32(ys[k])
			q := float32(math.Trunc(float64(x / y)))
			prod := y * q
			if q == 0 && math.IsInf(float64(y), 0) {
				prod = 0
			}
			want := float64(x - prod)
			if got := out.vals().Data.Float(k); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("trial %d: fmod(%v, %v) = %v, want %v", trial, x, y, got, want)
			}
		}
	}
}

// sort, argsort and the *_with_indices methods (orderable.rs) on the
// examples of their doc comments; the indices of tied elements are not
// known, so they carry a shape only.
func TestSortAndWithIndices(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(7), f(-2), f(3)), arr(f(5), f(9), f(6))))
	runOpCases(t, fx.w, []opCase{
		{"sort(1)", method(m, "sort", i(1)), "[[-2.0, 3.0, 7.0], [5.0, 6.0, 9.0]]"},
		{"sort_descending(0)", method(m, "sort_descending", i(0)), "[[7.0, 9.0, 6.0], [5.0, -2.0, 3.0]]"},
		{"argsort(-1)", method(m, "argsort", i(-1)), "[[1, 2, 0], [0, 2, 1]]"},
		{"argsort_descending(1)", method(m, "argsort_descending", i(1)), "[[0, 2, 1], [1, 2, 0]]"},
	})
	pair := func(c Call) (string, string) {
		tup := mustCall(t, fx.w, c).(Tuple)
		v, idx := tup[0].(*Tensor), tup[1].(*Tensor)
		if idx.kind != KindInt || idx.vals() == nil {
			return v.vals().Preview(16), "unknown"
		}
		return v.vals().Preview(16), idx.vals().Preview(16)
	}
	cases := []struct {
		call       Call
		vals, idxs string
	}{
		{method(m, "max_dim_with_indices", i(0)), "[[7.0, 9.0, 6.0]]", "[[0, 1, 1]]"},
		{method(m, "min_dim_with_indices", i(0)), "[[5.0, -2.0, 3.0]]", "[[1, 0, 0]]"},
		{method(m, "sort_with_indices", i(1)), "[[-2.0, 3.0, 7.0], [5.0, 6.0, 9.0]]", "[[1, 2, 0], [0, 2, 1]]"},
		{method(m, "sort_descending_with_indices", i(1)), "[[7.0, 3.0, -2.0], [9.0, 6.0, 5.0]]", "[[0, 2, 1], [1, 2, 0]]"},
		{method(m, "topk_with_indices", i(2), i(1)), "[[7.0, 3.0], [9.0, 6.0]]", "[[0, 2], [1, 2]]"},
		{method(fx.floats("1", arr(f(2), f(1), f(2))), "sort_with_indices", i(0)), "[1.0, 2.0, 2.0]", "unknown"},
	}
	for _, c := range cases {
		if v, idx := pair(c.call); v != c.vals || idx != c.idxs {
			t.Errorf("%s: %s %s, want %s %s", describe(c.call), v, idx, c.vals, c.idxs)
		}
	}
	tied := fx.floats("1", arr(f(2), f(1), f(2)))
	if out := mustCall(t, fx.w, method(tied, "argsort", i(0))).(*Tensor); out.vals() != nil {
		t.Errorf("argsort of a tie gave %s", out.vals().Preview(8))
	}
	if op := fx.w.trace[len(fx.w.trace)-1].Op; op != "float_argsort" {
		t.Errorf("argsort dispatches %s", op)
	}
	p := mustPanic(t, fx.w, method(m, "sort_with_indices", i(2)))
	if !strings.Contains(p.Message, "dimension 2 out of bounds") || !strings.HasSuffix(p.Location, "orderable.rs:105") {
		t.Errorf("sort_with_indices(2): %s at %s", p.Message, p.Location)
	}
}

// burn-flex's asserts on reductions of nothing (crates/burn-flex/src/ops/
// reduce.rs), as aggregation.rs and maxmin.rs expect them.
func TestFlexReductionsOfNothing(t *testing.T) {
	fx := newOpFixture(t, "autodiff")
	empty := mustCall(t, fx.w, fnG("Tensor::empty", []string{"2"}, dims(3, 0), ref(fx.d))).(*Tensor)
	vec := mustCall(t, fx.w, fnG("Tensor::empty", []string{"1"}, dims(0), ref(fx.d))).(*Tensor)
	cases := []struct {
		call    Call
		message string
		line    string
	}{
		{method(vec, "max"), "max: cannot reduce an empty tensor", "reduce.rs:432"},
		{method(vec, "min"), "min: cannot reduce an empty tensor", "reduce.rs:467"},
		{method(empty, "max_dim", i(1)), "max_dim: dimension 1 has size 0", "reduce.rs:1572"},
		{method(empty, "min_dim", i(-1)), "min_dim: dimension 1 has size 0", "reduce.rs:1618"},
		{method(empty, "argmax", i(1)), "argmax: dimension 1 has size 0", "reduce.rs:729"},
		{method(empty, "argmin", i(1)), "argmin: dimension 1 has size 0", "reduce.rs:785"},
		{method(empty, "max_dim_with_indices", i(1)), "max_dim_with_indices: dimension 1 has size 0", "reduce.rs:1665"},
	}
	for _, c := range cases {
		p := mustPanic(t, fx.w, c.call)
		if p.Message != c.message || !strings.HasSuffix(p.Location, c.line) {
			t.Errorf("%s: %s at %s, want %s at %s", describe(c.call), p.Message, p.Location, c.message, c.line)
		}
	}
	// An axis of size 0 that is not reduced is fine; sum of nothing is 0.
	mustCall(t, fx.w, method(empty, "max_dim", i(0)))
	mustCall(t, fx.w, method(vec, "sum"))
	// A tracked float max_dim runs the _with_indices kernel.
	ad := mustCall(t, fx.w, method(fx.d, "autodiff")).(*Device)
	x := mustCall(t, fx.w, fnG("Tensor::empty", []string{"2"}, dims(3, 0), ref(ad))).(*Tensor)
	x = mustCall(t, fx.w, method(x, "require_grad")).(*Tensor)
	if p := mustPanic(t, fx.w, method(x, "max_dim", i(1))); p.Message != "max_dim_with_indices: dimension 1 has size 0" {
		t.Errorf("tracked max_dim: %s", p.Message)
	}
	if p := mustPanic(t, fx.w, method(x, "max")); p.Message != "max_dim_with_indices: dimension 0 has size 0" {
		t.Errorf("tracked max: %s", p.Message)
	}
}

// Stepped slices (s![range;step], Slice::new) in slice, slice_assign,
// slice_fill and slice_dim; repeat.
func TestSteppedSlicesFillDimRepeat(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(3), f(4)), arr(f(5), f(6), f(7), f(8)), arr(f(9), f(10), f(11), f(12))))
	rng := func(lo, hi int64) *Range { return &Range{Lo: &lo, Hi: &hi} }
	step := func(r Value, s int64) *SteppedSlice {
		v := mustCall(t, fx.w, fn("Slice::from_range_stepped", r, i(s)))
		return v.(*SteppedSlice)
	}
	row := fx.floats("2", arr(arr(f(0), f(0))))
	runOpCases(t, fx.w, []opCase{
		{"s![0..3;2, 0..4;-1]", method(m, "slice", arr(step(rng(0, 3), 2), step(rng(0, 4), -1))),
			"[[4.0, 3.0, 2.0, 1.0], [12.0, 11.0, 10.0, 9.0]]"},
		{"s![0..3;-1, 0..4;2]", method(m, "slice", arr(step(rng(0, 3), -1), step(rng(0, 4), 2))),
			"[[9.0, 11.0], [5.0, 7.0], [1.0, 3.0]]"},
		{"one stepped slice", method(m, "slice", step(&Range{}, -2)), "[[9.0, 10.0, 11.0, 12.0], [1.0, 2.0, 3.0, 4.0]]"},
		{"slice_assign with a step", method(m, "slice_assign", arr(rng(0, 1), step(rng(0, 4), 2)), row),
			"[[0.0, 2.0, 0.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]"},
		{"slice_fill", method(m, "slice_fill", arr(rng(1, 2), &Range{}), f(-1)),
			"[[1.0, 2.0, 3.0, 4.0], [-1.0, -1.0, -1.0, -1.0], [9.0, 10.0, 11.0, 12.0]]"},
		{"slice_fill with a negative step", method(m, "slice_fill", arr(&Range{}, step(rng(0, 4), -3)), i(0)),
			"[[0.0, 2.0, 3.0, 0.0], [0.0, 6.0, 7.0, 0.0], [0.0, 10.0, 11.0, 0.0]]"},
		{"slice_dim", method(m, "slice_dim", i(1), rng(1, 3)), "[[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]]"},
		{"slice_dim with Slice::new", method(m, "slice_dim", i(-2), mustCall(t, fx.w, fn("Slice::new", i(0), enum("Option", "None"), i(2)))),
			"[[1.0, 2.0, 3.0, 4.0], [9.0, 10.0, 11.0, 12.0]]"},
		{"repeat", method(row, "repeat", arr(i(2), i(2))), "[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]"},
		{"repeat of ints", method(fx.ints("1", arr(i(1), i(2))), "repeat", arr(i(3))), "[1, 2, 1, 2, 1, 2]"},
	})
	if out := mustCall(t, fx.w, method(m, "repeat", arr(i(0), i(2)))).(*Tensor); !sameShape(out.shape, []int64{0, 8}) {
		t.Errorf("repeat with a 0 has shape %v", out.shape)
	}
	if p := mustPanic(t, fx.w, fn("Slice::from_range_stepped", rng(0, 2), i(0))); p.Message != "Step cannot be zero" {
		t.Errorf("a zero step: %s", p.Message)
	}
	if p := mustPanic(t, fx.w, method(m, "slice_dim", i(2), rng(0, 1))); !strings.Contains(p.Message, "dimension 2 out of bounds: 0..2") {
		t.Errorf("slice_dim(2): %s", p.Message)
	}
}

// TestSteppedSliceAgainstNaiveIndexing slices random 1-D tensors with
// random ranges and steps and checks the result against the definition:
// the selected positions start..end (clamped), every |step|-th one from
// the start, reversed for a negative step.
func TestSteppedSliceAgainstNaiveIndexing(t *testing.T) {
	fx := newOpFixture(t)
	r := rand.New(rand.NewPCG(2, 9))
	for trial := range 200 {
		n := 1 + r.IntN(9)
		xs := &Array{}
		for k := range n {
			xs.Elems = append(xs.Elems, f(float64(k)))
		}
		x := fx.floats("1", xs)
		lo, hi := int64(r.IntN(n+2)-1), int64(r.IntN(n+3)-1)
		st := int64(r.IntN(7) - 3)
		if st == 0 {
			st = 1
		}
		sl := mustCall(t, fx.w, fn("Slice::from_range_stepped", &Range{Lo: &lo, Hi: &hi}, i(st)))
		out := mustCall(t, fx.w, method(x, "slice", arr(sl))).(*Tensor)
		resolve := func(i int64) int64 {
			if i < 0 {
				i += int64(n)
			}
			return min(max(i, 0), int64(n))
		}
		start, end := resolve(lo), resolve(hi)
		var want []float64
		for p := start; p < end; p += max(st, -st) {
			want = append(want, float64(p))
		}
		if st < 0 {
			// A negative step walks the same range from its end.
			want = want[:0]
			for p := end - 1; p >= start; p += st {
				want = append(want, float64(p))
			}
		}
		if out.vals().NumElements() != len(want) {
			t.Fatalf("trial %d: %d..%d;%d of %d gives %s, want %v", trial, lo, hi, st, n, out.vals().Preview(16), want)
		}
		for k, w := range want {
			if out.vals().Data.Float(k) != w {
				t.Fatalf("trial %d: %d..%d;%d of %d gives %s, want %v", trial, lo, hi, st, n, out.vals().Preview(16), want)
			}
		}
	}
}

// categorical (float.rs:773-815): a category of weight 1 is always drawn;
// every draw is a category with a non-zero weight; the shape replaces the
// last dim by the sample count; zero samples is Burn's assert.
func TestCategorical(t *testing.T) {
	fx := newOpFixture(t)
	last := fx.floats("2", arr(arr(f(0), f(0), f(1)), arr(f(1), f(0), f(0))))
	runOpCases(t, fx.w, []opCase{
		{"deterministic rows", method(last, "categorical", i(4)), "[[2, 2, 2, 2], [0, 0, 0, 0]]"},
	})
	w := fx.floats("1", arr(f(0), f(3), f(0), f(1)))
	out := mustCall(t, fx.w, method(w, "categorical", i(200))).(*Tensor)
	if !sameShape(out.shape, []int64{200}) || out.kind != KindInt {
		t.Fatalf("categorical(200) is %s %v", out.kind, out.shape)
	}
	counts := map[int64]int{}
	for k := range 200 {
		counts[out.vals().Data.Int(k)]++
	}
	if counts[0] != 0 || counts[2] != 0 || counts[1] < 120 || counts[3] < 20 {
		t.Errorf("200 draws of weights [0, 3, 0, 1]: %v", counts)
	}
	p := mustPanic(t, fx.w, method(w, "categorical", i(0)))
	if p.Message != "categorical: num_samples must be >= 1" || !strings.HasSuffix(p.Location, "float.rs:774") {
		t.Errorf("zero samples: %s at %s", p.Message, p.Location)
	}
}

// one_hot_fill (orderable.rs:311-350) along the last and the first axis,
// with negative classes, and its axis check.
func TestOneHotFillMethod(t *testing.T) {
	fx := newOpFixture(t)
	x := fx.floats("1", arr(f(0), f(2), f(-1)))
	fill := func(axis int64) Call {
		c := method(x, "one_hot_fill", i(3), f(5), f(-1), i(axis))
		c.Generics = [][]string{{"2"}}
		return c
	}
	runOpCases(t, fx.w, []opCase{
		{"last axis", fill(-1), "[[5.0, -1.0, -1.0], [-1.0, -1.0, 5.0], [-1.0, -1.0, 5.0]]"},
		{"axis 0", fill(0), "[[5.0, -1.0, -1.0], [-1.0, -1.0, -1.0], [-1.0, 5.0, 5.0]]"},
	})
	p := mustPanic(t, fx.w, fill(2))
	if !strings.Contains(p.Message, "dimension 2 out of bounds: 0..2") || !strings.HasSuffix(p.Location, "orderable.rs:319") {
		t.Errorf("axis 2: %s at %s", p.Message, p.Location)
	}
}

// iter_dim (base.rs:2569, DimIter): one slice per index along dim, in
// order, each a float_slice of the tensor; its dim check.
func TestIterDim(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	parts := mustCall(t, fx.w, method(m, "iter_dim", i(-1))).(*Array)
	var got []string
	for _, p := range parts.Elems {
		got = append(got, p.(*Tensor).vals().Preview(8))
	}
	if strings.Join(got, " ") != "[[1.0], [4.0]] [[2.0], [5.0]] [[3.0], [6.0]]" {
		t.Errorf("iter_dim(-1) = %v", got)
	}
	if op := fx.w.trace[len(fx.w.trace)-1].Op; op != "float_slice" {
		t.Errorf("iter_dim's parts are %s", op)
	}
	p := mustPanic(t, fx.w, method(m, "iter_dim", i(2)))
	if !strings.Contains(p.Message, "'Iter Dim'") || !strings.HasSuffix(p.Location, "base.rs:2570") {
		t.Errorf("iter_dim(2): %s at %s", p.Message, p.Location)
	}
}

// roll_dim, roll (base.rs:1045-1222) and dot (numeric.rs:869): values
// worked by hand, the alignment assert, and roll against index arithmetic.
func TestRollAndDot(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.ints("2", arr(arr(i(0), i(1), i(2)), arr(i(3), i(4), i(5))))
	runOpCases(t, fx.w, []opCase{
		{"roll_dim(1, 1)", method(m, "roll_dim", i(1), i(1)), "[[1, 2, 0], [4, 5, 3]]"},
		{"roll_dim(-1, -1)", method(m, "roll_dim", i(-1), i(-1)), "[[2, 0, 1], [5, 3, 4]]"},
		{"roll over both dims", method(m, "roll", arr(i(1), i(2)), arr(i(0), i(1))), "[[5, 3, 4], [2, 0, 1]]"},
		{"roll whose shifts cancel", method(m, "roll", arr(i(1), i(-1)), arr(i(1), i(1))), "[[0, 1, 2], [3, 4, 5]]"},
		{"dot", method(fx.floats("1", arr(f(1), f(2))), "dot", fx.floats("1", arr(f(-2), f(3)))), "[4.0]"},
	})
	p := mustPanic(t, fx.w, method(m, "roll", arr(i(1), i(2)), arr(i(0))))
	if p.Message != "assertion `left == right` failed: Dimensions and shifts must align; found dims=[\n    0,\n], shifts=[\n    1,\n    2,\n]\n  left: 1\n right: 2" {
		t.Errorf("roll of unaligned shifts: %q", p.Message)
	}
	r := rand.New(rand.NewPCG(6, 6))
	for trial := range 50 {
		n := 1 + r.IntN(6)
		xs := &Array{}
		for k := range n {
			xs.Elems = append(xs.Elems, i(int64(k)))
		}
		shift := int64(r.IntN(20) - 10)
		out := mustCall(t, fx.w, method(fx.ints("1", xs), "roll_dim", i(shift), i(0))).(*Tensor)
		for k := range n {
			// Element k of the output is element (k + shift) mod n of the input.
			want := ((int64(k)+shift)%int64(n) + int64(n)) % int64(n)
			if got := out.vals().Data.Int(k); got != want {
				t.Fatalf("trial %d: roll_dim(%d) of %d elements at %d = %d, want %d", trial, shift, n, k, got, want)
			}
		}
	}
}

// max_abs_dim, max_abs and argtopk (orderable.rs:605-742) through
// burn-backend's default compositions.
func TestMaxAbsAndArgtopk(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(-7), f(2), f(3)), arr(f(5), f(-9), f(6))))
	runOpCases(t, fx.w, []opCase{
		{"max_abs_dim(1)", method(m, "max_abs_dim", i(1)), "[[7.0], [9.0]]"},
		{"max_abs", method(m, "max_abs"), "[9.0]"},
		{"argtopk(2, 1)", method(m, "argtopk", i(2), i(1)), "[[2, 1], [2, 0]]"},
	})
	p := mustPanic(t, fx.w, method(m, "argtopk", i(3), i(1)))
	if p.Message != "assertion failed: self.shape()[dim] > k" || !strings.HasSuffix(p.Location, "orderable.rs:607") {
		t.Errorf("argtopk(3) of 3 columns: %s at %s", p.Message, p.Location)
	}
}

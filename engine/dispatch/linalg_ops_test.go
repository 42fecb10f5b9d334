package dispatch

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func linalgCall(name string, generics []string, args ...Value) Call {
	c := fn("burn::tensor::linalg::"+name, args...)
	if generics != nil {
		c.Generics = make([][]string, len(c.Path))
		c.Generics[len(c.Path)-1] = generics
	}
	return c
}

// The linalg functions burn-tensor composes, on the cases of Burn's tests
// (crates/burn-backend-tests/tests/tensor/float/linalg/) worked by hand.
func TestLinalgComposedValues(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	sq := fx.floats("2", arr(arr(f(1), f(2)), arr(f(3), f(4))))
	v := fx.floats("1", arr(f(1), f(2)))
	w3 := fx.floats("1", arr(f(1), f(0), f(-1)))
	batch := fx.floats("2", arr(arr(f(1), f(2)), arr(f(3), f(4))))
	runOpCases(t, fx.w, []opCase{
		{"outer", linalgCall("outer", []string{"1", "2", "_"}, v, fx.floats("1", arr(f(3), f(4), f(5)))),
			"[[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]"},
		{"batched outer", linalgCall("outer", []string{"2", "3", "_"}, batch, batch),
			"[[[1.0, 2.0], [2.0, 4.0]], [[9.0, 12.0], [12.0, 16.0]]]"},
		{"outer of ints", linalgCall("outer", nil, fx.ints("1", arr(i(2), i(-1))), fx.ints("1", arr(i(3), i(4)))),
			"[[6, 8], [-3, -4]]"},
		{"diag of a wide matrix", linalgCall("diag", []string{"2", "1", "_"}, m), "[1.0, 5.0]"},
		{"trace", linalgCall("trace", []string{"2", "1"}, sq), "[5.0]"},
		{"trace of a wide matrix", linalgCall("trace", nil, m), "[6.0]"},
		{"matvec", linalgCall("matvec", []string{"2", "1", "_"}, m, w3), "[-2.0, -2.0]"},
		{"cosine_similarity", linalgCall("cosine_similarity", nil, sq, sq, i(1), enum("Option", "None")), "[[1.0], [1.0]]"},
		{"cosine_similarity of orthogonal rows", linalgCall("cosine_similarity", nil,
			fx.floats("2", arr(arr(f(1), f(0)))), fx.floats("2", arr(arr(f(0), f(1)))), i(-1), enum("Option", "Some", f(1e-8))), "[[0.0]]"},
		{"vector_norm L1", linalgCall("vector_norm", nil, w3, f(1), i(0)), "[2.0]"},
		{"vector_norm L2", linalgCall("vector_norm", nil, sq, enum("Norm", "L2"), i(0)), "[[3.1622777, 4.472136]]"},
		{"vector_norm L0", linalgCall("vector_norm", nil, w3, enum("Norm", "L0"), i(0)), "[2.0]"},
		{"vector_norm LInf", linalgCall("vector_norm", nil, w3, f(math.Inf(1)), i(0)), "[1.0]"},
		{"vector_norm L-Inf", linalgCall("vector_norm", nil, w3, f(math.Inf(-1)), i(0)), "[0.0]"},
		{"vector_norm L3", linalgCall("vector_norm", nil, v, enum("Norm", "Lp", f(3)), i(0)), "[2.0800838]"},
		{"vector_norm L4 (even)", linalgCall("vector_norm", nil, v, i(4), i(0)), "[2.030543]"},
		{"vector_normalize", linalgCall("vector_normalize", nil, v, f(1), i(0), f(1e-8)), "[0.33333334, 0.6666667]"},
		{"l1_norm", linalgCall("l1_norm", nil, w3, i(0)), "[2.0]"},
	})
	panics := []struct {
		call Call
		msg  string
		loc  string
	}{
		{linalgCall("outer", []string{"1", "3", "_"}, v, v),
			"assertion `left == right` failed: `outer` with D=1 expects R=2 (got R=3)\n  left: 3\n right: 2", "outer.rs:60"},
		{linalgCall("matvec", nil, m, fx.floats("1", arr(f(1), f(2)))),
			"Inner dimension mismatch: matrix has 3 columns but vector has 2 entries", "matvec.rs:53"},
		{linalgCall("matvec", nil, fx.floats("3", arr(arr(arr(f(1))), arr(arr(f(1))))), fx.floats("2", arr(arr(f(1)), arr(f(1)), arr(f(1))))),
			"Batch dimensions are not broadcast-compatible: matrix [2] vs vector [3]", "matvec.rs:43"},
		{linalgCall("matvec", nil, m, m), "matvec expects the vector rank (2) to be exactly one less than the matrix rank (2)", "matvec.rs:29"},
		{linalgCall("trace", nil, v), "Diagonal operations require", "linalg/diag.rs"},
		{linalgCall("vector_norm", nil, v, f(2), i(1)), "dimension 1 out of bounds: 0..1", "vector_norm.rs:124"},
	}
	for _, c := range panics {
		p := mustPanic(t, fx.w, c.call)
		if !strings.Contains(p.Message, c.msg) || !strings.Contains(p.Location, c.loc) {
			t.Errorf("%s:\n%q at %s\nwant %q at %s", describe(c.call), p.Message, p.Location, c.msg, c.loc)
		}
	}
}

// TestLinalgAgainstNaiveLoops checks outer, matvec, trace and the p-norms
// of random tensors against loops written from their definitions, in f32.
func TestLinalgAgainstNaiveLoops(t *testing.T) {
	fx := newOpFixture(t)
	r := rand.New(rand.NewPCG(12, 1))
	vec := func(n int) ([]float32, *Tensor) {
		xs := make([]float32, n)
		a := &Array{}
		for k := range xs {
			xs[k] = float32(r.IntN(9) - 4)
			a.Elems = append(a.Elems, f(float64(xs[k])))
		}
		return xs, fx.floats("1", a)
	}
	matrix := func(rows, cols int) ([]float32, *Tensor) {
		xs, flat := vec(rows * cols)
		return xs, mustCall(t, fx.w, method(flat, "reshape", dims(int64(rows), int64(cols)))).(*Tensor)
	}
	for trial := range 40 {
		n, k := 1+r.IntN(5), 1+r.IntN(5)
		xs, x := vec(n)
		ys, y := vec(k)
		out := mustCall(t, fx.w, linalgCall("outer", nil, x, y)).(*Tensor)
		for a := range n {
			for b := range k {
				if got := out.vals().Data.Float(a*k + b); got != float64(xs[a]*ys[b]) {
					t.Fatalf("trial %d: outer[%d][%d] = %v", trial, a, b, got)
				}
			}
		}
		ms, mt := matrix(n, k)
		mv := mustCall(t, fx.w, linalgCall("matvec", nil, mt, y)).(*Tensor)
		var tr float32
		for a := range n {
			var s float32
			for b := range k {
				s += ms[a*k+b] * ys[b]
			}
			if got := mv.vals().Data.Float(a); got != float64(s) {
				t.Fatalf("trial %d: matvec[%d] = %v, want %v", trial, a, got, s)
			}
			if a < k {
				tr += ms[a*k+a]
			}
		}
		if got := mustCall(t, fx.w, linalgCall("trace", nil, mt)).(*Tensor).vals().Data.Float(0); got != float64(tr) {
			t.Fatalf("trial %d: trace = %v, want %v", trial, got, tr)
		}
		for _, p := range []float64{0, 1, 2, 3, 4, math.Inf(1), math.Inf(-1)} {
			got := mustCall(t, fx.w, linalgCall("vector_norm", nil, x, f(p), i(0))).(*Tensor).vals().Data.Float(0)
			var want float64
			switch {
			case p == 0:
				for _, e := range xs {
					want += float64(ifElse(e != 0, 1, 0))
				}
			case math.IsInf(p, 1):
				for _, e := range xs {
					want = math.Max(want, math.Abs(float64(e)))
				}
			case math.IsInf(p, -1):
				want = math.Inf(1)
				for _, e := range xs {
					want = math.Min(want, math.Abs(float64(e)))
				}
			default:
				for _, e := range xs {
					want += math.Pow(math.Abs(float64(e)), p)
				}
				want = math.Pow(want, 1/p)
			}
			if math.Abs(got-want) > 1e-5*math.Max(1, want) {
				t.Fatalf("trial %d: L%v norm of %v = %v, want %v", trial, p, xs, got, want)
			}
		}
	}
}

// lu's three outputs have Burn's shapes for tall and wide matrices
// (lu.rs:93-102), so P L U multiplies back without the matmul check
// failing (tests/tensor/float/linalg/lu.rs).
func TestLuShapes(t *testing.T) {
	fx := newOpFixture(t)
	for _, c := range []struct {
		shape   []int64
		p, l, u []int64
	}{
		{[]int64{3, 2}, []int64{3, 3}, []int64{3, 2}, []int64{2, 2}},
		{[]int64{2, 3}, []int64{2, 2}, []int64{2, 2}, []int64{2, 3}},
		{[]int64{4, 3, 3}, []int64{4, 3, 3}, []int64{4, 3, 3}, []int64{4, 3, 3}},
	} {
		x := ones(t, fx.w, fx.d, "", c.shape...)
		out := mustCall(t, fx.w, linalgCall("lu", nil, x)).(Tuple)
		p, l, u := out[0].(*Tensor), out[1].(*Tensor), out[2].(*Tensor)
		if !sameShape(p.shape, c.p) || !sameShape(l.shape, c.l) || !sameShape(u.shape, c.u) {
			t.Errorf("lu of %v: P %v L %v U %v", c.shape, p.shape, l.shape, u.shape)
		}
		pl := mustCall(t, fx.w, method(p, "matmul", l)).(*Tensor)
		if plu := mustCall(t, fx.w, method(pl, "matmul", u)).(*Tensor); !sameShape(plu.shape, c.shape) {
			t.Errorf("P L U of %v has shape %v", c.shape, plu.shape)
		}
	}
}

// lu's values (lu.rs, unblocked below 256): P L U gives the input back,
// and a tracked input leaves them unknown.
func TestLuValues(t *testing.T) {
	fx := newOpFixture(t, "autodiff")
	x := fx.floats("2", arr(arr(f(1), f(2)), arr(f(3), f(4)), arr(f(5), f(7))))
	out := mustCall(t, fx.w, linalgCall("lu", nil, x)).(Tuple)
	p, l, u := out[0].(*Tensor), out[1].(*Tensor), out[2].(*Tensor)
	if p.vals() == nil || l.vals() == nil || u.vals() == nil {
		t.Fatal("lu of a 3x2 matrix gave no values")
	}
	if got := p.vals().Preview(16); got != "[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]" {
		t.Errorf("P = %s", got)
	}
	pl := mustCall(t, fx.w, method(p, "matmul", l)).(*Tensor)
	plu := mustCall(t, fx.w, method(pl, "matmul", u)).(*Tensor)
	for k, want := range []float64{1, 2, 3, 4, 5, 7} {
		if got := plu.vals().Data.Float(k); math.Abs(got-want) > 1e-5 {
			t.Errorf("P L U [%d] = %v, want %v", k, got, want)
		}
	}
	ad := mustCall(t, fx.w, method(fx.d, "autodiff")).(*Device)
	y := mustCall(t, fx.w, fnG("Tensor::from_floats", []string{"2"}, arr(arr(f(1), f(2)), arr(f(3), f(4))), ref(ad))).(*Tensor)
	y = mustCall(t, fx.w, method(y, "require_grad")).(*Tensor)
	if outs := mustCall(t, fx.w, linalgCall("lu", nil, y)).(Tuple); outs[1].(*Tensor).vals() != nil {
		t.Error("lu of a tracked tensor has values without a gradient")
	}
}

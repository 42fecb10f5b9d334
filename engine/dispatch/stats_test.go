package dispatch

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// var, var_bias, var_mean, median and cov (stats/mod.rs, float.rs) on
// values worked by hand, and against naive formulas on random rows.
func TestStatsMethods(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(4)), arr(f(3), f(3), f(3))))
	runOpCases(t, fx.w, []opCase{
		{"var", method(m, "var", i(1)), "[[2.3333335], [0.0]]"},
		{"var_bias", method(m, "var_bias", i(-1)), "[[1.5555557], [0.0]]"},
		{"median of an odd count", method(m, "median", i(1)), "[[2.0], [3.0]]"},
		{"median of an even count is the lower", method(fx.floats("1", arr(f(4), f(1), f(3), f(2))), "median", i(0)), "[2.0]"},
		{"cov", method(fx.floats("2", arr(arr(f(1), f(2)), arr(f(3), f(6)))), "cov", i(0), i(1)), "[[2.0, 4.0], [4.0, 8.0]]"},
	})
	vm := mustCall(t, fx.w, method(m, "var_mean", i(1))).(Tuple)
	if v, mean := vm[0].(*Tensor).vals().Preview(8), vm[1].(*Tensor).vals().Preview(8); v != "[[2.3333335], [0.0]]" || mean != "[[2.3333333], [3.0]]" {
		t.Errorf("var_mean = %s %s", v, mean)
	}
	mi := mustCall(t, fx.w, method(fx.floats("1", arr(f(5), f(1), f(3))), "median_with_indices", i(0))).(Tuple)
	if v, idx := mi[0].(*Tensor).vals().Preview(8), mi[1].(*Tensor).vals().Preview(8); v != "[3.0]" || idx != "[2]" {
		t.Errorf("median_with_indices = %s %s", v, idx)
	}
	empty := mustCall(t, fx.w, fnG("Tensor::empty", []string{"1"}, dims(0), ref(fx.d))).(*Tensor)
	if p := mustPanic(t, fx.w, method(empty, "var", i(0))); p.Message != "attempt to subtract with overflow" {
		t.Errorf("var of nothing: %s", p.Message)
	}
	r := rand.New(rand.NewPCG(8, 1))
	for trial := range 60 {
		n := 1 + r.IntN(7)
		xs := make([]float64, n)
		a := &Array{}
		for k := range xs {
			xs[k] = float64(r.IntN(21) - 10)
			a.Elems = append(a.Elems, f(xs[k]))
		}
		x := fx.floats("1", a)
		mean := 0.0
		for _, v := range xs {
			mean += v
		}
		mean /= float64(n)
		ss := 0.0
		for _, v := range xs {
			ss += (v - mean) * (v - mean)
		}
		got := mustCall(t, fx.w, method(x, "var_bias", i(0))).(*Tensor).vals().Data.Float(0)
		if want := ss / float64(n); math.Abs(got-want) > 1e-4*math.Max(1, want) {
			t.Fatalf("trial %d: var_bias of %v = %v, want %v", trial, xs, got, want)
		}
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		if got := mustCall(t, fx.w, method(x, "median", i(0))).(*Tensor).vals().Data.Float(0); got != sorted[(n-1)/2] {
			t.Fatalf("trial %d: median of %v = %v, want %v", trial, xs, got, sorted[(n-1)/2])
		}
	}
}

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The values Burn's trig tests expect (crates/burn-backend-tests/tests/
// tensor/float/ops/trig.rs) and the gradients of sum(f(x)), by hand:
// asin(0.5) = pi/6, d/dx = 1/sqrt(1 - 0.25) = 1.1547.
func TestInverseTrigValuesAndGradients(t *testing.T) {
	cases := []struct {
		method     string
		x          []float64
		want, grad []float64
	}{
		{"asin", []float64{0, 0.5, -1}, []float64{0, math.Pi / 6, -math.Pi / 2}, []float64{1, 2 / math.Sqrt(3), math.Inf(1)}},
		{"acos", []float64{0, 0.5, 1}, []float64{math.Pi / 2, math.Pi / 3, 0}, []float64{-1, -2 / math.Sqrt(3), math.Inf(-1)}},
		{"atan", []float64{0, 1, -1}, []float64{0, math.Pi / 4, -math.Pi / 4}, []float64{1, 0.5, 0.5}},
		{"asinh", []float64{0, 0.75}, []float64{0, math.Log(2)}, []float64{1, 0.8}},
		{"acosh", []float64{1.25, 2}, []float64{math.Log(2), math.Log(2 + math.Sqrt(3))}, []float64{1 / 0.75, 1 / math.Sqrt(3)}},
		{"atanh", []float64{0, 0.6}, []float64{0, math.Log(2)}, []float64{1, 1 / 0.64}},
	}
	for _, c := range cases {
		y, g := sumGrad(t, c.x, []int{len(c.x)}, func(x *Tensor) (*Tensor, error) { return Unary(c.method, x) })
		for i := range c.want {
			// The result is an f32: within one f32 ulp of the exact value.
			if y.F[i] != float64(float32(y.F[i])) || math.Abs(y.F[i]-c.want[i]) > 1.2e-7*math.Abs(c.want[i]) {
				t.Errorf("%s(%v) = %v, want %v in f32", c.method, c.x[i], y.F[i], c.want[i])
			}
			if !(math.IsInf(c.grad[i], 0) && g.F[i] == c.grad[i]) && math.Abs(g.F[i]-c.grad[i]) > 1e-6*math.Abs(c.grad[i]) {
				t.Errorf("d %s(%v) = %v, want %v", c.method, c.x[i], g.F[i], c.grad[i])
			}
		}
	}
	if _, err := Unary("asin", mustInts(t, []int64{0}, []int{1}, I64)); err == nil {
		t.Error("asin of an Int tensor has values")
	}
	nan, _ := Unary("acosh", mustFloats(t, []float64{0.5}, []int{1}, F32))
	if !math.IsNaN(nan.F[0]) {
		t.Errorf("acosh(0.5) = %v, want NaN", nan.F[0])
	}
}

// Each inverse undoes its function, and each derivative matches a
// central finite difference, at random points of the domain.
func TestInverseTrigProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	forward := map[string]func(float64) float64{"asin": math.Sin, "acos": math.Cos, "atan": math.Tan,
		"asinh": math.Sinh, "acosh": math.Cosh, "atanh": math.Tanh}
	domain := map[string][2]float64{"asin": {-0.95, 0.95}, "acos": {-0.95, 0.95}, "atan": {-5, 5},
		"asinh": {-5, 5}, "acosh": {1.05, 6}, "atanh": {-0.95, 0.95}}
	for m, f := range forward {
		xs := make([]float64, 64)
		for i := range xs {
			d := domain[m]
			xs[i] = d[0] + r.Float64()*(d[1]-d[0])
		}
		x := mustFloats(t, xs, []int{64}, F64)
		y, err := Unary(m, x)
		if err != nil {
			t.Fatal(err)
		}
		_, g := sumGrad(t, xs, []int{64}, func(x *Tensor) (*Tensor, error) { return Unary(m, Cast(x, F64)) })
		k := unaryKernels[m]
		for i, v := range xs {
			if back := f(y.F[i]); math.Abs(back-v) > 1e-9*math.Max(1, math.Abs(v)) {
				t.Errorf("%s: f(%s(%v)) = %v", m, m, v, back)
			}
			h := 1e-6
			fd := (k.float(v+h) - k.float(v-h)) / (2 * h)
			if math.Abs(g.F[i]-fd) > 1e-4*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s'(%v) = %v, finite difference %v", m, v, g.F[i], fd)
			}
		}
	}
}

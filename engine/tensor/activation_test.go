package tensor

import (
	"math"
	"testing"
)

// gradOf runs f on a tracked copy of values and returns the values of
// f and the gradient of sum(f(x)).
func gradOf(t *testing.T, values []float64, dtype DType, f func(x *Tensor) *Tensor) (*Tensor, *Tensor) {
	t.Helper()
	x, err := mustFloats(t, values, []int{len(values)}, dtype).RequireGrad()
	if err != nil {
		t.Fatal(err)
	}
	y := f(x)
	loss, err := Reduce("sum", y, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := grads.Get(x)
	if !ok {
		t.Fatal("no gradient")
	}
	return y, g
}

var activationInputs = []float64{-3, -1.5, -0.25, 0.5, 1, 2.5}

func TestActivationValuesAndGradients(t *testing.T) {
	sigma := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	cases := []struct {
		name  string
		f     func(x *Tensor) *Tensor
		value func(x float64) float64
		deriv func(x float64) float64
		tol   float64 // Burn's sigmoid runs in f32 even on f64 tensors
	}{
		{"relu", relu, func(x float64) float64 { return math.Max(x, 0) },
			func(x float64) float64 { return pick(x > 0, 1.0, 0) }, 0},
		{"sigmoid", sigmoid, sigma,
			func(x float64) float64 { return sigma(x) * (1 - sigma(x)) }, 1e-7},
		{"silu", silu, func(x float64) float64 { return x * sigma(x) },
			func(x float64) float64 { return sigma(x) + x*sigma(x)*(1-sigma(x)) }, 1e-6},
		{"log_sigmoid", logSigmoid, func(x float64) float64 { return math.Log(sigma(x)) },
			func(x float64) float64 { return 1 - sigma(x) }, 1e-12},
		{"gelu", gelu, func(x float64) float64 { return x * 0.5 * (1 + math.Erf(x/math.Sqrt2)) },
			geluBackward, 1e-12},
		{"leaky_relu", func(x *Tensor) *Tensor { return LeakyRelu(x, 0.01) },
			func(x float64) float64 { return pick(x < 0, 0.01*x, x) },
			func(x float64) float64 { return pick(x < 0, 0.01, 1) }, 1e-15},
		{"softplus", func(x *Tensor) *Tensor { return Softplus(x, 2) },
			func(x float64) float64 { return math.Log1p(math.Exp(2*x)) / 2 },
			func(x float64) float64 { return sigma(2 * x) }, 1e-12},
	}
	for _, c := range cases {
		y, g := gradOf(t, activationInputs, F64, c.f)
		for i, x := range activationInputs {
			if math.Abs(y.F[i]-c.value(x)) > c.tol {
				t.Errorf("%s(%v) = %v, want %v", c.name, x, y.F[i], c.value(x))
			}
			if math.Abs(g.F[i]-c.deriv(x)) > c.tol*10+1e-12 {
				t.Errorf("%s'(%v) = %v, want %v", c.name, x, g.F[i], c.deriv(x))
			}
		}
	}
}

func TestGeluGradientIsBurnsTanhApproximation(t *testing.T) {
	_, g := gradOf(t, []float64{2}, F64, gelu)
	exact := 0.5*(1+math.Erf(2/math.Sqrt2)) + 2*math.Exp(-2)/math.Sqrt(2*math.Pi)
	if math.Abs(g.F[0]-exact) < 1e-4 {
		t.Errorf("gelu'(2) = %v matches the exact derivative %v; Burn's gelu_backward differentiates the tanh form", g.F[0], exact)
	}
	if math.Abs(g.F[0]-geluBackward(2)) > 1e-15 {
		t.Errorf("gelu'(2) = %v, want %v", g.F[0], geluBackward(2))
	}
}

func TestSoftmaxFamily(t *testing.T) {
	x := mustFloats(t, []float64{1, 2, 3, 1000, 1001, 1002}, []int{2, 3}, F32)
	s, err := Softmax(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Subtracting the row max keeps exp finite for the second row.
	for row := range 2 {
		sum := 0.0
		for j := range 3 {
			sum += s.F[row*3+j]
		}
		if math.Abs(sum-1) > 1e-6 || math.IsNaN(sum) {
			t.Errorf("row %d sums to %v", row, sum)
		}
	}
	if math.Abs(s.F[2]-s.F[5]) > 1e-7 {
		t.Errorf("softmax is shift invariant: %v vs %v", s.F[2], s.F[5])
	}
	ls, _ := LogSoftmax(x, 1)
	for i := range s.F {
		if math.Abs(math.Exp(ls.F[i])-s.F[i]) > 1e-6 {
			t.Errorf("exp(log_softmax) = %v, softmax = %v", math.Exp(ls.F[i]), s.F[i])
		}
	}
	sm, _ := Softmin(x, 1)
	if !(sm.F[0] > sm.F[1] && sm.F[1] > sm.F[2]) {
		t.Errorf("softmin favours the smallest: %v", sm.F[:3])
	}
	// The softmax of a row sums to one whatever the input, so the
	// gradient of its sum vanishes.
	_, g := gradOf(t, []float64{0.3, -1, 2}, F64, func(x *Tensor) *Tensor {
		s, _ := Softmax(x, 0)
		return s
	})
	for _, v := range g.F {
		if math.Abs(v) > 1e-15 {
			t.Errorf("d sum(softmax) / dx = %v", g.F)
		}
	}
	if _, err := Softmax(mustInts(t, []int64{1}, []int{1}, I32), 0); err == nil {
		t.Error("softmax of an int tensor")
	}
}

func TestSigmoidRunsInF32(t *testing.T) {
	x := mustFloats(t, []float64{0.1}, []int{1}, F64)
	y := sigmoid(x)
	want := 1 / (1 + math.Exp(-0.1))
	if y.F[0] == want {
		t.Error("Burn's sigmoid casts to f32; an f64 tensor keeps f32 precision")
	}
	if y.F[0] != float64(float32(y.F[0])) || math.Abs(y.F[0]-want) > 1e-7 {
		t.Errorf("sigmoid(0.1) = %v, want %v to f32 precision", y.F[0], want)
	}
}

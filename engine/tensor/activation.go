package tensor

import "math"

// Activations as burn-backend's ActivationOps defaults compute them
// (crates/burn-backend/src/backend/ops/activation.rs). burn-autodiff gives
// relu, sigmoid, log_sigmoid and gelu backward steps of their own
// (crates/burn-autodiff/src/ops/activation.rs); the others are
// differentiated through the operations they are built from, with
// max_dim's input detached in softmax as Burn detaches it.

// activation finds the one-input activations Unary accepts by name.
func activation(method string) (func(t *Tensor) *Tensor, bool) {
	switch method {
	case "relu":
		return relu, true
	case "sigmoid":
		return sigmoid, true
	case "log_sigmoid":
		return logSigmoid, true
	case "gelu":
		return gelu, true
	case "silu":
		return silu, true
	case "mish":
		return mish, true
	}
	return nil, false
}

// relu is relu: mask_fill(x <= 0, 0). Its gradient is zero where the
// output is <= 0 (relu_backward).
func relu(t *Tensor) *Tensor {
	out := newData(t.DType, t.Shape)
	for i, x := range t.F {
		out.F[i] = pick(x <= 0, 0, x)
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := newData(t.DType, t.Shape)
		for i, v := range g.F {
			gin.F[i] = pick(out.F[i] <= 0, 0, v)
		}
		return []*Data{gin}
	})
}

// sigmoid is sigmoid: exp(-log(exp(-x) + 1)), computed in f32 whatever
// the dtype and cast back, each step rounded as a backend op. Its gradient
// is out * (1 - out) * grad (sigmoid_backward).
func sigmoid(t *Tensor) *Tensor {
	r := F32.roundFloat
	out := newData(t.DType, t.Shape)
	for i, x := range t.F {
		v := r(math.Exp(r(-r(math.Log(r(r(math.Exp(-r(x))) + 1))))))
		out.F[i] = t.DType.roundFloat(v)
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		d := t.DType.roundFloat
		gin := newData(t.DType, t.Shape)
		for i, v := range g.F {
			y := out.F[i]
			gin.F[i] = d(d(y*d(1-y)) * v)
		}
		return []*Data{gin}
	})
}

// logSigmoid is log_sigmoid by the log-sum-exp form burn-backend uses:
// -max(-x, 0) - log(exp(-max(-x, 0)) + exp(-x - max(-x, 0))), with
// log_sigmoid_backward's gradient.
func logSigmoid(t *Tensor) *Tensor {
	d := t.DType.roundFloat
	out := newData(t.DType, t.Shape)
	z := make([]float64, len(t.F))
	for i, x := range t.F {
		neg := -x
		m := pick(neg < 0, 0, neg)
		z[i] = d(d(math.Exp(-m)) + d(math.Exp(d(neg-m))))
		out.F[i] = d(-m - d(math.Log(z[i])))
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := newData(t.DType, t.Shape)
		for i, v := range g.F {
			positive := -t.F[i] < 0
			maxDerive := pick(positive, 0.0, 1)
			sign := pick(positive, -1.0, 1)
			gin.F[i] = d(v * d(maxDerive-d(sign*d(1-d(1/z[i])))))
		}
		return []*Data{gin}
	})
}

// gelu is gelu, the erf form: x * (erf(x / sqrt(2)) + 1) / 2. Its
// gradient is burn-backend's gelu_backward, which differentiates the tanh
// approximation instead (constants 0.0356774, 0.797885, 0.0535161,
// 0.398942); it differs from the exact derivative by up to 8.7e-4 (near
// x = 2).
func gelu(t *Tensor) *Tensor {
	d := t.DType.roundFloat
	out := newData(t.DType, t.Shape)
	for i, x := range t.F {
		// div_scalar converts SQRT_2 to the dtype first.
		e := d(d(math.Erf(d(x/d(math.Sqrt2)))) + 1)
		out.F[i] = d(d(x*e) / 2)
	}
	return track(out, []*Tensor{t}, func(g *Data, _ []bool) []*Data {
		gin := newData(t.DType, t.Shape)
		for i, v := range g.F {
			gin.F[i] = d(geluBackward(t.F[i]) * v)
		}
		return []*Data{gin}
	})
}

// geluBackward is the derivative gelu_backward multiplies the gradient by.
func geluBackward(x float64) float64 {
	x3 := x * x * x
	inner1 := 0.0356774*x3 + 0.797885*x
	inner2 := 0.0535161*x3 + 0.398942*x
	th := math.Tanh(inner1)
	sech := 1 - th*th
	return 0.5*th + inner2*sech + 0.5
}

// silu is silu: x * sigmoid(x).
func silu(t *Tensor) *Tensor {
	r, _ := Binary("mul", t, sigmoid(t))
	return r
}

// Softplus is softplus(beta): log(exp(beta * x) + 1) / beta.
func Softplus(t *Tensor, beta float64) *Tensor {
	scaled, _ := WithScalar("mul_scalar", t, FloatScalar(beta))
	e, _ := Unary("exp", scaled)
	plus, _ := WithScalar("add_scalar", e, IntScalar(1))
	l, _ := Unary("log", plus)
	r, _ := WithScalar("div_scalar", l, FloatScalar(beta))
	return r
}

// mish is mish: x * tanh(softplus(x, 1)).
func mish(t *Tensor) *Tensor {
	th, _ := Unary("tanh", Softplus(t, 1))
	r, _ := Binary("mul", t, th)
	return r
}

// LeakyRelu is leaky_relu(negative_slope): mask_where(x < 0, x * slope).
func LeakyRelu(t *Tensor, slope float64) *Tensor {
	mask, _ := CompareScalar("lower_elem", t, IntScalar(0), BoolNative)
	scaled, _ := WithScalar("mul_scalar", t, FloatScalar(slope))
	r, _ := MaskWhere(t, mask, scaled)
	return r
}

// HardSigmoid is hard_sigmoid(alpha, beta): clamp(alpha * x + beta, 0, 1)
// in f32, cast back.
func HardSigmoid(t *Tensor, alpha, beta float64) *Tensor {
	x := Cast(t, F32)
	scaled, _ := WithScalar("mul_scalar", x, FloatScalar(alpha))
	shifted, _ := WithScalar("add_scalar", scaled, FloatScalar(beta))
	clamped, _ := Clamp(shifted, IntScalar(0), IntScalar(1))
	return Cast(clamped, t.DType)
}

// Softmax is softmax(dim): exp(x - max) / sum(exp(x - max)) along dim,
// the max taken from a detached copy.
func Softmax(t *Tensor, dim int) (*Tensor, error) {
	shifted, err := shiftByMax(t, dim)
	if err != nil {
		return nil, err
	}
	e, _ := Unary("exp", shifted)
	sum, _ := ReduceDim("sum_dim", e, dim, 0)
	return Binary("div", e, sum)
}

// Softmin is softmin(dim): softmax of -x.
func Softmin(t *Tensor, dim int) (*Tensor, error) {
	neg, err := Unary("neg", t)
	if err != nil {
		return nil, err
	}
	return Softmax(neg, dim)
}

// LogSoftmax is log_softmax(dim): (x - max) - log(sum(exp(x - max))).
func LogSoftmax(t *Tensor, dim int) (*Tensor, error) {
	shifted, err := shiftByMax(t, dim)
	if err != nil {
		return nil, err
	}
	e, _ := Unary("exp", shifted)
	sum, _ := ReduceDim("sum_dim", e, dim, 0)
	lse, _ := Unary("log", sum)
	return Binary("sub", shifted, lse)
}

func shiftByMax(t *Tensor, dim int) (*Tensor, error) {
	if !t.DType.IsFloat() {
		return nil, kindError("softmax of a %s tensor", t.DType.Kind())
	}
	m, err := ReduceDim("max_dim", t.Detach(), dim, 0)
	if err != nil {
		return nil, err
	}
	return Binary("sub", t, m)
}

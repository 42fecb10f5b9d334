package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// The activations of burn::tensor::activation that api_compose.go's
// activation does not cover (crates/burn-tensor/src/tensor/activation/
// base.rs). log_sigmoid, hard_sigmoid and softmin are Dispatch's
// ActivationOps (crates/burn-dispatch/src/ops/activation.rs:38-56); the
// others are composed of tensor methods exactly as base.rs composes them,
// so their trace, values and gradients are those methods'.

const locActivation = "crates/burn-tensor/src/tensor/activation/base.rs"

// moreActivationArgs are the activations handled here and their argument
// counts, the tensor included.
var moreActivationArgs = map[string]int{
	"log_sigmoid": 1, "hard_sigmoid": 3, "softmin": 2, "hardtanh": 3, "tanhshrink": 1, "relu6": 1,
	"softplus": 2, "quiet_softmax": 2, "mish": 1, "elu": 2, "celu": 2, "selu": 1, "thresholded_relu": 2,
	"threshold": 3, "glu": 2, "softsign": 1, "hard_swish": 1, "hard_shrink": 2, "soft_shrink": 2,
	"shrink": 3, "gelu_approximate": 1,
}

// SELU's constants (base.rs:489-490).
const (
	seluAlpha = 1.6732632423543772848170429916717
	seluGamma = 1.0507009873554804934193349852946
)

func (w *World) moreActivation(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(moreActivationArgs[name]); ue != nil {
		return nil, ue, nil
	}
	t, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	if t.kind != KindFloat {
		return nil, errArgType(1, fmt.Sprintf("Tensor<%d>", t.Rank()), c.Args[0]), nil
	}
	floats := make([]float64, len(c.Args))
	switch name {
	case "softmin", "quiet_softmax", "glu":
	default:
		for i := 1; i < len(c.Args); i++ {
			if floats[i], ue = a.float(i); ue != nil {
				return nil, ue, nil
			}
		}
	}
	ac := actComposer{w: w}
	var out *Tensor
	switch name {
	case "log_sigmoid", "hard_sigmoid":
		// base.rs:340-341 and 325-326: Dispatch::log_sigmoid, hard_sigmoid.
		return ac.dispatchOp(t, name, nil, floats)
	case "softmin":
		// base.rs:211-213: unwrap_dim_index(.., "Softmin"), Dispatch::softmin.
		dim, p := actDim(a, name, t)
		if p != nil {
			return nil, nil, p
		}
		return ac.dispatchOp(t, name, &dim, nil)
	case "hardtanh":
		// base.rs:22-23: tensor.clamp(min_val, max_val).
		out = ac.method(t, "clamp", Float{V: floats[1]}, Float{V: floats[2]})
	case "relu6":
		// base.rs:38-39: tensor.clamp(0.0, 6.0).
		out = ac.method(t, "clamp", Float{V: 0}, Float{V: 6})
	case "tanhshrink":
		// base.rs:29-30: tensor.clone().sub(tensor.tanh()).
		out = ac.method(t, "sub", ac.method(t, "tanh"))
	case "softplus":
		out = ac.softplus(t, floats[1])
	case "mish":
		// base.rs:394-395: tensor.clone().mul(softplus(tensor, 1.0).tanh()).
		out = ac.method(t, "mul", ac.method(ac.softplus(t, 1), "tanh"))
	case "quiet_softmax":
		// base.rs:260-267.
		dim, p := actDim(a, name, t)
		if p != nil {
			return nil, nil, p
		}
		d := Int{V: int64(dim)}
		maxVals := ac.method(ac.method(t, "detach"), "max_dim", d)
		expX := ac.method(ac.method(t, "sub", maxVals), "exp")
		sumExp := ac.method(expX, "sum_dim", d)
		out = ac.method(expX, "div", ac.method(sumExp, "add", ac.method(ac.method(maxVals, "neg"), "exp")))
	case "elu":
		// base.rs:421-425.
		mask := ac.method(t, "lower_equal_scalar", Int{V: 0})
		scaled := ac.method(ac.method(ac.method(t, "exp"), "sub_scalar", Int{V: 1}), "mul_scalar", Float{V: floats[1]})
		out = ac.method(t, "mask_where", mask, scaled)
	case "celu":
		// base.rs:450-460.
		mask := ac.method(t, "lower_equal_scalar", Int{V: 0})
		scaled := ac.method(ac.method(ac.method(ac.method(t, "div_scalar", Float{V: floats[1]}), "exp"),
			"sub_scalar", Int{V: 1}), "mul_scalar", Float{V: floats[1]})
		out = ac.method(t, "mask_where", mask, scaled)
	case "selu":
		// base.rs:482-497.
		mask := ac.method(t, "greater_equal_scalar", Float{V: 0})
		positive := ac.method(t, "mul_scalar", Float{V: seluGamma})
		negative := ac.method(ac.method(ac.method(t, "exp"), "sub_scalar", Float{V: 1}), "mul_scalar", Float{V: seluAlpha * seluGamma})
		out = ac.method(negative, "mask_where", mask, positive)
	case "thresholded_relu":
		// base.rs:512-514.
		out = ac.method(t, "mask_fill", ac.method(t, "lower_equal_scalar", Float{V: floats[1]}), Int{V: 0})
	case "threshold":
		// base.rs:529-531.
		out = ac.method(t, "mask_fill", ac.method(t, "lower_equal_scalar", Float{V: floats[1]}), Float{V: floats[2]})
	case "glu":
		// base.rs:548-561: the dim, the even-size assert, two slice_dim
		// halves, a.mul(sigmoid(b)).
		dim, p := actDim(a, name, t)
		if p != nil {
			return nil, nil, p
		}
		size := t.shape[dim]
		if size%2 != 0 {
			return nil, nil, newPanic("bt-glu-odd", at(locActivation, 550),
				fmt.Sprintf("Input tensor along dimension %d must have an even size. N is divisible by 2.", dim))
		}
		half := size / 2
		d := Int{V: int64(dim)}
		first := ac.method(t, "slice_dim", d, usizeRange(0, half))
		second := ac.method(t, "slice_dim", d, usizeRange(half, half*2))
		out = ac.method(first, "mul", ac.activation("sigmoid", second))
	case "softsign":
		// base.rs:573-574: tensor.clone().div(tensor.abs() + 1).
		out = ac.method(t, "div", ac.method(ac.method(t, "abs"), "add_scalar", Int{V: 1}))
	case "hard_swish":
		// base.rs:373-374: tensor.clone().mul(hard_sigmoid(tensor, 1.0 / 6.0, 0.5)).
		hs, ue, p := ac.dispatchOp(t, "hard_sigmoid", nil, []float64{0, 1.0 / 6.0, 0.5})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		out = ac.method(t, "mul", hs)
	case "hard_shrink":
		// base.rs:598-600.
		out = ac.method(t, "mask_fill", ac.method(ac.method(t, "abs"), "lower_equal_scalar", Float{V: floats[1]}), Int{V: 0})
	case "soft_shrink", "shrink":
		// base.rs:624-625 is shrink(tensor, lambda, lambda); shrink is
		// base.rs:650-656.
		lambda, bias := floats[1], floats[1]
		if name == "shrink" {
			bias = floats[2]
		}
		abs := ac.method(t, "abs")
		sign := ac.method(t, "sign")
		shrunk := ac.method(t, "sub", ac.method(sign, "mul_scalar", Float{V: bias}))
		mask := ac.method(abs, "lower_equal_scalar", Float{V: lambda})
		out = ac.method(shrunk, "mask_fill", mask, Int{V: 0})
	case "gelu_approximate":
		// base.rs:112-122: SQRT_2_OVER_PI = FRAC_2_SQRT_PI * FRAC_1_SQRT_2.
		const sqrt2OverPi = 1.1283791670955126 * 0.7071067811865476
		inner := ac.method(t, "add", ac.method(ac.method(t, "powf_scalar", Float{V: 3}), "mul_scalar", Float{V: 0.044715}))
		inner = ac.method(inner, "mul_scalar", Float{V: sqrt2OverPi})
		out = ac.method(ac.method(t, "mul", ac.method(ac.method(inner, "tanh"), "add_scalar", Int{V: 1})), "mul_scalar", Float{V: 0.5})
	default:
		return nil, errUnknownFunction("activation", name), nil
	}
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return out, nil, nil
}

// actDim is unwrap_dim_index(dim.try_dim_index(D), op) of the activation.
func actDim(a argList, name string, t *Tensor) (int, *Panic) {
	d, ue := a.int(1)
	if ue != nil {
		d = 0
	}
	dim, f := burncheck.TensorDim("activation::"+name, d, t.Rank())
	if p := checkFailed(f); p != nil {
		return 0, p.on(2)
	}
	return dim, nil
}

// actComposer runs the steps of a composition, keeping the first failure:
// after it, every step returns nil and does nothing.
type actComposer struct {
	w  *World
	ue *UsageError
	p  *Panic
}

func (ac *actComposer) method(t *Tensor, name string, args ...Value) *Tensor {
	if ac.ue != nil || ac.p != nil || t == nil {
		return nil
	}
	for _, v := range args {
		if tv, ok := v.(*Tensor); ok && tv == nil {
			return nil
		}
	}
	out, ue, p := ac.w.step(t, name, args...)
	ac.ue, ac.p = ue, p
	return out
}

func (ac *actComposer) activation(name string, t *Tensor) *Tensor {
	if ac.ue != nil || ac.p != nil || t == nil {
		return nil
	}
	v, ue, p := ac.w.activation(name, Call{Args: []Value{t}})
	ac.ue, ac.p = ue, p
	out, _ := v.(*Tensor)
	return out
}

// softplus is base.rs:229-232: (tensor.mul_scalar(beta).exp() + 1).log(),
// then div_scalar(beta).
func (ac *actComposer) softplus(t *Tensor, beta float64) *Tensor {
	s := ac.method(ac.method(ac.method(t, "mul_scalar", Float{V: beta}), "exp"), "add_scalar", Int{V: 1})
	return ac.method(ac.method(s, "log"), "div_scalar", Float{V: beta})
}

// dispatchOp is one of Dispatch's activation ops, routed as a unary float
// op (unary_float!, burn-dispatch/src/ops/activation.rs).
func (ac *actComposer) dispatchOp(t *Tensor, op string, dim *int, floats []float64) (Value, *UsageError, *Panic) {
	out, p := ac.w.unaryOp(t, op, KindFloat, nil, t.dtype)
	if p != nil {
		return nil, nil, p
	}
	ac.w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) {
		switch op {
		case "hard_sigmoid":
			return tensor.HardSigmoid(t.vals(), floats[1], floats[2]), nil
		case "softmin":
			return tensor.Softmin(t.vals(), *dim)
		}
		return tensor.Unary(op, t.vals())
	})
	return out, nil, nil
}

// crossEntropyWithLogits is loss::cross_entropy_with_logits(logits,
// target_probs) (crates/burn-tensor/src/tensor/loss/mod.rs:22-31):
// log_softmax over the last dim, times the targets, sum_dim of the last
// dim, then mean().neg().
func (w *World) crossEntropyWithLogits(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	logits, ue := a.tensor(0)
	if ue != nil || logits.kind != KindFloat {
		return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
	}
	targets, ue := sameTensorArg(a, 1, logits)
	if ue != nil {
		return nil, ue, nil
	}
	last := Int{V: int64(logits.Rank() - 1), Suffix: "usize"}
	v, ue, p := w.activation("log_softmax", Call{Args: []Value{logits, last}})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	ac := actComposer{w: w}
	out := ac.method(ac.method(ac.method(ac.method(v.(*Tensor), "mul", targets), "sum_dim", last), "mean"), "neg")
	if ac.ue != nil || ac.p != nil {
		return nil, ac.ue, ac.p
	}
	return out, nil, nil
}

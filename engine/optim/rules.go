package optim

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// The per-tensor optimizers of burn-optim (the Optimizer trait,
// optim/module/base.rs:16): each step is the sequence of Tensor calls the
// Rust code makes, run through engine/dispatch on the param's device, so
// the trace holds the backend's ops and the values are the backend's f32.

// calc runs Tensor methods and keeps the first error (a Burn panic, or
// the evaluator's stop), after which every call is a no-op.
type calc struct {
	w   *dispatch.World
	err error
	// lrUnknown is a step whose learning rate the engine does not know:
	// what the rate scales has no values.
	lrUnknown bool
}

// byLr is t.mul_scalar(x) for an x computed from the learning rate.
func (c *calc) byLr(t *dispatch.Tensor, x float64) *dispatch.Tensor {
	if c.lrUnknown && t != nil {
		t = t.WithoutValues()
	}
	return c.m(t, "mul_scalar", f64v(x))
}

// errNotTensor is a tensor method that gave something other than a
// tensor (an unknown value): the step's result is unknown.
var errNotTensor = fmt.Errorf("optimizer: a tensor operation gave no tensor")

func (c *calc) m(t *dispatch.Tensor, method string, args ...dispatch.Value) *dispatch.Tensor {
	if c.err != nil || t == nil {
		if c.err == nil {
			c.err = errNotTensor
		}
		return nil
	}
	v, err := c.w.Call(dispatch.Call{Recv: t, Method: method, Args: args})
	if err != nil {
		c.err = err
		return nil
	}
	out, ok := dispatch.Deref(v).(*dispatch.Tensor)
	if !ok {
		c.err = errNotTensor
	}
	return out
}

// mg is a method with a turbofish (unsqueeze::<D>()).
func (c *calc) mg(t *dispatch.Tensor, method string, generics []string, args ...dispatch.Value) *dispatch.Tensor {
	if c.err != nil || t == nil {
		if c.err == nil {
			c.err = errNotTensor
		}
		return nil
	}
	v, err := c.w.Call(dispatch.Call{Recv: t, Method: method, Generics: [][]string{generics}, Args: args})
	if err != nil {
		c.err = err
		return nil
	}
	out, ok := dispatch.Deref(v).(*dispatch.Tensor)
	if !ok {
		c.err = errNotTensor
	}
	return out
}

// fn is an associated function of Tensor (Tensor::from_inner).
func (c *calc) fn(path []string, t *dispatch.Tensor) *dispatch.Tensor {
	if c.err != nil || t == nil {
		if c.err == nil {
			c.err = errNotTensor
		}
		return nil
	}
	v, err := c.w.Call(dispatch.Call{Path: path, Args: []dispatch.Value{t}})
	if err != nil {
		c.err = err
		return nil
	}
	out, ok := dispatch.Deref(v).(*dispatch.Tensor)
	if !ok {
		c.err = errNotTensor
	}
	return out
}

func f32v(x float32) dispatch.Value { return dispatch.Float{V: float64(x), Suffix: "f32"} }
func f64v(x float64) dispatch.Value { return dispatch.Float{V: x, Suffix: "f64"} }

// powi32 is f32::powi as LLVM lowers it (compiler-rt's __powisf2):
// repeated squaring in f32, the reciprocal for a negative exponent.
func powi32(a float32, b int32) float32 {
	recip := b < 0
	r := float32(1)
	for {
		if b&1 != 0 {
			r *= a
		}
		b /= 2
		if b == 0 {
			break
		}
		a *= a
	}
	if recip {
		return 1 / r
	}
	return r
}

// powi64 is f64::powi (__powidf2).
func powi64(a float64, b int32) float64 {
	recip := b < 0
	r := 1.0
	for {
		if b&1 != 0 {
			r *= a
		}
		b /= 2
		if b == 0 {
			break
		}
		a *= a
	}
	if recip {
		return 1 / r
	}
	return r
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// state is one param's optimizer state: its tensors by name, the step
// counter of the optimizers that keep one, and the rank it was made for.
type state struct {
	time    int
	tensors map[string]*dispatch.Tensor
	// user is the state a program's own Optimizer returned.
	user dispatch.Value
	// order is the order the state's to_device moves its tensors in.
	order []string
}

func (s *state) get(name string) *dispatch.Tensor {
	if s == nil {
		return nil
	}
	return s.tensors[name]
}

func (s *state) clone() *state {
	if s == nil {
		return nil
	}
	out := &state{time: s.time, tensors: make(map[string]*dispatch.Tensor, len(s.tensors)), order: s.order, user: s.user}
	for k, v := range s.tensors {
		out.tensors[k] = v
	}
	return out
}

func newState(order []string) *state {
	return &state{tensors: map[string]*dispatch.Tensor{}, order: order}
}

// rule is one of burn-optim's Optimizer impls.
type rule interface {
	// step is Optimizer::step: the updated tensor and the new state.
	step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state)
}

// toDevice is Optimizer::to_device: every tensor of the state moved, in
// the order the state's to_device moves them.
func toDevice(c *calc, st *state, d *dispatch.Device) *state {
	if st == nil {
		return nil
	}
	out := st.clone()
	for _, name := range st.order {
		if t := st.tensors[name]; t != nil {
			out.tensors[name] = c.m(t, "to_device", &dispatch.Ref{V: d})
		}
	}
	return out
}

// weightDecay is decay.rs's WeightDecay::transform:
// tensor.mul_scalar(penalty).add(grad) (decay.rs:45-47).
type weightDecay struct{ penalty float32 }

func (wd *weightDecay) transform(c *calc, grad, t *dispatch.Tensor) *dispatch.Tensor {
	if wd == nil {
		return grad
	}
	return c.m(c.m(t, "mul_scalar", f32v(wd.penalty)), "add", grad)
}

// adaptiveMomentum is adam.rs's AdaptiveMomentum (adam.rs:141-212).
type adaptiveMomentum struct {
	beta1, beta2, epsilon float32
	amsgrad               bool
}

var momentOrder = []string{"moment_1", "moment_2", "max_moment_2"}

// update is the moment update both Adam and AdamW make
// (adam.rs:154-192, adamw.rs:163-204).
func (am adaptiveMomentum) update(c *calc, grad *dispatch.Tensor, st *state) *state {
	f1 := float32(1) - am.beta1
	f2 := float32(1) - am.beta2
	out := newState(momentOrder)
	if st != nil {
		out.time = st.time
		m1 := c.m(st.get("moment_1"), "mul_scalar", f32v(am.beta1))
		out.tensors["moment_1"] = c.m(m1, "add", c.m(grad, "mul_scalar", f32v(f1)))
		m2 := c.m(st.get("moment_2"), "mul_scalar", f32v(am.beta2))
		out.tensors["moment_2"] = c.m(m2, "add", c.m(c.m(grad, "square"), "mul_scalar", f32v(f2)))
		if am.amsgrad {
			maxV := st.get("max_moment_2")
			if maxV == nil {
				maxV = out.tensors["moment_2"]
			}
			out.tensors["max_moment_2"] = c.m(maxV, "max_pair", out.tensors["moment_2"])
		}
		out.time++
		return out
	}
	out.tensors["moment_1"] = c.m(grad, "mul_scalar", f32v(f1))
	out.tensors["moment_2"] = c.m(c.m(grad, "square"), "mul_scalar", f32v(f2))
	if am.amsgrad {
		out.tensors["max_moment_2"] = out.tensors["moment_2"]
	}
	out.time = 1
	return out
}

func (am adaptiveMomentum) secondMoment(st *state) *dispatch.Tensor {
	if am.amsgrad && st.get("max_moment_2") != nil {
		return st.get("max_moment_2")
	}
	return st.get("moment_2")
}

// adamTransform is AdaptiveMomentum::transform (adam.rs:149-211): the
// bias corrections folded into one factor, computed in f32.
func (am adaptiveMomentum) adamTransform(c *calc, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	st = am.update(c, grad, st)
	time := int32(st.time)
	bc2 := sqrt32(float32(1) - powi32(am.beta2, time))
	combined := bc2 / (float32(1) - powi32(am.beta1, time))
	v := am.secondMoment(st)
	num := c.m(st.get("moment_1"), "mul_scalar", f32v(combined))
	den := c.m(c.m(v, "sqrt"), "add_scalar", f32v(am.epsilon*bc2))
	return c.m(num, "div", den), st
}

// adam is adam.rs's Adam (adam.rs:59-85).
type adam struct {
	momentum adaptiveMomentum
	decay    *weightDecay
}

func (o *adam) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	grad = o.decay.transform(c, grad, t)
	grad, st = o.momentum.adamTransform(c, grad, st)
	delta := c.byLr(grad, lr)
	return c.m(t, "sub", delta), st
}

// adamW is adamw.rs's AdamW (adamw.rs:66-107), with
// AdaptiveMomentumW::transform (adamw.rs:158-226).
type adamW struct {
	momentum    adaptiveMomentum
	weightDecay float32
	cautious    bool
}

func (o *adamW) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	am := o.momentum
	st = am.update(c, grad, st)
	time := int32(st.time)
	m1 := c.m(st.get("moment_1"), "div_scalar", f32v(float32(1)-powi32(am.beta1, time)))
	m2 := c.m(am.secondMoment(st), "div_scalar", f32v(float32(1)-powi32(am.beta2, time)))
	rawDelta := c.m(m1, "div", c.m(c.m(m2, "sqrt"), "add_scalar", f32v(am.epsilon)))

	decayRate := lr * float64(o.weightDecay)
	var decayed *dispatch.Tensor
	switch {
	case decayRate == 0 && !c.lrUnknown:
		decayed = t
	case o.cautious:
		// adamw.rs:87-95: no decay where it runs against the update.
		tPos := c.m(t, "greater_equal_scalar", f64v(0))
		gPos := c.m(st.get("moment_1"), "greater_equal_scalar", f64v(0))
		differ := c.m(tPos, "not_equal", gPos)
		decayed = c.m(t, "sub", c.m(c.byLr(t, decayRate), "mask_fill", differ, f64v(0)))
	default:
		decayed = c.byLr(t, 1-decayRate)
	}
	return c.m(decayed, "sub", c.byLr(rawDelta, lr)), st
}

// sgd is sgd.rs's Sgd (sgd.rs:65-95) with momentum.rs's Momentum.
type sgd struct {
	momentum *momentum
	decay    *weightDecay
}

// momentum is momentum.rs's Momentum: the factor is the config's f64 as
// an f32 (`config.momentum.elem()`, momentum.rs:41).
type momentum struct {
	momentum  float32
	dampening float64
	nesterov  bool
}

func (o *sgd) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	grad = o.decay.transform(c, grad, t)
	out := newState([]string{"velocity"})
	if m := o.momentum; m != nil {
		// momentum.rs:58-77.
		var velocity *dispatch.Tensor
		if prev := st.get("velocity"); prev != nil {
			velocity = c.m(c.m(grad, "mul_scalar", f64v(1-m.dampening)), "add", c.m(prev, "mul_scalar", f32v(m.momentum)))
		} else {
			velocity = grad
		}
		if m.nesterov {
			grad = c.m(c.m(velocity, "mul_scalar", f32v(m.momentum)), "add", grad)
		} else {
			grad = velocity
		}
		out.tensors["velocity"] = velocity
	}
	delta := c.byLr(grad, lr)
	return c.m(t, "sub", delta), out
}

// rmsProp is rmsprop.rs's RmsProp (rmsprop.rs:83-132).
type rmsProp struct {
	alpha, momentum, epsilon float32
	centered                 bool
	decay                    *weightDecay
}

var rmsOrder = []string{"square_avg", "grad_avg", "avg", "buf"}

func (o *rmsProp) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	grad = o.decay.transform(c, grad, t)
	out := newState(rmsOrder)
	oneMinus := float32(1) - o.alpha
	// SquareAvgState::transform (rmsprop.rs:162-176).
	var squareAvg *dispatch.Tensor
	if prev := st.get("square_avg"); prev != nil {
		squareAvg = c.m(c.m(prev, "mul_scalar", f32v(o.alpha)), "add", c.m(c.m(grad, "square"), "mul_scalar", f32v(oneMinus)))
	} else {
		squareAvg = c.m(c.m(grad, "square"), "mul_scalar", f32v(oneMinus))
	}
	out.tensors["square_avg"] = squareAvg
	// CenteredState::transform (rmsprop.rs:204-244).
	avg := squareAvg
	if o.centered {
		constant := c.m(grad, "mul_scalar", f32v(oneMinus))
		gradAvg := constant
		if prev := st.get("grad_avg"); st != nil && prev != nil {
			gradAvg = c.m(c.m(prev, "mul_scalar", f32v(o.alpha)), "add", constant)
		}
		avg = c.m(squareAvg, "sub", c.m(gradAvg, "square"))
		out.tensors["grad_avg"] = gradAvg
	}
	out.tensors["avg"] = avg
	// RmsPropMomentum::transform (rmsprop.rs:272-293).
	grad = c.m(grad, "div", c.m(c.m(avg, "sqrt"), "add_scalar", f32v(o.epsilon)))
	if o.momentum > 0 {
		buf := grad
		if prev := st.get("buf"); prev != nil {
			buf = c.m(c.m(prev, "mul_scalar", f32v(o.momentum)), "add", grad)
		}
		grad = buf
		out.tensors["buf"] = buf
	}
	delta := c.byLr(grad, lr)
	return c.m(t, "sub", delta), out
}

// adaGrad is adagrad.rs's AdaGrad (adagrad.rs:42-67) with LrDecay
// (adagrad.rs:119-142).
type adaGrad struct {
	lrDecay float64
	epsilon float32
	decay   *weightDecay
}

func (o *adaGrad) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	grad = o.decay.transform(c, grad, t)
	out := newState([]string{"sum"})
	if prev := st.get("sum"); prev != nil {
		out.tensors["sum"] = c.m(prev, "add", c.m(grad, "square"))
		out.time = st.time + 1
	} else {
		out.tensors["sum"] = c.m(grad, "square")
		out.time = 1
	}
	newLr := lr / (1 + float64((float64(out.time)-1)*o.lrDecay))
	grad = c.byLr(c.m(grad, "div", c.m(c.m(out.tensors["sum"], "sqrt"), "add_scalar", f32v(o.epsilon))), newLr)
	return c.m(t, "sub", grad), out
}

// clipping is grad_clipping/base.rs's GradientClipping.
type clipping struct {
	byNorm    bool
	threshold float32
}

// clip is GradientClipping::clip_gradient (grad_clipping/base.rs:51-83).
func (g *clipping) clip(c *calc, grad *dispatch.Tensor) *dispatch.Tensor {
	if g == nil {
		return grad
	}
	th := g.threshold
	if !g.byNorm {
		greater := c.m(grad, "greater_scalar", f32v(th))
		lower := c.m(grad, "lower_scalar", f32v(-th))
		clipped := c.m(grad, "mask_fill", greater, f32v(th))
		return c.m(clipped, "mask_fill", lower, f32v(-th))
	}
	norm := c.m(c.m(c.m(grad, "square"), "sum"), "sqrt")
	minPositive := minPositiveOf(c, grad)
	// `threshold / tensor` is tensor.recip().mul_scalar(threshold)
	// (burn-tensor api/numeric.rs:984-992).
	coef := c.m(c.m(c.m(norm, "add_scalar", minPositive), "recip"), "mul_scalar", f32v(th))
	clamped := c.m(coef, "clamp_max", f64v(1))
	if grad == nil {
		return nil
	}
	return c.m(grad, "mul", c.mg(clamped, "unsqueeze", []string{fmt.Sprint(grad.Rank())}))
}

// minPositiveOf is grad.dtype().finfo().unwrap_or(F32.finfo()).min_positive
// (grad_clipping/base.rs:69-73), an f64 (burn-std tensor/dtype.rs:169-203):
// f32's and bf16's 2^-126, f64's 2^-1022, f16's and Flex32's 2^-14.
func minPositiveOf(c *calc, grad *dispatch.Tensor) dispatch.Value {
	mp := f64v(math.Ldexp(1, -126))
	if c.err != nil || grad == nil {
		return mp
	}
	v, err := c.w.Call(dispatch.Call{Recv: grad, Method: "dtype"})
	if err != nil {
		return mp
	}
	if en, ok := dispatch.Deref(v).(*dispatch.Enum); ok {
		switch en.Variant {
		case "F64":
			return f64v(math.Ldexp(1, -1022))
		case "F16", "Flex32":
			return f64v(math.Ldexp(1, -14))
		}
	}
	return mp
}

// userRule is the program's own Optimizer impl given to
// ModuleOptimizer::from (module_optimizer.rs:64-78): its step is the
// program's `step`, called with the learning rate, the inner tensor, the
// gradient and the state it returned last (base.rs:27-33, 164-183).
type userRule struct {
	v dispatch.Value
	h nn.Host
}

func (u *userRule) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	if c.err != nil || t == nil || grad == nil {
		if c.err == nil {
			c.err = errNotTensor
		}
		return nil, nil
	}
	prev := dispatch.Value(&dispatch.Enum{Type: "Option", Variant: "None"})
	if st != nil && st.user != nil {
		prev = &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{st.user}}
	}
	rate := f64v(lr)
	if c.lrUnknown {
		rate = dispatch.Unknown{}
	}
	out, ok, err := u.h.CallMethod(u.v, "step", []dispatch.Value{rate, t, grad, prev})
	if err != nil {
		c.err = err
		return nil, nil
	}
	tup, isTuple := dispatch.Deref(out).(dispatch.Tuple)
	if !ok || !isTuple || len(tup) != 2 {
		c.err = errNotTensor
		return nil, nil
	}
	nt, isTensor := dispatch.Deref(tup[0]).(*dispatch.Tensor)
	if !isTensor {
		c.err = errNotTensor
		return nil, nil
	}
	if en, isSome := dispatch.Deref(tup[1]).(*dispatch.Enum); isSome && en.Type == "Option" && en.Variant == "Some" && len(en.Fields) == 1 {
		return nt, &state{user: en.Fields[0]}
	}
	return nt, nil
}

// adan is adan.rs's Adan (adan.rs:63-94) with AdaptiveNesterovMomentum
// (adan.rs:159-220).
type adan struct {
	beta1, beta2, beta3, epsilon float32
	weightDecay                  float32
	noProx                       bool
}

var adanOrder = []string{"exp_avg", "exp_avg_sq", "exp_avg_diff", "neg_pre_grad"}

func (o *adan) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	out := newState(adanOrder)
	if st != nil {
		gradDiff := c.m(st.get("neg_pre_grad"), "add", grad)
		gradDiffSq := c.m(c.m(c.m(gradDiff, "mul_scalar", f32v(o.beta2)), "add", grad), "square")
		out.tensors["exp_avg"] = c.m(c.m(st.get("exp_avg"), "mul_scalar", f32v(o.beta1)), "add", c.m(grad, "mul_scalar", f32v(1-o.beta1)))
		out.tensors["exp_avg_diff"] = c.m(c.m(st.get("exp_avg_diff"), "mul_scalar", f32v(o.beta2)), "add", c.m(gradDiff, "mul_scalar", f32v(1-o.beta2)))
		out.tensors["exp_avg_sq"] = c.m(c.m(st.get("exp_avg_sq"), "mul_scalar", f32v(o.beta3)), "add", c.m(gradDiffSq, "mul_scalar", f32v(1-o.beta3)))
		out.tensors["neg_pre_grad"] = c.m(grad, "mul_scalar", f64v(-1))
		out.time = st.time + 1
	} else {
		out.tensors["exp_avg"] = c.m(grad, "mul_scalar", f32v(1-o.beta1))
		out.tensors["exp_avg_sq"] = c.m(c.m(grad, "square"), "mul_scalar", f32v(1-o.beta3))
		out.tensors["exp_avg_diff"] = c.m(grad, "zeros_like")
		out.tensors["neg_pre_grad"] = c.m(grad, "mul_scalar", f64v(-1))
		out.time = 1
	}
	time := int32(out.time)
	denom := c.m(c.m(c.m(out.tensors["exp_avg_sq"], "sqrt"), "div_scalar", f32v(sqrt32(1-powi32(o.beta3, time)))), "add_scalar", f32v(o.epsilon))
	first := c.m(c.m(out.tensors["exp_avg"], "div_scalar", f32v(1-powi32(o.beta1, time))), "div", denom)
	second := c.m(c.m(c.m(out.tensors["exp_avg_diff"], "mul_scalar", f32v(o.beta2)), "div_scalar", f32v(1-powi32(o.beta2, time))), "div", denom)
	update := c.m(first, "add", second)

	decayRate := lr * float64(o.weightDecay)
	delta := c.byLr(update, lr)
	switch {
	case o.noProx && decayRate == 0 && !c.lrUnknown:
		return c.m(t, "sub", delta), out
	case o.noProx:
		return c.m(c.byLr(t, 1-decayRate), "sub", delta), out
	case decayRate == 0 && !c.lrUnknown:
		return c.m(t, "sub", delta), out
	}
	updated := c.m(t, "sub", delta)
	if c.lrUnknown && updated != nil {
		updated = updated.WithoutValues()
	}
	return c.m(updated, "div_scalar", f64v(1+decayRate)), out
}

// muon is muon.rs's Muon (muon.rs:362-421): SGD momentum, then the
// update orthogonalized by Newton-Schulz iterations
// (zeropower_via_newtonschulz, :305-352), scaled by the adjusted rate.
type muon struct {
	momentum   momentum
	a, b, c    float32
	steps      int
	decay      *float32
	epsilon    float32
	matchAdamW bool
}

func (o *muon) step(c *calc, lr float64, t, grad *dispatch.Tensor, st *state) (*dispatch.Tensor, *state) {
	if c.err != nil || t == nil {
		return nil, nil
	}
	if d := t.Rank(); d != 2 {
		c.err = burnPanic("optim-muon-rank", fmt.Sprintf("Newton-Schulz iteration requires 2D tensors, got %dD", d), "crates/burn-optim/src/optim/muon.rs:391")
		return nil, nil
	}
	// Momentum::transform (momentum.rs:58-77).
	m := o.momentum
	out := newState([]string{"velocity"})
	velocity := grad
	if prev := st.get("velocity"); prev != nil {
		velocity = c.m(c.m(grad, "mul_scalar", f64v(1-m.dampening)), "add", c.m(prev, "mul_scalar", f32v(m.momentum)))
	}
	if m.nesterov {
		grad = c.m(c.m(velocity, "mul_scalar", f32v(m.momentum)), "add", grad)
	} else {
		grad = velocity
	}
	out.tensors["velocity"] = velocity
	update := o.newtonSchulz(c, grad)
	shape := t.Shape()
	rows, cols := float64(shape[0]), float64(shape[1])
	// AdjustLrFn::adjustment_ratio (muon.rs:66-85).
	ratio := math.Sqrt(math.Max(rows/cols, 1))
	if o.matchAdamW {
		ratio = 0.2 * math.Sqrt(math.Max(rows, cols))
	}
	adjusted := lr * ratio
	if o.decay != nil {
		t = c.byLr(t, 1-lr*float64(*o.decay))
	}
	return c.m(t, "sub", c.byLr(update, adjusted)), out
}

func (o *muon) newtonSchulz(c *calc, g *dispatch.Tensor) *dispatch.Tensor {
	if c.err != nil || g == nil {
		return nil
	}
	dims := func(t *dispatch.Tensor) *dispatch.Tensor {
		return c.m(t, "swap_dims", dispatch.Int{V: 0, Suffix: "usize"}, dispatch.Int{V: 1, Suffix: "usize"})
	}
	shape := g.Shape()
	x, transposed := g, false
	if shape[0] > shape[1] {
		x, transposed = dims(g), true
	}
	norm := c.mg(c.m(c.m(c.m(c.m(x, "powf_scalar", f64v(2)), "sum"), "sqrt"), "clamp_min", f32v(o.epsilon)), "unsqueeze", []string{"2"})
	x = c.m(x, "div", norm)
	for i := 0; i < o.steps; i++ {
		xt := dims(x)
		am := c.m(x, "matmul", xt)
		sq := c.m(am, "matmul", am)
		bm := c.m(c.m(am, "mul_scalar", f32v(o.b)), "add", c.m(sq, "mul_scalar", f32v(o.c)))
		x = c.m(c.m(x, "mul_scalar", f32v(o.a)), "add", c.m(bm, "matmul", x))
	}
	if transposed {
		x = dims(x)
	}
	return x
}

package optim

import (
	"errors"
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// ModuleOptimizer is burn-optim's ModuleOptimizer
// (optim/module/module_optimizer.rs:58): what every `init()` of an
// optimizer config returns. It holds one optimizer for every parameter
// (ParamGroup::all, module_optimizer.rs:68-78), its gradient clipping, and
// the state of each parameter it has stepped, by ParamId; the state lives
// in the value, so `let mut optim` carries it from step to step.
type ModuleOptimizer struct {
	// name is the optimizer's type (Adam, Sgd, ...).
	name   string
	rule   rule
	clip   *clipping
	states map[any]*paramContext
	// unknown is set by a step on gradients the engine did not know:
	// the states' values are unknown since.
	unknown bool
}

// paramContext is module_optimizer.rs's OptimizationContext: the state
// of one parameter and the clipping it was stepped with.
type paramContext struct {
	clip  *clipping
	state *state
}

func (*ModuleOptimizer) TypeName() string { return "ModuleOptimizer" }

// clone is ModuleOptimizer's derived Clone: the states are copied, so the
// clone steps on its own.
func (o *ModuleOptimizer) clone() *ModuleOptimizer {
	out := &ModuleOptimizer{name: o.name, rule: o.rule, clip: o.clip, states: make(map[any]*paramContext, len(o.states)), unknown: o.unknown}
	for k, v := range o.states {
		out.states[k] = &paramContext{clip: v.clip, state: v.state.clone()}
	}
	return out
}

// StateLen is the number of parameters the optimizer holds a state for.
func (o *ModuleOptimizer) StateLen() int { return len(o.states) }

// paramKey is the key of a ParamId: its value, or the id itself for one
// ParamId::new drew (its value is unknown to the engine, and unique).
func paramKey(w *dispatch.World, id dispatch.Value) any {
	id = dispatch.Deref(id)
	v, err := w.Call(dispatch.Call{Recv: id, Method: "val"})
	if n, ok := v.(dispatch.Int); err == nil && ok {
		return n.V
	}
	return id
}

// ModuleLearningRate is burn-optim's ModuleLearningRate
// (lr_scheduler/module_lr_scheduler.rs:19): a learning rate per parameter
// group. The engine models the group of every parameter only, so the
// value is the list of those groups' rates, the last one applying
// (lr_from_param, :36-42).
type ModuleLearningRate struct {
	lrs []float64
	// unknown is a rate the engine does not know.
	unknown bool
}

func (*ModuleLearningRate) TypeName() string { return "ModuleLearningRate" }

// learningRate reads step's first argument, `impl Into<ModuleLearningRate>`:
// an f64 is one group of every parameter (module_lr_scheduler.rs:23-32).
func learningRate(v dispatch.Value) (*ModuleLearningRate, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Float:
		return &ModuleLearningRate{lrs: []float64{x.V}}, true
	case *ModuleLearningRate:
		return x, true
	}
	return nil, false
}

func (m *ModuleLearningRate) lrFromParam() (float64, error) {
	if len(m.lrs) == 0 {
		return 0, burnPanic("optim-lr-no-group", "Should match at least one parameter group.", "crates/burn-optim/src/lr_scheduler/module_lr_scheduler.rs:41")
	}
	return m.lrs[len(m.lrs)-1], nil
}

// burnPanic is a panic of burn-optim, id its row of the engine's panic
// sites (engine/catalog/sites.tsv).
func burnPanic(id, msg, location string) *dispatch.Panic {
	return &dispatch.Panic{ID: id, Message: msg, Location: location, Input: -1}
}

// msgResultUnwrapAny is Result::unwrap's panic on the Err of a failed
// Box<dyn Any>::downcast.
const msgResultUnwrapAny = "called `Result::unwrap()` on an `Err` value: Any { .. }"

// maxRank is the highest rank dispatch_rank! has an arm for
// (optim/module/base.rs:87-128).
const maxRank = 8

// Step is ModuleOptimizer::step(lr, module, grads) (module_optimizer.rs:163-170):
// the module mapped Param by Param (ModuleOptimizerMapper::map_float,
// :420-503), each Param with a gradient in grads stepped by the
// optimizer's rule on the gradient's device, the others left as they
// are; it returns the updated module and keeps the new states in optim.
// optim is a *ModuleOptimizer (or a reference to one), lr an f64 or a
// ModuleLearningRate, model a Burn module or the program's own module
// (through h), grads a GradientsParams, which the step consumes. An
// error is a Burn panic or the evaluator's stop: return it unchanged. A
// UsageError is a wrong argument.
func Step(w *dispatch.World, h nn.Host, optim, lr, model, grads dispatch.Value) (dispatch.Value, error) {
	o, ok := dispatch.Deref(optim).(*ModuleOptimizer)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: "mismatched types: expected `ModuleOptimizer`, found `" + optim.TypeName() + "`"}
	}
	rate, ok := learningRate(lr)
	if _, unknown := dispatch.Deref(lr).(dispatch.Unknown); unknown {
		// A rate the engine does not know (a learner's scheduler it
		// cannot read, an f64 from a file): the step runs, and what the
		// rate scales has no values.
		rate, ok = &ModuleLearningRate{lrs: []float64{0}, unknown: true}, true
	}
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 1, Message: "the trait bound `ModuleLearningRate: From<" + lr.TypeName() + ">` is not satisfied"}
	}
	if _, unknown := dispatch.Deref(model).(dispatch.Unknown); unknown {
		// A model the engine does not know: so is the stepped one, and
		// whatever states the step updated.
		o.unknown = true
		return dispatch.Unknown{}, nil
	}
	if _, unknown := dispatch.Deref(grads).(dispatch.Unknown); unknown && nn.IsModule(model, h) {
		// Gradients the engine does not know: every float Param may have
		// been stepped, so its values, and from now on the optimizer's
		// states, are unknown.
		o.unknown = true
		return nn.ReplaceParams(w, model, h, func(p *nn.Param) (*nn.Param, error) {
			t, err := p.Val(w)
			if err != nil || t.Kind() != dispatch.KindFloat {
				return p, err
			}
			return nn.FromTensor(w, t.WithoutValues(), p.ID), nil
		})
	}
	g, ok := dispatch.Deref(grads).(*GradientsParams)
	if !ok {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 3, Message: "mismatched types: expected `GradientsParams`, found `" + grads.TypeName() + "`"}
	}
	if !nn.IsModule(model, h) {
		return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: "the trait bound `" + model.TypeName() + ": AutodiffModule` is not satisfied"}
	}
	g = g.clone()
	return nn.ReplaceParams(w, model, h, func(p *nn.Param) (*nn.Param, error) {
		return o.mapFloat(w, rate, g, p)
	})
}

// mapFloat is ModuleOptimizerMapper::map_float (module_optimizer.rs:420-503).
func (o *ModuleOptimizer) mapFloat(w *dispatch.World, rate *ModuleLearningRate, grads *GradientsParams, p *nn.Param) (*nn.Param, error) {
	if t, _ := initialized(w, p); t != nil && t.Kind() != dispatch.KindFloat {
		// An int or bool Param goes through map_int / map_bool, which
		// the mapper leaves to the default: unchanged.
		return p, nil
	}
	// param.consume() (:421) derefs the Param: a lazy one is created.
	tensor, err := p.Val(w)
	if err != nil {
		return nil, err
	}
	key := paramKey(w, p.ID)
	grad, has := grads.take(key)
	if !has {
		return nn.FromTensor(w, tensor, p.ID), nil
	}
	if grad.Rank() != tensor.Rank() {
		// GradAdaptor::remove::<D> downcasts the Tensor<R> registered
		// under the param's id to the param's Tensor<D>
		// (burn-std tensor/container.rs:69).
		return nil, burnPanic("optim-grads-remove-rank", msgResultUnwrapAny, "crates/burn-std/src/tensor/container.rs:69")
	}
	c := &calc{w: w, lrUnknown: rate.unknown}
	// GradAdaptor::remove (:359-364): the device is the gradient's.
	device := grad.Device()
	isRequireGrad := isTrue(w.Call(dispatch.Call{Recv: tensor, Method: "is_require_grad"}))
	// `tensor.is_distributed()` (:427, std): on a tensor off the autodiff
	// tape Dispatch panics here.
	// Without std (burn-optim's, which burn's brings) the call is not
	// compiled, and Tensor has no is_distributed.
	dist, err := w.Call(dispatch.Call{Recv: tensor, Method: "is_distributed"})
	var ue *dispatch.UsageError
	if errors.As(err, &ue) {
		dist, err = dispatch.Bool(false), nil
	}
	if err != nil {
		return nil, err
	}
	isDistributed := isTrue(dist, nil)
	ctx := o.states[key]
	delete(o.states, key)
	if !tensor.Device().Equal(device) {
		// A gradient on another device: the param moves to it (:431-435),
		// and stays there.
		if tensor = c.m(tensor, "to_device", &dispatch.Ref{V: device}); c.err != nil {
			return nil, c.err
		}
	}
	clip, prev := o.clip, (*state)(nil)
	if ctx != nil {
		clip, prev = ctx.clip, ctx.state
	}
	clipped := clip.clip(c, grad)
	lr, err := rate.lrFromParam()
	if err != nil {
		return nil, err
	}
	// step_dyn's arguments (:468-474), then its dispatch_rank!, which
	// has an arm per rank up to 8 (optim/module/base.rs:87-128).
	inner := c.m(tensor, "inner")
	if o.unknown && prev != nil {
		// A step the engine could not follow came before: the state's
		// values are unknown.
		prev = prev.clone()
		for k, t := range prev.tensors {
			if t != nil {
				prev.tensors[k] = t.WithoutValues()
			}
		}
	}
	prev = toDevice(c, prev, device)
	if c.err != nil {
		return nil, c.err
	}
	if r := tensor.Rank(); r > maxRank {
		return nil, burnPanic("optim-state-rank", fmt.Sprintf("Unsupported tensor rank for optimizer state: %d", r), "crates/burn-optim/src/optim/module/base.rs:173")
	}
	updated, next := o.rule.step(c, lr, inner, clipped, prev)
	if c.err != nil {
		return nil, c.err
	}
	if next != nil {
		o.states[key] = &paramContext{clip: clip, state: next}
	}
	out := c.fn([]string{"Tensor", "from_inner"}, updated)
	if isRequireGrad {
		out = c.m(out, "require_grad")
	}
	if isDistributed {
		out = c.m(out, "set_distributed", p.ID)
	}
	if c.err != nil {
		return nil, c.err
	}
	// Param::from_mapped_value (param/base.rs:408): the same id, the
	// require_grad of the new tensor.
	return nn.FromTensor(w, out, p.ID), nil
}

func isTrue(v dispatch.Value, err error) bool {
	b, ok := v.(dispatch.Bool)
	return err == nil && ok && bool(b)
}

package optim

import (
	"fmt"
	"strconv"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// Call answers the calls of a program into burn-optim: the optimizers
// (ModuleOptimizer's step), GradientsParams and the learning-rate
// schedulers. handled is false for every other call.
func Call(w *dispatch.World, c dispatch.Call, h nn.Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) >= 2 {
		typ, name := c.Path[len(c.Path)-2], c.Path[len(c.Path)-1]
		switch typ {
		case "GradientsParams":
			v, err := gradientsParamsFn(w, h, name, c.Args)
			return v, true, err
		case "GradientsAccumulator":
			if (name == "new" || name == "default") && len(c.Args) == 0 {
				return &GradientsAccumulator{grads: newGradientsParams()}, true, nil
			}
		case "ModuleLearningRate":
			switch {
			case (name == "from" || name == "new") && len(c.Args) == 1:
				f, ok := dispatch.Deref(c.Args[0]).(dispatch.Float)
				if !ok {
					return nil, true, mismatch(1, "f64", c.Args[0])
				}
				return &ModuleLearningRate{lrs: []float64{f.V}}, true, nil
			case name == "default" && len(c.Args) == 0:
				return &ModuleLearningRate{}, true, nil
			}
		}
		if typ == "ModuleOptimizer" && name == "from" {
			// module_optimizer.rs:64-78: one optimizer of every parameter,
			// without clipping.
			if len(c.Args) != 1 {
				return nil, true, wrongArity(1, len(c.Args))
			}
			o := &ModuleOptimizer{states: map[any]*paramContext{}}
			switch x := dispatch.Deref(c.Args[0]).(type) {
			case *Bare:
				o.name, o.rule = x.name, x.rule
			case *dispatch.Enum:
				if _, _, declared := h.StructFields(x); !declared {
					return nil, true, mismatch(1, "Optimizer", x)
				}
				o.name, o.rule = x.Type, &userRule{v: x, h: h}
			default:
				return nil, true, mismatch(1, "Optimizer", c.Args[0])
			}
			return o, true, nil
		}
		if v, ok, err := schedulerFn(w, typ, name, c.Args); ok {
			return v, true, err
		}
		return nil, false, nil
	}
	switch r := dispatch.Deref(c.Recv).(type) {
	case *ModuleOptimizer:
		v, err := optimizerMethod(w, h, r, c)
		return v, true, err
	case *GradientsParams:
		v, err := gradientsParamsMethod(w, h, r, c)
		return v, true, err
	case *GradientsAccumulator:
		v, err := accumulatorMethod(w, h, r, c)
		return v, true, err
	case *ModuleLearningRate:
		switch c.Method {
		case "clone":
			return r, true, nil
		case "base":
			// module_lr_scheduler.rs:45-50.
			if len(r.lrs) == 0 {
				return nil, true, burnPanic("optim-lr-no-base", "Should have at least one learning rate.", "crates/burn-optim/src/lr_scheduler/module_lr_scheduler.rs:48")
			}
			return f64v(r.lrs[0]), true, nil
		}
		return nil, true, unknownMethod("ModuleLearningRate", c.Method)
	case *Scheduler:
		v, err := schedulerMethod(r, c)
		return v, true, err
	case *Bare:
		if c.Method == "clone" {
			return r, true, nil
		}
		return nil, true, unknownMethod(r.name, c.Method)
	case *nn.Config:
		if c.Method == "build" && len(c.Args) == 0 && optimizerConfigs[r.Type] {
			o, err := buildOptimizer(r)
			if err != nil {
				return nil, true, err
			}
			return &Bare{name: o.name, rule: o.rule}, true, nil
		}
		if _, scheduler := schedulerVariant[r.Type]; scheduler && c.Method == "build" {
			// A scheduler config's build is pub(crate) (linear.rs:27,
			// cosine.rs:33, ...): rustc's E0624.
			return nil, true, &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: "method `build` is private"}
		}
		if c.Method == "into" && len(c.Args) == 0 {
			// impl_from_for_scheduler! (lr_scheduler/base.rs:261-270).
			if v, ok := schedulerVariant[r.Type]; ok {
				return &dispatch.Enum{Type: "LrSchedulerConfig", Variant: v, Fields: []dispatch.Value{r}}, true, nil
			}
		}
		if r.Type == "ComposedLrSchedulerConfig" {
			return composedBuilder(r, c.Method, c.Args)
		}
	}
	return nil, false, nil
}

// optimizerConfigs are the configs whose build is an optimizer.
var optimizerConfigs = map[string]bool{"AdamConfig": true, "AdamWConfig": true, "SgdConfig": true, "RmsPropConfig": true, "AdaGradConfig": true, "AdanConfig": true, "MuonConfig": true}

func mismatch(arg int, want string, got dispatch.Value) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: arg, Message: "mismatched types: expected `" + want + "`, found `" + got.TypeName() + "`"}
}

func unknownMethod(typ, method string) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `%s` in the current scope", method, typ)}
}

func wrongArity(want, got int) *dispatch.UsageError {
	s, were := "s", "s were"
	if want == 1 {
		s = ""
	}
	if got == 1 {
		were = " was"
	}
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
		"this function takes %d argument%s but %d argument%s supplied", want, s, got, were)}
}

func optimizerMethod(w *dispatch.World, h nn.Host, o *ModuleOptimizer, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "step":
		if len(c.Args) != 3 {
			return nil, wrongArity(3, len(c.Args))
		}
		return Step(w, h, o, c.Args[0], c.Args[1], c.Args[2])
	case "clone":
		return o.clone(), nil
	case "has_gradient_clipping":
		// module_optimizer.rs:83-85.
		return dispatch.Bool(o.clip != nil), nil
	case "with_grad_clipping":
		// module_optimizer.rs:107-113: the clipping of the first group,
		// every parameter's here; a parameter already stepped keeps the
		// clipping its state was made with (:438-450).
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		en, ok := dispatch.Deref(c.Args[0]).(*dispatch.Enum)
		if !ok || en.Type != "GradientClipping" || len(en.Fields) != 1 {
			return nil, mismatch(1, "GradientClipping", c.Args[0])
		}
		f, _ := dispatch.Deref(en.Fields[0]).(dispatch.Float)
		out := o.clone()
		out.clip = &clipping{byNorm: en.Variant == "Norm", threshold: float32(f.V)}
		return out, nil
	case "grad_clipping":
		// module_optimizer.rs:89-95.
		if o.clip == nil {
			return &dispatch.Enum{Type: "Option", Variant: "None"}, nil
		}
		variant := "Value"
		if o.clip.byNorm {
			variant = "Norm"
		}
		gc := &dispatch.Enum{Type: "GradientClipping", Variant: variant, Fields: []dispatch.Value{f32v(o.clip.threshold)}}
		return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{&dispatch.Ref{V: gc}}}, nil
	}
	switch c.Method {
	case "to_record", "load_record", "into_bytes", "from_bytes", "save", "load", "with_group", "step_multi":
		return nil, &nn.Unmodelled{Item: "ModuleOptimizer::" + c.Method, Why: "the engine models an optimizer's steps, not its records, parameter groups or clipping set after init"}
	}
	return nil, unknownMethod("ModuleOptimizer", c.Method)
}

func gradientsParamsFn(w *dispatch.World, h nn.Host, name string, args []dispatch.Value) (dispatch.Value, error) {
	switch name {
	case "new", "default":
		if len(args) != 0 {
			return nil, wrongArity(0, len(args))
		}
		return newGradientsParams(), nil
	case "from_grads", "from_module", "from_params":
		want := 2
		if name == "from_params" {
			want = 3
		}
		if len(args) != want {
			return nil, wrongArity(want, len(args))
		}
		if _, ok := dispatch.Deref(args[0]).(*dispatch.Gradients); !ok {
			return nil, mismatch(1, "Gradients", args[0])
		}
		if !nn.IsModule(args[1], h) {
			return nil, &dispatch.UsageError{Code: "wrong-arguments", Arg: 2, Message: "the trait bound `" + dispatch.Deref(args[1]).TypeName() + ": AutodiffModule` is not satisfied"}
		}
		var filter []dispatch.Value
		if name == "from_params" {
			a, ok := dispatch.Deref(args[2]).(*dispatch.Array)
			if !ok {
				return nil, mismatch(3, "&[ParamId]", args[2])
			}
			filter = append([]dispatch.Value{}, a.Elems...)
		}
		grads := args[0]
		if r, ok := grads.(*dispatch.Ref); ok {
			grads = r.V
		}
		return FromModule(w, h, grads, args[1], filter)
	}
	return nil, &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf(
		"no function or associated item named `%s` found for struct `GradientsParams` in the current scope", name)}
}

// rankGeneric is the D of a `get::<D>` turbofish, -1 when there is none.
func rankGeneric(c dispatch.Call) int {
	if len(c.Generics) > 0 && len(c.Generics[len(c.Generics)-1]) == 1 {
		if n, err := strconv.Atoi(c.Generics[len(c.Generics)-1][0]); err == nil {
			return n
		}
	}
	return -1
}

func gradientsParamsMethod(w *dispatch.World, h nn.Host, g *GradientsParams, c dispatch.Call) (dispatch.Value, error) {
	none := &dispatch.Enum{Type: "Option", Variant: "None"}
	some := func(v dispatch.Value) dispatch.Value {
		return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{v}}
	}
	switch c.Method {
	case "len", "is_empty":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		if c.Method == "is_empty" {
			return dispatch.Bool(len(g.grads) == 0), nil
		}
		return dispatch.Int{V: int64(len(g.grads)), Suffix: "usize"}, nil
	case "get", "remove":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		if _, ok := dispatch.Deref(c.Args[0]).(*dispatch.ParamID); !ok {
			return nil, mismatch(1, "ParamId", c.Args[0])
		}
		key := paramKey(w, c.Args[0])
		e, ok := g.grads[key]
		if !ok {
			return none, nil
		}
		if d := rankGeneric(c); d >= 0 && d != e.t.Rank() {
			// The container holds a Tensor<R>; downcasting it to another
			// Tensor<D> fails (burn-std tensor/container.rs:42, 69).
			if c.Method == "get" {
				return nil, burnPanic("optim-grads-get-rank", "called `Option::unwrap()` on a `None` value", "crates/burn-std/src/tensor/container.rs:42")
			}
			return nil, burnPanic("optim-grads-remove-rank", msgResultUnwrapAny, "crates/burn-std/src/tensor/container.rs:69")
		}
		if c.Method == "remove" {
			delete(g.grads, key)
		}
		return some(e.t), nil
	case "register":
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		if _, ok := dispatch.Deref(c.Args[0]).(*dispatch.ParamID); !ok {
			return nil, mismatch(1, "ParamId", c.Args[0])
		}
		t, ok := dispatch.Deref(c.Args[1]).(*dispatch.Tensor)
		if !ok || t.Kind() != dispatch.KindFloat {
			return nil, mismatch(2, "Tensor<D>", c.Args[1])
		}
		g.grads[paramKey(w, c.Args[0])] = gradEntry{id: dispatch.Deref(c.Args[0]), t: t}
		return dispatch.Unit{}, nil
	case "to_device":
		// grads.rs:90-94 with GradientsParamsChangeDevice (visitor.rs:50-62):
		// the gradient of every float Param of the module moved.
		if len(c.Args) != 2 {
			return nil, wrongArity(2, len(c.Args))
		}
		d, ok := dispatch.Deref(c.Args[0]).(*dispatch.Device)
		if !ok {
			return nil, mismatch(1, "&Device", c.Args[0])
		}
		out := g.clone()
		err := nn.ForEachParam(w, c.Args[1], h, func(p *nn.Param) error {
			key := paramKey(w, p.ID)
			e, ok := out.grads[key]
			if !ok {
				return nil
			}
			v, err := w.Call(dispatch.Call{Recv: e.t, Method: "to_device", Args: []dispatch.Value{&dispatch.Ref{V: d}}})
			if err != nil {
				return err
			}
			if t, ok := dispatch.Deref(v).(*dispatch.Tensor); ok {
				e.t = t
				out.grads[key] = e
			}
			return nil
		})
		return out, err
	}
	return nil, unknownMethod("GradientsParams", c.Method)
}

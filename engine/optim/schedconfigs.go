package optim

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// The schedulers' configs (crates/burn-optim/src/lr_scheduler), built
// and printed as #[derive(Config)] does. Their init is
// `Result<ModuleLrScheduler, String>`, with the Err messages build
// returns.

func vecDefault() dispatch.Value { return &dispatch.Array{Vec: true} }

func ok(v dispatch.Value) dispatch.Value {
	return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []dispatch.Value{v}}
}

func errResult(msg string) dispatch.Value {
	return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []dispatch.Value{dispatch.Str(msg)}}
}

func usizeField(c *nn.Config, name string) uint64 {
	if n, ok := dispatch.Deref(c.Values[name]).(dispatch.Int); ok && n.V >= 0 {
		return uint64(n.V)
	}
	return 0
}

// schedulerInit is a scheduler config's init: build()?, then
// ModuleLrScheduler::from (module_lr_scheduler.rs:189-196).
func schedulerInit(_ *dispatch.World, c *nn.Config, _ *dispatch.Device) (dispatch.Value, error) {
	s, msg := build(c)
	if msg != "" {
		return errResult(msg), nil
	}
	s.typ, s.module = "ModuleLrScheduler", true
	return ok(s), nil
}

const (
	msgInitialLr = "Initial learning rate must be greater than 0 and at most 1"
	msgIters     = "Number of iterations must be at least 1"
)

// build is LrSchedulerConfig::build of each config (base.rs:247-258);
// msg is the Err.
func build(c *nn.Config) (*Scheduler, string) {
	initial := float64Field(c, "initial_lr")
	switch c.Type {
	case "LinearLrSchedulerConfig":
		// linear.rs:27-43.
		final, n := float64Field(c, "final_lr"), usizeField(c, "num_iters")
		switch {
		case initial <= 0 || initial > 1:
			return nil, msgInitialLr
		case final < 0 || final > 1:
			return nil, "Final learning rate must be at least 0 and at most 1"
		case n == 0:
			return nil, msgIters
		}
		return &Scheduler{typ: "LinearLrScheduler", kind: schedLinear, finalLr: final,
			stepSize: (final - initial) / float64(n), remaining: n + 1}, ""
	case "CosineAnnealingLrSchedulerConfig":
		// cosine.rs:33-54.
		minLr, n := float64Field(c, "min_lr"), usizeField(c, "num_iters")
		switch {
		case initial <= 0 || initial > 1:
			return nil, msgInitialLr
		case minLr < 0 || minLr > initial:
			return nil, "Minimum learning rate must be at least 0 and at most equal to the initial learning rate"
		case n == 0:
			return nil, msgIters
		}
		return &Scheduler{typ: "CosineAnnealingLrScheduler", kind: schedCosine, minLr: minLr, maxLr: initial,
			numIters: n, current: ^uint64(0)}, ""
	case "ExponentialLrSchedulerConfig":
		// exponential.rs:24-38.
		gamma := float64Field(c, "gamma")
		switch {
		case initial <= 0 || initial > 1:
			return nil, msgInitialLr
		case gamma <= 0 || gamma > 1:
			return nil, "Gamma must be greater than 0 and at most 1"
		}
		return &Scheduler{typ: "ExponentialLrScheduler", kind: schedExponential, previous: initial / gamma, gamma: gamma}, ""
	case "StepLrSchedulerConfig":
		// step.rs:36-64; its log::warn!s print nothing without a logger.
		size := usizeField(c, "step_size")
		if size == 0 {
			return nil, "Step size must be greater than 0"
		}
		return &Scheduler{typ: "StepLrScheduler", kind: schedStep, initLr: initial, stepLen: size,
			gamma: float64Field(c, "gamma"), iterIdx: -1}, ""
	case "NoamLrSchedulerConfig":
		// noam.rs:34-50.
		warmup, size := usizeField(c, "warmup_steps"), usizeField(c, "model_size")
		switch {
		case warmup == 0:
			return nil, "Number of steps before exponential decay starts must be greater than 0"
		case size == 0:
			return nil, "Model size must be greater than 0"
		}
		return &Scheduler{typ: "NoamLrScheduler", kind: schedNoam, warmup: float64(warmup),
			embedding: float64(size), factor: float64Field(c, "factor")}, ""
	case "ComposedLrSchedulerConfig":
		// composed.rs:44-54.
		s := &Scheduler{typ: "ComposedLrScheduler", kind: schedComposed, reduction: "Prod"}
		if en, ok := dispatch.Deref(c.Values["reduction"]).(*dispatch.Enum); ok {
			s.reduction = en.Variant
		}
		list, _ := dispatch.Deref(c.Values["schedulers"]).(*dispatch.Array)
		if list != nil {
			for _, e := range list.Elems {
				p, msg := buildEnum(e)
				if msg != "" {
					return nil, msg
				}
				s.parts = append(s.parts, p)
			}
		}
		return s, ""
	case "SequentialLrSchedulerConfig":
		// sequential.rs:44-75.
		list, _ := dispatch.Deref(c.Values["schedulers"]).(*dispatch.Array)
		marks, _ := dispatch.Deref(c.Values["milestones"]).(*dispatch.Array)
		if list == nil || len(list.Elems) == 0 {
			return nil, "At least one scheduler is required"
		}
		if marks == nil || len(marks.Elems)+1 != len(list.Elems) {
			return nil, "The number of milestones must be one less than the number of schedulers"
		}
		s := &Scheduler{typ: "SequentialLrScheduler", kind: schedSequential}
		for i, e := range marks.Elems {
			n, _ := dispatch.Deref(e).(dispatch.Int)
			m := uint64(n.V)
			if m == 0 || i > 0 && m <= s.milestones[i-1] {
				return nil, "Milestones must be greater than zero and strictly increasing"
			}
			s.milestones = append(s.milestones, m)
		}
		for _, e := range list.Elems {
			p, msg := buildEnum(e)
			if msg != "" {
				return nil, msg
			}
			s.parts = append(s.parts, p)
		}
		return s, ""
	}
	return nil, ""
}

// buildEnum is LrSchedulerConfig::build of one LrSchedulerConfig: a
// variant, or a config or f64 given through From (base.rs:261-270).
func buildEnum(v dispatch.Value) (*Scheduler, string) {
	v = dispatch.Deref(v)
	if en, ok := v.(*dispatch.Enum); ok && en.Type == "LrSchedulerConfig" && len(en.Fields) == 1 {
		v = dispatch.Deref(en.Fields[0])
	}
	switch x := v.(type) {
	case dispatch.Float:
		return &Scheduler{typ: "f64", kind: schedConstant, initLr: x.V}, ""
	case *nn.Config:
		if s, msg := build(x); s != nil || msg != "" {
			return s, msg
		}
	}
	return &Scheduler{typ: "f64", kind: schedUnknown}, ""
}

func init() {
	lr := func(name string) nn.FieldSpec { return nn.FieldSpec{Name: name, Type: "f64"} }
	nn.RegisterConfig("LinearLrSchedulerConfig", []nn.FieldSpec{lr("initial_lr"), lr("final_lr"), {Name: "num_iters", Type: "usize"}}, false, schedulerInit)
	nn.RegisterConfig("CosineAnnealingLrSchedulerConfig", []nn.FieldSpec{lr("initial_lr"),
		{Name: "min_lr", Type: "f64", Default: nn.F64(0)}, {Name: "num_iters", Type: "usize"}}, false, schedulerInit)
	nn.RegisterConfig("ExponentialLrSchedulerConfig", []nn.FieldSpec{lr("initial_lr"), lr("gamma")}, false, schedulerInit)
	nn.RegisterConfig("StepLrSchedulerConfig", []nn.FieldSpec{lr("initial_lr"), {Name: "step_size", Type: "usize"},
		{Name: "gamma", Type: "f64", Default: nn.F64(0.1)}}, false, schedulerInit)
	nn.RegisterConfig("NoamLrSchedulerConfig", []nn.FieldSpec{lr("factor"),
		{Name: "warmup_steps", Type: "usize", Default: nn.Usize(4000)}, {Name: "model_size", Type: "usize", Default: nn.Usize(512)}}, false, schedulerInit)
	nn.RegisterConfig("ComposedLrSchedulerConfig", []nn.FieldSpec{
		{Name: "schedulers", Type: "Vec<LrSchedulerConfig>", Default: vecDefault},
		{Name: "reduction", Type: "SchedulerReduction", Default: func() dispatch.Value { return &dispatch.Enum{Type: "SchedulerReduction", Variant: "Prod"} }},
	}, false, schedulerInit)
	nn.RegisterConfig("SequentialLrSchedulerConfig", []nn.FieldSpec{
		{Name: "schedulers", Type: "Vec<LrSchedulerConfig>"}, {Name: "milestones", Type: "Vec<usize>"}}, false, schedulerInit)
	// base.rs:226-244: the enum of every scheduler's config.
	nn.RegisterVariant("LrSchedulerConfig", "Constant", "f64")
	for cfg, v := range schedulerVariant {
		nn.RegisterVariant("LrSchedulerConfig", v, cfg)
	}
}

// schedulerVariant is the LrSchedulerConfig variant of each config.
var schedulerVariant = map[string]string{"LinearLrSchedulerConfig": "Linear", "CosineAnnealingLrSchedulerConfig": "Cosine",
	"ExponentialLrSchedulerConfig": "Exponential", "NoamLrSchedulerConfig": "Noam", "StepLrSchedulerConfig": "Step",
	"ComposedLrSchedulerConfig": "Composed", "SequentialLrSchedulerConfig": "Sequential"}

// composedBuilder is ComposedLrSchedulerConfig's constant, linear,
// cosine, exponential, noam, step and composed (composed.rs:61-101): the
// config with one more scheduler.
func composedBuilder(c *nn.Config, method string, args []dispatch.Value) (dispatch.Value, bool, error) {
	variant := map[string]string{"constant": "Constant", "linear": "Linear", "cosine": "Cosine", "exponential": "Exponential",
		"noam": "Noam", "step": "Step", "composed": "Composed"}[method]
	if variant == "" {
		return nil, false, nil
	}
	if len(args) != 1 {
		return nil, true, wrongArity(1, len(args))
	}
	want := map[string]string{"Constant": "f64", "Linear": "LinearLrSchedulerConfig", "Cosine": "CosineAnnealingLrSchedulerConfig",
		"Exponential": "ExponentialLrSchedulerConfig", "Noam": "NoamLrSchedulerConfig", "Step": "StepLrSchedulerConfig",
		"Composed": "ComposedLrSchedulerConfig"}[variant]
	a := dispatch.Deref(args[0])
	switch x := a.(type) {
	case dispatch.Float:
		if want != "f64" {
			return nil, true, mismatch(1, want, a)
		}
		x.Suffix = "f64"
		a = x
	case *nn.Config:
		if x.Type != want {
			return nil, true, mismatch(1, want, a)
		}
	default:
		return nil, true, mismatch(1, want, a)
	}
	out := *c
	out.Values = make(map[string]dispatch.Value, len(c.Values))
	for k, v := range c.Values {
		out.Values[k] = v
	}
	list := &dispatch.Array{Vec: true}
	if prev, ok := dispatch.Deref(c.Values["schedulers"]).(*dispatch.Array); ok {
		list.Elems = append(list.Elems, prev.Elems...)
	}
	list.Elems = append(list.Elems, &dispatch.Enum{Type: "LrSchedulerConfig", Variant: variant, Fields: []dispatch.Value{a}})
	out.Values["schedulers"] = list
	return &out, true, nil
}

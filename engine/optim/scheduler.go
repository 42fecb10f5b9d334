package optim

import (
	"fmt"
	"math"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// Scheduler is a learning-rate scheduler of burn-optim
// (crates/burn-optim/src/lr_scheduler): a ModuleLrScheduler over one
// scheduler of every parameter (module_lr_scheduler.rs:78-128), or, as
// `lr` of a composed one, one of its schedulers. step is
// LrScheduler::step as each scheduler computes it, in f64.
type Scheduler struct {
	typ  string
	kind schedKind
	// the scheduler's fields, as Burn names them.
	initLr, finalLr, minLr, maxLr, gamma, factor float64
	stepSize                                     float64
	numIters, remaining, current                 uint64
	iterIdx                                      int32
	warmup, embedding, noamStep                  float64
	previous                                     float64
	stepLen                                      uint64
	parts                                        []*Scheduler
	milestones                                   []uint64
	count                                        uint64
	reduction                                    string
	// module is whether step gives a ModuleLearningRate (a
	// ModuleLrScheduler) rather than an f64 (a bare LrScheduler).
	module bool
}

type schedKind int

const (
	schedConstant schedKind = iota
	schedLinear
	schedCosine
	schedExponential
	schedStep
	schedNoam
	schedComposed
	schedSequential
	// schedUnknown is a scheduler the engine cannot read (a program's
	// own LrScheduler): its learning rates are unknown.
	schedUnknown
)

func (s *Scheduler) TypeName() string { return s.typ }

func (s *Scheduler) clone() *Scheduler {
	out := *s
	out.parts = make([]*Scheduler, len(s.parts))
	for i, p := range s.parts {
		out.parts[i] = p.clone()
	}
	return &out
}

// next is LrScheduler::step of each scheduler; known is false when the
// rate is not known.
func (s *Scheduler) next() (lr float64, known bool, err error) {
	if s.kind == schedUnknown {
		return 0, false, nil
	}
	lr, err = s.step()
	if err == errUnknownRate {
		return 0, false, nil
	}
	return lr, err == nil, err
}

var errUnknownRate = fmt.Errorf("unknown learning rate")

func (s *Scheduler) step() (float64, error) {
	switch s.kind {
	case schedConstant:
		// constant.rs:20-23.
		return s.initLr, nil
	case schedLinear:
		// linear.rs:72-76.
		if s.remaining != 0 {
			s.remaining--
		}
		// The explicit conversions round each product, as Rust does, where
		// Go may fuse a multiply and an add.
		return s.finalLr - float64(s.stepSize*float64(s.remaining)), nil
	case schedCosine:
		// cosine.rs:87-99: current_iter starts at usize::MAX and wraps.
		s.current++
		return s.minLr + float64(0.5*(s.maxLr-s.minLr)*(1.0+cosF64(float64(float64(s.current)/float64(s.numIters)*math.Pi)))), nil
	case schedExponential:
		// exponential.rs:64-68.
		s.previous *= s.gamma
		return s.previous, nil
	case schedStep:
		// step.rs:87-98 (its checked_add fails past 2^31 steps, beyond
		// any run's budget).
		s.iterIdx++
		return s.initLr * powi64(s.gamma, int32(uint64(s.iterIdx)/s.stepLen)), nil
	case schedNoam:
		// noam.rs:65-73.
		s.noamStep += 1.0
		arg1 := powNegHalf(s.noamStep)
		arg2 := s.noamStep * powNegThreeHalves(s.warmup)
		return s.factor * powNegHalf(s.embedding) * math.Min(arg1, arg2), nil
	case schedComposed:
		// composed.rs:112-130.
		step := 0.0
		if s.reduction == "Prod" {
			step = 1.0
		}
		n := float64(len(s.parts))
		unknown := false
		for _, p := range s.parts {
			lr, known, err := p.next()
			if err != nil {
				return 0, err
			}
			unknown = unknown || !known
			switch s.reduction {
			case "Avg":
				step += lr / n
			case "Sum":
				step += lr
			default:
				step *= lr
			}
		}
		if unknown {
			return 0, errUnknownRate
		}
		return step, nil
	case schedSequential:
		// sequential.rs:98-112: the active scheduler is the number of
		// milestones already reached.
		index := 0
		for index < len(s.milestones) && s.count >= s.milestones[index] {
			index++
		}
		lr, known, err := s.parts[index].next()
		if err != nil {
			return 0, err
		}
		s.count++
		if !known {
			return 0, errUnknownRate
		}
		return lr, nil
	}
	return 0, errUnknownRate
}

func schedulerMethod(s *Scheduler, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "clone":
		return s.clone(), nil
	case "step":
		if len(c.Args) != 0 {
			return nil, wrongArity(0, len(c.Args))
		}
		lr, known, err := s.next()
		if err != nil {
			return nil, err
		}
		if !known {
			return dispatch.Unknown{}, nil
		}
		if s.module {
			// ModuleLrScheduler::step (module_lr_scheduler.rs:131-146).
			return &ModuleLearningRate{lrs: []float64{lr}}, nil
		}
		return f64v(lr), nil
	case "to_record", "load_record", "with_group":
		return nil, &nn.Unmodelled{Item: s.typ + "::" + c.Method, Why: "the engine models a scheduler's learning rates, not its records or parameter groups"}
	}
	return nil, unknownMethod(s.typ, c.Method)
}

// schedulerFn is ConstantLr::new and ModuleLrScheduler::new.
func schedulerFn(w *dispatch.World, typ, name string, args []dispatch.Value) (dispatch.Value, bool, error) {
	switch {
	case typ == "ConstantLr" && (name == "new" || name == "from"):
		if len(args) != 1 {
			return nil, true, wrongArity(1, len(args))
		}
		f, ok := dispatch.Deref(args[0]).(dispatch.Float)
		if !ok {
			return nil, true, mismatch(1, "f64", args[0])
		}
		return &Scheduler{typ: "ConstantLr", kind: schedConstant, initLr: f.V}, true, nil
	case typ == "ModuleLrScheduler" && (name == "new" || name == "from"):
		if len(args) != 1 {
			return nil, true, wrongArity(1, len(args))
		}
		switch x := dispatch.Deref(args[0]).(type) {
		case *Scheduler:
			out := x.clone()
			out.typ, out.module = "ModuleLrScheduler", true
			return out, true, nil
		case dispatch.Float:
			return &Scheduler{typ: "ModuleLrScheduler", kind: schedConstant, initLr: x.V, module: true}, true, nil
		}
		return nil, true, mismatch(1, "LrScheduler", args[0])
	}
	return nil, false, nil
}

// SchedulerStep is `scheduler.step()` of what a learner is given as its
// scheduler: an f64 (LrScheduler for LearningRate, constant.rs:32-35) or
// a scheduler the program built. lr is the ModuleLearningRate
// ModuleLrScheduler::step gives (an f64 for a bare scheduler), Unknown
// when the engine does not know it; the scheduler advances in place.
func SchedulerStep(sched dispatch.Value) (lr dispatch.Value, err error) {
	switch s := dispatch.Deref(sched).(type) {
	case dispatch.Float:
		return &ModuleLearningRate{lrs: []float64{s.V}}, nil
	case *Scheduler:
		return schedulerMethod(s, dispatch.Call{Recv: s, Method: "step"})
	}
	return dispatch.Unknown{}, nil
}

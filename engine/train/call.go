package train

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// moduleSegments are the crate and module segments before a burn-train
// item (burn::train::metric::store::Aggregate, burn_train::checkpoint::..).
var moduleSegments = map[string]bool{"burn": true, "burn_train": true, "train": true, "metric": true, "store": true,
	"checkpoint": true, "renderer": true, "logger": true, "crate": true, "prelude": true}

func itemPath(p []string) []string {
	for len(p) > 2 && moduleSegments[p[0]] {
		p = p[1:]
	}
	return p
}

// unmodelled are burn-train's items (at 2c06be35) that the examples call
// and the engine does not model: a call is a playground-unmodelled
// boundary with an unknown value.
var unmodelled = map[string]string{
	"RLTraining::new":                     "crates/burn-train/src/learner/rl/paradigm.rs",
	"FileApplicationLoggerInstaller::new": "crates/burn-train/src/learner/application_logger.rs",
	"MetricEntry::new":                    "crates/burn-train/src/metric/base.rs:221",
	"NumericEntry::deserialize":           "crates/burn-train/src/metric/base.rs:271",
	"NumericMetricState::new":             "crates/burn-train/src/metric/state.rs:151",
	"NumericMetricState::default":         "crates/burn-train/src/metric/state.rs",
	"FormatOptions::new":                  "crates/burn-train/src/metric/state.rs:113",
	"MetricName::new":                     "crates/burn-train/src/metric/base.rs",
	"TrainingItem::new":                   "crates/burn-train/src/metric/processor/base.rs",
	"EvaluationItem::new":                 "crates/burn-train/src/metric/processor/base.rs",
}

// Call answers the calls of a program into burn-train: handled is false
// for every other call.
func Call(w *dispatch.World, c dispatch.Call, h nn.Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) > 0 {
		p := itemPath(c.Path)
		if len(p) != 2 {
			return nil, false, nil
		}
		return assoc(w, p[0], p[1], c.Args, h)
	}
	switch r := dispatch.Deref(c.Recv).(type) {
	case *Training:
		v, err := trainingMethod(w, r, c, h)
		return v, true, err
	case *Learner:
		v, err := learnerMethod(w, r, c, h)
		return v, true, err
	case *Metric:
		v, err := metricMethod(r, c)
		return v, true, err
	case *Strategy:
		v, err := strategyValueMethod(r, c)
		return v, true, err
	case *Interrupter:
		v, err := interrupterMethod(r, c)
		return v, true, err
	case *Evaluator:
		v, err := evaluatorMethod(w, r, c, h)
		return v, true, err
	case *Renderer:
		v, err := rendererMethod(c)
		return v, true, err
	case *Execution:
		v, err := executionMethod(r, c)
		return v, true, err
	}
	return nil, false, nil
}

// assoc is an associated function (or an enum variant built by a call)
// of burn-train.
func assoc(w *dispatch.World, typ, name string, args []dispatch.Value, h nn.Host) (dispatch.Value, bool, error) {
	if at, ok := unmodelled[typ+"::"+name]; ok {
		return nil, true, &nn.Unmodelled{Item: typ + "::" + name, Why: "Burn defines it at " + at}
	}
	switch typ {
	case "SupervisedTraining":
		if name == "new" {
			v, err := newTraining(args)
			return v, true, err
		}
		return nil, true, unknownFunction(typ, name)
	case "Learner":
		if name == "new" {
			v, err := newLearner(w, args, h)
			return v, true, err
		}
		return nil, true, unknownFunction(typ, name)
	case "TrainOutput":
		if name == "new" {
			v, err := newTrainOutput(w, args, h)
			return v, true, err
		}
		return nil, true, unknownFunction(typ, name)
	case "EvaluatorBuilder":
		if name == "new" {
			if len(args) != 1 {
				return nil, true, wrongArity(1, len(args))
			}
			return &Evaluator{directory: args[0]}, true, nil
		}
		return nil, true, unknownFunction(typ, name)
	case "Interrupter":
		if name == "new" || name == "default" {
			if len(args) != 0 {
				return nil, true, wrongArity(0, len(args))
			}
			return &Interrupter{}, true, nil
		}
		return nil, true, unknownFunction(typ, name)
	case "MetricEarlyStoppingStrategy", "MetricCheckpointingStrategy":
		if name == "new" {
			v, err := metricStrategy(typ, args)
			return v, true, err
		}
		return nil, true, unknownFunction(typ, name)
	case "KeepLastNCheckpoints":
		// #[derive(new)] (checkpoint/strategy/lastn.rs:9).
		if name == "new" {
			if len(args) != 1 {
				return nil, true, wrongArity(1, len(args))
			}
			if _, _, err := usizeArg(args[0], 1); err != nil {
				return nil, true, err
			}
			return &Strategy{Type: typ, Fields: map[string]dispatch.Value{"num_keep": args[0]}}, true, nil
		}
		return nil, true, unknownFunction(typ, name)
	case "ComposedCheckpointingStrategy":
		if name == "builder" && len(args) == 0 {
			return &Strategy{Type: "ComposedCheckpointingStrategyBuilder"}, true, nil
		}
		return nil, true, unknownFunction(typ, name)
	case "FileCheckpointer":
		// FileCheckpointer::new(directory, name) creates the directory
		// (checkpoint/file.rs:20).
		if name == "new" {
			if len(args) != 2 {
				return nil, true, wrongArity(2, len(args))
			}
			return &Strategy{Type: typ, Fields: map[string]dispatch.Value{"directory": args[0], "name": args[1]}}, true, nil
		}
		return nil, true, unknownFunction(typ, name)
	case "ExecutionStrategy":
		v, handled, err := executionStrategy(name, args)
		if !handled {
			if name == "ddp" {
				return nil, true, &nn.Unmodelled{Item: "ExecutionStrategy::ddp", Why: "Burn defines it at crates/burn-train/src/learner/supervised/strategies/base.rs:69"}
			}
			return nil, true, unknownFunction(typ, name)
		}
		return v, true, err
	case "TrainingStrategy":
		switch name {
		case "Default", "Custom":
			if len(args) != 1 {
				return nil, true, wrongArity(1, len(args))
			}
			if name == "Default" {
				if _, ok := dispatch.Deref(args[0]).(*Execution); !ok && !isUnknown(args[0]) {
					return nil, true, mismatch(1, "ExecutionStrategy", args[0])
				}
			}
			return &dispatch.Enum{Type: typ, Variant: name, Fields: []dispatch.Value{args[0]}}, true, nil
		case "default":
			return nil, true, &nn.Unmodelled{Item: "TrainingStrategy::default", Why: "Burn defines it at crates/burn-train/src/learner/supervised/strategies/base.rs:89"}
		}
		return nil, true, unknownFunction(typ, name)
	}
	if _, ok := outputs[typ]; ok {
		if name == "new" {
			v, err := newOutput(typ, args)
			return v, true, err
		}
		return nil, true, unknownFunction(typ, name)
	}
	if d, ok := metrics[typ]; ok {
		if name == "default" && d.ctors["new"] != nil {
			name = "new"
		}
		v, handled, err := newMetric(typ, name, args)
		if !handled {
			return nil, true, unknownFunction(typ, name)
		}
		return v, true, err
	}
	return nil, false, nil
}

// newTrainOutput is TrainOutput::new(module, grads, item) (train_val.rs:29):
// the gradients of the module's parameters, GradientsParams::from_grads.
func newTrainOutput(w *dispatch.World, args []dispatch.Value, h nn.Host) (dispatch.Value, error) {
	if len(args) != 3 {
		return nil, wrongArity(3, len(args))
	}
	module, grads := args[0], args[1]
	if !isUnknown(module) && !nn.IsModule(module, h) {
		return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1, Message: "the trait bound `" +
			dispatch.Deref(module).TypeName() + ": AutodiffModule` is not satisfied"}
	}
	if g := dispatch.Deref(grads); !isUnknown(g) {
		if _, isTensor := g.(*dispatch.Tensor); isTensor || g.TypeName() != "Gradients" {
			return nil, mismatch(2, "Gradients", grads)
		}
	}
	var params dispatch.Value = dispatch.Unknown{}
	if fromGrads != nil && !isUnknown(module) && !isUnknown(grads) {
		v, err := fromGrads(w, h, grads, module)
		if err != nil {
			return nil, err
		}
		params = v
	}
	return &dispatch.Enum{Type: "TrainOutput", Variant: "TrainOutput",
		Named: map[string]dispatch.Value{"grads": params, "item": args[2]}}, nil
}

// learnerMethod is a method of Learner (learner/base.rs:53-129), as a
// custom strategy calls them.
func learnerMethod(w *dispatch.World, l *Learner, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	switch c.Method {
	case "clone":
		out := *l
		return &out, nil
	case "model":
		return l.model, none(c)
	case "lr_current":
		return l.lrCurrent, none(c)
	case "fork":
		if err := one(c); err != nil {
			return nil, err
		}
		d, ok := dispatch.Deref(c.Args[0]).(*dispatch.Device)
		if !ok {
			return dispatch.Unit{}, nil
		}
		m, err := nn.Fork(w, l.model, d, h)
		if err != nil {
			return nil, err
		}
		l.model = m
		return dispatch.Unit{}, nil
	case "lr_step":
		return dispatch.Unit{}, lrStep(w, l, h)
	case "train_step":
		if err := one(c); err != nil {
			return nil, err
		}
		out, found, err := h.CallMethod(l.model, "TrainStep::step", c.Args)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: "the trait bound `" + l.model.TypeName() + ": TrainStep` is not satisfied"}
		}
		return out, nil
	case "optimizer_step":
		if err := one(c); err != nil {
			return nil, err
		}
		return dispatch.Unit{}, optimize(w, l, c.Args[0], h)
	}
	return nil, unknownMethod("Learner", c.Method)
}

// strategyValueMethod is a method of a strategy or checkpointer value.
func strategyValueMethod(s *Strategy, c dispatch.Call) (dispatch.Value, error) {
	switch {
	case c.Method == "clone":
		return s, nil
	case s.Type == "ComposedCheckpointingStrategyBuilder" && c.Method == "add":
		if err := one(c); err != nil {
			return nil, err
		}
		out := *s
		out.Items = append(append([]dispatch.Value(nil), s.Items...), c.Args[0])
		return &out, nil
	case s.Type == "MetricEarlyStoppingStrategy" && c.Method == "with_warmup_epochs":
		// with_warmup_epochs(warmup: Option<usize>) (early_stopping.rs).
		if err := one(c); err != nil {
			return nil, err
		}
		if o, ok := dispatch.Deref(c.Args[0]).(*dispatch.Enum); !isUnknown(c.Args[0]) && (!ok || o.Type != "Option") {
			return nil, mismatch(1, "Option<usize>", c.Args[0])
		}
		out := &Strategy{Type: s.Type, Fields: map[string]dispatch.Value{}}
		for k, v := range s.Fields {
			out.Fields[k] = v
		}
		out.Fields["warmup_epochs"] = c.Args[0]
		return out, nil
	case s.Type == "MetricEarlyStoppingStrategy" && c.Method == "warmup_epochs":
		if w, ok := s.Fields["warmup_epochs"]; ok {
			return w, none(c)
		}
		return &dispatch.Enum{Type: "Option", Variant: "None"}, none(c)
	case s.Type == "ComposedCheckpointingStrategyBuilder" && c.Method == "build":
		return &Strategy{Type: "ComposedCheckpointingStrategy", Items: s.Items}, none(c)
	}
	return nil, unknownMethod(s.Type, c.Method)
}

package train

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// registered is a metric registered for a split.
type registered struct {
	metric  dispatch.Value // *Metric, or the program's own metric
	numeric bool
}

// Training is SupervisedTraining<M> (learner/supervised/paradigm.rs:43):
// the builder of a supervised training, consumed by launch.
type Training struct {
	directory             dispatch.Value
	train, valid          dispatch.Value // the loaders
	numEpochs             int64
	epochsKnown           bool
	checkpoint            dispatch.Value // Some(epoch) to resume from; nil for None
	checkpointers         bool
	gradAccumulation      dispatch.Value
	gradCheckpointing     bool
	renderer              dispatch.Value
	trainMetrics          []registered
	validMetrics          []registered
	interrupter           *Interrupter
	applicationLogger     bool
	checkpointingStrategy dispatch.Value
	earlyStopping         dispatch.Value
	trainingStrategy      dispatch.Value
	summary               bool
	progressLogger        dispatch.Value
	metricLoggers         []dispatch.Value
	launched              bool
}

func (*Training) TypeName() string { return "SupervisedTraining<M>" }

// newTraining is SupervisedTraining::new(directory, dataloader_train,
// dataloader_valid) (paradigm.rs:80): one epoch, the file application
// logger, the default checkpointing strategy (keep the last 2, and the
// best valid loss), no checkpointer.
func newTraining(args []dispatch.Value) (dispatch.Value, error) {
	if len(args) != 3 {
		return nil, wrongArity(3, len(args))
	}
	return &Training{directory: args[0], train: args[1], valid: args[2], numEpochs: 1, epochsKnown: true,
		interrupter: &Interrupter{}, applicationLogger: true}, nil
}

func (t *Training) copy() *Training {
	out := *t
	out.trainMetrics = append([]registered(nil), t.trainMetrics...)
	out.validMetrics = append([]registered(nil), t.validMetrics...)
	out.metricLoggers = append([]dispatch.Value(nil), t.metricLoggers...)
	return &out
}

// checkMetric checks a metric argument: Burn's metric, or the program's
// own (whose Metric impl rustc checks, not the engine).
func checkMetric(v dispatch.Value, numeric bool, arg int) *dispatch.UsageError {
	if isUnknown(v) {
		return nil
	}
	switch m := dispatch.Deref(v).(type) {
	case *Metric:
		if numeric && !m.Numeric {
			// metric_*_numeric requires Me: Metric + Numeric (paradigm.rs:240).
			return &dispatch.UsageError{Code: "trait-not-implemented", Arg: arg, Message: fmt.Sprintf(
				"the trait bound `%s: Numeric` is not satisfied", m.Type),
				Help: []string{fmt.Sprintf("`%s` is not numeric: register it with `metric_train`/`metric_valid` instead", m.Type)}}
		}
		return nil
	case *dispatch.Enum:
		return nil
	}
	return &dispatch.UsageError{Code: "trait-not-implemented", Arg: arg, Message: fmt.Sprintf(
		"the trait bound `%s: Metric` is not satisfied", v.TypeName())}
}

// tupleOf is the elements of the tuple `metrics` takes (gen_tuple!,
// paradigm.rs:512): one to six metrics.
func tupleOf(v dispatch.Value) ([]dispatch.Value, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Tuple:
		return x, len(x) >= 1 && len(x) <= 6
	}
	return nil, false
}

func one(c dispatch.Call) error {
	if len(c.Args) != 1 {
		return wrongArity(1, len(c.Args))
	}
	return nil
}

func none(c dispatch.Call) error {
	if len(c.Args) != 0 {
		return wrongArity(0, len(c.Args))
	}
	return nil
}

func usizeArg(v dispatch.Value, arg int) (int64, bool, error) {
	if isUnknown(v) {
		return 0, false, nil
	}
	x, ok := dispatch.Deref(v).(dispatch.Int)
	if !ok {
		return 0, false, mismatch(arg, "usize", v)
	}
	return x.V, true, nil
}

// trainingMethod is a builder method of SupervisedTraining
// (paradigm.rs:123-350) or launch (paradigm.rs:354).
func trainingMethod(w *dispatch.World, t *Training, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	out := t.copy()
	switch c.Method {
	case "launch":
		if err := one(c); err != nil {
			return nil, err
		}
		return launch(w, t, c.Args[0], h)
	case "interrupter":
		// paradigm.rs:273: a handle on the same state.
		if err := none(c); err != nil {
			return nil, err
		}
		return t.interrupter, nil
	case "with_interrupter":
		if err := one(c); err != nil {
			return nil, err
		}
		it, ok := dispatch.Deref(c.Args[0]).(*Interrupter)
		if !ok && !isUnknown(c.Args[0]) {
			return nil, mismatch(1, "Interrupter", c.Args[0])
		}
		if ok {
			out.interrupter = it
		}
	case "with_training_strategy":
		if err := one(c); err != nil {
			return nil, err
		}
		if !isUnknown(c.Args[0]) && !enumOf(c.Args[0], "TrainingStrategy") {
			return nil, mismatch(1, "TrainingStrategy<M>", c.Args[0])
		}
		out.trainingStrategy = c.Args[0]
	case "with_metric_logger":
		if err := one(c); err != nil {
			return nil, err
		}
		out.metricLoggers = append(out.metricLoggers, c.Args[0])
	case "with_progress_logger":
		if err := one(c); err != nil {
			return nil, err
		}
		out.progressLogger = c.Args[0]
	case "with_checkpointing_strategy":
		if err := one(c); err != nil {
			return nil, err
		}
		out.checkpointingStrategy = c.Args[0]
	case "renderer":
		if err := one(c); err != nil {
			return nil, err
		}
		out.renderer = c.Args[0]
	case "metrics", "metrics_text":
		// MetricRegistration for a tuple: each metric registered for
		// training, then each for validation (paradigm.rs:532).
		if err := one(c); err != nil {
			return nil, err
		}
		if isUnknown(c.Args[0]) {
			return out, nil
		}
		elems, ok := tupleOf(c.Args[0])
		if !ok {
			return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1, Message: fmt.Sprintf(
				"the trait bound `%s: MetricRegistration<M>` is not satisfied", c.Args[0].TypeName()),
				Help: []string{"`metrics` takes a tuple of one to six metrics, such as `(AccuracyMetric::new(), LossMetric::new())`"}}
		}
		numeric := c.Method == "metrics"
		for _, m := range elems {
			if ue := checkMetric(m, numeric, 1); ue != nil {
				return nil, ue
			}
		}
		for _, m := range elems {
			out.trainMetrics = append(out.trainMetrics, registered{m, numeric})
		}
		for _, m := range elems {
			out.validMetrics = append(out.validMetrics, registered{m, numeric})
		}
	case "metric_train", "metric_valid", "metric_train_numeric", "metric_valid_numeric":
		if err := one(c); err != nil {
			return nil, err
		}
		numeric := c.Method == "metric_train_numeric" || c.Method == "metric_valid_numeric"
		if ue := checkMetric(c.Args[0], numeric, 1); ue != nil {
			return nil, ue
		}
		r := registered{c.Args[0], numeric}
		if c.Method == "metric_train" || c.Method == "metric_train_numeric" {
			out.trainMetrics = append(out.trainMetrics, r)
		} else {
			out.validMetrics = append(out.validMetrics, r)
		}
	case "grads_accumulation":
		if err := one(c); err != nil {
			return nil, err
		}
		if _, _, err := usizeArg(c.Args[0], 1); err != nil {
			return nil, err
		}
		out.gradAccumulation = c.Args[0]
	case "gradient_checkpointing":
		if err := none(c); err != nil {
			return nil, err
		}
		out.gradCheckpointing = true
	case "num_epochs":
		if err := one(c); err != nil {
			return nil, err
		}
		n, known, err := usizeArg(c.Args[0], 1)
		if err != nil {
			return nil, err
		}
		out.numEpochs, out.epochsKnown = n, known
	case "checkpoint":
		if err := one(c); err != nil {
			return nil, err
		}
		if _, _, err := usizeArg(c.Args[0], 1); err != nil {
			return nil, err
		}
		out.checkpoint = c.Args[0]
	case "early_stopping":
		if err := one(c); err != nil {
			return nil, err
		}
		out.earlyStopping = c.Args[0]
	case "with_application_logger":
		if err := one(c); err != nil {
			return nil, err
		}
		o, ok := dispatch.Deref(c.Args[0]).(*dispatch.Enum)
		switch {
		case ok && o.Type == "Option":
			out.applicationLogger = o.Variant == "Some"
		case !isUnknown(c.Args[0]):
			return nil, mismatch(1, "Option<Box<dyn ApplicationLoggerInstaller>>", c.Args[0])
		}
	case "with_default_checkpointers":
		// paradigm.rs:306: FileCheckpointers for the model, the
		// optimizer and the scheduler under <directory>/checkpoint.
		if err := none(c); err != nil {
			return nil, err
		}
		out.checkpointers = true
	case "with_custom_checkpointers":
		if len(c.Args) != 3 {
			return nil, wrongArity(3, len(c.Args))
		}
		out.checkpointers = true
	case "summary":
		if err := none(c); err != nil {
			return nil, err
		}
		out.summary = true
	default:
		return nil, unknownMethod("SupervisedTraining", c.Method)
	}
	return out, nil
}

// ---- Learner (learner/base.rs:19) ----

// Learner is a model with its optimizer and learning rate scheduler.
type Learner struct {
	model, optim, lr dispatch.Value
	// lrCurrent is the learning rate of the last lr_step (0.0 before,
	// base.rs:48).
	lrCurrent dispatch.Value
	// stepped is whether a training step ran; forgot whether the
	// model's values are unknown since (an optimizer step the engine
	// does not compute).
	stepped, forgot bool
}

func (*Learner) TypeName() string { return "Learner<M>" }

// newLearner is Learner::new(model, optim, lr_scheduler) (base.rs:39).
func newLearner(w *dispatch.World, args []dispatch.Value, h nn.Host) (dispatch.Value, error) {
	if len(args) != 3 {
		return nil, wrongArity(3, len(args))
	}
	if !isUnknown(args[0]) && !nn.IsModule(args[0], h) {
		return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1, Message: fmt.Sprintf(
			"the trait bound `%s: LearnerModel` is not satisfied", args[0].TypeName()),
			Help: []string{"the model of a Learner is the program's `#[derive(Module)]` struct that implements TrainStep and InferenceStep"}}
	}
	// impl Into<ModuleLrScheduler>: an f64 or a scheduler (burn-optim's
	// module_lr_scheduler.rs); a tensor, an integer, a bool or a string
	// is rustc's error.
	switch lr := dispatch.Deref(args[2]).(type) {
	case *dispatch.Tensor, dispatch.Int, dispatch.Bool, dispatch.Str:
		return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 3, Message: fmt.Sprintf(
			"the trait bound `ModuleLrScheduler: From<%s>` is not satisfied", lr.TypeName())}
	}
	return &Learner{model: args[0], optim: args[1], lr: args[2], lrCurrent: dispatch.Float{V: 0, Suffix: "f64"}}, nil
}

// ---- EvaluatorBuilder and Evaluator (evaluator/builder.rs, evaluator/base.rs) ----

// Evaluator is EvaluatorBuilder<EC> before build, Evaluator<EC> after.
type Evaluator struct {
	built     bool
	directory dispatch.Value
	metrics   []registered
	renderer  dispatch.Value
	model     dispatch.Value
}

func (e *Evaluator) TypeName() string {
	if e.built {
		return "Evaluator<EC>"
	}
	return "EvaluatorBuilder<EC>"
}

// Renderer is burn-train's default MetricsRenderer (renderer/base.rs):
// what it shows is not modelled.
type Renderer struct{}

func (*Renderer) TypeName() string { return "Box<dyn MetricsRenderer>" }

func rendererMethod(c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "manual_close":
		return dispatch.Unit{}, none(c)
	case "register_metric", "update_train", "update_valid", "update_test":
		return dispatch.Unit{}, nil
	}
	return nil, unknownMethod("Box<dyn MetricsRenderer>", c.Method)
}

func evaluatorMethod(w *dispatch.World, e *Evaluator, c dispatch.Call, h nn.Host) (dispatch.Value, error) {
	if e.built {
		switch c.Method {
		case "eval":
			if len(c.Args) != 2 {
				return nil, wrongArity(2, len(c.Args))
			}
			return evaluate(w, e, []dispatch.Value{dispatch.Tuple{c.Args[0], c.Args[1]}}, h)
		case "eval_all":
			if err := one(c); err != nil {
				return nil, err
			}
			splits, ok := splitsOf(c.Args[0])
			if !ok {
				return dispatch.Unknown{}, nil
			}
			return evaluate(w, e, splits, h)
		}
		return nil, unknownMethod("Evaluator", c.Method)
	}
	out := *e
	out.metrics = append([]registered(nil), e.metrics...)
	switch c.Method {
	case "metrics", "metrics_text":
		if err := one(c); err != nil {
			return nil, err
		}
		if isUnknown(c.Args[0]) {
			return &out, nil
		}
		elems, ok := tupleOf(c.Args[0])
		if !ok {
			return nil, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1, Message: fmt.Sprintf(
				"the trait bound `%s: EvalMetricRegistration<EC>` is not satisfied", c.Args[0].TypeName())}
		}
		for _, m := range elems {
			if ue := checkMetric(m, c.Method == "metrics", 1); ue != nil {
				return nil, ue
			}
			out.metrics = append(out.metrics, registered{m, c.Method == "metrics"})
		}
	case "metric_numeric", "metric":
		if err := one(c); err != nil {
			return nil, err
		}
		if ue := checkMetric(c.Args[0], c.Method == "metric_numeric", 1); ue != nil {
			return nil, ue
		}
		out.metrics = append(out.metrics, registered{c.Args[0], c.Method == "metric_numeric"})
	case "renderer":
		if err := one(c); err != nil {
			return nil, err
		}
		out.renderer = c.Args[0]
	case "summary":
		if err := none(c); err != nil {
			return nil, err
		}
	case "with_progress_logger", "with_application_logger":
		if err := one(c); err != nil {
			return nil, err
		}
	case "build":
		if err := one(c); err != nil {
			return nil, err
		}
		out.built, out.model = true, c.Args[0]
	default:
		return nil, unknownMethod("EvaluatorBuilder", c.Method)
	}
	return &out, nil
}

// splitsOf is the (name, loader) pairs eval_all iterates.
func splitsOf(v dispatch.Value) ([]dispatch.Value, bool) {
	a, ok := dispatch.Deref(v).(*dispatch.Array)
	if !ok {
		return nil, false
	}
	return a.Elems, true
}

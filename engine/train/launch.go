package train

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// The crates burn-train is written with, as the engine models them: the
// data loaders of burn-core's dataloader (engine/data) and burn-optim's
// gradients and optimizer step (engine/optim). link.go sets these; a nil
// one is a part the engine does not model, and launch says so.
var (
	// loaderToDevice is DataLoader::to_device; ok is false for a value
	// that is not a loader the engine models.
	loaderToDevice func(loader dispatch.Value, d *dispatch.Device) (out dispatch.Value, ok bool)
	// loaderFirst runs the first step of `loader.iter()`: the batch the
	// program's Batcher made (nil when the loader has none, or gave the
	// dataset's Err), and whether that batch is the only one.
	loaderFirst func(h nn.Host, loader, model dispatch.Value, step string) (batch dispatch.Value, only bool, err error)
	// fromGrads is GradientsParams::from_grads(grads, module) (optim/grads.rs).
	fromGrads func(w *dispatch.World, h nn.Host, grads, module dispatch.Value) (dispatch.Value, error)
	// optimizerStep is ModuleOptimizer::step(lr, module, grads); ok is
	// false for an optimizer the engine does not model.
	optimizerStep func(w *dispatch.World, h nn.Host, optim, lr, module, grads dispatch.Value) (out dispatch.Value, ok bool, err error)
)

// notModelled is what the interpreter gives a crate model to warn with
// (engine/interp/host.go): a playground-unmodelled warning at the site of
// the Burn call that is running, the Result not complete.
type notModelled interface {
	NotModelled(message string, help ...string)
}

// warn reports a part of item's work the engine did not model or run:
// "`item` what", with Burn's source of it.
func warn(h nn.Host, item, what, at string) {
	if wr, ok := h.(notModelled); ok {
		wr.NotModelled(fmt.Sprintf("`%s` %s", item, what), "Burn does it at "+at)
	}
}

const (
	locLaunch       = "crates/burn-train/src/learner/supervised/paradigm.rs:354"
	locModelDevice  = "crates/burn-train/src/learner/supervised/paradigm.rs:411"
	locTrainEpoch   = "crates/burn-train/src/learner/supervised/strategies/single/epoch.rs:96"
	locValidEpoch   = "crates/burn-train/src/learner/supervised/strategies/single/epoch.rs:44"
	locEvalDevice   = "crates/burn-train/src/evaluator/base.rs:53"
	locEvalLoop     = "crates/burn-train/src/evaluator/base.rs:62"
	locOptimize     = "crates/burn-train/src/learner/base.rs:94"
	locMetrics      = "crates/burn-train/src/metric/processor/full.rs"
	locMultiDevice  = "crates/burn-train/src/learner/supervised/strategies/multi/strategy.rs"
	locCustomFit    = "crates/burn-train/src/learner/supervised/strategies/base.rs:121"
	locCheckpointer = "crates/burn-train/src/learner/base.rs:159"
)

// autodiffDevice is paradigm.rs:488: the device made autodiff unless it
// is, then gradient checkpointing when asked.
func autodiffDevice(w *dispatch.World, d *dispatch.Device, checkpointing bool) (*dispatch.Device, error) {
	if !d.IsAutodiff() {
		v, err := w.Call(dispatch.Call{Recv: d, Method: "autodiff"})
		if err != nil {
			return nil, err
		}
		d = v.(*dispatch.Device)
	}
	if checkpointing {
		v, err := w.Call(dispatch.Call{Recv: d, Method: "gradient_checkpointing"})
		if err != nil {
			return nil, err
		}
		d = v.(*dispatch.Device)
	}
	return d, nil
}

// learningResult is LearningResult { model, renderer } (train_val.rs:128).
func learningResult(model, renderer dispatch.Value) dispatch.Value {
	if renderer == nil {
		renderer = &Renderer{}
	}
	return &dispatch.Enum{Type: "LearningResult", Variant: "LearningResult",
		Named: map[string]dispatch.Value{"model": model, "renderer": renderer}}
}

// forgetValues is the module with every Param's values unknown: where it
// is after training steps the engine did not run (or whose values it does
// not compute), each Param on its device, with its shape and require_grad.
func forgetValues(w *dispatch.World, model dispatch.Value, h nn.Host) (dispatch.Value, error) {
	return nn.ReplaceParams(w, model, h, func(p *nn.Param) (*nn.Param, error) {
		t, err := p.Val(w)
		if err != nil {
			return nil, err
		}
		out := nn.FromTensor(w, t.WithoutValues(), p.ID)
		out.RequireGrad = p.RequireGrad
		return out, nil
	})
}

// launch is SupervisedTraining::launch(learner) (paradigm.rs:354).
func launch(w *dispatch.World, t *Training, lv dispatch.Value, h nn.Host) (dispatch.Value, error) {
	if isUnknown(lv) {
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	}
	l, ok := dispatch.Deref(lv).(*Learner)
	if !ok {
		return nil, mismatch(1, "Learner<M>", lv)
	}
	// The experiment log, the metric logs (FileMetricLogger, paradigm.rs:364),
	// the checkpoints and the summary are files under the directory.
	warn(h, "SupervisedTraining::launch", "writes its logs, metrics and checkpoints to files under the artifact directory, which the playground does not write", locLaunch)
	if isUnknown(l.model) {
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	}
	if t.checkpoint != nil && t.checkpointers {
		// load_checkpoint reads the records of the epoch (paradigm.rs:417).
		warn(h, "LearningCheckpointer::load_checkpoint", "reads the model, optimizer and scheduler records of the checkpoint from files, which the playground does not read: the model's values are unknown", "crates/burn-train/src/learner/base.rs:196")
		m, err := forgetValues(w, l.model, h)
		if err != nil {
			return nil, err
		}
		l = &Learner{model: m, optim: dispatch.Unknown{}, lr: dispatch.Unknown{}, lrCurrent: l.lrCurrent}
	}
	strategy := dispatch.Deref(t.trainingStrategy)
	if strategy == nil || isUnknown(strategy) && t.trainingStrategy == nil {
		// The default: one device, the model's (paradigm.rs:409).
		devices, err := nn.Devices(w, l.model, h)
		if err != nil {
			return nil, err
		}
		if len(devices.Elems) == 0 {
			if holdsUnknown(l.model, 0) {
				// A part of the model the engine does not know may
				// hold its parameters.
				return learningResult(dispatch.Unknown{}, t.renderer), nil
			}
			return nil, burnPanic("train-model-no-params", msgIndex, locModelDevice)
		}
		d, err := autodiffDevice(w, devices.Elems[0].(*dispatch.Device), t.gradCheckpointing)
		if err != nil {
			return nil, err
		}
		return single(w, t, l, d, h)
	}
	if isUnknown(strategy) {
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	}
	ts := strategy.(*dispatch.Enum)
	if ts.Variant == "Custom" && len(ts.Fields) == 1 {
		return custom(w, t, l, ts.Fields[0], h)
	}
	es, ok := dispatch.Deref(ts.Fields[0]).(*Execution)
	if !ok {
		if isUnknown(ts.Fields[0]) {
			return learningResult(dispatch.Unknown{}, t.renderer), nil
		}
		// ExecutionStrategy::DistributedDataParallel { devices, context }.
		es = &Execution{Variant: "DistributedDataParallel"}
	}
	var d *dispatch.Device
	switch es.Variant {
	case "SingleDevice":
		d, _ = dispatch.Deref(es.Device).(*dispatch.Device)
	case "MultiDevice":
		a, ok := dispatch.Deref(es.Devices).(*dispatch.Array)
		if ok && len(a.Elems) == 1 {
			// One device is the single-device strategy (paradigm.rs:444).
			d, _ = dispatch.Deref(a.Elems[0]).(*dispatch.Device)
			break
		}
		if ok && len(a.Elems) == 0 {
			// self.devices.first().unwrap() (multi/strategy.rs:29).
			return nil, burnPanic("train-multi-no-device", msgUnwrap, "crates/burn-train/src/learner/supervised/strategies/multi/strategy.rs:29")
		}
		warn(h, "MultiDeviceLearningStrategy", "trains on several devices at once, which the playground does not model: the training was not run", locMultiDevice)
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	default:
		warn(h, "DdpTrainingStrategy", "trains with collective operations across devices, which the playground does not model: the training was not run", "crates/burn-train/src/learner/supervised/strategies/ddp/strategy.rs")
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	}
	if d == nil {
		return learningResult(dispatch.Unknown{}, t.renderer), nil
	}
	d, err := autodiffDevice(w, d, t.gradCheckpointing)
	if err != nil {
		return nil, err
	}
	return single(w, t, l, d, h)
}

// single is SingleDeviceTrainingStrategy (strategies/single/strategy.rs:46)
// through SupervisedLearningStrategy::train (strategies/base.rs:121).
func single(w *dispatch.World, t *Training, l *Learner, d *dispatch.Device, h nn.Host) (dispatch.Value, error) {
	train, trainOK := moveLoader(t.train, d)
	inner := d.Inner()
	valid, validOK := moveLoader(t.valid, inner)
	// learner.fork(&device) (base.rs:55).
	model, err := nn.Fork(w, l.model, d, h)
	if err != nil {
		return nil, err
	}
	l = &Learner{model: model, optim: l.optim, lr: l.lr, lrCurrent: l.lrCurrent}
	starting := int64(1)
	if n, ok := asInt(optionValue(t.checkpoint)); ok {
		starting = n + 1
	}
	exact := trainOK && validOK
	if !t.epochsKnown || starting <= t.numEpochs {
		// The first epoch (TrainingLoop, strategy.rs:68).
		ranAll, err := trainEpoch(w, t, l, train, trainOK, h)
		if err != nil {
			return nil, err
		}
		exact = exact && ranAll
		if !exact && l.stepped {
			// The model validation sees is the one all the epoch's
			// steps made.
			if l.model, err = forgetValues(w, l.model, h); err != nil {
				return nil, err
			}
		}
		ranAll, err = validEpoch(w, t, l, valid, validOK, h)
		if err != nil {
			return nil, err
		}
		exact = exact && ranAll
		if t.checkpointers {
			// checkpointer.checkpoint(&learner, epoch, store) (strategy.rs:108).
			warn(h, "LearningCheckpointer::checkpoint", "saves the model, optimizer and scheduler records of each epoch to files, which the playground does not write", locCheckpointer)
		}
		if !t.epochsKnown || t.numEpochs > starting {
			exact = false
			warn(h, "SupervisedTraining::launch", fmt.Sprintf("runs the epochs after epoch %d, which repeat the same operations on the same loaders: they were not run, and the trained model's values are unknown", starting), "crates/burn-train/src/learner/supervised/strategies/single/strategy.rs:68")
		}
	}
	if !exact {
		if l.model, err = forgetValues(w, l.model, h); err != nil {
			return nil, err
		}
	}
	// model.valid() (strategies/base.rs:157).
	out, err := nn.Valid(w, l.model, h)
	if err != nil {
		return nil, err
	}
	return learningResult(out, t.renderer), nil
}

func optionValue(v dispatch.Value) dispatch.Value {
	if o, ok := dispatch.Deref(v).(*dispatch.Enum); ok && o.Type == "Option" && len(o.Fields) == 1 {
		return o.Fields[0]
	}
	return v
}

// moveLoader is dataloader.to_device(&device); ok is false for a loader
// the engine does not model.
func moveLoader(loader dispatch.Value, d *dispatch.Device) (dispatch.Value, bool) {
	if loaderToDevice == nil || isUnknown(loader) {
		return loader, false
	}
	return loaderToDevice(loader, d)
}

// firstBatch is the first batch of a pass over loader, nil when there is
// none the engine knows; only is whether it is the pass's only batch. The
// loader is of the input type of model's step (a trait's method,
// `TrainStep::step`): its batcher's impl for that output is the one that
// runs (paradigm.rs:71, engine/data/typed.go).
func firstBatch(h nn.Host, loader dispatch.Value, ok bool, model dispatch.Value, step string) (batch dispatch.Value, only bool, err error) {
	if !ok || loaderFirst == nil {
		return nil, false, nil
	}
	return loaderFirst(h, loader, model, step)
}

// trainEpoch is SingleDeviceTrainEpoch::run (strategies/single/epoch.rs:80)
// for its first iteration: lr_step, TrainStep::step, the optimizer step.
// ranAll is whether that was the whole epoch.
func trainEpoch(w *dispatch.World, t *Training, l *Learner, loader dispatch.Value, ok bool, h nn.Host) (ranAll bool, err error) {
	batch, only, err := firstBatch(h, loader, ok, l.model, "TrainStep::step")
	if err != nil || batch == nil {
		if err == nil && ok {
			return true, nil
		}
		if err == nil {
			warn(h, "SupervisedTraining::launch", "runs the training iterations over a loader the playground does not model: they were not run", locTrainEpoch)
		}
		return false, err
	}
	if !only {
		warn(h, "SupervisedTraining::launch", "runs the training iterations after the first, which repeat the same operations on other batches: they were not run, and are not checked", locTrainEpoch)
	}
	// learner.lr_step() (base.rs:70).
	if err := lrStep(w, l, h); err != nil {
		return false, err
	}
	// learner.train_step(item): TrainStep::step(&model, item) (base.rs:83).
	out, found, err := h.CallMethod(l.model, "TrainStep::step", []dispatch.Value{batch})
	if err != nil {
		return false, err
	}
	if !found {
		return false, &dispatch.UsageError{Code: "trait-not-implemented", Arg: 1, Message: fmt.Sprintf(
			"the trait bound `%s: TrainStep` is not satisfied", l.model.TypeName())}
	}
	to, isTO := dispatch.Deref(out).(*dispatch.Enum)
	if !isTO || to.Type != "TrainOutput" {
		// A step whose output the engine does not know: so are the
		// gradients, and the parameters the optimizer steps with them.
		l.stepped, l.forgot = true, true
		l.model, err = forgetValues(w, l.model, h)
		return false, err
	}
	if err := checkAdaptors(to.Named["item"], t.trainMetrics, "TrainingModelOutput"); err != nil {
		return false, err
	}
	grads := to.Named["grads"]
	ranAll = only
	if n, known, _ := usizeArg(t.gradAccumulation, 1); t.gradAccumulation != nil && (!known || n > 1) {
		// GradientsAccumulator: the optimizer steps once `accumulation`
		// iterations have added their gradients (epoch.rs:111-121), after
		// the first; the model the next steps see is not known.
		l.stepped, ranAll = true, false
	} else if err := optimize(w, l, grads, h); err != nil {
		return false, err
	}
	if err := processItem(w, to.Named["item"], t.trainMetrics, h); err != nil {
		return false, err
	}
	return ranAll && !l.forgot, nil
}

// lrStep is Learner::lr_step: the scheduler's step (base.rs:71).
func lrStep(w *dispatch.World, l *Learner, h nn.Host) error {
	switch lr := dispatch.Deref(l.lr).(type) {
	case dispatch.Float:
		l.lrCurrent = lr
		return nil
	case dispatch.Unknown:
		l.lrCurrent = dispatch.Unknown{}
		return nil
	}
	v, _, err := h.CallMethod(l.lr, "step", nil)
	if err != nil {
		return err
	}
	l.lrCurrent = v
	return nil
}

// optimize is Learner::optimizer_step(grads): TrainStep::optimize, which
// the program may override, by default ModuleOptimizer::step (base.rs:94,
// train_val.rs:74).
func optimize(w *dispatch.World, l *Learner, grads dispatch.Value, h nn.Host) error {
	l.stepped = true
	model, found, err := h.CallMethod(l.model, "TrainStep::optimize", []dispatch.Value{&dispatch.Ref{V: l.optim, Mut: true}, l.lrCurrent, grads})
	if err != nil {
		return err
	}
	if !found {
		var ok bool
		if optimizerStep != nil && !isUnknown(l.optim) && !isUnknown(grads) {
			model, ok, err = optimizerStep(w, h, l.optim, l.lrCurrent, l.model, grads)
			if err != nil {
				return err
			}
		}
		if !ok {
			if !isUnknown(l.optim) {
				warn(h, "ModuleOptimizer::step", "updates the model's parameters with an optimizer the playground does not model: their values are unknown", locOptimize)
			}
			model = nil
		}
	}
	if model == nil || isUnknown(model) {
		// The parameters are where they were, their values unknown.
		l.forgot = true
		l.model, err = forgetValues(w, l.model, h)
		return err
	}
	l.model = model
	return nil
}

// validEpoch is SingleDeviceValidEpoch::run (strategies/single/epoch.rs:30)
// for its first iteration: InferenceStep::step on the valid model.
func validEpoch(w *dispatch.World, t *Training, l *Learner, loader dispatch.Value, ok bool, h nn.Host) (ranAll bool, err error) {
	// learner.model().valid() (epoch.rs:39).
	model, err := nn.Valid(w, l.model, h)
	if err != nil {
		return false, err
	}
	return inferencePass(w, model, loader, ok, t.validMetrics, "InferenceModelOutput", "validation", locValidEpoch, h)
}

// inferencePass runs the first iteration of an inference loop over
// loader: InferenceStep::step(&model, batch).
func inferencePass(w *dispatch.World, model, loader dispatch.Value, ok bool, ms []registered, output, what, at string, h nn.Host) (bool, error) {
	batch, only, err := firstBatch(h, loader, ok, model, "InferenceStep::step")
	if err != nil || batch == nil {
		if err == nil && ok {
			return true, nil
		}
		if err == nil {
			warn(h, "SupervisedTraining::launch", "runs the "+what+" iterations over a loader the playground does not model: they were not run", at)
		}
		return false, err
	}
	if !only {
		warn(h, "SupervisedTraining::launch", "runs the "+what+" iterations after the first, which repeat the same operations on other batches: they were not run, and are not checked", at)
	}
	out, found, err := h.CallMethod(model, "InferenceStep::step", []dispatch.Value{batch})
	if err != nil {
		return false, err
	}
	if !found {
		return false, &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
			"the trait bound `%s: InferenceStep` is not satisfied", model.TypeName())}
	}
	if err := checkAdaptors(out, ms, output); err != nil {
		return false, err
	}
	return only, processItem(w, out, ms, h)
}

// checkAdaptors is rustc's check that the step's output adapts to every
// registered metric's input (`TrainingModelOutput<M>: Adaptor<Me::Input>`,
// paradigm.rs:197): for Burn's outputs, whose impls the engine knows.
func checkAdaptors(item dispatch.Value, ms []registered, output string) error {
	typ := outputType(item)
	have, known := adapts[typ]
	if !known {
		return nil
	}
	for _, r := range ms {
		m, ok := asMetric(r.metric)
		if !ok || m.Input == "()" {
			continue
		}
		found := false
		for _, in := range have {
			found = found || in == m.Input
		}
		if !found {
			return &dispatch.UsageError{Code: "trait-not-implemented", Arg: -1, Message: fmt.Sprintf(
				"the trait bound `%s: Adaptor<%s>` is not satisfied", typ, m.Input),
				Help: []string{fmt.Sprintf("`%s` is registered for the %s, and the step's output `%s` (its %s) does not adapt to its input `%s`",
					m.Type, map[string]string{"TrainingModelOutput": "training", "InferenceModelOutput": "validation", "TestOutput": "evaluation"}[output], typ, output, m.Input)}}
		}
	}
	return nil
}

// processItem is what the event processor does with a step's output
// before its metrics see it: ItemLazy::sync takes the float tensors off
// the autodiff graph (classification.rs:31, regression.rs:25,
// sequence.rs:52). The metrics' own computations are not modelled.
func processItem(w *dispatch.World, item dispatch.Value, ms []registered, h nn.Host) error {
	en, ok := dispatch.Deref(item).(*dispatch.Enum)
	if !ok {
		return nil
	}
	fields, burns := outputs[en.Type]
	if !burns {
		return nil
	}
	if t, ok := dispatch.Deref(en.Named["loss"]).(*dispatch.Tensor); ok {
		// self.loss.device().flush()
		if _, err := w.Call(dispatch.Call{Recv: t.Device(), Method: "flush"}); err != nil {
			return err
		}
	}
	noGrad := map[string]dispatch.Value{}
	for _, f := range fields {
		if f.kind != dispatch.KindFloat || f.option {
			continue
		}
		if en.Type != "RegressionOutput" && f.name == "targets" {
			continue
		}
		if t, ok := dispatch.Deref(en.Named[f.name]).(*dispatch.Tensor); ok {
			v, err := w.Call(dispatch.Call{Recv: t, Method: "no_grad"})
			if err != nil {
				return err
			}
			noGrad[f.name] = v
		}
	}
	// The metrics compute on the synced item (metric/processor/metrics.rs),
	// on another thread: the engine runs them here.
	synced := &dispatch.Enum{Type: en.Type, Variant: en.Variant, Named: map[string]dispatch.Value{}}
	for k, v := range en.Named {
		synced.Named[k] = v
	}
	for k, v := range noGrad {
		synced.Named[k] = v
	}
	for _, r := range ms {
		m, ok := asMetric(r.metric)
		if !ok || m.Input == "()" {
			continue
		}
		done, err := update(w, m, synced)
		if err != nil {
			return err
		}
		if !done {
			warn(h, m.Type+"::update", "computes its metric on each step's output, which the playground does not model", locMetrics)
		}
	}
	return nil
}

// custom is TrainingStrategy::Custom: the program's
// SupervisedLearningStrategy, whose `fit` runs the loop
// (strategies/base.rs:121).
func custom(w *dispatch.World, t *Training, l *Learner, strategy dispatch.Value, h nn.Host) (dispatch.Value, error) {
	warn(h, "SupervisedLearningStrategy::train", "runs the program's own training loop (`fit`), which the playground does not run", locCustomFit)
	return learningResult(dispatch.Unknown{}, t.renderer), nil
}

// evaluate is Evaluator::eval_all (evaluator/base.rs:42).
func evaluate(w *dispatch.World, e *Evaluator, splits []dispatch.Value, h nn.Host) (dispatch.Value, error) {
	renderer := e.renderer
	if renderer == nil {
		renderer = &Renderer{}
	}
	if isUnknown(e.model) {
		return renderer, nil
	}
	// FileMetricLogger::new_eval (evaluator/builder.rs:149).
	warn(h, "Evaluator::eval_all", "writes its metric logs to files under the artifact directory, which the playground does not write", "crates/burn-train/src/evaluator/builder.rs:149")
	for _, s := range splits {
		pair, ok := dispatch.Deref(s).(dispatch.Tuple)
		if !ok || len(pair) != 2 {
			continue
		}
		// dataloader.to_device(self.model.devices().first().unwrap()) (base.rs:53).
		devices, err := nn.Devices(w, e.model, h)
		if err != nil {
			return nil, err
		}
		if len(devices.Elems) == 0 {
			if holdsUnknown(e.model, 0) {
				return renderer, nil
			}
			return nil, burnPanic("train-eval-no-device", msgUnwrap, locEvalDevice)
		}
		loader, ok := moveLoader(pair[1], devices.Elems[0].(*dispatch.Device))
		if _, err := inferencePass(w, e.model, loader, ok, e.metrics, "TestOutput", "evaluation", locEvalLoop, h); err != nil {
			return nil, err
		}
	}
	return renderer, nil
}

// holdsUnknown reports whether v holds a value the engine does not know,
// which may hold parameters.
func holdsUnknown(v dispatch.Value, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Unknown:
		return true
	case *dispatch.Enum:
		for _, f := range x.Fields {
			if holdsUnknown(f, depth+1) {
				return true
			}
		}
		for _, f := range x.Named {
			if holdsUnknown(f, depth+1) {
				return true
			}
		}
	case *dispatch.Array:
		for _, e := range x.Elems {
			if holdsUnknown(e, depth+1) {
				return true
			}
		}
	case dispatch.Tuple:
		for _, e := range x {
			if holdsUnknown(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// Package train models burn-train at Burn commit 2c06be35
// (crates/burn-train), as far as it decides where tensors live.
//
// The values a training program builds are Burn's: the step outputs
// (TrainOutput, ClassificationOutput, RegressionOutput,
// MultiLabelClassificationOutput, SequenceOutput) are structs whose
// fields the program reads (`item.loss`), the same value a struct literal
// of Burn's type gives; the metrics (AccuracyMetric, LossMetric,
// LearningRateMetric, ...), MetricEarlyStoppingStrategy, the
// checkpointing strategies, ExecutionStrategy, TrainingStrategy and the
// Interrupter are values their builders change as Burn's do.
//
// SupervisedTraining (learner/supervised/paradigm.rs) is the builder
// Burn's examples use at this commit, Learner (learner/base.rs) what
// `launch` trains, EvaluatorBuilder and Evaluator (evaluator/) what
// evaluates a trained model.
//
// `launch` does what Burn does with devices (paradigm.rs:354 and the
// single-device strategy, strategies/single/strategy.rs:46): the device
// is the model's first device made autodiff (paradigm.rs:409,488), the
// training loader moves to it and the validation loader to its inner
// device, the model is forked to it, one training iteration calls the
// program's TrainStep::step on a batch the program's Batcher built, the
// optimizer's step (engine/optim; the program's own TrainStep::optimize
// when it has one; none yet under gradient accumulation) and the metrics
// on the synced output (the loss, accuracy and perplexity metrics compute
// as Burn's do; the others are a boundary), and one validation iteration calls
// InferenceStep::step on `model.valid()` (strategies/single/epoch.rs).
// The evaluator runs one iteration of each test split on the model's
// device (evaluator/base.rs:42).
// Only the first iteration of each split of the first epoch runs: the
// others repeat the same operations on other batches, and a warning says
// they were not run (so what a step does to devices is traced, within
// the budget). The result's model is the trained model made valid
// (strategies/base.rs:157), its Params where training left them, their
// values unknown once an iteration was not run (or ran with what the
// engine does not know). A single-device ExecutionStrategy trains on its
// device; the multi-device, DDP and custom strategies are a boundary.
// The files burn-train writes (logs, metrics, checkpoints, the summary)
// are a boundary.
//
// burn-train's panics on these paths are rows of
// engine/catalog/sites.tsv (ids train-...).
package train

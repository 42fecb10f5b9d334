package train

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// ---- step outputs (learner/train_val.rs, classification.rs, regression.rs, sequence.rs) ----

// outputField is one public field of a step output and its Rust type.
type outputField struct {
	name string
	rank int
	kind dispatch.Kind
	// option is an Option<Tensor<..>> field (SequenceOutput::predictions).
	option bool
}

// outputs are burn-train's step outputs: `#[derive(new)]` structs whose
// `new` takes the fields in declaration order.
var outputs = map[string][]outputField{
	// classification.rs:19
	"ClassificationOutput": {{name: "loss", rank: 1}, {name: "output", rank: 2}, {name: "targets", rank: 1, kind: dispatch.KindInt}},
	// classification.rs:98
	"MultiLabelClassificationOutput": {{name: "loss", rank: 1}, {name: "output", rank: 2}, {name: "targets", rank: 2, kind: dispatch.KindInt}},
	// regression.rs:7
	"RegressionOutput": {{name: "loss", rank: 1}, {name: "output", rank: 2}, {name: "targets", rank: 2}},
	// sequence.rs:15
	"SequenceOutput": {{name: "loss", rank: 1}, {name: "logits", rank: 3}, {name: "predictions", rank: 2, kind: dispatch.KindInt, option: true},
		{name: "targets", rank: 2, kind: dispatch.KindInt}},
}

// adapts are the metric inputs each output implements Adaptor for
// (classification.rs:48-137, regression.rs:18, sequence.rs:71-103); every
// type adapts to () (metric/base.rs:129).
var adapts = map[string][]string{
	"ClassificationOutput":           {"AccuracyInput", "LossInput", "TopKAccuracyInput", "PerplexityInput", "ConfusionStatsInput"},
	"MultiLabelClassificationOutput": {"HammingScoreInput", "LossInput", "ConfusionStatsInput"},
	"RegressionOutput":               {"LossInput"},
	"SequenceOutput":                 {"LossInput", "CerInput", "WerInput", "AccuracyInput", "TopKAccuracyInput", "PerplexityInput"},
}

func tensorType(rank int, kind dispatch.Kind) string {
	switch kind {
	case dispatch.KindInt:
		return fmt.Sprintf("Tensor<%d, Int>", rank)
	case dispatch.KindBool:
		return fmt.Sprintf("Tensor<%d, Bool>", rank)
	}
	return fmt.Sprintf("Tensor<%d>", rank)
}

func mismatch(arg int, want string, got dispatch.Value) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: arg, Message: fmt.Sprintf(
		"mismatched types: expected `%s`, found `%s`", want, got.TypeName())}
}

func wrongArity(want, got int) *dispatch.UsageError {
	s, was := "s", "s were"
	if want == 1 {
		s = ""
	}
	if got == 1 {
		was = " was"
	}
	return &dispatch.UsageError{Code: "wrong-arguments", Arg: -1, Message: fmt.Sprintf(
		"this function takes %d argument%s but %d argument%s supplied", want, s, got, was)}
}

func isUnknown(v dispatch.Value) bool {
	_, ok := dispatch.Deref(v).(dispatch.Unknown)
	return ok || v == nil
}

// checkTensor checks an argument against a tensor type as rustc would;
// an unknown value passes (the engine does not know its type).
func checkTensor(v dispatch.Value, rank int, kind dispatch.Kind, arg int) *dispatch.UsageError {
	if isUnknown(v) {
		return nil
	}
	t, ok := dispatch.Deref(v).(*dispatch.Tensor)
	if !ok {
		return mismatch(arg, tensorType(rank, kind), v)
	}
	k := t.Kind()
	if k == dispatch.KindQFloat {
		k = dispatch.KindFloat
	}
	if t.Rank() != rank || k != kind {
		return mismatch(arg, tensorType(rank, kind), v)
	}
	return nil
}

// newOutput is Output::new(fields...) of a step output.
func newOutput(typ string, args []dispatch.Value) (dispatch.Value, error) {
	fields := outputs[typ]
	if len(args) != len(fields) {
		return nil, wrongArity(len(fields), len(args))
	}
	en := &dispatch.Enum{Type: typ, Variant: typ, Named: map[string]dispatch.Value{}}
	for i, f := range fields {
		v := args[i]
		if f.option {
			if o, ok := dispatch.Deref(v).(*dispatch.Enum); ok && o.Type == "Option" {
				if len(o.Fields) == 1 {
					if ue := checkTensor(o.Fields[0], f.rank, f.kind, i+1); ue != nil {
						return nil, ue
					}
				}
			} else if !isUnknown(v) {
				return nil, mismatch(i+1, "Option<"+tensorType(f.rank, f.kind)+">", v)
			}
		} else if ue := checkTensor(v, f.rank, f.kind, i+1); ue != nil {
			return nil, ue
		}
		en.Named[f.name] = v
	}
	return en, nil
}

// outputType is the type of a step output value: Burn's or the
// program's struct, "" when unknown.
func outputType(v dispatch.Value) string {
	if en, ok := dispatch.Deref(v).(*dispatch.Enum); ok {
		return en.Type
	}
	return ""
}

// ---- metrics (metric/*.rs) ----

// Metric is one of burn-train's metrics: what a training or an evaluation
// registers. Its state (the running values) is not modelled: the metrics
// report to the renderer and the logs, which the program does not read.
type Metric struct {
	// Type is the struct's name, Name its MetricName.
	Type, Name string
	// Input is its Metric::Input, which the step output must adapt to.
	Input string
	// Numeric is whether it implements Numeric (metric_*_numeric).
	Numeric bool
	// PadToken is with_pad_token's index, nil when not set.
	PadToken dispatch.Value
	// Args are the constructor's arguments.
	Args []dispatch.Value
}

func (m *Metric) TypeName() string { return m.Type }

// metricDesc describes a metric's constructors.
type metricDesc struct {
	name, input string
	numeric     bool
	// ctors are the associated functions that build it and their
	// parameter types.
	ctors map[string][]string
	// padToken is whether it has with_pad_token.
	padToken bool
	// feature gates the metric's module (metric/mod.rs).
	feature string
}

var newOnly = map[string][]string{"new": nil}

var metrics = map[string]metricDesc{
	"AccuracyMetric":       {name: "Accuracy", input: "AccuracyInput", numeric: true, ctors: newOnly, padToken: true},                                            // acc.rs:29
	"LossMetric":           {name: "Loss", input: "LossInput", numeric: true, ctors: newOnly},                                                                    // loss.rs:32
	"LearningRateMetric":   {name: "Learning Rate", input: "()", numeric: true, ctors: newOnly},                                                                  // learning_rate.rs:18
	"IterationSpeedMetric": {name: "Iteration Speed", input: "()", numeric: true, ctors: newOnly},                                                                // iteration.rs:27
	"PerplexityMetric":     {name: "Perplexity", input: "PerplexityInput", numeric: true, ctors: newOnly, padToken: true},                                        // perplexity.rs:180
	"TopKAccuracyMetric":   {name: "Top-K Accuracy", input: "TopKAccuracyInput", numeric: true, ctors: map[string][]string{"new": {"usize"}}, padToken: true},    // top_k_acc.rs:34
	"HammingScore":         {name: "Hamming Score", input: "HammingScoreInput", numeric: true, ctors: newOnly},                                                   // hamming.rs:28
	"CharErrorRate":        {name: "CER", input: "CerInput", numeric: true, ctors: newOnly, padToken: true},                                                      // cer.rs:60
	"WordErrorRate":        {name: "WER", input: "WerInput", numeric: true, ctors: newOnly, padToken: true},                                                      // wer.rs
	"PrecisionMetric":      {name: "Precision", input: "ConfusionStatsInput", numeric: true, ctors: confusionCtors("")},                                          // precision.rs:45
	"RecallMetric":         {name: "Recall", input: "ConfusionStatsInput", numeric: true, ctors: confusionCtors("")},                                             // recall.rs:45
	"FBetaScoreMetric":     {name: "FBetaScore", input: "ConfusionStatsInput", numeric: true, ctors: confusionCtors("f64")},                                      // fbetascore.rs:51
	"AurocMetric":          {name: "AUROC", input: "ConfusionStatsInput", numeric: true, ctors: rocCtors},                                                        // auroc.rs:44
	"AucPrMetric":          {name: "AUC-PR", input: "ConfusionStatsInput", numeric: true, ctors: rocCtors},                                                       // auc_pr.rs:47
	"BleuScore":            {name: "BLEU-4", input: "BleuInput", numeric: true, ctors: map[string][]string{"new": nil, "with_max_n": {"usize"}}, padToken: true}, // bleu.rs:101
	"CudaMetric":           {name: "Cuda", input: "()", ctors: newOnly, feature: "sys-metrics"},                                                                  // cuda.rs:16, not Numeric
	"CpuUse":               {name: "CPU Usage", input: "()", numeric: true, ctors: newOnly, feature: "sys-metrics"},                                              // cpu_use.rs:32
	"CpuMemory":            {name: "CPU Memory", input: "()", numeric: true, ctors: newOnly, feature: "sys-metrics"},                                             // memory_use.rs:35
	"CpuTemperature":       {name: "CPU Temperature", input: "()", numeric: true, ctors: newOnly, feature: "sys-metrics"},                                        // cpu_temp.rs:18
}

var rocCtors = map[string][]string{"binary": nil, "multiclass": {"ClassReduction"}, "multilabel": {"ClassReduction"}}

// confusionCtors are the binary, multiclass and multilabel constructors
// of the confusion-stats metrics; beta is FBetaScore's leading f64.
func confusionCtors(beta string) map[string][]string {
	pre := []string{}
	if beta != "" {
		pre = append(pre, beta)
	}
	return map[string][]string{
		"binary":     append(append([]string{}, pre...), "f64"),
		"multiclass": append(append([]string{}, pre...), "usize", "ClassReduction"),
		"multilabel": append(append([]string{}, pre...), "f64", "ClassReduction"),
	}
}

func asInt(v dispatch.Value) (int64, bool) {
	x, ok := dispatch.Deref(v).(dispatch.Int)
	return x.V, ok
}

// newMetric is Metric::ctor(args).
func newMetric(typ, ctor string, args []dispatch.Value) (dispatch.Value, bool, error) {
	d := metrics[typ]
	params, ok := d.ctors[ctor]
	if !ok {
		return nil, false, nil
	}
	if len(args) != len(params) {
		return nil, true, wrongArity(len(params), len(args))
	}
	for i, p := range params {
		switch p {
		case "usize", "f64":
			if isUnknown(args[i]) {
				continue
			}
			_, isInt := dispatch.Deref(args[i]).(dispatch.Int)
			_, isFloat := dispatch.Deref(args[i]).(dispatch.Float)
			if (p == "usize" && !isInt) || (p == "f64" && !isFloat) {
				return nil, true, mismatch(i+1, p, args[i])
			}
		}
	}
	m := &Metric{Type: typ, Name: d.name, Input: d.input, Numeric: d.numeric, Args: args}
	if typ == "TopKAccuracyMetric" {
		if k, ok := asInt(args[0]); ok {
			m.Name = fmt.Sprintf("Top-K Accuracy @ TopK(%d)", k) // top_k_acc.rs:36
		}
	}
	if typ == "BleuScore" && ctor == "with_max_n" {
		if n, ok := asInt(args[0]); ok {
			if n < 1 {
				// assert!(max_n >= 1, "max_n must be at least 1") (bleu.rs:102).
				return nil, true, burnPanic("train-bleu-max-n", "max_n must be at least 1", "crates/burn-train/src/metric/bleu.rs:102")
			}
			m.Name = fmt.Sprintf("BLEU-%d", n)
		}
	}
	if ctor == "multiclass" && (typ == "PrecisionMetric" || typ == "RecallMetric" || typ == "FBetaScoreMetric") {
		// NonZeroUsize::new(top_k).expect("top_k must be non-zero")
		// (precision.rs:63, recall.rs:63, fbetascore.rs:74).
		k := args[0]
		line := 63
		if typ == "FBetaScoreMetric" {
			k, line = args[1], 74
		}
		if n, ok := asInt(k); ok && n == 0 {
			id := map[string]string{"PrecisionMetric": "train-precision-top-k", "RecallMetric": "train-recall-top-k", "FBetaScoreMetric": "train-fbeta-top-k"}[typ]
			file := map[string]string{"PrecisionMetric": "precision.rs", "RecallMetric": "recall.rs", "FBetaScoreMetric": "fbetascore.rs"}[typ]
			return nil, true, burnPanic(id, "top_k must be non-zero", fmt.Sprintf("crates/burn-train/src/metric/%s:%d", file, line))
		}
	}
	return m, true, nil
}

func burnPanic(id, msg, location string) *dispatch.Panic {
	return &dispatch.Panic{ID: id, Message: msg, Location: location, Input: -1}
}

func metricMethod(m *Metric, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "clone":
		return m, nil
	case "with_pad_token":
		if !metrics[m.Type].padToken {
			break
		}
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		if !isUnknown(c.Args[0]) {
			if _, ok := dispatch.Deref(c.Args[0]).(dispatch.Int); !ok {
				return nil, mismatch(1, "usize", c.Args[0])
			}
		}
		out := *m
		out.PadToken = c.Args[0]
		return &out, nil
	}
	return nil, unknownMethod(m.Type, c.Method)
}

func unknownMethod(typ, method string) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "unknown-method", Arg: -1, Message: fmt.Sprintf(
		"no method named `%s` found for struct `%s` in the current scope", method, typ)}
}

func unknownFunction(typ, name string) *dispatch.UsageError {
	return &dispatch.UsageError{Code: "unknown-function", Arg: -1, Message: fmt.Sprintf(
		"no function or associated item named `%s` found for struct `%s` in the current scope", name, typ)}
}

// asMetric is the metric an argument holds, borrowed or not.
func asMetric(v dispatch.Value) (*Metric, bool) {
	m, ok := dispatch.Deref(v).(*Metric)
	return m, ok
}

// ---- early stopping and checkpointing (learner/early_stopping.rs, checkpoint/) ----

// Strategy is one of burn-train's strategy values: an early stopping
// strategy, a checkpointing strategy, an execution or training strategy,
// a checkpointer. Their decisions read the metrics' values, which are not
// modelled; only the first epoch runs, so they decide nothing here.
type Strategy struct {
	Type   string
	Fields map[string]dispatch.Value
	// Items are the strategies a composed one holds.
	Items []dispatch.Value
}

func (s *Strategy) TypeName() string { return s.Type }

func enumOf(v dispatch.Value, typ string) bool {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	return ok && en.Type == typ
}

// checkEnum checks an argument is a variant of Burn's enum typ.
func checkEnum(v dispatch.Value, typ string, arg int) *dispatch.UsageError {
	if isUnknown(v) || enumOf(v, typ) {
		return nil
	}
	return mismatch(arg, typ, v)
}

// metricStrategy is MetricEarlyStoppingStrategy::new (early_stopping.rs:129)
// or MetricCheckpointingStrategy::new (checkpoint/strategy/metric.rs:21):
// a metric, an Aggregate, a Direction, a Split, and for early stopping a
// StoppingCondition.
func metricStrategy(typ string, args []dispatch.Value) (dispatch.Value, error) {
	want := 4
	if typ == "MetricEarlyStoppingStrategy" {
		want = 5
	}
	if len(args) != want {
		return nil, wrongArity(want, len(args))
	}
	if _, ok := asMetric(args[0]); !ok && !isUnknown(args[0]) {
		if _, user := dispatch.Deref(args[0]).(*dispatch.Enum); !user {
			return nil, mismatch(1, "&Me", args[0])
		}
	}
	for i, t := range []string{"Aggregate", "Direction", "Split", "StoppingCondition"}[:want-1] {
		if ue := checkEnum(args[i+1], t, i+2); ue != nil {
			return nil, ue
		}
	}
	s := &Strategy{Type: typ, Fields: map[string]dispatch.Value{"metric": args[0], "aggregate": args[1], "direction": args[2], "split": args[3]}}
	if want == 5 {
		s.Fields["condition"] = args[4]
	}
	return s, nil
}

// ---- ExecutionStrategy and TrainingStrategy (learner/supervised/strategies/base.rs) ----

// Execution is an ExecutionStrategy (strategies/base.rs:27): where
// training runs. Its variants are built by calls; the engine keeps it as
// its own value so that its methods reach the model.
type Execution struct {
	// Variant is SingleDevice, MultiDevice or DistributedDataParallel.
	Variant string
	Device  dispatch.Value // SingleDevice's
	Devices dispatch.Value // MultiDevice's Vec<Device>
	Optim   dispatch.Value // MultiDevice's MultiDeviceOptim
}

func (*Execution) TypeName() string { return "ExecutionStrategy" }

// executionStrategy is ExecutionStrategy::single, ::multi or a variant.
func executionStrategy(name string, args []dispatch.Value) (dispatch.Value, bool, error) {
	switch name {
	case "single", "SingleDevice":
		if len(args) != 1 {
			return nil, true, wrongArity(1, len(args))
		}
		if _, ok := dispatch.Deref(args[0]).(*dispatch.Device); !ok && !isUnknown(args[0]) {
			return nil, true, mismatch(1, "Device", args[0])
		}
		return &Execution{Variant: "SingleDevice", Device: dispatch.Deref(args[0])}, true, nil
	case "multi", "MultiDevice":
		if len(args) != 2 {
			return nil, true, wrongArity(2, len(args))
		}
		if a, ok := dispatch.Deref(args[0]).(*dispatch.Array); !ok && !isUnknown(args[0]) || ok && !a.Vec {
			return nil, true, mismatch(1, "Vec<Device>", args[0])
		}
		if ue := checkEnum(args[1], "MultiDeviceOptim", 2); ue != nil {
			return nil, true, ue
		}
		return &Execution{Variant: "MultiDevice", Devices: dispatch.Deref(args[0]), Optim: args[1]}, true, nil
	}
	return nil, false, nil
}

// executionMethod is a method of an ExecutionStrategy.
func executionMethod(e *Execution, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "main_device":
		// base.rs:45: the device, or the first of the list.
		if err := none(c); err != nil {
			return nil, err
		}
		switch e.Variant {
		case "SingleDevice":
			return &dispatch.Ref{V: e.Device}, nil
		case "MultiDevice":
			a, ok := dispatch.Deref(e.Devices).(*dispatch.Array)
			if !ok {
				return dispatch.Unknown{}, nil
			}
			if len(a.Elems) == 0 {
				return nil, burnPanic("train-main-device-empty", msgIndex, "crates/burn-train/src/learner/supervised/strategies/base.rs:48")
			}
			return &dispatch.Ref{V: a.Elems[0]}, nil
		}
		return dispatch.Unknown{}, nil
	case "into":
		// From<ExecutionStrategy> for TrainingStrategy (base.rs:83).
		if err := none(c); err != nil {
			return nil, err
		}
		return &dispatch.Enum{Type: "TrainingStrategy", Variant: "Default", Fields: []dispatch.Value{e}}, nil
	}
	return nil, unknownMethod("ExecutionStrategy", c.Method)
}

// Rust's panics for `v[0]` and `v.first().unwrap()` of an empty Vec.
const (
	msgIndex  = "index out of bounds: the len is 0 but the index is 0"
	msgUnwrap = "called `Option::unwrap()` on a `None` value"
)

// ---- Interrupter (learner/base.rs:224) ----

// Interrupter is the handle that stops a training: shared by its clones.
type Interrupter struct {
	stopped bool
	message dispatch.Value
}

func (*Interrupter) TypeName() string { return "Interrupter" }

func interrupterMethod(it *Interrupter, c dispatch.Call) (dispatch.Value, error) {
	switch c.Method {
	case "clone":
		return it, nil
	case "stop":
		if len(c.Args) != 1 {
			return nil, wrongArity(1, len(c.Args))
		}
		it.stopped = true
		if o, ok := dispatch.Deref(c.Args[0]).(*dispatch.Enum); ok && o.Type == "Option" && o.Variant == "Some" && len(o.Fields) == 1 {
			it.message = o.Fields[0]
		}
		return dispatch.Unit{}, nil
	case "reset":
		it.stopped = false
		return dispatch.Unit{}, nil
	case "should_stop":
		return dispatch.Bool(it.stopped), nil
	case "get_message":
		if it.message == nil {
			return &dispatch.Enum{Type: "Option", Variant: "None"}, nil
		}
		return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []dispatch.Value{it.message}}, nil
	}
	return nil, unknownMethod("Interrupter", c.Method)
}

// ---- the metrics' updates (loss.rs:43, acc.rs:47) ----

// tensorCall is recv.method(args) through dispatch, the tensor it gives.
func tensorCall(w *dispatch.World, recv dispatch.Value, method string, args ...dispatch.Value) (dispatch.Value, error) {
	return w.Call(dispatch.Call{Recv: recv, Method: method, Args: args})
}

// chain runs recv.m1(..).m2(..)..., each step a method and its arguments.
func chain(w *dispatch.World, recv dispatch.Value, steps ...[]any) (dispatch.Value, error) {
	v := recv
	for _, s := range steps {
		args := make([]dispatch.Value, 0, len(s)-1)
		for _, a := range s[1:] {
			args = append(args, a.(dispatch.Value))
		}
		var err error
		if v, err = tensorCall(w, v, s[0].(string), args...); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func usize(n int64) dispatch.Value { return dispatch.Int{V: n, Suffix: "usize"} }

// update is Metric::update of Burn's metrics whose work on the tensors the
// engine models, on the input the output's Adaptor gives (classification.rs,
// regression.rs, sequence.rs); handled is false for the others.
func update(w *dispatch.World, m *Metric, item *dispatch.Enum) (handled bool, err error) {
	switch m.Type {
	case "LossMetric":
		// LossInput::new(self.loss.clone()); `loss.tensor.clone().mean()
		// .into_data().iter::<f64>().next().unwrap()` (loss.rs:43-52).
		loss, ok := dispatch.Deref(item.Named["loss"]).(*dispatch.Tensor)
		if !ok {
			return false, nil
		}
		_, err := chain(w, loss, []any{"mean"}, []any{"into_data"})
		return true, err
	case "AccuracyMetric":
		outputs, targets, ok := accuracyInput(w, item)
		if !ok {
			return false, nil
		}
		shape := outputs.Shape()
		if len(shape) != 2 {
			return false, nil
		}
		batch := shape[0]
		// outputs.argmax(1).reshape([batch_size]) (acc.rs:53).
		pred, err := chain(w, outputs, []any{"argmax", usize(1)}, []any{"reshape", &dispatch.Array{Elems: []dispatch.Value{usize(batch)}}})
		if err != nil {
			return true, err
		}
		if m.PadToken == nil {
			// outputs.equal(targets).int().sum().into_scalar::<f64>() (acc.rs:65).
			_, err = chain(w, pred, []any{"equal", targets}, []any{"int"}, []any{"sum"}, []any{"into_scalar"})
			return true, err
		}
		// acc.rs:57-63.
		pad, ok := asInt(m.PadToken)
		if !ok {
			return false, nil
		}
		mask, err := tensorCall(w, targets, "equal_scalar", dispatch.Int{V: pad, Suffix: "i64"})
		if err != nil {
			return true, err
		}
		matches, err := chain(w, pred, []any{"equal", targets}, []any{"float"}, []any{"mask_fill", mask, dispatch.Int{V: 0}})
		if err != nil {
			return true, err
		}
		numPad, err := chain(w, mask, []any{"float"}, []any{"sum"}, []any{"neg"}, []any{"add_scalar", dispatch.Float{V: float64(batch), Suffix: "f32"}})
		if err != nil {
			return true, err
		}
		_, err = chain(w, matches, []any{"sum"}, []any{"div", numPad}, []any{"into_scalar"})
		return true, err
	case "PerplexityMetric":
		outputs, targets, ok := accuracyInput(w, item)
		if !ok || outputs.Rank() != 2 {
			return false, nil
		}
		// perplexity.rs:202-234: log_softmax over the vocabulary, the
		// targets' log probabilities gathered, summed (the pad tokens
		// masked out) and read.
		logProbs, err := w.Call(dispatch.Call{Path: []string{"log_softmax"}, Args: []dispatch.Value{outputs, usize(1)}})
		if err != nil {
			return true, err
		}
		index, err := w.Call(dispatch.Call{Recv: targets, Method: "unsqueeze_dim", Generics: [][]string{{"2"}}, Args: []dispatch.Value{usize(1)}})
		if err != nil {
			return true, err
		}
		gathered, err := tensorCall(w, logProbs, "gather", usize(1), index)
		if err != nil {
			return true, err
		}
		target, err := w.Call(dispatch.Call{Recv: gathered, Method: "squeeze_dim", Generics: [][]string{{"1"}}, Args: []dispatch.Value{usize(1)}})
		if err != nil {
			return true, err
		}
		if m.PadToken == nil {
			_, err = chain(w, target, []any{"sum"}, []any{"into_scalar"})
			return true, err
		}
		pad, ok := asInt(m.PadToken)
		if !ok {
			return false, nil
		}
		mask, err := tensorCall(w, targets, "not_equal_scalar", dispatch.Int{V: pad, Suffix: "i64"})
		if err != nil {
			return true, err
		}
		notMask, err := tensorCall(w, mask, "bool_not")
		if err != nil {
			return true, err
		}
		if _, err = chain(w, target, []any{"mask_fill", notMask, dispatch.Float{V: 0}}, []any{"sum"}, []any{"into_scalar"}); err != nil {
			return true, err
		}
		_, err = chain(w, mask, []any{"int"}, []any{"sum"}, []any{"into_scalar"})
		return true, err
	}
	return false, nil
}

// accuracyInput is the AccuracyInput (and PerplexityInput) an output
// adapts to: its output and targets (classification.rs:48, 66), the flat
// logits and targets of a SequenceOutput (sequence.rs:89, 101).
func accuracyInput(w *dispatch.World, item *dispatch.Enum) (outputs, targets *dispatch.Tensor, ok bool) {
	switch item.Type {
	case "ClassificationOutput":
		o, ok1 := dispatch.Deref(item.Named["output"]).(*dispatch.Tensor)
		t, ok2 := dispatch.Deref(item.Named["targets"]).(*dispatch.Tensor)
		return o, t, ok1 && ok2
	case "SequenceOutput":
		// flat_logits and flat_targets (sequence.rs:38-48): the logits
		// reshaped to [batch_size * seq_len, vocab_size], the targets to
		// [batch_size * seq_len].
		l, ok1 := dispatch.Deref(item.Named["logits"]).(*dispatch.Tensor)
		t, ok2 := dispatch.Deref(item.Named["targets"]).(*dispatch.Tensor)
		if !ok1 || !ok2 || l.Rank() != 3 || t.Rank() != 2 {
			return nil, nil, false
		}
		ls, ts := l.Shape(), t.Shape()
		flatL, err := tensorCall(w, l, "reshape", &dispatch.Array{Elems: []dispatch.Value{usize(ls[0] * ls[1]), usize(ls[2])}})
		if err != nil {
			return nil, nil, false
		}
		flatT, err := tensorCall(w, t, "reshape", &dispatch.Array{Elems: []dispatch.Value{usize(ts[0] * ts[1])}})
		if err != nil {
			return nil, nil, false
		}
		o, ok1 := flatL.(*dispatch.Tensor)
		f, ok2 := flatT.(*dispatch.Tensor)
		return o, f, ok1 && ok2
	}
	return nil, nil, false
}

package train

import "github.com/dispatch-playground/playground/engine/dispatch"

// TakesUnknown reports whether the engine's model of the call answers it
// when an argument is unknown, instead of the call's result being unknown:
// a metric's pad token read from the program's tokenizer (Burn's
// text-generation example registers
// `AccuracyMetric::new().with_pad_token(tokenizer.pad_token())`) makes a
// metric whose values are unknown, and registering that metric, or an
// unknown count of epochs or of accumulated gradients, leaves the rest of
// the training known (the builder reads each with its known flag).
func TakesUnknown(c dispatch.Call) bool {
	switch dispatch.Deref(c.Recv).(type) {
	case *Metric:
		// with_pad_token (acc.rs:52, perplexity.rs, top_k_acc.rs, ...).
		return c.Method == "with_pad_token"
	case *RLTraining:
		// Its settings are not read (rl.go); launch's agent is.
		return c.Method != "launch"
	case *Training:
		switch c.Method {
		case "metric_train", "metric_valid", "metric_train_numeric", "metric_valid_numeric",
			"grads_accumulation", "num_epochs":
			// paradigm.rs:175-260, 283, 297.
			return true
		}
	}
	return false
}

package train

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// RLTraining is burn-train's reinforcement-learning paradigm
// (learner/rl/paradigm.rs): the builder's settings, and of launch what
// decides where the tensors live. The environments' steps and the
// off-policy loop (learner/rl/off_policy.rs) are a boundary: the engine
// does not run them.
type RLTraining struct {
	// envInit is the environment initializer new takes (paradigm.rs:79).
	envInit dispatch.Value
	// inference is with_inference_device's device, Default::default()
	// until set (paradigm.rs:110, 306).
	inference dispatch.Value
	// strategy is with_learning_strategy's RLStrategies, nil for the
	// default.
	strategy dispatch.Value
}

func (*RLTraining) TypeName() string { return "RLTraining<_>" }

const (
	locRLNew    = "crates/burn-train/src/learner/rl/paradigm.rs:79"
	locRLLaunch = "crates/burn-train/src/learner/rl/paradigm.rs:320"
	locRLLoop   = "crates/burn-train/src/learner/rl/off_policy.rs:62"
	locRLRunner = "crates/burn-train/src/learner/rl/env_runner/async_runner.rs:73"
)

// rlMetrics are the metrics of metric/rl: registered, not computed.
var rlMetrics = map[string]string{
	"ExplorationRateMetric":  "ExplorationRateInput",  // metric/rl/exploration_rate.rs:11
	"EpisodeLengthMetric":    "EpisodeLengthInput",    // metric/rl/ep_len.rs:11
	"CumulativeRewardMetric": "CumulativeRewardInput", // metric/rl/cum_reward.rs:11
}

// RLCall answers RLTraining::new, its builder and launch, the metrics of
// metric/rl and RLStrategies::OffPolicyStrategy; handled is false for
// every other call.
func RLCall(w *dispatch.World, c dispatch.Call, h nn.Host) (dispatch.Value, bool, error) {
	if len(c.Path) > 0 {
		p := itemPath(c.Path)
		if len(p) != 2 {
			return nil, false, nil
		}
		switch {
		case p[0] == "RLTraining" && p[1] == "new":
			if len(c.Args) != 2 {
				return nil, true, wrongArity(2, len(c.Args))
			}
			d, err := w.Call(dispatch.Call{Path: []string{"Device", "default"}})
			if err != nil {
				return nil, true, err
			}
			return &RLTraining{envInit: c.Args[1], inference: d}, true, nil
		case p[0] == "RLStrategies" && (p[1] == "OffPolicyStrategy" || p[1] == "Custom"):
			// strategy.rs:35.
			return &dispatch.Enum{Type: "RLStrategies", Variant: p[1], Fields: c.Args}, true, nil
		case rlMetrics[p[0]] != "" && p[1] == "new" && len(c.Args) == 0:
			return &Metric{Type: p[0], Name: p[0], Input: rlMetrics[p[0]], Numeric: true}, true, nil
		}
		return nil, false, nil
	}
	r, ok := dispatch.Deref(c.Recv).(*RLTraining)
	if !ok {
		return nil, false, nil
	}
	out := *r
	switch c.Method {
	case "with_inference_device":
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		out.inference = c.Args[0]
	case "with_learning_strategy":
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		out.strategy = c.Args[0]
	case "metrics_train", "metrics_agent", "metrics_episode", "text_metrics_train", "text_metrics_agent",
		"text_metrics_episode", "metric_train", "metric_agent", "metric_episode", "text_metric_train",
		"text_metric_agent", "text_metric_episode", "num_steps", "checkpoint", "with_checkpointer",
		"summary", "with_interrupter", "with_metric_logger", "with_checkpointing_strategy", "renderer",
		"with_application_logger":
		// Settings of the loop the engine does not run (paradigm.rs:121-318).
	case "launch":
		if len(c.Args) != 1 {
			return nil, true, wrongArity(1, len(c.Args))
		}
		v, err := rlLaunch(w, r, c.Args[0], h)
		return v, true, err
	default:
		return nil, true, unknownMethod("RLTraining", c.Method)
	}
	return &out, true, nil
}

// rlLaunch is RLTraining::launch (paradigm.rs:320) as far as where the
// tensors live: OffPolicyStrategy's train loop hands learner_agent.policy()
// to the environments' runner (off_policy.rs:79), which moves it to the
// inference device (async_runner.rs:73: agent.clone().to_device(device),
// the program's Policy::to_device), and makes the replay buffer on
// learner_agent.device() (off_policy.rs:101). The environments' steps and
// the training steps are not run.
func rlLaunch(w *dispatch.World, r *RLTraining, agent dispatch.Value, h nn.Host) (dispatch.Value, error) {
	warn(h, "RLTraining::launch", "writes its logs, metrics and checkpoints to files under the artifact directory, which the playground does not write", locRLLaunch)
	result := &dispatch.Enum{Type: "RLResult", Variant: "RLResult",
		Named: map[string]dispatch.Value{"policy": dispatch.Unknown{}, "renderer": &Renderer{}}}
	if isUnknown(agent) {
		return result, nil
	}
	if s, isEnum := dispatch.Deref(r.strategy).(*dispatch.Enum); isEnum && s.Variant == "Custom" {
		warn(h, "RLStrategies::Custom", "runs the program's learning strategy, which the playground does not model: the training was not run", locRLLaunch)
		return result, nil
	}
	policy, found, err := h.CallMethod(agent, "PolicyLearner::policy", nil)
	if err != nil {
		return nil, err
	}
	if found && !isUnknown(policy) {
		if _, _, err := h.CallMethod(policy, "Policy::to_device", []dispatch.Value{&dispatch.Ref{V: r.inference}}); err != nil {
			return nil, err
		}
	}
	if _, _, err := h.CallMethod(agent, "PolicyLearner::device", nil); err != nil {
		return nil, err
	}
	warn(h, "RLTraining::launch", "runs the environments and the off-policy training loop (their steps, the replay buffer and the agent's updates), which the playground does not model: they were not run, and the policy it returns is unknown", locRLLoop)
	return result, nil
}

package train_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// rlProgram is a reinforcement-learning launch in the shape of Burn's
// dqn-agent example: the learner's policy is moved to the inference device
// the builder names (DEVICE), where the environments run it.
const rlProgram = `use burn::{
    module::AutodiffModule,
    nn::{Linear, LinearConfig},
    prelude::*,
    rl::Policy,
    train::{OffPolicyConfig, PolicyLearner, RLStrategies, RLTraining, metric::{CumulativeRewardMetric, LossMetric}},
};

#[derive(Clone)]
struct Pol {
    model: Linear,
}

impl Policy for Pol {
    fn to_device(self, device: &Device) -> Self {
        Pol { model: self.model.to_device(device) }
    }
}

struct Agent {
    model: Linear,
}

impl PolicyLearner for Agent {
    fn policy(&self) -> Pol {
        Pol { model: self.model.clone()VALID }
    }

    fn device(&self) -> Device {
        self.model.devices()[0].clone()
    }
}

struct Env;

impl Env {
    fn new() -> Self {
        Env
    }
}

fn main() {
    let device = Device::flex().autodiff();
    let agent = Agent { model: LinearConfig::new(4, 2).init(&device) };
    let config = OffPolicyConfig {
        num_envs: 2,
        autobatch_size: 2,
        replay_buffer_size: 100,
        train_interval: 2,
        eval_interval: 10,
        eval_episodes: 1,
        train_batch_size: 4,
        train_steps: 1,
        warmup_steps: 0,
    };
    let training = RLTraining::new("/tmp/rl", Env::new)
        .metrics_train((LossMetric::new(),))
        .metrics_episode((CumulativeRewardMetric::new(),))
        .num_steps(100)
        .with_learning_strategy(RLStrategies::OffPolicyStrategy(config))
        DEVICE.summary();
    let _result = training.launch(agent);
}
`

const rlConfig = "[dependencies]\nburn = { version = \"0.22\", features = [\"train\", \"rl\", \"flex\", \"cuda\", \"autodiff\"] }\n"

func TestRLLaunchMovesThePolicyToTheInferenceDevice(t *testing.T) {
	// The runner moves the learner's policy as it is: an autodiff
	// model to a device without autodiff panics, as Burn's does, which
	// is why the example's policy() takes the model's valid().
	res := engine.Run(engine.Request{Config: rlConfig, Snippet: strings.NewReplacer("DEVICE", "", "VALID", "").Replace(rlProgram)})
	if res.Panic == nil || res.Panic.Code != "cannot-move-between-autodiff-and-non-autodiff-inst" {
		t.Errorf("status %s, panic %+v: want the autodiff move's panic", res.Status, res.Panic)
	} else if want := lineOf(t, rlProgram, "self.model.to_device(device)"); res.Panic.Span.Start.Line != want {
		t.Errorf("panic at line %d, want the policy's to_device at %d", res.Panic.Span.Start.Line, want)
	}
	cases := []struct{ name, config, device, want string }{
		{"with_inference_device", rlConfig, ".with_inference_device(Device::cuda(0))", "Cuda(Cuda(0))"},
		{"the default device", strings.Replace(rlConfig, `, "cuda"`, "", 1), "", "Flex(Cpu)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("DEVICE", c.device, "VALID", ".valid()").Replace(rlProgram)
			res := engine.Run(engine.Request{Config: c.config, Snippet: src})
			if res.Status != engine.StatusOK {
				t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
			}
			moved := 0
			for _, e := range res.Trace {
				if e.Op == "float_to_device" && e.Device == c.want {
					moved++
				}
			}
			if moved != 2 {
				t.Errorf("%d of the policy's params moved to %s, want its weight and bias:\n%+v", moved, c.want, res.Trace)
			}
			boundary := false
			for _, d := range res.Diagnostics {
				if d.Code == "playground-unmodelled" && strings.HasPrefix(d.Message, "`RLTraining::launch` runs the environments") {
					boundary = true
				}
			}
			if !boundary {
				t.Errorf("no boundary for the loop: %+v", res.Diagnostics)
			}
		})
	}
}

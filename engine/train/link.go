package train

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/optim"
)

// burn-train's gradients and optimizer step are burn-optim's (engine/optim).
func init() {
	fromGrads = func(w *dispatch.World, h nn.Host, grads, module dispatch.Value) (dispatch.Value, error) {
		return optim.FromModule(w, h, grads, module, nil)
	}
	optimizerStep = func(w *dispatch.World, h nn.Host, o, lr, module, grads dispatch.Value) (dispatch.Value, bool, error) {
		if _, ok := dispatch.Deref(o).(*optim.ModuleOptimizer); !ok {
			return nil, false, nil
		}
		v, err := optim.Step(w, h, o, lr, module, grads)
		return v, err == nil, err
	}
}

package train

import (
	"github.com/dispatch-playground/playground/engine/data"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// burn-train's loaders are burn-core's dataloader (engine/data).
func init() {
	loaderToDevice = func(loader dispatch.Value, d *dispatch.Device) (dispatch.Value, bool) {
		dl, ok := dispatch.Deref(loader).(*data.DataLoader)
		if !ok {
			return loader, false
		}
		return dl.ToDevice(d), true
	}
	loaderFirst = func(h nn.Host, loader, model dispatch.Value, step string) (dispatch.Value, bool, error) {
		dl, ok := dispatch.Deref(loader).(*data.DataLoader)
		if !ok {
			return nil, false, nil
		}
		if th, typed := h.(data.TypedHost); typed {
			// The loader gives batches of the step's input type
			// (engine/data/typed.go).
			dl = dl.ForOutput(th.ParamType(model, step, 0))
		}
		it, err := dl.Start(h)
		if err != nil {
			return nil, false, err
		}
		b, more, err := it.Next()
		if err != nil || !more || b.Output == nil {
			return nil, !more, err
		}
		n, known, err := dl.NumItems(h)
		if err != nil {
			return nil, false, err
		}
		return b.Output, it.Complete() && known && n <= dl.BatchSize(), nil
	}
}

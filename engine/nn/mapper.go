package nn

import "github.com/dispatch-playground/playground/engine/dispatch"

// ForEachParam is Module::visit with a ModuleVisitor that sees every Param
// in the walk's order (GradientsParamsConverter, burn-optim's visitor.rs).
func ForEachParam(w *dispatch.World, v dispatch.Value, h Host, f func(*Param) error) error {
	wk := &walker{w: w, h: h, visit: func(x dispatch.Value) error {
		if p, ok := x.(*Param); ok {
			return f(p)
		}
		return nil
	}}
	_, err := wk.walk(v)
	return err
}

// ReplaceParams is Module::map with a ModuleMapper that maps every Param
// (module/base.rs): each Param, in the walk's order, replaced by what f
// returns; plain tensors and constants are kept (burn-optim's
// ModuleOptimizerMapper).
func ReplaceParams(w *dispatch.World, v dispatch.Value, h Host, f func(*Param) (*Param, error)) (dispatch.Value, error) {
	wk := &walker{w: w, h: h, param: f}
	return wk.walk(v)
}

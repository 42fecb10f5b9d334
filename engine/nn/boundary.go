package nn

import "github.com/dispatch-playground/playground/engine/dispatch"

// Boundary is what a call returns for a Burn item whose work lies
// outside the playground (a file it reads or writes) but whose result has
// a type the playground can build: the interpreter warns
// (playground-unmodelled, saying What) and goes on with Value, whose
// parts that came from outside are unknown.
type Boundary struct {
	// Item is the Burn item as the warning names it (`Model::load_from`).
	Item string
	// What is what lies outside: "reads the weights from `model.pt`".
	What string
	// Site is Burn's file:line of the item, for the warning's help.
	Site  string
	Value dispatch.Value
}

func (b *Boundary) Error() string { return b.Item + " " + b.What }

// MapParams maps every Param of a module tree (a Burn module, the
// program's own, and the Vecs, arrays and Options of them) in the walk's
// order, as a ModuleMapper does (module/base.rs), keeping every other
// field; f sees the Params in the order VisitParams does.
func MapParams(w *dispatch.World, v dispatch.Value, h Host, f func(*Param) (*Param, error)) (dispatch.Value, error) {
	wk := &walker{w: w, h: h, param: f}
	return wk.walk(v)
}

// Lazy reports the Param's device and whether it is initialized, without
// initializing it (Param::lazy_device, param/base.rs).
func (p *Param) Lazy() (device *dispatch.Device, t *dispatch.Tensor) {
	if p.t != nil {
		return p.t.Device(), p.t
	}
	return p.device, nil
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/data"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// datasetMethod answers a default method of burn-dataset's Dataset trait
// (iter, is_empty, get_many: dataset/base.rs:29-56; windows:
// transform/window.rs:33) on a value of the program's type that implements
// the trait and does not define the method: engine/data calls back the
// program's get and len.
func (in *interp) datasetMethod(e *syntax.MethodCallExpr, recv value, args []value) (value, *signal, bool) {
	en, ok := dispatch.Deref(recv).(*dispatch.Enum)
	if !ok || !data.DefaultMethod(e.Name) || in.traits["Dataset"] != nil {
		return nil, nil, false
	}
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.Trait) != "Dataset" || lastSeg(im.For) != en.Type {
			continue
		}
		inputs := []source.Range{e.Recv.Span()}
		for _, a := range e.Args {
			inputs = append(inputs, a.Span())
		}
		v, sig := in.burnAt(dispatch.Call{Recv: data.Implemented(recv), Method: e.Name, Args: args}, e.Range, e.NameSpan, inputs)
		return v, sig, true
	}
	return nil, nil, false
}

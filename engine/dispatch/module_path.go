package dispatch

import "strconv"

// The module path of the trace. Inside a module's method (the program's
// own `#[derive(Module)]` types and burn-nn's modules) every operation is
// tagged with the path the program reached the module by: the variable it
// named, then the fields and Vec indices below it ("model.blocks.0").
// The interpreter knows the receivers of the program's method calls and
// sets the path with SetModule; a model of a Burn crate whose forward
// calls its own submodules (a TransformerEncoder its layers) names each
// with EnterModule. Paths are interned, so tagging an operation copies a
// string header and builds nothing.

type modulePathKey struct {
	parent string
	seg    string
}

// SetModule sets the module path of the operations that follow ("" for
// none) and returns the one it replaces, for the caller to restore.
func (w *World) SetModule(path string) (prev string) {
	prev = w.module
	w.module = path
	return prev
}

// Module is the module path operations are tagged with now.
func (w *World) Module() string { return w.module }

// ModulePath is parent.seg, the same string for the same pair (parent ""
// gives seg itself).
func (w *World) ModulePath(parent, seg string) string {
	if parent == "" {
		return seg
	}
	k := modulePathKey{parent, seg}
	if p, ok := w.modulePaths[k]; ok {
		return p
	}
	if w.modulePaths == nil {
		w.modulePaths = map[modulePathKey]string{}
	}
	p := parent + "." + seg
	w.modulePaths[k] = p
	return p
}

// EnterModule tags the operations that follow with the submodule seg of
// the current module (a field name, or a Vec index as IndexSeg gives it)
// and returns the path to restore with SetModule. Outside any module it
// changes nothing: a submodule has no path of its own when its parent has
// none.
func (w *World) EnterModule(seg string) (prev string) {
	prev = w.module
	if prev != "" {
		w.module = w.ModulePath(prev, seg)
	}
	return prev
}

// IndexSeg is the path segment of a Vec element.
func IndexSeg(i int) string { return strconv.Itoa(i) }

package interp

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// isExtensionTrait reports whether name is a trait the snippet declares
// with #[backend_extension(...)].
func (in *interp) isExtensionTrait(name string) bool {
	t, ok := in.traits[name]
	if !ok {
		return false
	}
	for _, a := range t.Attrs {
		if a.Path == "backend_extension" {
			return true
		}
	}
	return false
}

// qualifiedCall evaluates `<Type as Trait>::op(args)`.
func (in *interp) qualifiedCall(p *syntax.PathExpr, e *syntax.CallExpr) (value, *signal) {
	trait := ""
	if p.QTrait != nil {
		trait = lastSeg(p.QTrait)
	}
	self := lastSeg(p.QSelf)
	args, sig := in.exprs(e.Args)
	if sig != nil {
		return nil, sig
	}
	if len(p.Segments) != 1 {
		in.unsupported(p.Range, "the playground supports qualified paths only as `<Dispatch as Trait>::op`")
		return unknown, nil
	}
	if self == "Dispatch" && trait != "" {
		return in.extensionCall(trait, p.Segments[0].Name, args, e)
	}
	in.unsupported(p.Range, fmt.Sprintf("calling through `<%s as %s>` is not supported by the playground", self, trait))
	return unknown, nil
}

// extensionCall calls an op of a backend extension through Dispatch.
func (in *interp) extensionCall(trait, op string, args []value, e *syntax.CallExpr) (value, *signal) {
	in.report(diag.Diagnostic{Code: "unsupported-api", Severity: diag.Error,
		Message: fmt.Sprintf("backend extension calls (`%s::%s`) are not modelled yet", trait, op), File: diag.MainRS, Range: e.Range})
	return unknown, nil
}

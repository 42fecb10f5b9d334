package interp

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// hostOf picks a method of the program's by its types where rustc's
// inference would (data.TypedHost): a Batcher implemented for several
// outputs, the input type of a TrainStep.

// CallMethodReturning is CallMethod on a value of the program's types,
// choosing among the trait impls of name for its type the one whose
// result is ret; CallMethod when none is, or recv is not the program's.
func (h hostOf) CallMethodReturning(recv dispatch.Value, name, ret string, args []dispatch.Value) (dispatch.Value, bool, error) {
	en, isUser := dispatch.Deref(recv).(*dispatch.Enum)
	if !isUser || h.in.structs[en.Type] == nil {
		return h.CallMethod(recv, name, args)
	}
	for _, im := range h.in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.For) != en.Type {
			continue
		}
		for _, m := range im.Methods {
			if m.Name != name || h.in.implTypeName(im, m.Result) != ret || !h.in.fits(m, args) {
				continue
			}
			r := h.site()
			v, sig := h.in.callUserSelf(m, recv, args, r)
			if sig != nil {
				return nil, true, &sigError{sig}
			}
			h.resume(r)
			return v, true, nil
		}
	}
	return h.CallMethod(recv, name, args)
}

// ParamType is the type of parameter i (self left out) of the program's
// method name on recv (`Trait::name` for a trait's), its last path
// segment, an associated type of the impl (`Self::Input`) resolved.
func (h hostOf) ParamType(recv dispatch.Value, name string, i int) string {
	en, isUser := dispatch.Deref(recv).(*dispatch.Enum)
	if !isUser || h.in.structs[en.Type] == nil {
		return ""
	}
	var fn *syntax.FnDecl
	if trait, method, qualified := strings.Cut(name, "::"); qualified {
		fn = h.in.traitMethod(en.Type, trait, method)
	} else {
		fn = h.in.assocFn(en.Type, name)
	}
	if fn == nil {
		return ""
	}
	params := fn.Params
	if len(params) > 0 && params[0].Self {
		params = params[1:]
	}
	if i < 0 || i >= len(params) {
		return ""
	}
	return h.in.implTypeName(h.in.fnImpl[fn], params[i].Type)
}

// implTypeName is t's last path segment, `Self::Name` the type the impl
// im gives its associated type Name.
func (in *interp) implTypeName(im *syntax.ImplDecl, t *syntax.Type) string {
	if t == nil {
		return ""
	}
	if len(t.Path) == 2 && t.Path[0].Name == "Self" && im != nil {
		for _, it := range im.Assoc {
			if ta, isAlias := it.(*syntax.TypeAliasDecl); isAlias && ta.Name == t.Path[1].Name {
				return lastSeg(ta.Type)
			}
		}
		return ""
	}
	return lastSeg(t)
}

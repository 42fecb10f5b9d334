package interp

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// A type may implement one generic trait several times, with different
// arguments: burn's examples give one batcher
// `impl Batcher<TextClassificationItem, ..>` and `impl Batcher<String, ..>`,
// and rustc picks the impl by the types of the call's arguments. The
// evaluator has values, not types, so it picks the impl whose parameters
// the arguments fit, as far as a value tells its type.

// pickImpl is the method to call for `recv.name(args)` on the program's
// type typ, given the one assocFn found: another trait impl's method of
// that name when the arguments fit its parameters and not fn's; fn
// otherwise.
func (in *interp) pickImpl(fn *syntax.FnDecl, typ, name string, args []value) *syntax.FnDecl {
	if fn == nil || in.fnImpl[fn] == nil || in.fnImpl[fn].Trait == nil || in.fits(fn, args) {
		return fn
	}
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.For) != typ {
			continue
		}
		for _, m := range im.Methods {
			if m.Name == name && m != fn && in.fits(m, args) {
				return m
			}
		}
	}
	return fn
}

// fits reports whether no argument is surely of another type than its
// parameter's.
func (in *interp) fits(fn *syntax.FnDecl, args []value) bool {
	params := fn.Params
	if len(params) > 0 && params[0].Self {
		params = params[1:]
	}
	if len(params) != len(args) {
		return false
	}
	for i, p := range params {
		if !in.mayBe(args[i], p.Type, 0) {
			return false
		}
	}
	return true
}

// mayBe reports whether v can be a value of the written type t: false
// only when v's kind is known to be another (a String for a struct of the
// program, a Vec of one struct for a Vec of another).
func (in *interp) mayBe(v value, t *syntax.Type, depth int) bool {
	if t == nil || depth > 8 {
		return true
	}
	switch t.Kind {
	case syntax.TypeRef, syntax.TypeParen:
		if len(t.Elems) == 1 {
			if r, ok := v.(*dispatch.Ref); ok {
				v = r.V
			}
			return in.mayBe(v, t.Elems[0], depth+1)
		}
		return true
	case syntax.TypePath:
	default:
		return true
	}
	if len(t.Path) == 0 {
		return true
	}
	seg := t.Path[len(t.Path)-1]
	v = dispatch.Deref(v)
	if isUnknown(v) {
		return true
	}
	switch name := seg.Name; {
	case name == "String" || name == "str":
		_, ok := v.(dispatch.Str)
		return ok
	case name == "bool":
		_, ok := v.(dispatch.Bool)
		return ok
	case name == "f32" || name == "f64":
		_, ok := v.(dispatch.Float)
		return ok
	case rstd.IsIntType(name):
		_, ok := v.(dispatch.Int)
		return ok
	case name == "Vec":
		arr, ok := v.(*dispatch.Array)
		if !ok {
			return false
		}
		if len(arr.Elems) == 0 || len(seg.Generics) != 1 || seg.Generics[0].Type == nil {
			return true
		}
		return in.mayBe(arr.Elems[0], seg.Generics[0].Type, depth+1)
	case in.structs[name] != nil:
		en, ok := v.(*dispatch.Enum)
		return ok && en.Type == name
	}
	return true
}

package interp

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// #[derive(Module)] on the program's own structs, as burn-derive
// generates it at 2c06be35 (crates/burn-derive/src/module/): devices,
// to_device, fork, no_grad, valid, num_params walk the fields in
// declaration order (#[module(skip)] fields are not walked), and Display
// is ModuleDisplay::format with the default settings
// (module/display.rs). engine/nn does the walk over the program's values
// and Burn's modules alike; this file tells it the program's types.

// hostOf is the interpreter as engine/nn sees it.
type hostOf struct{ in *interp }

func (h hostOf) StructFields(en *dispatch.Enum) ([]string, bool, bool) {
	decl := h.in.structs[en.Type]
	if decl == nil {
		return nil, false, false
	}
	if !decl.Enum {
		if derives(decl, "Config") {
			return configOrder(decl), true, true
		}
		var names []string
		for _, f := range decl.Fields {
			names = append(names, f.Name)
		}
		return names, true, true
	}
	fields, shape, _, ok := variantDecl(decl, en)
	if !ok {
		return nil, false, false
	}
	var names []string
	if shape == syntax.NamedShape {
		for _, f := range fields {
			names = append(names, f.Name)
		}
	}
	return names, false, true
}

func (h hostOf) ModuleFields(en *dispatch.Enum) ([]string, map[string]bool, bool) {
	decl := h.in.structs[en.Type]
	if decl == nil || !derives(decl, "Module") {
		return nil, nil, false
	}
	if decl.Enum {
		// An enum module's variants each hold one module
		// (module/codegen_enum.rs).
		if len(en.Fields) != 1 {
			return nil, nil, false
		}
		return []string{"0"}, map[string]bool{}, true
	}
	var names []string
	skip := map[string]bool{}
	for _, f := range decl.Fields {
		names = append(names, f.Name)
		// The derive treats a #[module(skip)] field and a field of a
		// primitive type as constants: not walked, printed with Debug
		// (parse_module_field_type, codegen_struct.rs:362).
		if moduleSkip(f) || primitiveType(f.Type) {
			skip[f.Name] = true
		}
	}
	return names, skip, true
}

// primitiveTypes are the types burn-derive's is_primitive_ident names.
var primitiveTypes = map[string]bool{"bool": true, "u8": true, "u16": true, "u32": true, "u64": true, "usize": true,
	"i8": true, "i16": true, "i32": true, "i64": true, "isize": true, "f32": true, "f64": true, "String": true}

// primitiveType is burn-derive's is_primitive_type (codegen_struct.rs:445):
// a primitive, or a generic type, tuple, array, slice or reference of
// primitives only.
func primitiveType(t *syntax.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case syntax.TypePath:
		if len(t.Path) == 0 {
			return false
		}
		last := t.Path[len(t.Path)-1]
		if primitiveTypes[last.Name] {
			return true
		}
		if len(last.Generics) == 0 {
			return false
		}
		for _, g := range last.Generics {
			if g.Type == nil || !primitiveType(g.Type) {
				return false
			}
		}
		return true
	case syntax.TypeTuple:
		for _, e := range t.Elems {
			if !primitiveType(e) {
				return false
			}
		}
		return true
	case syntax.TypeRef, syntax.TypeArray, syntax.TypeSlice:
		return len(t.Elems) == 1 && primitiveType(t.Elems[0])
	}
	return false
}

func (h hostOf) Debug(v dispatch.Value) string { return h.in.debugText(v, false, 0) }

// moduleSkip reports `#[module(skip)]` on a field.
func moduleSkip(f *syntax.Field) bool {
	for _, a := range f.Attrs {
		if a.Path != "module" {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == syntax.Ident && t.Text == "skip" {
				return true
			}
		}
	}
	return false
}

// derivedModuleMethods are the Module and AutodiffModule methods a
// derived module has.
var derivedModuleMethods = map[string]bool{"devices": true, "to_device": true, "fork": true, "no_grad": true,
	"valid": true, "num_params": true}

// storeModuleMethods are the saving and loading methods a derived module
// has.
var storeModuleMethods = map[string]bool{"into_record": true, "load_record": true, "try_load_record": true,
	"save_file": true, "load_file": true, "try_load_file": true, "load_from": true, "save_into": true,
	"into_record_group": true, "collect": true, "apply": true}

// userModule reports whether v is a value of the program's types that
// derives Module.
func (in *interp) userModule(v value) bool {
	_, decl := in.userDecl(v)
	return decl != nil && derives(decl, "Module")
}

// displayBurnDerived is `{}` of a module or a config, the program's or
// Burn's; ok is false for any other value.
func (in *interp) displayBurnDerived(v value) (string, bool) {
	switch dispatch.Deref(v).(type) {
	case *nn.Config:
		return in.configJSON(v)
	case *nn.Module:
		return in.formatModule(v)
	}
	if en, decl := in.userDecl(v); decl != nil && decl.Enum && derives(decl, "Config") && in.traitMethod(en.Type, "Display", "fmt") == nil {
		// An enum's derived Config prints its serde JSON too
		// (config/analyzer_enum.rs).
		return in.configJSON(v)
	}
	if en, decl := in.userDecl(v); decl != nil && decl.Enum && derives(decl, "Module") && in.traitMethod(en.Type, "Display", "fmt") == nil {
		return in.formatModule(v)
	}
	if en, decl := in.userDecl(v); decl != nil && !decl.Enum {
		if in.traitMethod(en.Type, "Display", "fmt") != nil {
			return "", false
		}
		if derives(decl, "Config") {
			return in.configJSON(v)
		}
		if derives(decl, "Module") {
			if holdsUnknown(v, 0) {
				return "", false
			}
			return in.formatModule(v)
		}
	}
	return "", false
}

// formatModule is ModuleDisplay::format of a module. Printing reads every
// Param (num_params, a Conv2d's dims), which initializes the lazy ones:
// their creation is traced at the print.
func (in *interp) formatModule(v value) (string, bool) {
	in.world.SetSite(len(in.sites))
	in.sites = append(in.sites, in.lastRange)
	s, err := nn.Format(in.world, v, hostOf{in})
	return s, err == nil
}

// hasBurnDisplay reports whether v prints with a derived Display.
func (in *interp) hasBurnDisplay(v value) bool {
	switch dispatch.Deref(v).(type) {
	case *nn.Config, *nn.Module:
		return true
	}
	if en, decl := in.userDecl(v); decl != nil {
		if decl.Enum {
			return (derives(decl, "Config") || derives(decl, "Module")) && in.traitMethod(en.Type, "Display", "fmt") == nil
		}
		return derives(decl, "Config") || derives(decl, "Module")
	}
	return false
}

// derivedMethod is a method the derives give a value of the program's
// types: a config's builders, save and to_string, a module's Module
// methods. ok is false for any other.
func (in *interp) derivedMethod(e *syntax.MethodCallExpr, recv value, args []value, expect string) (value, *signal, bool) {
	if en, decl := in.userConfig(recv); decl != nil {
		if v, ok := in.configWith(decl, en, e.Name, args, e.Range); ok {
			return v, nil, true
		}
		switch e.Name {
		case "save":
			v, sig := in.configFile(decl.Name, "save", args, e.Range)
			return v, sig, true
		case "to_string":
			if s, ok := in.configJSON(recv); ok {
				return dispatch.Str(s), nil, true
			}
			return unknown, nil, true
		}
	}
	if in.userModule(recv) && storeModuleMethods[e.Name] {
		// Records and files are burn-core's store and burn-store's
		// ModuleSnapshot (module/base.rs:257-353, traits.rs:122-137),
		// which engine/store models.
		inputs := []source.Range{e.Recv.Span()}
		for _, a := range e.Args {
			inputs = append(inputs, a.Span())
		}
		v, sig := in.burnAt(dispatch.Call{Recv: recv, Method: e.Name, Args: args, Expect: expect}, e.Range, e.NameSpan, inputs)
		return v, sig, true
	}
	if in.userModule(recv) && (derivedModuleMethods[e.Name] || e.Name == "to_string") {
		inputs := []source.Range{e.Recv.Span()}
		for _, a := range e.Args {
			inputs = append(inputs, a.Span())
		}
		if e.Name == "to_string" {
			if s, ok := in.displayBurnDerived(recv); ok {
				return dispatch.Str(s), nil, true
			}
			return unknown, nil, true
		}
		call := dispatch.Call{Recv: recv, Method: e.Name, Args: args, Expect: expect}
		v, sig := in.burnAt(call, e.Range, e.NameSpan, inputs)
		return v, sig, true
	}
	return nil, nil, false
}

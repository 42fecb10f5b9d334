package interp

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// #[derive(new)] of the derive-new crate, which Burn's examples and
// burn-derive's users write beside Module and Config: a struct gets
// `pub fn new(..) -> Self` taking its fields in declaration order, except
// a field marked `#[new(default)]` (its type's Default) or
// `#[new(value = "expr")]` (that expression), and a PhantomData field,
// which the crate fills itself. An enum gets `new_<variant>` for each
// variant, the variant's name in snake case.

// newAttr is a field's `#[new(..)]`: its kind ("default", "value") and,
// for value, the expression's attribute (read as a config default).
func newAttr(f *syntax.Field) (kind string, a *syntax.Attr) {
	for _, a := range f.Attrs {
		if a.Path != "new" || len(a.Args) == 0 || a.Args[0].Kind != syntax.Ident {
			continue
		}
		return a.Args[0].Text, a
	}
	if lastSeg(f.Type) == "PhantomData" {
		return "default", nil
	}
	return "", nil
}

// deriveNewAssoc is `Type::new(args)` (or `Type::new_variant(args)`) of a
// type that derives new; ok is false for any other call.
func (in *interp) deriveNewAssoc(decl *syntax.StructDecl, name string, args []value, r source.Range) (value, *signal, bool) {
	if decl == nil || !derives(decl, "new") {
		return nil, nil, false
	}
	if !decl.Enum {
		if name != "new" {
			return nil, nil, false
		}
		v, sig := in.deriveNew(decl.Name, decl.Name, decl.Shape, decl.Fields, args, r)
		return v, sig, true
	}
	for _, v := range decl.Fields {
		if "new_"+snakeCase(v.Name) != name {
			continue
		}
		fields, shape, _, ok := variantDecl(decl, &dispatch.Enum{Type: decl.Name, Variant: v.Name})
		if !ok {
			return nil, nil, false
		}
		out, sig := in.deriveNew(decl.Name, v.Name, shape, fields, args, r)
		return out, sig, true
	}
	return nil, nil, false
}

// deriveNew builds one struct or variant from the arguments of its
// generated constructor.
func (in *interp) deriveNew(typ, variant string, shape syntax.Shape, fields []*syntax.Field, args []value, r source.Range) (value, *signal) {
	var takes []*syntax.Field
	for _, f := range fields {
		if kind, _ := newAttr(f); kind == "" {
			takes = append(takes, f)
		}
	}
	if len(args) != len(takes) {
		in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error, File: diag.MainRS, Range: r,
			Message: fmt.Sprintf("this function takes %d argument%s but %d %s supplied",
				len(takes), pluralS(len(takes)), len(args), wasWere(len(args)))})
		return unknown, nil
	}
	en := &dispatch.Enum{Type: typ, Variant: variant}
	if shape == syntax.NamedShape {
		en.Named = make(map[string]value, len(fields))
	}
	next := 0
	for _, f := range fields {
		var v value
		switch kind, a := newAttr(f); kind {
		case "":
			v = in.typedAs(args[next], f.Type)
			next++
		case "value":
			var sig *signal
			if v, sig = in.configDefaultValue(a, f); sig != nil {
				return nil, sig
			}
		default:
			var sig *signal
			if v, _, sig = in.defaultOf(f.Type, r, 0); sig != nil {
				return nil, sig
			}
		}
		if en.Named != nil {
			en.Named[f.Name] = v
		} else {
			en.Fields = append(en.Fields, v)
		}
	}
	return en, nil
}

// snakeCase is a CamelCase name in snake case, as derive-new names an
// enum's constructors (heck's rule: a word starts at an upper-case letter
// after a lower-case one or a digit, and at the last capital of a run
// followed by a lower-case letter: HTTPServer is http_server).
func snakeCase(s string) string {
	rs := []rune(s)
	var out []rune
	isUpper := func(r rune) bool { return r >= 'A' && r <= 'Z' }
	isLower := func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	for i, r := range rs {
		if isUpper(r) && i > 0 && (isLower(rs[i-1]) || isUpper(rs[i-1]) && i+1 < len(rs) && isLower(rs[i+1])) {
			out = append(out, '_')
		}
		if isUpper(r) {
			r += 'a' - 'A'
		}
		out = append(out, r)
	}
	return string(out)
}

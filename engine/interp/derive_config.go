package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	_ "github.com/dispatch-playground/playground/engine/optim" // burn-optim's configs
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// #[derive(Config)] on the program's own structs, as burn-derive
// generates it at 2c06be35 (crates/burn-derive/src/config/): `new` takes
// the fields without a #[config(default = ..)] that are not Options, in
// declaration order; Options start as None and defaulted fields as their
// attribute's expression (a string literal's text is parsed as the
// expression, analyzer_struct.rs:227); `with_<field>` sets a defaulted or
// Option field; Display is config_to_json, serde_json's pretty JSON
// (burn-core/src/config.rs:92); `save` and `load` read and write files,
// the boundary the playground does not cross.

// configDefault is the `#[config(default = ..)]` of a field, nil when it
// has none.
func configDefault(f *syntax.Field) *syntax.Attr {
	for _, a := range f.Attrs {
		if a.Path == "config" {
			return a
		}
	}
	return nil
}

func isOptionType(t *syntax.Type) bool {
	return t != nil && lastSeg(t) == "Option"
}

// unmodelledItemAt is a Burn item the engine reaches but does not model
// (an optimizer's init): playground-unmodelled, and an unknown value.
func (in *interp) unmodelledItemAt(item, why string, r source.Range) value {
	in.boundary(CodeUnmodelled, r, fmt.Sprintf("`%s` is Burn's, but the playground does not model it yet", item), why)
	if in.unmodelledItem == "" {
		in.unmodelledItem = item
	}
	return unknown
}

// configNew is Name::new(required...).
func (in *interp) configNew(decl *syntax.StructDecl, args []value, r source.Range) (value, *signal) {
	en := &dispatch.Enum{Type: decl.Name, Variant: decl.Name, Named: map[string]value{}}
	var required []*syntax.Field
	for _, f := range decl.Fields {
		if configDefault(f) == nil && !isOptionType(f.Type) {
			required = append(required, f)
		}
	}
	if len(args) != len(required) {
		in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error, File: diag.MainRS, Range: r,
			Message: fmt.Sprintf("this function takes %d argument%s but %d %s supplied",
				len(required), pluralS(len(required)), len(args), wasWere(len(args)))})
		return unknown, nil
	}
	// The defaults are written in `new`'s body, where the arguments are
	// in scope (`#[config(default = "kernel_size")]`).
	in.push()
	defer in.pop()
	for i, f := range required {
		en.Named[f.Name] = in.typedAs(args[i], f.Type)
		in.scope.vars[f.Name] = &binding{v: en.Named[f.Name], name: f.Name}
	}
	for _, f := range decl.Fields {
		if _, set := en.Named[f.Name]; set {
			continue
		}
		if a := configDefault(f); a != nil {
			v, sig := in.configDefaultValue(a, f)
			if sig != nil {
				return nil, sig
			}
			en.Named[f.Name] = v
			continue
		}
		en.Named[f.Name] = &dispatch.Enum{Type: "Option", Variant: "None"}
	}
	return en, nil
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// configDefaultValue evaluates a field's `default = ..`: a string
// literal's text is the expression, any other literal is itself.
func (in *interp) configDefaultValue(a *syntax.Attr, f *syntax.Field) (value, *signal) {
	toks := a.Args
	for i, t := range toks {
		if t.Kind == syntax.Punct && t.Text == "=" {
			toks = toks[i+1:]
			break
		}
	}
	if len(toks) == 0 {
		return unknown, nil
	}
	if len(toks) == 1 && toks[0].Kind == syntax.String {
		lit := toks[0]
		inner := syntax.Lex(lit.Value, 0)
		for i := range inner {
			// The expression's spans are the literal's.
			inner[i].Range = lit.Range
		}
		toks = inner
	}
	x, _, diags := syntax.ParseExpr(syntax.Tokens{Toks: toks, Text: in.src.Text})
	if len(diags) > 0 {
		in.report(diag.Diagnostic{Code: "syntax", Severity: diag.Error, File: diag.MainRS, Range: a.Range,
			Message: "the default of `" + f.Name + "` is not an expression: " + diags[0].Message})
		return unknown, nil
	}
	v, sig := in.exprExpect(x, in.typeText(f.Type))
	if sig != nil {
		return nil, sig
	}
	return in.typedAs(v, f.Type), nil
}

// configWith is the builder `with_<field>(v)` of a defaulted or Option
// field; ok is false for any other method.
func (in *interp) configWith(decl *syntax.StructDecl, en *dispatch.Enum, method string, args []value, r source.Range) (value, bool) {
	name, ok := strings.CutPrefix(method, "with_")
	if !ok {
		return nil, false
	}
	for _, f := range decl.Fields {
		if f.Name != name || (configDefault(f) == nil && !isOptionType(f.Type)) {
			continue
		}
		if len(args) != 1 {
			in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error, File: diag.MainRS, Range: r,
				Message: fmt.Sprintf("this method takes 1 argument but %d %s supplied", len(args), wasWere(len(args)))})
			return unknown, true
		}
		out := &dispatch.Enum{Type: en.Type, Variant: en.Variant, Named: make(map[string]value, len(en.Named))}
		for k, v := range en.Named {
			out.Named[k] = v
		}
		out.Named[name] = in.typedAs(args[0], f.Type)
		return out, true
	}
	return nil, false
}

// configJSON is config_to_json of a value of the program's config or of
// Burn's; ok is false when a value inside it is unknown.
func (in *interp) configJSON(v value) (string, bool) {
	if holdsUnknown(v, 0) {
		return "", false
	}
	en, decl := in.userDecl(v)
	if decl == nil || decl.Enum {
		return nn.JSON(v, hostOf{in})
	}
	return nn.JSON(&nn.Config{Type: decl.Name, Fields: configOrder(decl), Values: en.Named}, hostOf{in})
}

// configOrder is the order serde writes a config's fields in: the
// required fields, then the Options, then the defaulted ones
// (ConfigStructAnalyzer::names, analyzer_struct.rs:37).
func configOrder(decl *syntax.StructDecl) []string {
	var req, opt, def []string
	for _, f := range decl.Fields {
		switch {
		case configDefault(f) != nil:
			def = append(def, f.Name)
		case isOptionType(f.Type):
			opt = append(opt, f.Name)
		default:
			req = append(req, f.Name)
		}
	}
	return append(append(req, opt...), def...)
}

// configFile is Config::save and Config::load: the file system is the
// boundary. The call's value is unknown, and the warning names the file.
func (in *interp) configFile(typ, method string, args []value, r source.Range) (value, *signal) {
	file := "a file"
	if len(args) > 0 {
		if s, ok := dispatch.Deref(args[len(args)-1]).(dispatch.Str); ok {
			file = "`" + string(s) + "`"
		}
	}
	verb := "reads"
	if method == "save" {
		verb = "writes"
	}
	if method == "load_binary" {
		file = "bytes the playground does not read"
	}
	in.fileBoundary(typ+"::"+method, verb+" "+file, "crates/burn-core/src/config.rs:46 (save) and :60 (load)", r)
	// save is std::io::Result<()>; load and load_binary are
	// Result<Self, ConfigError> (config.rs:46-81): a config of the type
	// whose every field read from the file is unknown.
	var out value = dispatch.Unit{}
	if method != "save" {
		out = in.configOfUnknowns(in.structs[typ], 0)
	}
	return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{out}}, nil
}

// configOfUnknowns is a value of a config of the program whose fields
// are unknown, a field of another of its configs a config of unknowns in
// turn, so `config.model.init(&device)` still calls the program's init.
func (in *interp) configOfUnknowns(decl *syntax.StructDecl, depth int) value {
	if decl == nil || decl.Enum || depth > 16 {
		return unknown
	}
	en := &dispatch.Enum{Type: decl.Name, Variant: decl.Name, Named: map[string]value{}}
	for _, f := range decl.Fields {
		en.Named[f.Name] = unknown
		if f.Type != nil && f.Type.Kind == syntax.TypePath {
			if sub, ok := in.structs[lastSeg(f.Type)]; ok && derives(sub, "Config") {
				en.Named[f.Name] = in.configOfUnknowns(sub, depth+1)
			}
		}
	}
	return en
}

// fileBoundary is a call whose result lives outside the playground (a
// file it reads or writes, a record it does not model): a
// playground-unmodelled warning that says what is outside, and an unknown
// value.
func (in *interp) fileBoundary(item, what, site string, r source.Range) (value, *signal) {
	in.boundary(CodeUnmodelled, r, fmt.Sprintf("`%s` %s, which the playground does not have", item, what), "Burn defines it at "+site)
	if in.unmodelledItem == "" {
		in.unmodelledItem = item
	}
	return unknown, nil
}

// userConfig is the declaration of v's type when it derives Config.
func (in *interp) userConfig(v value) (*dispatch.Enum, *syntax.StructDecl) {
	en, decl := in.userDecl(v)
	if decl == nil || decl.Enum || !derives(decl, "Config") {
		return nil, nil
	}
	return en, decl
}

// configAssoc is an associated function the derive generates for a
// struct of the program: new, load, load_binary.
func (in *interp) configAssoc(decl *syntax.StructDecl, name string, args []value, r source.Range) (value, *signal, bool) {
	if decl == nil || decl.Enum || !derives(decl, "Config") {
		return nil, nil, false
	}
	switch name {
	case "new":
		v, sig := in.configNew(decl, args, r)
		return v, sig, true
	case "load", "load_binary":
		v, sig := in.configFile(decl.Name, name, args, r)
		return v, sig, true
	}
	return nil, nil, false
}

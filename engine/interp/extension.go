package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dispatch-playground/playground/engine/cubecl"
	"github.com/dispatch-playground/playground/engine/data"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/optim"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/store"
	"github.com/dispatch-playground/playground/engine/syntax"
	"github.com/dispatch-playground/playground/engine/train"
)

// Backend extensions: a trait under #[backend_extension(...)], its impls
// per backend, `#[derive(ExtensionType)]` structs and enums, and calls of
// its ops through Dispatch (shared/burn/extensions.md).
//
// The macro reads the trait at compile time, so its errors are compile
// errors: the check pass reports them once per trait, the first error of
// the macro as the macro would (it stops at its first syn::Error), then
// the compile_error!s it emits and what rustc rejects in the expansion
// (a backend whose feature is off, a missing impl). A call of an op is a
// dispatch.ExtensionOp built from the trait's declaration and run by the
// dispatch model; impl bodies are never run.

// extensionTrait is a #[backend_extension] trait as the macro reads it.
type extensionTrait struct {
	decl *syntax.TraitDecl
	attr *syntax.Attr
	ops  map[string]*dispatch.ExtensionOp
	// errs are its compile errors; a trait with any is never called.
	errs []diag.Diagnostic
}

// extensionAttr returns the #[backend_extension(...)] attribute of a
// trait, written bare or with its path.
func extensionAttr(t *syntax.TraitDecl) *syntax.Attr {
	for _, a := range t.Attrs {
		if a.Path == "backend_extension" || strings.HasSuffix(a.Path, "::backend_extension") {
			return a
		}
	}
	return nil
}

// isExtensionTrait reports whether name is a trait the snippet declares
// with #[backend_extension(...)].
func (in *interp) isExtensionTrait(name string) bool {
	t, ok := in.traits[name]
	return ok && extensionAttr(t) != nil
}

// extensionTraits returns the snippet's extension traits in source order.
func (in *interp) extensionTraits() []*syntax.TraitDecl {
	var out []*syntax.TraitDecl
	for _, t := range in.traits {
		if extensionAttr(t) != nil {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *syntax.TraitDecl) int { return a.Range.Start - b.Range.Start })
	return out
}

// checkExtensions reports the compile errors of every extension trait.
// Only the check pass reports them: a program with any never runs.
func (in *interp) checkExtensions() {
	if in.opts.Mode != Check {
		return
	}
	for _, t := range in.extensionTraits() {
		for _, d := range in.extensionTrait(t).errs {
			in.report(d)
		}
	}
}

// compileError is a diagnostic of the macro or of rustc on the expansion.
// panicID names the row of Burn's panic table for the macro's own errors.
func compileError(code, panicID, message string, r source.Range, help ...string) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: diag.Error, Phase: diag.Check, Message: message,
		File: diag.MainRS, Range: r, Help: help, PanicID: panicID}
}

// The macro's errors (extension.rs@547e348, lib.rs@2c06be35), with the
// panic-table row of those the snapshot's macro raises too.
const (
	msgConstOp            = "const backend extension operations aren't supported"
	msgReceiver           = "backend extension operations can't take a receiver"
	msgMutableTensor      = "mutable tensor references aren't supported by backend extensions"
	msgUnsupportedPattern = "Unsupported pattern"
	msgMustReturn         = "Operations must return a value"
	msgExtTypeIsTensor    = "`#[extension_type]` marks a struct or enum of tensor primitives, not a tensor argument. Remove the attribute to pass a plain tensor."
	msgExtTypeNotPath     = "`#[extension_type]` requires a struct or enum type with a single generic backend parameter, e.g. `MyType<Self>`."
	msgExtTypeNoGenerics  = "`#[extension_type]` type must have exactly one generic backend parameter, e.g. `MyType<Self>`."
	msgExtTypeNotSelf     = "`#[extension_type]` requires exactly one generic argument and it must be `Self`, e.g. `MyType<Self>`."
)

func macroError(message, panicID string, r source.Range) diag.Diagnostic {
	return compileError(diag.Slug(message), panicID, message, r)
}

// extensionTrait reads a trait the way the macro and then rustc do.
func (in *interp) extensionTrait(t *syntax.TraitDecl) *extensionTrait {
	et := &extensionTrait{decl: t, attr: extensionAttr(t), ops: map[string]*dispatch.ExtensionOp{}}
	if !in.world.ExtensionCompiled() {
		d := compileError("feature-not-enabled", "", "cannot find attribute `backend_extension` in this scope", et.attr.Range,
			"`burn::backend` and the #[backend_extension] macro are only compiled with the `extension` feature of burn")
		d.Fixes = in.fixes([]dispatch.FixHint{{Title: "Enable the `extension` feature of burn", Arg: dispatch.NoArg, AddFeature: "extension"}}, et.attr.Range, nil)
		et.errs = append(et.errs, d)
		return et
	}
	pos := in.src.Position(et.attr.Range.Start)
	base := dispatch.ExtensionOp{Trait: t.Name, Location: fmt.Sprintf("src/main.rs:%d:%d", pos.Line, pos.Column)}
	selectors, bad := in.readSelectors(et.attr, &base)
	if bad != nil {
		et.errs = append(et.errs, *bad)
		return et
	}
	for _, m := range t.Methods {
		op := base
		op.Name = m.Name
		if bad := in.lowerMethod(m, &op); bad != nil {
			et.errs = append(et.errs, *bad)
			return et
		}
		et.ops[m.Name] = &op
	}
	// The macro expanded; what follows are the compile_error!s it emits
	// and rustc's errors on the expansion.
	for _, m := range t.Methods {
		op := et.ops[m.Name]
		if !slices.ContainsFunc(op.Params, func(p dispatch.ExtParam) bool {
			return p.Kind == dispatch.ParamExtension || p.Kind >= dispatch.ParamFloat && p.Kind <= dispatch.ParamQuantized
		}) {
			switch {
			case op.Autodiff:
				et.errs = append(et.errs, compileError(dispatch.CodeNoInputAutodiff, "ext-no-input-autodiff", dispatch.MsgNoInputAutodiff, m.NameSpan))
			case len(op.Selectors) != 1:
				et.errs = append(et.errs, compileError(dispatch.CodeNoInputSelectors, "ext-no-input-multi", dispatch.MsgNoInputSelectors, m.NameSpan))
			}
		}
	}
	et.errs = append(et.errs, in.expansionErrors(et, &base, selectors)...)
	return et
}

// selectorRanges are where the attribute names each concrete selector, in
// listing order, and Autodiff.
type selectorRanges struct {
	concrete []source.Range
	autodiff source.Range
}

// readSelectors parses `Sel [: META], ...` (extension.rs:47-86): each
// selector an identifier, optionally followed by an attribute that gates
// its arms.
func (in *interp) readSelectors(a *syntax.Attr, op *dispatch.ExtensionOp) (selectorRanges, *diag.Diagnostic) {
	var ranges selectorRanges
	args := a.Args
	for i := 0; i < len(args); {
		tok := args[i]
		if tok.Kind != syntax.Ident {
			d := compileError("syntax-error", "", "expected identifier", tok.Range)
			return ranges, &d
		}
		i++
		holds := true
		if i < len(args) && args[i].Kind == syntax.Punct && args[i].Text == ":" {
			end := metaEnd(args, i+1)
			if end == i+1 {
				d := compileError("syntax-error", "", "expected identifier", a.ArgsRange)
				if i+1 < len(args) {
					d.Range = args[i+1].Range
				}
				return ranges, &d
			}
			holds = in.metaHolds(args[i+1 : end])
			i = end
		}
		if i < len(args) {
			if args[i].Kind != syntax.Punct || args[i].Text != "," {
				d := compileError("syntax-error", "", "expected `,`", args[i].Range)
				return ranges, &d
			}
			i++
		}
		if tok.Text == dispatch.AutodiffSelector {
			// A second Autodiff overrides the first (extension.rs:73-76).
			op.Autodiff, op.AutodiffOff = true, !holds
			ranges.autodiff = tok.Range
			continue
		}
		b, ok := dispatch.SelectorBackend(tok.Text)
		if !ok {
			d := macroError(fmt.Sprintf("Unsupported backend `%s`", tok.Text), "ext-unsupported-backend", tok.Range)
			d.Code = "unsupported-backend"
			d.Help = []string{"the selectors of this Burn are Cpu, Cuda, Wgpu, WebGpu, Metal, Rocm, Vulkan, Flex, NdArray, LibTorch and Remote, plus Autodiff"}
			return ranges, &d
		}
		op.Selectors = append(op.Selectors, dispatch.ExtSelector{Name: tok.Text, Backend: b, Off: !holds})
		ranges.concrete = append(ranges.concrete, tok.Range)
	}
	return ranges, nil
}

// metaEnd is the index after the attribute that starts at i: tokens up to
// the next comma outside parentheses.
func metaEnd(args []syntax.Token, i int) int {
	depth := 0
	for ; i < len(args); i++ {
		switch args[i].Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 && args[i].Kind == syntax.Punct {
				return i
			}
		}
	}
	return i
}

// metaHolds tells whether the arms a selector's attribute gates are
// compiled. Only `cfg(...)` gates; any other attribute is copied onto the
// arms as it is. The cfg is evaluated in the user's crate: its own
// features, the test build, the target.
func (in *interp) metaHolds(meta []syntax.Token) bool {
	if len(meta) == 0 || meta[0].Text != "cfg" || len(meta) < 3 || meta[1].Text != "(" {
		return true
	}
	return in.build.Holds(meta[2 : len(meta)-1])
}

// paramTensorKind classifies a type by its last path segment, looking
// through references and parentheses (ir.rs:16-30).
func paramTensorKind(t *syntax.Type) (kind dispatch.ParamKind, borrowed, mutable bool) {
	for t != nil {
		switch t.Kind {
		case syntax.TypeRef:
			borrowed, mutable = true, mutable || t.Mut
			t = t.Elems[0]
			continue
		case syntax.TypeParen:
			t = t.Elems[0]
			continue
		case syntax.TypePath:
			if len(t.Path) == 0 {
				return dispatch.ParamOther, false, false
			}
			return tensorKindNames[t.Path[len(t.Path)-1].Name], borrowed, mutable
		}
		break
	}
	return dispatch.ParamOther, false, false
}

var tensorKindNames = map[string]dispatch.ParamKind{
	"Float": dispatch.ParamFloat, "FloatTensor": dispatch.ParamFloat, "FloatTensorPrimitive": dispatch.ParamFloat,
	"Int": dispatch.ParamInt, "IntTensor": dispatch.ParamInt, "IntTensorPrimitive": dispatch.ParamInt,
	"Bool": dispatch.ParamBool, "BoolTensor": dispatch.ParamBool, "BoolTensorPrimitive": dispatch.ParamBool,
	"Quantized": dispatch.ParamQuantized, "QuantizedTensor": dispatch.ParamQuantized, "QuantizedTensorPrimitive": dispatch.ParamQuantized,
}

// lowerMethod reads one method's signature (extension.rs:132-252),
// returning the macro's first error.
func (in *interp) lowerMethod(m *syntax.FnDecl, op *dispatch.ExtensionOp) *diag.Diagnostic {
	fail := func(d diag.Diagnostic) *diag.Diagnostic { return &d }
	if m.Const {
		return fail(macroError(msgConstOp, "", m.NameSpan))
	}
	for _, p := range m.Params {
		if p.Self {
			return fail(macroError(msgReceiver, "", p.Range))
		}
		id, ok := p.Pat.(*syntax.IdentPat)
		if !ok || id.Ref || id.Sub != nil {
			r := p.Range
			if p.Pat != nil {
				r = p.Pat.Span()
			}
			return fail(macroError(msgUnsupportedPattern, "ext-unsupported-pattern", r))
		}
		// stringify! of the identifier as written: a raw one keeps r#.
		param := dispatch.ExtParam{Name: in.src.Slice(id.NameSpan)}
		if hasAttr(p.Attrs, "extension_type") {
			typ, bad := in.extensionParamType(p.Type)
			if bad != nil {
				return bad
			}
			param.Kind, param.Type = dispatch.ParamExtension, typ
		} else {
			kind, borrowed, mutable := paramTensorKind(p.Type)
			if kind != dispatch.ParamOther && mutable {
				return fail(macroError(msgMutableTensor, "", p.Type.Range))
			}
			param.Kind, param.Borrowed = kind, borrowed
		}
		op.Params = append(op.Params, param)
	}
	if m.Result == nil {
		return fail(macroError(msgMustReturn, "ext-must-return", m.NameSpan))
	}
	op.Output = in.extensionOutput(futureOutput(m.Result), 0)
	return nil
}

func hasAttr(attrs []*syntax.Attr, path string) bool {
	for _, a := range attrs {
		if a.Path == path {
			return true
		}
	}
	return false
}

// extensionParamType validates an `#[extension_type]` parameter's type
// (extension.rs:365-405). Its layout is looked up after the macro ran.
func (in *interp) extensionParamType(t *syntax.Type) (*dispatch.ExtType, *diag.Diagnostic) {
	fail := func(message, panicID string) (*dispatch.ExtType, *diag.Diagnostic) {
		d := macroError(message, panicID, t.Range)
		return nil, &d
	}
	if kind, _, _ := paramTensorKind(t); kind != dispatch.ParamOther {
		return fail(msgExtTypeIsTensor, "ext-exttype-is-tensor")
	}
	if t.Kind != syntax.TypePath || t.QSelf != nil || len(t.Path) == 0 {
		return fail(msgExtTypeNotPath, "ext-exttype-not-path")
	}
	last := t.Path[len(t.Path)-1]
	if len(last.Generics) == 0 {
		return fail(msgExtTypeNoGenerics, "ext-exttype-generics")
	}
	if g := last.Generics[0]; len(last.Generics) != 1 || g.Type == nil || g.Type.Text != "Self" {
		return fail(msgExtTypeNotSelf, "")
	}
	return &dispatch.ExtType{Name: last.Name}, nil
}

// futureOutput is T for `-> impl Future<Output = T>` (extension.rs:110-130).
func futureOutput(t *syntax.Type) *syntax.Type {
	if t.Kind != syntax.TypeImpl || len(t.Path) == 0 || t.Path[len(t.Path)-1].Name != "Future" {
		return t
	}
	for _, g := range t.Path[len(t.Path)-1].Generics {
		if g.Assoc == "Output" && g.Type != nil {
			return g.Type
		}
	}
	return t
}

// maxExtensionDepth bounds the nesting of ExtensionTypes the playground
// follows; Rust forbids cycles without indirection, which the derive does
// not follow either.
const maxExtensionDepth = 8

// extensionOutput classifies a return type (ir.rs@547e348:138-156).
func (in *interp) extensionOutput(t *syntax.Type, depth int) dispatch.ExtOutput {
	if kind, _, _ := paramTensorKind(t); kind != dispatch.ParamOther {
		return dispatch.ExtOutput{Shape: dispatch.OutTensor, Kind: kind}
	}
	switch t.Kind {
	case syntax.TypeParen:
		return in.extensionOutput(t.Elems[0], depth)
	case syntax.TypeTuple:
		out := dispatch.ExtOutput{Shape: dispatch.OutTuple}
		for _, e := range t.Elems {
			out.Elems = append(out.Elems, in.extensionOutput(e, depth))
		}
		return out
	case syntax.TypePath:
		last := t.Path[len(t.Path)-1]
		if (last.Name == "Option" || last.Name == "Vec") && len(last.Generics) == 1 && last.Generics[0].Type != nil {
			shape := dispatch.OutOption
			if last.Name == "Vec" {
				shape = dispatch.OutVec
			}
			return dispatch.ExtOutput{Shape: shape, Elems: []dispatch.ExtOutput{in.extensionOutput(last.Generics[0].Type, depth)}}
		}
	}
	if !mentionsSelf(t) {
		return dispatch.ExtOutput{Shape: dispatch.OutPlain}
	}
	out := dispatch.ExtOutput{Shape: dispatch.OutExtension}
	if t.Kind == syntax.TypePath && depth < maxExtensionDepth {
		out.Type, _ = in.extensionLayout(t.Path[len(t.Path)-1].Name, depth+1)
	}
	return out
}

func mentionsSelf(t *syntax.Type) bool {
	if t == nil {
		return false
	}
	for _, s := range t.Path {
		if s.Name == "Self" {
			return true
		}
		for _, g := range s.Generics {
			if mentionsSelf(g.Type) {
				return true
			}
		}
	}
	for _, e := range t.Elems {
		if mentionsSelf(e) {
			return true
		}
	}
	return mentionsSelf(t.QSelf)
}

// extensionLayout is the layout of a #[derive(ExtensionType)] declared in
// the snippet (derive.rs@23486cc): its tensor fields by the last-segment
// rule, `#[extension_type]` fields nested. ok is false when the snippet
// does not declare the type with the derive.
func (in *interp) extensionLayout(name string, depth int) (*dispatch.ExtType, bool) {
	decl, ok := in.structs[name]
	if !ok || !derives(decl, "ExtensionType") || depth > maxExtensionDepth {
		return nil, false
	}
	typ := &dispatch.ExtType{Name: name, Enum: decl.Enum}
	fields := func(list []*syntax.Field) ([]dispatch.ExtField, bool) {
		var out []dispatch.ExtField
		for _, f := range list {
			field := dispatch.ExtField{Name: f.Name}
			if hasAttr(f.Attrs, "extension_type") && f.Type != nil && f.Type.Kind == syntax.TypePath {
				nested, ok := in.extensionLayout(f.Type.Path[len(f.Type.Path)-1].Name, depth+1)
				if !ok {
					return nil, false
				}
				field.Kind, field.Type = dispatch.ParamExtension, nested
			} else {
				field.Kind, _, _ = paramTensorKind(f.Type)
			}
			out = append(out, field)
		}
		return out, true
	}
	if !decl.Enum {
		list, ok := fields(decl.Fields)
		if !ok {
			return nil, false
		}
		typ.Variants = []dispatch.ExtVariant{{Name: name, Named: decl.Shape == syntax.NamedShape, Fields: list}}
		return typ, true
	}
	for _, v := range decl.Fields {
		list, ok := fields(v.Fields)
		if !ok {
			return nil, false
		}
		typ.Variants = append(typ.Variants, dispatch.ExtVariant{Name: v.Name, Named: v.Shape == syntax.NamedShape, Fields: list})
	}
	return typ, true
}

func derives(decl *syntax.StructDecl, trait string) bool {
	for _, a := range decl.Attrs {
		if a.Path != "derive" {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == syntax.Ident && t.Text == trait {
				return true
			}
		}
	}
	return false
}

// expansionErrors are rustc's errors on the code the macro generated: it
// names burn::backend::<Sel> (and Autodiff) for every selector, calls
// `<Sel as Trait>::op` on each, and maps the `#[extension_type]` values
// through their derived ExtensionType impls.
func (in *interp) expansionErrors(et *extensionTrait, op *dispatch.ExtensionOp, at selectorRanges) []diag.Diagnostic {
	var errs []diag.Diagnostic
	trait := et.decl.Name
	gated := func(name, feature string, r source.Range) {
		d := compileError("feature-not-enabled", "", fmt.Sprintf("failed to resolve: could not find `%s` in `backend`", name), r,
			fmt.Sprintf("`burn::backend::%s` is only compiled with the `%s` feature of burn", name, feature))
		d.Fixes = in.fixes([]dispatch.FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", feature), Arg: dispatch.NoArg, AddFeature: feature}}, r, nil)
		errs = append(errs, d)
	}
	// The arms of a selector whose cfg does not hold are not compiled,
	// and neither, usually, is its impl.
	for i, s := range op.Selectors {
		if ok, feature := in.world.SelectorCompiled(s.Backend); !ok && !s.Off {
			gated(s.Name, feature, at.concrete[i])
		}
	}
	if op.Autodiff && !op.AutodiffOff && !in.world.AutodiffCompiled() {
		gated(dispatch.AutodiffSelector, "autodiff", at.autodiff)
	}
	// Every listed backend needs an impl; so does Autodiff<B, C>.
	defaults := !slices.ContainsFunc(et.decl.Methods, func(m *syntax.FnDecl) bool { return m.Body == nil })
	missing := func(self, implText string, r source.Range) {
		d := compileError("trait-not-implemented", "", fmt.Sprintf("the trait bound `%s: %s` is not satisfied", self, trait), r,
			fmt.Sprintf("#[backend_extension] calls `<%s as %s>::op(..)` for each op; implement `%s` for it", self, trait, trait))
		if defaults {
			end := et.decl.Range.End
			d.Fixes = []diag.Fix{{Title: fmt.Sprintf("Implement `%s` for `%s` with the trait's default bodies", trait, self),
				Edits: []diag.Edit{{File: diag.MainRS, Range: source.Range{Start: end, End: end}, NewText: "\n\n" + implText}}}}
		}
		errs = append(errs, d)
	}
	for i, s := range op.Selectors {
		if !s.Off && !in.implemented(trait, s.Name) {
			missing(s.Name, fmt.Sprintf("impl %s for %s {}", trait, s.Name), at.concrete[i])
		}
	}
	if op.Autodiff && !op.AutodiffOff && !in.implemented(trait, dispatch.AutodiffSelector) {
		missing("Autodiff<B, C>", fmt.Sprintf("impl<B: burn::backend::Backend + %s, C: burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy> %s for burn::backend::Autodiff<B, C> {}", trait, trait), at.autodiff)
	}
	// `#[extension_type]` values go through their ExtensionType impls.
	for _, m := range et.decl.Methods {
		for j, p := range et.ops[m.Name].Params {
			if p.Kind != dispatch.ParamExtension {
				continue
			}
			layout, ok := in.extensionLayout(p.Type.Name, 0)
			if ok {
				et.ops[m.Name].Params[j].Type = layout
				continue
			}
			typeRange := m.Params[j].Type.Range
			if _, declared := in.structs[p.Type.Name]; !declared {
				errs = append(errs, compileError("unsupported-syntax", "", fmt.Sprintf("the playground routes `%s` only when the snippet declares it with #[derive(ExtensionType)]", p.Type.Name), typeRange))
				continue
			}
			errs = append(errs, compileError("trait-not-implemented", "", fmt.Sprintf("the trait bound `%s<Dispatch>: ExtensionType<Dispatch>` is not satisfied", p.Type.Name), typeRange,
				fmt.Sprintf("add `#[derive(ExtensionType)]` to `%s`", p.Type.Name)))
		}
	}
	return errs
}

// implemented reports an impl of trait for the selector's type, written
// `impl Trait for Sel`, `for burn::backend::Sel`, `for Autodiff<B, C>`,
// or a blanket impl over a generic parameter.
func (in *interp) implemented(trait, self string) bool {
	for _, im := range in.impls {
		if im.Trait == nil || lastSeg(im.Trait) != trait || im.For == nil {
			continue
		}
		target := lastSeg(im.For)
		if target == self || slices.ContainsFunc(im.Generics, func(g *syntax.Generic) bool { return g.Name == target }) {
			return true
		}
	}
	return in.cubeImplemented(trait, self)
}

// ---- calls

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
	if self == "Dispatch" && in.isExtensionTrait(trait) {
		return in.extensionCall(trait, p.Segments[0].Name, args, e)
	}
	if t := in.typeText(p.QSelf); (trait == "Element" || trait == "ElementConversion") && dispatch.IsElementType(t) {
		// Burn's element traits on a primitive: `<FloatElem as Element>::dtype()`.
		inputs := []source.Range{p.Range}
		for _, a := range e.Args {
			inputs = append(inputs, a.Span())
		}
		return in.burn(dispatch.Call{Path: []string{t, p.Segments[0].Name}, Args: args}, e.Range, inputs)
	}
	in.report(diag.Diagnostic{Code: "unsupported-api", Severity: diag.Error, File: diag.MainRS, Range: p.Range,
		Message: fmt.Sprintf("calling through `<%s as %s>` is not modelled by the playground; it models the ops of the snippet's #[backend_extension] traits", self, trait)})
	return unknown, nil
}

// extensionCall calls an op of a backend extension: `Dispatch::op(..)`,
// `<Dispatch as Trait>::op(..)`, or `Trait::op(..)`, which rustc rejects.
func (in *interp) extensionCall(trait, name string, args []value, e *syntax.CallExpr) (value, *signal) {
	path, _ := e.Fun.(*syntax.PathExpr)
	pathRange := e.Fun.Span()
	if trait != "Dispatch" && (path == nil || path.QSelf == nil) {
		// Self cannot be inferred from FloatTensor<Self>, a projection.
		d := diag.Diagnostic{Code: "ambiguous-trait-call", Severity: diag.Error, File: diag.MainRS, Range: pathRange,
			Message: "cannot call associated function on trait without specifying the corresponding `impl` type",
			Help:    []string{fmt.Sprintf("the generated impl is on `Dispatch`: call `Dispatch::%s(..)` or `<Dispatch as %s>::%s(..)`", name, trait, name)}}
		dispatchPath := "Dispatch"
		if _, imported := in.lookupIn(in.mod, "Dispatch", 0); !imported {
			dispatchPath = "burn::backend::Dispatch"
		}
		d.Fixes = []diag.Fix{{Title: "Call it on `Dispatch`", Edits: []diag.Edit{{File: diag.MainRS, Range: pathRange,
			NewText: fmt.Sprintf("<%s as %s>::%s", dispatchPath, trait, name)}}}}
		in.report(d)
		return unknown, nil
	}
	var et *extensionTrait
	if trait == "Dispatch" {
		for _, t := range in.extensionTraits() {
			if slices.ContainsFunc(t.Methods, func(m *syntax.FnDecl) bool { return m.Name == name }) {
				et = in.extensionTrait(t)
				break
			}
		}
	} else {
		et = in.extensionTrait(in.traits[trait])
	}
	if et == nil || (len(et.errs) == 0 && et.ops[name] == nil) {
		in.report(in.unknownExtensionOp(trait, name, pathRange))
		return unknown, nil
	}
	if len(et.errs) > 0 {
		// The trait does not compile; check reported why.
		return unknown, nil
	}
	op := et.ops[name]
	op.Impl = in.extensionImpl(et.decl.Name, name)
	inputs := make([]source.Range, 0, len(e.Args)+1)
	inputs = append(inputs, pathRange)
	for _, a := range e.Args {
		inputs = append(inputs, a.Span())
	}
	before := len(in.diags)
	v, sig := in.burnAt(dispatch.Call{Recv: op, Method: op.Name, Args: args}, e.Range, pathRange, inputs)
	in.addMoveFix(before, op, args, e, inputs)
	return v, sig
}

func (in *interp) unknownExtensionOp(trait, name string, r source.Range) diag.Diagnostic {
	if trait != "Dispatch" {
		return diag.Diagnostic{Code: "unknown-function", Severity: diag.Error, File: diag.MainRS, Range: r,
			Message: fmt.Sprintf("cannot find method or associated constant `%s` in trait `%s`", name, trait)}
	}
	for _, prefix := range []string{"float_", "int_", "bool_", "q_"} {
		if strings.HasPrefix(name, prefix) {
			return diag.Diagnostic{Code: "unsupported-api", Severity: diag.Error, File: diag.MainRS, Range: r,
				Message: fmt.Sprintf("`Dispatch::%s` is part of Burn's API but the playground does not model it", name)}
		}
	}
	return diag.Diagnostic{Code: "unknown-function", Severity: diag.Error, File: diag.MainRS, Range: r,
		Message: fmt.Sprintf("no function or associated item named `%s` found for struct `Dispatch` in the current scope", name)}
}

// addMoveFix offers, for "input tensor `NAME` is on the wrong backend"
// reported since diagnostic number before, the edit that puts the
// argument where the call was routed: `x.to_device(&D).into_dispatch()`
// for a plain tensor, `x.inner()...` for a tracked one on a concrete
// route. It needs the argument's source, which only the interpreter has.
func (in *interp) addMoveFix(before int, op *dispatch.ExtensionOp, args []value, e *syntax.CallExpr, inputs []source.Range) {
	for i := before; i < len(in.diags); i++ {
		d := &in.diags[i]
		if d.PanicID != dispatch.ExtensionInputWrongBackend {
			continue
		}
		k := slices.Index(inputs, d.Range)
		if k < 1 {
			continue
		}
		call, ok := e.Args[k-1].(*syntax.MethodCallExpr)
		dt, isTensor := dispatch.Deref(args[k-1]).(*dispatch.DispatchTensor)
		if !ok || call.Name != "into_dispatch" || len(call.Args) != 0 || !isTensor {
			continue
		}
		target, autodiffRoute, routed := in.world.ExtensionRoute(op, args)
		ctor, known := dispatch.DeviceConstructor(target)
		if !routed || !known {
			continue
		}
		t := dt.Tensor()
		recv := strings.TrimSpace(in.src.Slice(call.Recv.Span()))
		var text, title string
		switch {
		case !t.Tracked():
			text = fmt.Sprintf("%s.to_device(&%s).into_dispatch()", recv, ctor)
			title = fmt.Sprintf("Move `%s` to %s before `into_dispatch()`", recv, target.Debug())
		case !autodiffRoute && t.Backend() == target.Backend():
			text = recv + ".inner().into_dispatch()"
			title = fmt.Sprintf("Pass `%s` untracked, as the route expects", recv)
		case !autodiffRoute:
			text = fmt.Sprintf("%s.inner().to_device(&%s).into_dispatch()", recv, ctor)
			title = fmt.Sprintf("Pass `%s` untracked, moved to %s", recv, target.Debug())
		default:
			continue
		}
		fix := diag.Fix{Title: title, Edits: []diag.Edit{{File: diag.MainRS, Range: inputs[k], NewText: text}}}
		d.Fixes = append([]diag.Fix{fix}, d.Fixes...)
	}
}

// callWorld calls into the dispatch model: the extension API first, the
// rest of Burn's API otherwise.
func (in *interp) callWorld(call dispatch.Call) (value, error) {
	if v, handled, err := in.world.ExtensionAPI(call); handled {
		return v, err
	}
	for _, model := range crateModels {
		v, handled, err := model(in.world, call, hostOf{in})
		if !handled {
			continue
		}
		if u, ok := err.(*nn.Unmodelled); ok && len(in.sites) > 0 {
			// A Burn item past what the engine models: the boundary.
			return in.unmodelledItemAt(u.Item, u.Why, in.sites[len(in.sites)-1]), nil
		}
		if b, ok := err.(*nn.Boundary); ok && len(in.sites) > 0 {
			// A file read or written: the boundary, with a value of the
			// call's type whose outside parts are unknown.
			in.fileBoundary(b.Item, b.What, b.Site, in.sites[len(in.sites)-1])
			return b.Value, nil
		}
		return v, err
	}
	return in.world.Call(call)
}

// crateModels answer the calls into Burn's crates past burn-tensor, one
// package each (the counterpart of one crate, its doc.go says which), in
// this order; engine/dispatch answers the rest.
var crateModels = []func(*dispatch.World, dispatch.Call, nn.Host) (dispatch.Value, bool, error){
	store.Call,
	data.Call,
	train.RLCall,
	train.Call,
	optim.Call,
	cubecl.Call,
	nn.ParamCall,
	nn.Call,
}

// tensorOf is the tensor a value holds, a dispatch or bridge tensor included.
func tensorOf(v value) (*dispatch.Tensor, bool) {
	switch v := dispatch.Deref(v).(type) {
	case *dispatch.Tensor:
		return v, true
	case *dispatch.DispatchTensor:
		return v.Tensor(), true
	case *dispatch.BridgeTensor:
		return v.Tensor(), true
	}
	return nil, false
}

// userVariant builds `Enum::Variant(args)` for an enum the snippet
// declares, such as an ExtensionType's tuple variant.
func (in *interp) userVariant(typ, variant string, args []value) (value, bool) {
	decl, ok := in.structs[typ]
	if !ok || !decl.Enum {
		return nil, false
	}
	for _, v := range decl.Fields {
		if v.Name == variant && v.Shape == syntax.TupleShape {
			return &dispatch.Enum{Type: typ, Variant: variant, Fields: args}, true
		}
	}
	return nil, false
}

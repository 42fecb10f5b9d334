package interp

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/data"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/similar"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// closure is a `|x| body` value with the scope it captured.
type closure struct {
	params []*syntax.Param
	body   syntax.Expr
	env    *scope
	// mod, selfType and selfMod are the module and `Self` of the code
	// that wrote the closure.
	mod      *module
	selfType *syntax.Type
	selfMod  *module
}

func (*closure) TypeName() string { return "closure" }

// fnValue is a user function used as a value.
type fnValue struct{ decl *syntax.FnDecl }

func (f *fnValue) TypeName() string { return "fn " + f.decl.Name }

// ---- diagnostics helpers ----

// report adds a diagnostic of the current phase, once per code and range.
func (in *interp) report(d diag.Diagnostic) {
	if d.Phase == "" {
		d.Phase = in.opts.Mode.phase()
	}
	if d.File == "" {
		d.File = diag.MainRS
	}
	if in.uncalled && d.PanicID != "" {
		// A function nothing calls never runs: what it would raise is
		// not a diagnostic of this program.
		return
	}
	key := fmt.Sprintf("%s|%s|%s|%d|%d|%s", d.Phase, d.Code, d.PanicID, d.Range.Start, d.Range.End, d.Message)
	if in.seen[key] {
		return
	}
	in.seen[key] = true
	in.diags.Add(d)
}

func (in *interp) unsupported(r source.Range, msg string) {
	in.report(diag.Diagnostic{Code: "unsupported-syntax", Severity: diag.Error, Message: msg, File: diag.MainRS, Range: r})
}

func (in *interp) typeMismatch(r source.Range, want string, got value) {
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("mismatched types: expected %s, found `%s`", want, got.TypeName()), File: diag.MainRS, Range: r})
}

// userPanic raises a panic of the snippet's own code (assert!, panic!,
// overflow, indexing). Its location is in the user's file, as Rust reports
// it.
func (in *interp) userPanic(r source.Range, msg string) (value, *signal) {
	return in.userPanicCode(r, "user-panic", msg)
}

// userPanicCode is userPanic with its catalog code: "user-panic" or
// "assertion-failed".
func (in *interp) userPanicCode(r source.Range, code, msg string) (value, *signal) {
	return in.userPanicAt(r, r, code, msg)
}

// userPanicAt is userPanicCode for a panic that Rust locates elsewhere
// than the span the diagnostic points at: a #[track_caller] method such as
// unwrap or expect is located at its name (rustc marks the method's name,
// not the start of the receiver chain).
func (in *interp) userPanicAt(r, at source.Range, code, msg string) (value, *signal) {
	p := dispatch.Panic{ID: code, Message: msg, Location: in.callerLocation(at), Input: -1}
	return in.raise(&p, r, nil, code, true)
}

// callerLocation is the location Rust reports for a panic in the user's
// own code.
func (in *interp) callerLocation(r source.Range) string {
	file, off := in.src.Locate(r.Start)
	pos := file.Position(off)
	name := "src/main.rs"
	if len(in.src.Segments()) > 0 {
		name = file.Name
	}
	return fmt.Sprintf("%s:%d:%d", name, pos.Line, pos.Column)
}

// raise handles a Burn or user panic: a check records it and goes on with
// an unknown value; a run records it and stops.
func (in *interp) raise(p *dispatch.Panic, r source.Range, labels []diag.Label, code string, user bool) (value, *signal) {
	if in.guessing > 0 {
		return in.guessedPanic(p, r)
	}
	in.report(diag.Diagnostic{Code: code, Severity: diag.Error, Message: p.Message, File: diag.MainRS,
		Range: r, Labels: labels, Fixes: in.fixes(p.Fixes, r, nil), PanicID: p.ID})
	if in.opts.Mode == Check {
		return unknown, nil
	}
	in.panic = &PanicAt{Panic: *p, Range: r, User: user}
	return nil, stop
}

// ---- calls ----

// call evaluates `f(args)`.
func (in *interp) call(e *syntax.CallExpr, expect string) (value, *signal) {
	path, isPath := e.Fun.(*syntax.PathExpr)
	if !isPath {
		fv, sig := in.expr(e.Fun)
		if sig != nil {
			return nil, sig
		}
		args, sig := in.exprs(e.Args)
		if sig != nil {
			return nil, sig
		}
		return in.callValue(fv, args, e)
	}
	if path.QSelf != nil {
		return in.qualifiedCall(path, e)
	}
	if len(path.Segments) == 1 && len(path.Segments[0].Generics) == 0 {
		if b := in.scope.lookup(path.Segments[0].Name); b != nil {
			args, sig := in.exprs(e.Args)
			if sig != nil {
				return nil, sig
			}
			return in.callValue(b.v, args, e)
		}
	}
	if v, sig, ok := in.typeParamCall(path, e); ok {
		return v, sig
	}
	segs, m := in.expandSegs(in.mod, in.segsIn(in.mod, path.Segments, nil, 0), 0)
	names := segNamesOf(segs)
	r := in.resolveIn(m, names, 0)
	if len(names) == 1 && r.external != nil {
		if _, ok := in.lookupIn(m, names[0], 0); !ok {
			return in.callUnscoped(names[0], e, path)
		}
	}
	if r.external == nil {
		return in.callItem(r, e, path)
	}
	names, generics := burnPath(r.external, segs)
	args, sig := in.exprs(e.Args)
	if sig != nil {
		return nil, sig
	}
	if n := len(r.external); n >= 2 && r.external[n-2] == "Default" && r.external[n-1] == "default" && len(args) == 0 && expect != "" {
		if v, ok, sig := in.defaultNamed(expect, e.Range, 0); ok {
			return v, sig
		}
	}
	if v, handled, sig := in.stdFunction(r.external, args, e); handled {
		return v, sig
	}
	if crate := r.external[0]; in.otherCrate(crate) && !cubeclModelled(r.external) {
		return in.otherCrateCall(crate, r.external, e.Range), nil
	} else if in.unlinkedCrate(crate, len(r.external)) {
		in.report(diag.Diagnostic{Code: "unknown-function", Severity: diag.Error, File: diag.MainRS, Range: path.Range,
			Message: fmt.Sprintf("failed to resolve: use of unresolved module or unlinked crate `%s`", crate),
			Help:    []string{fmt.Sprintf("if you wanted to use a crate named `%s`, use `cargo add %s` to add it to your `Cargo.toml`", crate, crate)}})
		return unknown, nil
	}
	joined := strings.Join(names, "::")
	switch joined {
	case "Box::new", "Arc::new", "Rc::new", "std::sync::Arc::new", "RefCell::new", "Cell::new":
		if len(args) == 1 {
			return args[0], nil
		}
	case "String::from", "String::new":
		if len(args) == 1 {
			return args[0], nil
		}
		return dispatch.Str(""), nil
	case "Vec::new", "Vec::with_capacity":
		return &dispatch.Array{Vec: true}, nil
	}
	if len(names) == 2 {
		if in.isExtensionTrait(names[0]) || names[0] == "Dispatch" {
			return in.extensionCall(names[0], names[1], args, e)
		}
	}
	inputs := make([]source.Range, 0, len(e.Args)+1)
	inputs = append(inputs, path.Range)
	for _, a := range e.Args {
		inputs = append(inputs, a.Span())
	}
	bc := dispatch.Call{Path: names, Generics: generics, Expect: expect, Args: args}
	in.nameModuleArgs(e.Args, args)
	v, sig := in.burn(bc, e.Range, inputs)
	in.forgetMutated(bc, nil, e.Args, v, sig)
	return v, sig
}

// callUnscoped calls a one-segment name that no item or import of the
// module declares: the prelude's constructors, or rustc's E0425.
func (in *interp) callUnscoped(name string, e *syntax.CallExpr, path *syntax.PathExpr) (value, *signal) {
	args, sig := in.exprs(e.Args)
	if sig != nil {
		return nil, sig
	}
	switch name {
	case "Some", "Ok", "Err":
		typ := "Result"
		if name == "Some" {
			typ = "Option"
		}
		return &dispatch.Enum{Type: typ, Variant: name, Fields: args}, nil
	case "drop":
		return dispatch.Unit{}, nil
	}
	if v, sig, ok := in.globBurnCall(name, args, e); ok {
		return v, sig
	}
	in.report(diag.Diagnostic{Code: "unknown-function", Severity: diag.Error,
		Message: fmt.Sprintf("cannot find function `%s` in this scope", name), File: diag.MainRS, Range: path.Range})
	return unknown, nil
}

// callItem calls what a path names in the program: a function, a tuple
// struct or variant, an associated function of one of its types.
func (in *interp) callItem(r resolution, e *syntax.CallExpr, path *syntax.PathExpr) (value, *signal) {
	args, sig := in.exprs(e.Args)
	if sig != nil {
		return nil, sig
	}
	it := r.item
	switch {
	case r.unresolved:
		in.report(diag.Diagnostic{Code: "unknown-function", Severity: diag.Error,
			Message: fmt.Sprintf("failed to resolve: could not find `%s` in `%s`", r.rest[0], in.src.Slice(path.Range)),
			File:    diag.MainRS, Range: path.Range})
		return unknown, nil
	case it.fn != nil && len(r.rest) == 1 && cubeKernel(it.fn, r.rest[0]):
		return in.kernelLaunch(it.fn, r.rest[0], args, e)
	case it.fn != nil && len(r.rest) == 0:
		if last := path.Segments[len(path.Segments)-1]; len(last.Generics) > 0 {
			in.turbofish = in.genericTexts(last.Generics)
			defer func() { in.turbofish = nil }()
		}
		return in.callUser(it.fn, args, e.Range)
	case it.konst != nil && len(r.rest) == 0:
		fv, sig := in.constValue(it.konst, path.Range)
		if sig != nil {
			return nil, sig
		}
		return in.callValue(fv, args, e)
	case it.typ != nil && len(r.rest) == 0 && !it.typ.Enum && it.typ.Shape == syntax.TupleShape:
		return &dispatch.Enum{Type: it.typ.Name, Variant: it.typ.Name, Fields: args}, nil
	case (it.typ != nil || it.trait != nil) && len(r.rest) == 1:
		typ := ""
		if it.typ != nil {
			typ = it.typ.Name
		} else {
			typ = it.trait.Name
		}
		if v, sig, ok := in.callAssoc(typ, it.typ == nil, r.rest[0], args, e.Range); ok {
			return v, sig
		}
		if v, sig, ok := in.configAssoc(it.typ, r.rest[0], args, e.Range); ok {
			return v, sig
		}
		if v, sig, ok := in.deriveNewAssoc(it.typ, r.rest[0], args, e.Range); ok {
			return v, sig
		}
		if r.rest[0] == "default" && it.typ != nil && len(args) == 0 {
			if v, ok, sig := in.userDefault(it.typ, e.Range, 0); ok {
				return v, sig
			}
		}
		if v, ok := in.userVariant(typ, r.rest[0], args); ok {
			return v, nil
		}
		if in.isExtensionTrait(typ) {
			return in.extensionCall(typ, r.rest[0], args, e)
		}
		in.report(diag.Diagnostic{Code: "unknown-function", Severity: diag.Error,
			Message: fmt.Sprintf("no function or associated item named `%s` found for `%s` in the current scope", r.rest[0], typ),
			File:    diag.MainRS, Range: path.Range})
		return unknown, nil
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("expected function, found `%s`", in.src.Slice(path.Range)), File: diag.MainRS, Range: path.Range})
	return unknown, nil
}

// burnPath is the canonical path Burn calls are made with: [Type, fn] for
// associated functions (Tensor::ones, Device::cuda), the full module path
// for free functions (burn::server::start), with each kept segment's
// generics. written are the segments as the program wrote them (aliases
// expanded): they are the tail of the resolved path.
func burnPath(full []string, written []pathSeg) ([]string, [][]string) {
	total := len(full)
	if total == 0 {
		return nil, nil
	}
	start := 0
	if total >= 2 && isTypeName(full[total-2]) {
		start = total - 2
	}
	names := append([]string{}, full[start:]...)
	var generics [][]string
	offset := total - len(written)
	for i := start; i < total; i++ {
		w := i - offset
		if w < 0 || w >= len(written) || len(written[w].generics) == 0 {
			continue
		}
		if generics == nil {
			generics = make([][]string, total-start)
		}
		generics[i-start] = written[w].generics
	}
	return names, generics
}

func isTypeName(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

func (in *interp) genericTexts(args []syntax.GenericArg) []string {
	var out []string
	for _, g := range args {
		if g.Lifetime == "" {
			out = append(out, in.genericText(in.mod, g, nil, 0))
		}
	}
	return out
}

// callValue calls a closure or function value.
func (in *interp) callValue(fv value, args []value, e *syntax.CallExpr) (value, *signal) {
	switch f := dispatch.Deref(fv).(type) {
	case *closure:
		return in.callClosure(f, args, e.Range)
	case *fnValue:
		return in.callUser(f.decl, args, e.Range)
	case *burnFn:
		return in.burn(dispatch.Call{Path: f.path, Args: args}, e.Range, nil)
	case dispatch.Unknown:
		return unknown, nil
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("expected function, found `%s`", fv.TypeName()), File: diag.MainRS, Range: e.Fun.Span()})
	return unknown, nil
}

// callBack calls a closure or function that Burn's API was given.
func (in *interp) callBack(fv value, args []value, r source.Range) (value, *signal) {
	in.external++
	defer func() { in.external-- }()
	switch f := dispatch.Deref(fv).(type) {
	case *closure:
		return in.callClosure(f, args, r)
	case *fnValue:
		return in.callUser(f.decl, args, r)
	case *burnFn:
		return in.burn(dispatch.Call{Path: f.path, Args: args}, r, nil)
	case dispatch.Unknown:
		return unknown, nil
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("expected a closure, found `%s`", fv.TypeName()), File: diag.MainRS, Range: r})
	return unknown, nil
}

func (in *interp) callClosure(c *closure, args []value, r source.Range) (value, *signal) {
	if len(args) != len(c.params) {
		in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error,
			Message: fmt.Sprintf("this closure takes %d arguments but %d were supplied", len(c.params), len(args)), File: diag.MainRS, Range: r})
		return unknown, nil
	}
	in.depth++
	defer func() { in.depth-- }()
	if in.depth > maxCallDepth {
		return nil, in.limit("depth", r)
	}
	saved, savedMod, savedSelf, savedSelfMod := in.scope, in.mod, in.selfType, in.selfMod
	in.scope = &scope{vars: map[string]*binding{}, parent: c.env, caller: saved}
	if c.mod != nil {
		in.mod, in.selfType, in.selfMod = c.mod, c.selfType, c.selfMod
	}
	defer func() { in.scope, in.mod, in.selfType, in.selfMod = saved, savedMod, savedSelf, savedSelfMod }()
	for i, p := range c.params {
		if p.Pat != nil {
			in.bindPattern(p.Pat, args[i])
		}
	}
	v, sig := in.expr(c.body)
	if sig != nil && sig.kind == sigReturn {
		return sig.value, nil
	}
	return v, sig
}

// callUser calls a function the snippet declares. self, when not nil, is
// the receiver of a method.
func (in *interp) callUser(fn *syntax.FnDecl, args []value, r source.Range) (value, *signal) {
	return in.callUserSelf(fn, nil, args, r)
}

func (in *interp) callUserSelf(fn *syntax.FnDecl, self value, args []value, r source.Range) (value, *signal) {
	if self != nil {
		if prev, pushed := in.enterModule(nil, self); pushed {
			defer in.leaveModule(prev)
		}
	}
	return in.callUserInspect(fn, self, args, r, nil, nil)
}

// callUserInspect is callUserSelf with two hooks run in the callee's
// scope: bound after its parameters are bound, done after its body ran.
func (in *interp) callUserInspect(fn *syntax.FnDecl, self value, args []value, r source.Range, bound, done func()) (value, *signal) {
	if fn.Body == nil {
		in.report(diag.Diagnostic{Code: "unsupported-syntax", Severity: diag.Error,
			Message: fmt.Sprintf("function `%s` has no body", fn.Name), File: diag.MainRS, Range: r})
		return unknown, nil
	}
	params := fn.Params
	if len(params) > 0 && params[0].Self {
		params = params[1:]
	}
	if len(args) != len(params) {
		in.report(diag.Diagnostic{Code: "wrong-arguments", Severity: diag.Error,
			Message: fmt.Sprintf("this function takes %d %s but %d %s supplied",
				len(params), plural(len(params), "argument"), len(args), wasWere(len(args))),
			File: diag.MainRS, Range: r})
		return unknown, nil
	}
	in.depth++
	defer func() { in.depth-- }()
	if in.depth > maxCallDepth {
		return nil, in.limit("depth", r)
	}
	if in.opts.Mode == Check {
		in.entered[fn] = true
	}
	saved, savedMod, savedSelf, savedSelfMod := in.scope, in.mod, in.selfType, in.selfMod
	in.scope = &scope{vars: map[string]*binding{}, parent: in.root(), caller: saved}
	if m := in.fnMod[fn]; m != nil {
		in.mod = m
	}
	in.selfType, in.selfMod = nil, nil
	if im := in.fnImpl[fn]; im != nil {
		in.selfType, in.selfMod = im.For, in.mod
	} else if self != nil {
		in.selfType, in.selfMod = in.selfOf(self)
	}
	defer func() { in.scope, in.mod, in.selfType, in.selfMod = saved, savedMod, savedSelf, savedSelfMod }()
	savedTypeArgs := in.typeArgs
	in.typeArgs = in.bindTypeArgs(fn, params, args)
	defer func() { in.typeArgs = savedTypeArgs }()
	in.define(curFn, &fnValue{decl: fn}, false, r)
	if self != nil {
		in.define("self", self, true, r)
	}
	for i, p := range params {
		if p.Pat != nil {
			in.bindPattern(p.Pat, in.copyOnBind(in.typedAs(args[i], p.Type)))
		}
	}
	if bound != nil {
		bound()
	}
	v, sig := in.block(fn.Body)
	if done != nil {
		done()
	}
	if sig != nil {
		switch sig.kind {
		case sigReturn:
			return in.typedAs(sig.value, fn.Result), nil
		case sigStop:
			return nil, sig
		}
		return unknown, nil
	}
	return in.typedAs(v, fn.Result), nil
}

// bindTypeArgs are the type parameters of fn (and of its impl) in a call
// with args: the pending turbofish's types in order, then the program's
// type of each argument whose parameter is written as a bare `T` or `&T`.
func (in *interp) bindTypeArgs(fn *syntax.FnDecl, params []*syntax.Param, args []value) map[string]string {
	explicit := in.turbofish
	in.turbofish = nil
	var bound map[string]string
	add := func(gs []*syntax.Generic) {
		for _, g := range gs {
			if g.Lifetime || g.Const {
				continue
			}
			if bound == nil {
				bound = map[string]string{}
			}
			bound[g.Name] = ""
		}
	}
	if im := in.fnImpl[fn]; im != nil {
		add(im.Generics)
	}
	add(fn.Generics)
	if bound == nil {
		return nil
	}
	i := 0
	for _, g := range fn.Generics {
		if g.Lifetime || g.Const {
			continue
		}
		if i < len(explicit) {
			// `build::<model::Net<B>>()` stands for the struct Net.
			t, _, _ := strings.Cut(explicit[i], "<")
			bound[g.Name] = t[strings.LastIndex(t, "::")+1:]
		}
		i++
	}
	for j, p := range params {
		if p.Type == nil || j >= len(args) {
			continue
		}
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(p.Type.Text, "&"), "mut "))
		if t, isParam := bound[name]; isParam && t == "" {
			if en, ok := dispatch.Deref(args[j]).(*dispatch.Enum); ok && in.structs[en.Type] != nil {
				bound[name] = en.Type
			}
		}
	}
	return bound
}

// typeParamCall is `T::f(..)` where T is a type parameter of the function
// being evaluated: the function of the type T stands for in this call, or
// an unknown value when nothing says which type that is (rustc resolves it
// through T's bounds, for every type the program could call it with).
func (in *interp) typeParamCall(path *syntax.PathExpr, e *syntax.CallExpr) (value, *signal, bool) {
	if len(path.Segments) != 2 || in.typeArgs == nil {
		return nil, nil, false
	}
	typ, isParam := in.typeArgs[path.Segments[0].Name]
	if !isParam {
		return nil, nil, false
	}
	args, sig := in.exprs(e.Args)
	if sig != nil {
		return nil, sig, true
	}
	if typ == "" || in.structs[typ] == nil {
		return unknown, nil, true
	}
	if v, sig, ok := in.callAssoc(typ, false, path.Segments[1].Name, args, e.Range); ok {
		return v, sig, true
	}
	if decl := in.structs[typ]; path.Segments[1].Name == "default" && len(args) == 0 {
		if v, ok, sig := in.userDefault(decl, e.Range, 0); ok {
			return v, sig, true
		}
	}
	return unknown, nil, true
}

// typedAs gives an unsuffixed number the primitive type a parameter, a
// return type or a field declares: rustc infers the literal's type from
// it (`fn third(x: f32) -> f32 { x / 3.0 }` divides in f32).
func (in *interp) typedAs(v value, t *syntax.Type) value {
	if t == nil {
		return v
	}
	switch v.(type) {
	case dispatch.Int, dispatch.Float, *dispatch.Array:
		return typedLiteral(v, in.typeText(t))
	}
	return v
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func wasWere(n int) string {
	if n == 1 {
		return "argument was"
	}
	return "arguments were"
}

func (in *interp) root() *scope {
	s := in.scope
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// assocFn finds `Type::name` as rustc does: among the program's inherent
// impls of typ first, then its trait impls, then the default methods of
// the traits it implements.
func (in *interp) assocFn(typ, name string) *syntax.FnDecl {
	for _, inherent := range []bool{true, false} {
		for _, im := range in.impls {
			if (im.Trait == nil) != inherent || im.For == nil || lastSeg(im.For) != typ {
				continue
			}
			for _, m := range im.Methods {
				if m.Name == name {
					return m
				}
			}
		}
	}
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.For) != typ {
			continue
		}
		if m := in.traitDefault(lastSeg(im.Trait), name); m != nil {
			return m
		}
	}
	return nil
}

func lastSeg(t *syntax.Type) string {
	if t == nil || len(t.Path) == 0 {
		return ""
	}
	return t.Path[len(t.Path)-1].Name
}

// methodCall evaluates `recv.name(args)`.
func (in *interp) methodCall(e *syntax.MethodCallExpr, expect string) (value, *signal) {
	recvExpect := ""
	if (e.Name == "unwrap" || e.Name == "expect") && strings.HasPrefix(expect, "[") {
		// `v.try_into().unwrap()` into an array: the array type is the
		// Ok value's.
		recvExpect = "Result<" + expect + ", _>"
	}
	recv, sig := in.exprExpect(e.Recv, recvExpect)
	if sig != nil {
		return nil, sig
	}
	args := make([]value, 0, len(e.Args))
	for i, a := range e.Args {
		v, sig := in.exprExpect(a, dispatch.ArgExpect(recv, e.Name, i))
		if sig != nil {
			return nil, sig
		}
		args = append(args, v)
	}
	if isUnknown(recv) {
		if assertMethods[e.Name] {
			in.unchecked(e.Range, "`"+e.Name+"`", in.valueOf(e.Recv.Span()))
		}
		return unknown, nil
	}
	// A module's method runs under the receiver's module path, whichever
	// answers it below (the program's, the derive's or burn-nn's).
	if prev, pushed := in.enterModule(e.Recv, recv); pushed {
		defer in.leaveModule(prev)
	}
	// Methods of the snippet's own types.
	if en, ok := dispatch.Deref(recv).(*dispatch.Enum); ok {
		if fn := in.pickImpl(in.assocFn(en.Type, e.Name), en.Type, e.Name, args); fn != nil {
			// callUserInspect: the module path is pushed already.
			return in.callUserInspect(fn, recv, args, e.Range, nil, nil)
		}
		if e.Name == "clone" && len(args) == 0 {
			if v, ok := in.userClone(recv); ok {
				return v, nil
			}
		}
		if e.Name == "to_string" && len(args) == 0 {
			if fn := in.traitMethod(en.Type, "Display", "fmt"); fn != nil {
				return dispatch.Str(in.callFmt(fn, recv, false)), nil
			}
		}
		if v, sig, ok := in.derivedMethod(e, recv, args, expect); ok {
			return v, sig
		}
		if v, sig, ok := in.datasetMethod(e, recv, args); ok {
			return v, sig
		}
	}
	if v, handled, sig := in.burnInto(e, recv, args, expect); handled {
		return v, sig
	}
	if v, handled, sig := in.stdMethod(e, recv, args, expect); handled {
		return v, sig
	}
	if !isBurn(recv) && !dispatch.HasElementMethod(recv, e.Name) {
		ue := &dispatch.UsageError{Code: "unknown-method", Arg: -1,
			Message: fmt.Sprintf("no method named `%s` found for %s in the current scope", e.Name, in.typeKind(recv))}
		if v, sig, ok := in.burnEnumMethod(recv, e, args, ue); ok {
			return v, sig
		}
		in.report(diag.Diagnostic{Code: ue.Code, Severity: diag.Error, Message: ue.Message, File: diag.MainRS, Range: e.NameSpan})
		return unknown, nil
	}
	inputs := make([]source.Range, 0, len(e.Args)+1)
	inputs = append(inputs, e.Recv.Span())
	for _, a := range e.Args {
		inputs = append(inputs, a.Span())
	}
	var generics [][]string
	if len(e.Generics) > 0 {
		generics = [][]string{in.genericTexts(e.Generics)}
	}
	call := dispatch.Call{Recv: recv, Method: e.Name, Args: args, Generics: generics, Expect: expect}
	if e.Name == "clone" && len(args) == 0 {
		// Every Burn value is Clone; a model without its own clone keeps
		// the value.
		v, err := in.world.Call(call)
		var ue *dispatch.UsageError
		if errors.As(err, &ue) {
			return recv, nil
		}
		if err == nil {
			return v, nil
		}
	}
	in.nameModuleArgs(e.Args, args)
	v, sig := in.burnAt(call, e.Range, e.NameSpan, inputs)
	in.forgetMutated(call, e.Recv, e.Args, v, sig)
	return v, sig
}

// burn calls into the dispatch model at a call site.
func (in *interp) burn(call dispatch.Call, site source.Range, inputs []source.Range) (value, *signal) {
	return in.burnAt(call, site, site, inputs)
}

// burnAt is burn with a separate range for usage errors (a method's name).
func (in *interp) burnAt(call dispatch.Call, site, nameRange source.Range, inputs []source.Range) (value, *signal) {
	if isUnknown(call.Recv) {
		in.uncheckedCall(call, site, inputs)
		return unknown, nil
	}
	if v, sig, gated := in.gatedOut(call, site, nameRange, inputs); gated {
		return v, sig
	}
	if in.wrongKind(call, nameRange) {
		if in.opts.Mode == Run {
			return nil, stop
		}
		return unknown, nil
	}
	for _, a := range call.Args {
		// An array from outside of known dims (data.KnownShape) is data
		// of that shape whose values are unknown.
		if (isUnknown(a) || holdsUnknown(a, 0) && !data.KnownShape(a) && !shapedUnknowns(call, a)) && !takesUnknown(call) {
			in.uncheckedCall(call, site, inputs)
			return unknown, nil
		}
	}
	if prev, pushed := in.enterBurnModule(call.Recv); pushed {
		defer in.leaveModule(prev)
	}
	callSite := len(in.sites)
	in.world.SetSite(callSite)
	in.sites = append(in.sites, site)
	call.Args = burnInts(call.Args)
	in.burns = append(in.burns, call.Recv)
	v, err := in.callWorld(call)
	in.burns = in.burns[:len(in.burns)-1]
	if d, ok := v.(*dispatch.Device); ok && err == nil && isDeviceConstructor(call) {
		v = d.WithOrigin(callSite)
	}
	for err == nil {
		cb, ok := v.(*dispatch.Callback)
		if !ok {
			break
		}
		// Burn's API calls the snippet's closure (capture_scope) and
		// finishes with what it returned.
		ret, sig := in.callBack(cb.Fn, cb.Args, site)
		if sig != nil {
			return nil, sig
		}
		in.world.SetSite(len(in.sites))
		in.sites = append(in.sites, site)
		v, err = cb.Done(ret)
	}
	if err == nil {
		if v == nil {
			v = dispatch.Unit{}
		}
		if u, ok := v.(dispatch.Unchecked); ok {
			in.uncheckedValues(call, u, site, inputs)
			v = dispatch.Unit{}
		}
		if in.world.Serving() {
			// burn::server::start blocks until the process is stopped:
			// nothing after it runs.
			return v, stop
		}
		return v, nil
	}
	var se *sigError
	if errors.As(err, &se) {
		// The program's own code, called back by Burn's, panicked or
		// ran out of budget: its signal goes on.
		return nil, se.sig
	}
	var ue *dispatch.UsageError
	if errors.As(err, &ue) {
		r := nameRange
		if ue.Arg >= 0 && ue.Arg < len(inputs) && (ue.Arg > 0 || call.Path == nil) {
			r = inputs[ue.Arg]
		}
		if v, sig, ok := in.unmodelled(call, ue, r, site, inputs); ok {
			return v, sig
		}
		var fixes []diag.Fix
		hints := ue.Fixes
		if ue.Feature != "" && len(hints) == 0 {
			hints = []dispatch.FixHint{{Title: fmt.Sprintf("Enable the `%s` feature of burn", ue.Feature), Arg: dispatch.NoArg, AddFeature: ue.Feature}}
		}
		fixes = in.fixes(hints, site, inputs)
		help := ue.Help
		if near, what, at, ok := in.similarTensorItem(call, ue.Code, nameRange); ok && len(fixes) == 0 {
			// rustc's help for a misspelt method of Tensor, and its edit.
			help = append(help[:len(help):len(help)], fmt.Sprintf("there is %s `%s` with a similar name", what, near))
			fixes = []diag.Fix{{Title: fmt.Sprintf("Use `%s`", near), Edits: []diag.Edit{{File: diag.MainRS, Range: at, NewText: near}}}}
		}
		in.report(diag.Diagnostic{Code: ue.Code, Severity: diag.Error, Phase: diag.Check, Message: ue.Message,
			File: diag.MainRS, Range: r, Help: help, Fixes: fixes})
		if in.opts.Mode == Run {
			return nil, stop
		}
		return unknown, nil
	}
	var p *dispatch.Panic
	if errors.As(err, &p) {
		r := site
		if p.Input >= 0 && p.Input < len(inputs) {
			r = inputs[p.Input]
		}
		if p.TrackCaller {
			located := *p
			located.Location = in.callerLocation(nameRange)
			p = &located
		}
		if in.guessing > 0 {
			return in.guessedPanic(p, r)
		}
		labels := in.labels(call, inputs)
		d := diag.Diagnostic{Severity: diag.Error, Message: p.Message, File: diag.MainRS, Range: r,
			Labels: labels, Fixes: in.fixes(applicable(p.Fixes, call), site, inputs), PanicID: p.ID}
		for _, l := range p.Labels {
			d.Help = append(d.Help, l)
		}
		in.report(d)
		// A panic on Burn's device-runner thread reaches the caller
		// wrapped; each cause gets a note with its own catalog record, so
		// the user learns what went wrong first.
		for c := p.Cause; c != nil; c = c.Cause {
			note := diag.Diagnostic{Severity: diag.Note, Message: c.Message, File: diag.MainRS, Range: r, PanicID: c.ID}
			switch {
			case c.Location != "" && c.Returned:
				note.Help = []string{"the panic's message carries this error, returned at " + c.Location}
			case c.Location != "":
				note.Help = []string{"this panic happened first, at " + c.Location + ", on Burn's device-runner thread"}
			}
			in.report(note)
		}
		if in.opts.Mode == Check {
			return unknown, nil
		}
		in.panic = &PanicAt{Panic: *p, Range: r}
		return nil, stop
	}
	in.report(diag.Diagnostic{Code: "playground-internal-error", Severity: diag.Error,
		Message: err.Error(), File: diag.MainRS, Range: site})
	return unknown, nil
}

// similarTensorItem is the method of Tensor (or, for `Tensor::name`, the
// associated function) closest to a name Burn does not have, with what
// rustc calls it and the range of the name to replace: the method's name,
// or the path's last segment in the call r covers.
func (in *interp) similarTensorItem(call dispatch.Call, code string, r source.Range) (name, what string, at source.Range, ok bool) {
	switch {
	case code == "unknown-method" && call.Path == nil:
		t, isTensor := dispatch.Deref(call.Recv).(*dispatch.Tensor)
		if !isTensor {
			return "", "", r, false
		}
		name, ok = similar.Name(call.Method, tensorItems(t.KindName(), true))
		return name, "a method", r, ok && in.src.Slice(r) == call.Method
	case code == "unknown-function" && len(call.Path) >= 2 && call.Path[len(call.Path)-2] == "Tensor":
		last := call.Path[len(call.Path)-1]
		name, ok = similar.Name(last, tensorItems("", false))
		text := in.src.Slice(r)
		if p := strings.IndexByte(text, '('); p >= 0 {
			text = text[:p]
		}
		j := strings.LastIndex(text, last)
		if j < 0 {
			return "", "", r, false
		}
		return name, "an associated function", source.Range{Start: r.Start + j, End: r.Start + j + len(last)}, ok
	}
	return "", "", r, false
}

// tensorItems are the names of Tensor's methods for a kind, or of its
// associated functions, in the order of Burn's API table.
func tensorItems(kind string, methods bool) []string {
	var out []string
	for _, it := range burnapi.Default().Items {
		if it.Path != "burn_tensor::Tensor" || !it.ForKind(kind) || (it.Kind == "method") != methods ||
			!methods && it.Kind != "assoc" || slices.Contains(out, it.Name) {
			continue
		}
		out = append(out, it.Name)
	}
	return out
}

// wrongKind reports rustc's error for a method of Tensor that Burn
// declares only for other kinds than the receiver's (`grad` of an Int
// tensor: it is in `impl<const D: usize> Tensor<D>`, which is Float's).
// A method Burn's API table does not list is left to the model.
func (in *interp) wrongKind(call dispatch.Call, r source.Range) bool {
	t, ok := dispatch.Deref(call.Recv).(*dispatch.Tensor)
	if !ok || call.Method == "" || call.Path != nil {
		return false
	}
	kind := t.KindName()
	if t.Kind() == dispatch.KindQFloat {
		kind = "Float"
	}
	kinds, listed := burnapi.Default().TensorMethodKinds(call.Method)
	if !listed || kinds == nil || slices.Contains(kinds, kind) {
		return false
	}
	code, msg := unknownName(call)
	in.report(diag.Diagnostic{Code: code, Severity: diag.Error, Message: msg, File: diag.MainRS, Range: r})
	return true
}

// labels point at where each tensor operand of a failing call was created.
func (in *interp) labels(call dispatch.Call, inputs []source.Range) []diag.Label {
	var out []diag.Label
	operands := append([]value{call.Recv}, call.Args...)
	for i, v := range operands {
		t, ok := tensorOf(v)
		if !ok || i >= len(inputs) {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSpace(in.src.Slice(inputs[i])), ".clone()")
		origin := t.Origin()
		if origin < 0 || origin >= len(in.sites) {
			continue
		}
		dev := t.Device()
		what := "this tensor"
		if isSimpleName(name) {
			what = "tensor `" + name + "`"
		}
		msg := fmt.Sprintf("%s was created here", what)
		if dev != nil {
			msg = fmt.Sprintf("%s was created on %s here", what, dev.Debug())
		}
		out = append(out, diag.Label{File: diag.MainRS, Range: in.sites[origin], Message: msg})
	}
	return out
}

func isSimpleName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return true
}

// titleText is an input's source as a fix's title names it: on one line,
// and cut after 40 characters.
func titleText(src string) string {
	s := strings.Join(strings.Fields(src), " ")
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}

// applicable are the hints whose edits fit the program's call.
func applicable(hints []dispatch.FixHint, call dispatch.Call) []dispatch.FixHint {
	return slices.DeleteFunc(slices.Clone(hints), func(h dispatch.FixHint) bool { return !h.Applies(call) })
}

// receiverText is an expression's source as the receiver of a method
// call: as it is when a method call binds to all of it (a path, a call, a
// field, an index), else in parentheses (`a + b`, `&x`, `-y`).
func receiverText(src string) string {
	depth := 0
	for i, r := range src {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		default:
			if depth == 0 && !(r == '_' || r == '.' || r == ':' || r == '!' && i > 0 || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return "(" + src + ")"
			}
		}
	}
	return src
}

// fixes turns fix hints into edits of main.rs and Cargo.toml.
func (in *interp) fixes(hints []dispatch.FixHint, site source.Range, inputs []source.Range) []diag.Fix {
	var out []diag.Fix
	for _, h := range hints {
		fix := diag.Fix{Title: h.Title}
		for i := len(inputs) - 1; i >= 0; i-- {
			fix.Title = strings.ReplaceAll(fix.Title, fmt.Sprintf("{%d}", i), titleText(in.src.Slice(inputs[i])))
		}
		if h.Arg != dispatch.NoArg {
			r := site
			if h.Arg >= 0 && h.Arg < len(inputs) {
				r = inputs[h.Arg]
			}
			text, ok := fillHint(h.NewText, inputs, in.src.Slice)
			if !ok {
				continue
			}
			fix.Edits = append(fix.Edits, diag.Edit{File: diag.MainRS, Range: r, NewText: text})
		}
		if h.AddFeature != "" {
			if in.opts.FeatureEdit == nil {
				continue
			}
			edit, ok := in.opts.FeatureEdit(h.AddFeature)
			if !ok {
				continue
			}
			fix.Edits = append(fix.Edits, edit)
		}
		if h.AfterSite > 0 && h.AfterSite <= len(in.sites) {
			at := in.sites[h.AfterSite-1].End
			fix.Edits = append(fix.Edits, diag.Edit{File: diag.MainRS, Range: source.Range{Start: at, End: at}, NewText: h.NewText})
		}
		if h.Server != nil && in.opts.ServerEdit != nil {
			if edit, ok := in.opts.ServerEdit(*h.Server); ok {
				fix.Edits = append(fix.Edits, edit)
			}
		}
		if len(fix.Edits) > 0 {
			out = append(out, fix)
		}
	}
	return out
}

// isDeviceConstructor tells the program's own call of one of Device's
// associated functions (`Device::default()`, `burn::tensor::Device::cuda(0)`).
func isDeviceConstructor(call dispatch.Call) bool {
	return call.Recv == nil && len(call.Path) >= 2 && call.Path[len(call.Path)-2] == "Device"
}

// fillHint fills a FixHint's NewText with the inputs' source texts: {i}
// is input i's text, {(i)} the same as a receiver (parenthesized when it
// needs to be), {i::} its path up to and including the last `::` (the
// `Reduction::` of `Reduction::BatchMean`). ok is false when an input a
// {i::} names is no path, so the edit cannot be made.
func fillHint(text string, inputs []source.Range, slice func(source.Range) string) (string, bool) {
	for i := len(inputs) - 1; i >= 0; i-- {
		src := strings.TrimSpace(slice(inputs[i]))
		if key := fmt.Sprintf("{%d::}", i); strings.Contains(text, key) {
			j := strings.LastIndex(src, "::")
			if j < 0 {
				return "", false
			}
			text = strings.ReplaceAll(text, key, src[:j+2])
		}
		text = strings.ReplaceAll(text, fmt.Sprintf("{(%d)}", i), receiverText(src))
		text = strings.ReplaceAll(text, fmt.Sprintf("{%d}", i), src)
	}
	return text, true
}

// burnFn is a function of Burn's API named as a value (`Slice::from`).
type burnFn struct{ path []string }

func (f *burnFn) TypeName() string { return "fn " + strings.Join(f.path, "::") }

// guessedPanic is a panic inside a branch whose condition the engine does
// not know (guessedIf): Burn raises it only if the program takes that
// branch, so it is neither a check's error nor the run's panic but a
// warning of the run, and the branch goes on with an unknown value.
func (in *interp) guessedPanic(p *dispatch.Panic, r source.Range) (value, *signal) {
	in.unchecked(r, "this panic", "whether the branch it is in runs", "if it does, the program panics here: "+p.Message)
	return unknown, nil
}

// otherCrate reports whether name is a crate the package depends on that
// the engine does not model: not Burn's, not Rust's own.
func (in *interp) otherCrate(name string) bool {
	if strings.HasPrefix(name, "burn") || modelledCrates[name] {
		return false
	}
	return slices.Contains(in.opts.Crates, name)
}

// modelledCrates are the crates besides Burn's whose items the engine
// models, as far as Burn programs use them.
var modelledCrates = config.ModelledCrates

// unlinkedCrate reports whether name, the first segment of a path of n
// segments that no item or import of the program declares, reads as a
// crate the package does not depend on (rustc's E0433): a lowercase name
// that is not Rust's, Burn's or one of the crates the engine models.
func (in *interp) unlinkedCrate(name string, n int) bool {
	if n < 2 || name == "" || name[0] < 'a' || name[0] > 'z' || len(in.opts.Crates) == 0 && in.opts.Crates == nil {
		return false
	}
	switch name {
	case "crate", "self", "super",
		// Burn's modules, as a `use burn::nn;` leaves them to paths.
		"nn", "tensor", "module", "optim", "train", "data", "record", "backend", "config", "prelude", "lr_scheduler",
		"grad_clipping", "store", "collective", "server", "ops", "activation", "linalg", "signal", "grid", "loss",
		"stats", "quantization", "distributed", "remote", "metric", "dataset", "transform", "vision", "nlp":
		return false
	}
	return !strings.HasPrefix(name, "burn") && !modelledCrates[name] && !slices.Contains(in.opts.Crates, name) && !rstd.IsIntType(name) &&
		name != "f32" && name != "f64" && name != "str" && name != "char" && name != "bool"
}

// otherCrateCall is a call into a crate of the package's dependencies the
// engine does not model (rand, csv, serde_json ...): a boundary, whose
// value is unknown.
func (in *interp) otherCrateCall(crate string, path []string, r source.Range) value {
	in.boundary(CodeUnmodelled, r, fmt.Sprintf("`%s` is from the crate `%s`, which the playground does not model", strings.Join(path, "::"), crate))
	return unknown
}

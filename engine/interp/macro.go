package interp

import (
	"fmt"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// format evaluates a format string and its arguments, as println! takes
// them. ok is false when the macro could not be formatted (a diagnostic was
// reported).
func (in *interp) format(e *syntax.MacroExpr, args []syntax.Expr) (s string, ok bool, sig *signal) {
	s, ok, _, sig = in.formatOrMissing(e, args)
	return s, ok, sig
}

// formatOrMissing is format that also names the first argument whose value
// is unknown ("the value of `x`", empty when none is): the text cannot be
// formatted then.
func (in *interp) formatOrMissing(e *syntax.MacroExpr, args []syntax.Expr) (s string, ok bool, missing string, sig *signal) {
	if len(args) == 0 {
		return "", true, "", nil
	}
	lit, isLit := args[0].(*syntax.LitExpr)
	if !isLit || lit.Kind != syntax.StrLit {
		in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error, Phase: diag.Check,
			Message: "format argument must be a string literal", File: diag.MainRS, Range: args[0].Span()})
		return "", false, "", nil
	}
	var positional []value
	var exprs []syntax.Expr
	named := map[string]value{}
	namedExprs := map[string]syntax.Expr{}
	for _, a := range args[1:] {
		if as, isAssign := a.(*syntax.AssignExpr); isAssign && as.Op == "=" {
			if p, isPath := as.Lhs.(*syntax.PathExpr); isPath && len(p.Segments) == 1 {
				v, sig := in.expr(as.Rhs)
				if sig != nil {
					return "", false, "", sig
				}
				named[p.Segments[0].Name] = v
				namedExprs[p.Segments[0].Name] = as.Rhs
				continue
			}
		}
		v, sig := in.expr(a)
		if sig != nil {
			return "", false, "", sig
		}
		positional = append(positional, v)
		exprs = append(exprs, a)
	}
	for i, v := range positional {
		if isUnknown(v) {
			return "", false, in.valueOf(exprs[i].Span()), nil
		}
	}
	for _, a := range args[1:] {
		if as, isAssign := a.(*syntax.AssignExpr); isAssign && as.Op == "=" {
			if p, isPath := as.Lhs.(*syntax.PathExpr); isPath && len(p.Segments) == 1 && isUnknown(named[p.Segments[0].Name]) {
				return "", false, in.valueOf(namedExprs[p.Segments[0].Name].Span()), nil
			}
		}
	}
	if name := in.unknownInline(lit.Value, named); name != "" {
		return "", false, "the value of `" + name + "`", nil
	}
	if hasDisplayPlaceholder(lit.Value) {
		// A tensor's Display prints its data, which a tensor past the
		// budget (or from outside) does not have: what would be printed is
		// not known. (Its Debug prints only the primitive's kind.)
		for i, v := range positional {
			if t, ok := tensorOf(v); ok && !t.HasValues() {
				return "", false, "the values of " + in.quote(exprs[i].Span()), nil
			}
		}
		for name, v := range named {
			if t, ok := tensorOf(v); ok && !t.HasValues() {
				return "", false, "the values of `" + name + "`", nil
			}
		}
	}
	out, ferr := in.formatArgs(lit.Value, positional, named)
	if ferr != nil {
		in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error, Phase: diag.Check,
			Message: ferr.msg, File: diag.MainRS, Range: lit.Range})
		return "", false, "", nil
	}
	if bad, debug := in.missingDisplay(lit.Value, positional, named); bad != nil && !debug {
		in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error, Phase: diag.Check,
			Message: fmt.Sprintf("`%s` doesn't implement `std::fmt::Display`", bad.TypeName()),
			Help:    []string{"use `{:?}` (Debug) instead of `{}`"}, File: diag.MainRS, Range: e.Range})
		return "", false, "", nil
	} else if bad != nil {
		// rustc's E0277 for a type without Debug.
		name := bad.TypeName()
		in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error, Phase: diag.Check,
			Message: fmt.Sprintf("`%s` doesn't implement `Debug`", name),
			Help: []string{fmt.Sprintf("the trait `Debug` is not implemented for `%s`", name),
				fmt.Sprintf("add `#[derive(Debug)]` to `%s` or manually `impl Debug for %s`", name, name)},
			File: diag.MainRS, Range: e.Range})
		return "", false, "", nil
	}
	return out, true, "", nil
}

// hasDisplayPlaceholder reports whether a format string has a placeholder
// that formats with Display (`{}`, `{x}`, `{:>8}`), not Debug (`{:?}`).
func hasDisplayPlaceholder(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '{' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			i++
			continue
		}
		end := strings.IndexByte(format[i:], '}')
		if end < 0 {
			return false
		}
		spec := format[i+1 : i+end]
		if !strings.HasSuffix(spec, "?") {
			return true
		}
		i += end
	}
	return false
}

// missingDisplay returns the first value printed with `{}` whose type has
// no Display, or with `{:?}` whose type (or a type inside it) has no
// Debug (debug is then set and bad is that type's value), which rustc
// rejects.
func (in *interp) missingDisplay(format string, args []value, named map[string]value) (bad value, debug bool) {
	next := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '{' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			i++
			continue
		}
		end := strings.IndexByte(format[i:], '}')
		if end < 0 {
			return nil, false
		}
		spec, err := parseSpec(format[i+1 : i+end])
		i += end
		if err != nil {
			return nil, false
		}
		var v value
		switch {
		case spec.arg == "":
			if next < len(args) {
				v = args[next]
			}
			next++
		case spec.arg[0] >= '0' && spec.arg[0] <= '9':
			var n int
			fmt.Sscan(spec.arg, &n)
			if n < len(args) {
				v = args[n]
			}
		default:
			if nv, ok := named[spec.arg]; ok {
				v = nv
			} else if b := in.scope.lookup(spec.arg); b != nil {
				v = b.v
			}
		}
		if v != nil && !spec.debug && spec.precision < 0 && !in.hasDisplayUser(v) {
			return v, false
		}
		if v != nil && spec.debug {
			if lacking := in.lacksDebug(v, 0); lacking != nil {
				return lacking, true
			}
		}
	}
	return nil, false
}

// lacksDebug is the value of the program's type inside v that neither
// derives nor implements Debug, or nil.
func (in *interp) lacksDebug(v value, depth int) value {
	if depth > 16 {
		return nil
	}
	switch x := dispatch.Deref(v).(type) {
	case *dispatch.Enum:
		if decl := in.structs[x.Type]; decl != nil {
			if !derives(decl, "Debug") && onlyStdDerives(decl) && in.traitMethod(x.Type, "Debug", "fmt") == nil {
				return x
			}
			return nil
		}
		if x.Type == "Option" || x.Type == "Result" {
			for _, f := range x.Fields {
				if bad := in.lacksDebug(f, depth+1); bad != nil {
					return bad
				}
			}
		}
	case *dispatch.Array:
		for _, el := range x.Elems {
			if bad := in.lacksDebug(el, depth+1); bad != nil {
				return bad
			}
		}
	case dispatch.Tuple:
		for _, el := range x {
			if bad := in.lacksDebug(el, depth+1); bad != nil {
				return bad
			}
		}
	}
	return nil
}

// unknownInline returns the first inline argument of format (`{x}`) that
// names a variable whose value is unknown, or "".
func (in *interp) unknownInline(format string, named map[string]value) string {
	for i := 0; i < len(format); i++ {
		if format[i] != '{' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '{' {
			i++
			continue
		}
		end := strings.IndexByte(format[i:], '}')
		if end < 0 {
			return ""
		}
		spec, err := parseSpec(format[i+1 : i+end])
		i += end
		if err != nil || spec.arg == "" || spec.arg[0] >= '0' && spec.arg[0] <= '9' {
			continue
		}
		if _, isNamed := named[spec.arg]; isNamed {
			continue
		}
		if b := in.scope.lookup(spec.arg); b != nil && isUnknown(b.v) {
			return spec.arg
		}
	}
	return ""
}

// print appends to the program's output, within the output budget.
func (in *interp) print(s string, e *syntax.MacroExpr) *signal {
	if in.opts.Mode == Check {
		return nil
	}
	room := in.opts.OutputLimit - in.output.Len()
	if len(s) > room {
		in.output.WriteString(s[:max(room, 0)])
		return in.limit("output", e.Range)
	}
	in.output.WriteString(s)
	return nil
}

func (in *interp) macro(e *syntax.MacroExpr) (value, *signal) {
	if len(e.Path) == 2 && (e.Path[0] == "log" || e.Path[0] == "tracing") {
		return in.logMacro(e)
	}
	switch e.Name {
	case "matches":
		return in.matchesMacro(e)
	case "write", "writeln":
		return in.writeMacro(e)
	case "println", "print", "eprintln", "eprint", "format", "format_args":
		// format_args!'s fmt::Arguments is held as the text it formats
		// to, which is all a program can do with it (print it, or hand
		// it to write_fmt).
		if e.Name == "format_args" {
			fa := *e
			fa.Name = "format"
			e = &fa
		}
		s, ok, missing, sig := in.formatOrMissing(e, e.Args)
		if sig != nil {
			return nil, sig
		}
		if !ok {
			if e.Name == "format" {
				return unknown, nil
			}
			if missing != "" {
				in.unchecked(e.Range, "`"+e.Name+"!`", missing, "nothing was printed here")
			}
			return dispatch.Unit{}, nil
		}
		if strings.HasSuffix(e.Name, "ln") {
			s += "\n"
		}
		if fits, sig := in.buildText(len(s), e.Range); !fits || sig != nil {
			if e.Name == "format" {
				return unknown, sig
			}
			return dispatch.Unit{}, sig
		}
		if e.Name == "format" {
			return dispatch.Str(s), nil
		}
		return dispatch.Unit{}, in.print(s, e)
	case "dbg":
		vals, sig := in.exprs(e.Args)
		if sig != nil {
			return nil, sig
		}
		pos := in.src.Position(e.Range.Start)
		for i, v := range vals {
			if isUnknown(v) {
				in.unchecked(e.Range, "`dbg!`", in.valueOf(e.Args[i].Span()), "it was printed as `_`")
			}
			text := strings.TrimSpace(in.src.Slice(e.Args[i].Span()))
			if sig := in.print(fmt.Sprintf("[src/main.rs:%d:%d] %s = %s\n", pos.Line, pos.Column, text, debug(v)), e); sig != nil {
				return nil, sig
			}
		}
		switch len(vals) {
		case 0:
			if sig := in.print(fmt.Sprintf("[src/main.rs:%d:%d]\n", pos.Line, pos.Column), e); sig != nil {
				return nil, sig
			}
			return dispatch.Unit{}, nil
		case 1:
			return vals[0], nil
		}
		return dispatch.Tuple(vals), nil
	case "vec":
		if e.Repeat && len(e.Args) == 2 {
			return in.repeat(e.Args[0], e.Args[1], true, e.Range)
		}
		vals, sig := in.exprs(e.Args)
		if sig != nil {
			return nil, sig
		}
		return &dispatch.Array{Elems: vals, Vec: true}, nil
	case "s":
		vals, sig := in.exprs(e.Args)
		if sig != nil {
			return nil, sig
		}
		// `range;step` is Slice::from_range_stepped(range, step), which
		// asserts a non-zero step (burn-std tensor/slice.rs:222-290).
		for i, st := range e.Steps {
			if st == nil || i >= len(vals) {
				continue
			}
			step, sig := in.expr(st)
			if sig != nil {
				return nil, sig
			}
			call := dispatch.Call{Path: []string{"Slice", "from_range_stepped"}, Args: []dispatch.Value{vals[i], step}}
			if vals[i], sig = in.burn(call, e.Args[i].Span(), []source.Range{e.Args[i].Span(), e.Args[i].Span(), st.Span()}); sig != nil {
				return nil, sig
			}
		}
		if len(vals) == 1 {
			// s![x] is one Slice, not an array of them.
			return vals[0], nil
		}
		return &dispatch.Array{Elems: vals}, nil
	case "assert", "debug_assert":
		return in.assertMacro(e)
	case "assert_eq", "assert_ne", "debug_assert_eq", "debug_assert_ne":
		return in.assertCmp(e)
	case "panic", "todo", "unimplemented", "unreachable":
		msg, ok, missing, sig := in.formatOrMissing(e, e.Args)
		if sig != nil {
			return nil, sig
		}
		if !ok {
			if missing != "" {
				in.unchecked(e.Range, "`"+e.Name+"!`", missing, "the program goes on past it here, where Rust would panic")
			}
			return unknown, nil
		}
		prefix := map[string]string{
			"panic": "explicit panic", "todo": "not yet implemented",
			"unimplemented": "not implemented", "unreachable": "internal error: entered unreachable code",
		}[e.Name]
		switch {
		case len(e.Args) == 0:
			msg = prefix
		case e.Name != "panic":
			msg = prefix + ": " + msg
		}
		return in.userPanic(e.Range, msg)
	}
	if e.Foreign {
		return in.otherCrateCall(e.Path[0], []string{e.Name + "!"}, e.Range), nil
	}
	in.unsupported(e.NameSpan, fmt.Sprintf("macro `%s!` is not supported by the playground", e.Name))
	return unknown, nil
}

func (in *interp) assertMacro(e *syntax.MacroExpr) (value, *signal) {
	if len(e.Args) == 0 {
		in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error, Phase: diag.Check,
			Message: "macro requires a boolean expression as an argument", File: diag.MainRS, Range: e.Range})
		return unknown, nil
	}
	b, known, sig := in.cond(e.Args[0])
	if sig == nil && !known {
		in.unchecked(e.Range, "`"+e.Name+"!`", in.valueOf(e.Args[0].Span()))
	}
	if sig != nil || !known || b {
		return dispatch.Unit{}, sig
	}
	msg := "assertion failed: " + strings.TrimSpace(in.src.Slice(e.Args[0].Span()))
	if len(e.Args) > 1 {
		s, ok, missing, sig := in.formatOrMissing(e, e.Args[1:])
		if sig != nil {
			return nil, sig
		}
		if !ok {
			if missing != "" {
				in.unchecked(e.Range, "the failure of `"+e.Name+"!`", missing+", which its message prints",
					"the assertion does not hold; the program goes on past it here, where Rust would panic")
			}
			return unknown, nil
		}
		msg = s
	}
	return in.userPanicCode(e.Range, "assertion-failed", msg)
}

func (in *interp) assertCmp(e *syntax.MacroExpr) (value, *signal) {
	if len(e.Args) < 2 {
		in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error, Phase: diag.Check,
			Message: "unexpected end of macro invocation: two arguments are required", File: diag.MainRS, Range: e.Range})
		return unknown, nil
	}
	l, sig := in.expr(e.Args[0])
	if sig != nil {
		return nil, sig
	}
	r, sig := in.exprExpect(e.Args[1], operandType(l))
	if sig != nil {
		return nil, sig
	}
	what := "`" + e.Name + "!`"
	switch {
	case isUnknown(l) && isUnknown(r):
		in.unchecked(e.Range, what, "the values of "+in.quote(e.Args[0].Span())+" and "+in.quote(e.Args[1].Span()))
		return dispatch.Unit{}, nil
	case isUnknown(l):
		in.unchecked(e.Range, what, in.valueOf(e.Args[0].Span()))
		return dispatch.Unit{}, nil
	case isUnknown(r):
		in.unchecked(e.Range, what, in.valueOf(e.Args[1].Span()))
		return dispatch.Unit{}, nil
	}
	wantEq := strings.HasSuffix(e.Name, "eq")
	eq, known := valuesEqual(l, r)
	if !known && (isBurn(l) || isBurn(r)) {
		v, sig := in.burn(dispatch.Call{Recv: l, Method: "eq", Args: []value{r}}, e.Range, []source.Range{e.Args[0].Span(), e.Args[1].Span()})
		if sig != nil {
			return nil, sig
		}
		if b, ok := dispatch.Deref(v).(dispatch.Bool); ok {
			eq, known = bool(b), true
		}
	}
	if !known {
		in.unchecked(e.Range, what, "whether "+in.quote(e.Args[0].Span())+" equals "+in.quote(e.Args[1].Span()))
		return dispatch.Unit{}, nil
	}
	if eq == wantEq {
		return dispatch.Unit{}, nil
	}
	op := "=="
	if !wantEq {
		op = "!="
	}
	msg := fmt.Sprintf("assertion `left %s right` failed", op)
	if len(e.Args) > 2 {
		s, ok, sig := in.format(e, e.Args[2:])
		if sig != nil {
			return nil, sig
		}
		if ok {
			msg += ": " + s
		}
	}
	msg += fmt.Sprintf("\n  left: %s\n right: %s", debug(l), debug(r))
	return in.userPanicCode(e.Range, "assertion-failed", msg)
}

// matchesMacro is matches!(scrutinee, pattern [if guard]).
func (in *interp) matchesMacro(e *syntax.MacroExpr) (value, *signal) {
	if len(e.Args) == 0 || e.Arm == nil {
		return unknown, nil
	}
	v, sig := in.expr(e.Args[0])
	if sig != nil {
		return nil, sig
	}
	in.push()
	defer in.pop()
	matched := false
	for _, p := range e.Arm.Pats {
		if in.matchPattern(p, v, true) {
			matched = true
			break
		}
	}
	if matched && e.Arm.Guard != nil {
		b, known, sig := in.cond(e.Arm.Guard)
		if sig != nil {
			return nil, sig
		}
		if !known {
			return unknown, nil
		}
		matched = b
	}
	if isUnknown(v) {
		return unknown, nil
	}
	return dispatch.Bool(matched), nil
}

// logMacro is one of log's or tracing's macros (expand resolved it and
// put its format arguments in Args, its field values in Fields). No logger
// or subscriber is installed, so nothing is printed and, as in those
// crates, a run does not evaluate the arguments; the check reads them as
// format! does. A span macro's value is a span nothing observes.
func (in *interp) logMacro(e *syntax.MacroExpr) (value, *signal) {
	if in.opts.Mode == Check {
		for _, f := range e.Fields {
			if _, sig := in.expr(f); sig != nil {
				return nil, sig
			}
		}
		if len(e.Args) > 0 {
			if _, _, sig := in.format(e, e.Args); sig != nil {
				return nil, sig
			}
		}
	}
	if strings.HasSuffix(e.Name, "span") {
		return unknown, nil
	}
	return dispatch.Unit{}, nil
}

// writeMacro is write! and writeln! into a String variable, which appends
// the formatted text to it and is Ok(()).
func (in *interp) writeMacro(e *syntax.MacroExpr) (value, *signal) {
	if len(e.Args) == 0 {
		in.report(diag.Diagnostic{Code: "syntax-error", Severity: diag.Error, Phase: diag.Check,
			Message: "requires a destination and format arguments, like `" + e.Name + "!(dest, \"format string\", args...)`", File: diag.MainRS, Range: e.Range})
		return unknown, nil
	}
	dst := e.Args[0]
	for {
		u, ok := dst.(*syntax.UnaryExpr)
		if !ok || u.Op != "&mut" && u.Op != "&" {
			break
		}
		dst = u.X
	}
	var b *binding
	if p, ok := dst.(*syntax.PathExpr); ok && len(p.Segments) == 1 {
		b = in.scope.lookup(p.Segments[0].Name)
	}
	if b == nil {
		v, sig := in.expr(e.Args[0])
		if sig != nil || isUnknown(v) {
			return unknown, sig
		}
		if f, isFmt := dispatch.Deref(v).(*formatter); isFmt {
			return in.writeFormatter(e, f)
		}
		in.unsupported(e.Args[0].Span(), fmt.Sprintf("`%s!` into a `%s` is not supported by the playground, which writes into a `String` variable", e.Name, v.TypeName()))
		return unknown, nil
	}
	if f, isFmt := dispatch.Deref(b.v).(*formatter); isFmt {
		return in.writeFormatter(e, f)
	}
	cur, isStr := b.v.(dispatch.Str)
	if !isStr {
		if !isUnknown(b.v) {
			in.unsupported(e.Args[0].Span(), fmt.Sprintf("`%s!` into a `%s` is not supported by the playground, which writes into a `String` variable", e.Name, b.v.TypeName()))
		}
		return unknown, nil
	}
	s, ok, sig := in.format(e, e.Args[1:])
	if sig != nil || !ok {
		return unknown, sig
	}
	if e.Name == "writeln" {
		s += "\n"
	}
	if fits, sig := in.buildText(len(cur)+len(s), e.Range); !fits || sig != nil {
		return unknown, sig
	}
	b.v = dispatch.Str(string(cur) + s)
	return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{dispatch.Unit{}}}, nil
}

// writeFormatter is write!/writeln! into the Formatter of a program's fmt.
func (in *interp) writeFormatter(e *syntax.MacroExpr, f *formatter) (value, *signal) {
	s, ok, sig := in.format(e, e.Args[1:])
	if sig != nil || !ok {
		return unknown, sig
	}
	if e.Name == "writeln" {
		s += "\n"
	}
	if fits, sig := in.buildText(f.out.Len()+len(s), e.Range); !fits || sig != nil {
		return unknown, sig
	}
	f.out.WriteString(s)
	return fmtOk, nil
}

// onlyStdDerives reports whether every derive of decl is one of std's:
// another crate's derive (burn's Module, Config) may write a Debug impl.
func onlyStdDerives(decl *syntax.StructDecl) bool {
	std := map[string]bool{"Clone": true, "Copy": true, "PartialEq": true, "Eq": true, "PartialOrd": true, "Ord": true,
		"Hash": true, "Default": true, "Debug": true}
	for _, a := range decl.Attrs {
		if a.Path != "derive" {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == syntax.Ident && !std[t.Text] {
				return false
			}
		}
	}
	return true
}

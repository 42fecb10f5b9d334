package expand

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The built-in macros that rustc expands before type checking are
// expanded here, to literals and paths; they are a table of small
// functions.
var builtins map[string]func(x *expander, m *syntax.MacroExpr) syntax.Expr

func init() {
	builtins = map[string]func(x *expander, m *syntax.MacroExpr) syntax.Expr{
		"stringify":     (*expander).stringify,
		"concat":        (*expander).concat,
		"env":           (*expander).env,
		"option_env":    (*expander).optionEnv,
		"line":          (*expander).line,
		"column":        (*expander).column,
		"file":          (*expander).fileMacro,
		"module_path":   (*expander).modulePath,
		"compile_error": (*expander).compileError,
		"include_str":   (*expander).include,
		"include_bytes": (*expander).include,
		"include":       (*expander).include,
		"cfg":           (*expander).cfgMacro,
	}
}

// stdUnsupported are macros of std the playground does not run.
var stdUnsupported = map[string]bool{
	"thread_local": true, "concat_idents": true, "format_args_nl": true, "const_format_args": true,
	"is_x86_feature_detected": true, "asm": true, "global_asm": true, "trace_macros": true, "log_syntax": true,
	"assert_matches": true, "debug_assert_matches": true, "cfg_match": true, "cfg_select": true, "try": true,
}

// stdName is the name of a call that can be one of std's macros: a bare
// name or a path through std, core or alloc.
func (x *expander) stdName(m *syntax.MacroExpr) (string, bool) {
	switch len(m.Path) {
	case 0, 1:
		return m.Name, true
	case 2:
		switch m.Path[0] {
		case "std", "core", "alloc":
			return m.Name, true
		}
	}
	return "", false
}

// builtin expands a token-tree call that is not one of the program's
// macros.
func (x *expander) builtin(m *syntax.MacroExpr) syntax.Expr {
	if name, ok := x.stdName(m); ok {
		if f := builtins[name]; f != nil {
			return f(x, m)
		}
		if e := x.reparse(m); e != nil {
			return e
		}
	}
	if crate, name, ok := x.logCrate(m); ok {
		return x.logMacro(m, crate, name)
	}
	if crate := x.foreignCrate(m); crate != "" {
		// A macro of a crate the engine does not model (polars' df!): the
		// evaluator makes it a boundary, with an unknown value.
		out := *m
		out.Path = append([]string{crate}, m.Name)
		out.Foreign = true
		return &out
	}
	x.unknownOrUnsupported(m)
	return &syntax.BadExpr{Range: m.Range}
}

// foreignCrate is the crate a call of a macro that is neither the
// program's nor std's comes from, when that is a dependency the engine
// does not model: the first segment of its path, the crate of a `use`
// that names it, or else the one crate of that kind whose items a glob
// `use` brings in. "" otherwise.
func (x *expander) foreignCrate(m *syntax.MacroExpr) string {
	root := func(p string) string {
		p = strings.TrimPrefix(p, "::")
		if i := strings.Index(p, "::"); i >= 0 {
			return p[:i]
		}
		return p
	}
	if len(m.Path) >= 2 {
		if x.opts.Package.Foreign(m.Path[0]) {
			return m.Path[0]
		}
		return ""
	}
	if p, ok := x.imports[m.Name]; ok {
		if c := root(p); x.opts.Package.Foreign(c) {
			return c
		}
		return ""
	}
	var globbed []string
	for k, p := range x.imports {
		if strings.HasPrefix(k, "*") {
			if c := root(p); x.opts.Package.Foreign(c) && !slices.Contains(globbed, c) {
				globbed = append(globbed, c)
			}
		}
	}
	if len(globbed) == 1 {
		return globbed[0]
	}
	return ""
}

func (x *expander) unknownOrUnsupported(m *syntax.MacroExpr) {
	if name, ok := x.stdName(m); ok && stdUnsupported[name] {
		r := m.NameSpan
		x.add(errStdMacroUnsupported(r, name))
		return
	}
	x.unknown(m)
}

// reparse reads a call of a built-in whose name the program also uses for
// a macro of its own, where that macro is not in scope: the parser kept
// its tokens, and now reads them as the built-in's arguments. nil when the
// name is not a built-in the parser reads.
func (x *expander) reparse(m *syntax.MacroExpr) syntax.Expr {
	if !x.names[m.Name] {
		return nil
	}
	text, base := x.src.TextAt(m.Range.Start)
	headEnd := m.Close.Start
	if len(m.Tokens) > 0 {
		headEnd = m.Tokens[0].Range.Start
	}
	if m.Range.Start-base < 0 || headEnd-base > len(text) || headEnd < m.Range.Start {
		return nil
	}
	toks := syntax.Lex(text[m.Range.Start-base:headEnd-base], m.Range.Start)
	toks = append(toks, m.Tokens...)
	closer := map[string]string{"(": ")", "[": "]", "{": "}"}[m.Delim]
	toks = append(toks, syntax.Token{Kind: syntax.Punct, Text: closer, Range: m.Close})
	macros := map[string]bool{}
	for n := range x.names {
		if n != m.Name {
			macros[n] = true
		}
	}
	e, _, diags := syntax.ParseExpr(syntax.Tokens{Toks: toks, Text: text, Base: base, Macros: macros})
	b, ok := e.(*syntax.MacroExpr)
	if !ok || b.Tokens != nil {
		return nil
	}
	for _, d := range diags {
		x.add(d)
	}
	x.builtinArgs(b)
	return b
}

// ---- arguments ----

// splitArgs splits tokens at the commas outside delimiters; a trailing
// comma ends the list.
func splitArgs(toks []syntax.Token, sep string) [][]syntax.Token {
	var parts [][]syntax.Token
	depth, start := 0, 0
	for i, t := range toks {
		switch {
		case isOpen(t) || t.Kind == syntax.OpenInvisible:
			depth++
		case isClose(t) || t.Kind == syntax.CloseInvisible:
			depth--
		case depth == 0 && isPunct(t, sep):
			parts = append(parts, toks[start:i])
			start = i + 1
		}
	}
	if start < len(toks) {
		parts = append(parts, toks[start:])
	}
	return parts
}

// argExpr parses one argument as an expression and expands the macros in
// it.
func (x *expander) argExpr(toks []syntax.Token, m *syntax.MacroExpr) syntax.Expr {
	if len(toks) == 0 {
		x.add(errMacroArgs(m.Range, "expected expression, found `,`"))
		return &syntax.BadExpr{Range: m.Range}
	}
	e, rest, diags := syntax.ParseExpr(x.tokensAt(toks, toks[0].Range.Start))
	if diags.HasErrors() {
		for _, d := range diags {
			x.add(d)
		}
		return &syntax.BadExpr{Range: e.Span()}
	}
	if rest.Kind != syntax.EOF {
		x.add(errMacroArgs(rest.Range, "expected `,`, found "+rest.String()))
		return &syntax.BadExpr{Range: e.Span()}
	}
	return x.expr(e)
}

// literalArgs reads the arguments of concat!, env! and the include
// macros: expressions that must expand to literals.
func (x *expander) literalArgs(m *syntax.MacroExpr) ([]*syntax.LitExpr, []source.Range, bool) {
	var lits []*syntax.LitExpr
	var ranges []source.Range
	for _, part := range splitArgs(m.Tokens, ",") {
		e := x.argExpr(part, m)
		if _, bad := e.(*syntax.BadExpr); bad {
			return nil, nil, false
		}
		lit := literalOf(e)
		if lit == nil {
			x.add(errConcatLiteral(e.Span()))
			return nil, nil, false
		}
		lits = append(lits, lit)
		ranges = append(ranges, e.Span())
	}
	return lits, ranges, true
}

// literalOf is the literal an expression is, with a leading `-` folded
// into a number.
func literalOf(e syntax.Expr) *syntax.LitExpr {
	switch e := e.(type) {
	case *syntax.LitExpr:
		return e
	case *syntax.ParenExpr:
		return literalOf(e.X)
	case *syntax.UnaryExpr:
		if l, ok := e.X.(*syntax.LitExpr); ok && e.Op == "-" && (l.Kind == syntax.IntLit || l.Kind == syntax.FloatLit) {
			n := *l
			n.Value, n.Text = "-"+l.Value, "-"+l.Text
			return &n
		}
	}
	return nil
}

func strLit(r source.Range, s string) *syntax.LitExpr {
	return &syntax.LitExpr{Range: r, Kind: syntax.StrLit, Text: strconv.Quote(s), Value: s}
}

// ---- the built-ins ----

func (x *expander) stringify(m *syntax.MacroExpr) syntax.Expr {
	return strLit(m.Range, syntax.TokensText(m.Tokens))
}

func (x *expander) concat(m *syntax.MacroExpr) syntax.Expr {
	lits, ranges, ok := x.literalArgs(m)
	if !ok {
		return &syntax.BadExpr{Range: m.Range}
	}
	var b strings.Builder
	for i, l := range lits {
		switch l.Kind {
		case syntax.StrLit, syntax.CharLit, syntax.BoolLit:
			b.WriteString(l.Value)
		case syntax.IntLit, syntax.FloatLit:
			b.WriteString(strings.TrimSuffix(l.Text, l.Suffix))
		default:
			x.add(errMacroArgs(ranges[i], "cannot concatenate a byte string literal"))
			return &syntax.BadExpr{Range: m.Range}
		}
	}
	return strLit(m.Range, b.String())
}

// envArgs reads env!'s and option_env!'s `"NAME"` (and env!'s message).
func (x *expander) envArgs(m *syntax.MacroExpr, max int) (name, msg string, ok bool) {
	lits, ranges, ok := x.literalArgs(m)
	if !ok {
		return "", "", false
	}
	if len(lits) == 0 || len(lits) > max {
		x.add(errMacroArgs(m.Range, "`"+m.Name+"!()` takes 1 to "+strconv.Itoa(max)+" arguments"))
		return "", "", false
	}
	for i, l := range lits {
		if l.Kind != syntax.StrLit {
			x.add(errMacroArgs(ranges[i], "expected string literal"))
			return "", "", false
		}
	}
	if len(lits) > 1 {
		msg = lits[1].Value
	}
	return lits[0].Value, msg, true
}

func (x *expander) env(m *syntax.MacroExpr) syntax.Expr {
	name, msg, ok := x.envArgs(m, 2)
	if !ok {
		return &syntax.BadExpr{Range: m.Range}
	}
	v, set := cargoEnv(x.opts.Package)[name]
	if !set {
		x.add(errEnvNotDefined(m.Range, name, msg))
		return &syntax.BadExpr{Range: m.Range}
	}
	return strLit(m.Range, v)
}

func (x *expander) optionEnv(m *syntax.MacroExpr) syntax.Expr {
	name, _, ok := x.envArgs(m, 1)
	if !ok {
		return &syntax.BadExpr{Range: m.Range}
	}
	v, set := cargoEnv(x.opts.Package)[name]
	if !set {
		return &syntax.PathExpr{Range: m.Range, Segments: []syntax.PathSegment{{Range: m.Range, Name: "None"}}}
	}
	return &syntax.CallExpr{Range: m.Range, ParenRange: m.Range,
		Fun:  &syntax.PathExpr{Range: m.Range, Segments: []syntax.PathSegment{{Range: m.Range, Name: "Some"}}},
		Args: []syntax.Expr{strLit(m.Range, v)}}
}

// callPos is the position of a call in main.rs: for a call inside an
// expansion, that of the invocation it came from, as rustc's line!() has
// it.
func (x *expander) callPos(m *syntax.MacroExpr) source.Pos {
	return x.src.Position(x.src.Resolve(m.Range).Start)
}

func u32Lit(r source.Range, n int) *syntax.LitExpr {
	s := strconv.Itoa(n)
	return &syntax.LitExpr{Range: r, Kind: syntax.IntLit, Text: s + "u32", Value: s, Suffix: "u32"}
}

func (x *expander) line(m *syntax.MacroExpr) syntax.Expr { return u32Lit(m.Range, x.callPos(m).Line) }
func (x *expander) column(m *syntax.MacroExpr) syntax.Expr {
	return u32Lit(m.Range, x.callPos(m).Column)
}

// MainFile is the path of the program's file in its crate, as file!()
// reads it.
const MainFile = "src/main.rs"

func (x *expander) fileMacro(m *syntax.MacroExpr) syntax.Expr { return strLit(m.Range, MainFile) }

func (x *expander) modulePath(m *syntax.MacroExpr) syntax.Expr {
	return strLit(m.Range, strings.Join(append([]string{crateName(x.opts.Package.Name)}, x.modPath...), "::"))
}

func (x *expander) compileError(m *syntax.MacroExpr) syntax.Expr {
	lits, _, ok := x.literalArgs(m)
	if ok && len(lits) == 1 && lits[0].Kind == syntax.StrLit {
		x.add(errCompileError(m.Range, lits[0].Value))
	} else if ok {
		x.add(errMacroArgs(m.Range, "compile_error! takes 1 argument"))
	}
	return &syntax.BadExpr{Range: m.Range}
}

// include is include_str!, include_bytes! and include!: the request holds
// main.rs alone, so the file is a boundary the playground cannot cross.
// The value is unknown; the warning says so.
func (x *expander) include(m *syntax.MacroExpr) syntax.Expr {
	lits, ranges, ok := x.literalArgs(m)
	if !ok {
		return &syntax.BadExpr{Range: m.Range}
	}
	if len(lits) != 1 || lits[0].Kind != syntax.StrLit {
		r := m.Range
		if len(ranges) > 0 {
			r = ranges[0]
		}
		x.add(errMacroArgs(r, "argument must be a string literal"))
		return &syntax.BadExpr{Range: m.Range}
	}
	file := lits[0].Value
	if !strings.HasPrefix(file, "/") {
		file = path.Join(path.Dir(MainFile), file)
	}
	x.add(warnInclude(m.Range, m.Name, lits[0].Value, file))
	return &syntax.BadExpr{Range: m.Range}
}

func (x *expander) cfgMacro(m *syntax.MacroExpr) syntax.Expr {
	v := "false"
	if x.build.Holds(m.Tokens) {
		v = "true"
	}
	return &syntax.LitExpr{Range: m.Range, Kind: syntax.BoolLit, Text: v, Value: v}
}

// cargoEnv is what Cargo sets for the compiler, and env! reads: the
// package's identity. The manifest directory is where the playground's
// crate would sit.
func cargoEnv(p config.Package) map[string]string {
	name := p.Name
	if name == "" {
		name = "playground"
	}
	version := p.Version
	if version == "" {
		version = "0.1.0"
	}
	core, pre, _ := strings.Cut(version, "-")
	core, _, _ = strings.Cut(core, "+")
	nums := strings.SplitN(core, ".", 3)
	for len(nums) < 3 {
		nums = append(nums, "0")
	}
	dir := "/playground/" + name
	return map[string]string{
		"CARGO":                   "/usr/local/cargo/bin/cargo",
		"CARGO_MANIFEST_DIR":      dir,
		"CARGO_MANIFEST_PATH":     dir + "/Cargo.toml",
		"CARGO_PKG_NAME":          name,
		"CARGO_PKG_VERSION":       version,
		"CARGO_PKG_VERSION_MAJOR": nums[0],
		"CARGO_PKG_VERSION_MINOR": nums[1],
		"CARGO_PKG_VERSION_PATCH": nums[2],
		"CARGO_PKG_VERSION_PRE":   pre,
		"CARGO_PKG_AUTHORS":       strings.Join(p.Authors, ":"),
		"CARGO_PKG_DESCRIPTION":   p.Description,
		"CARGO_PKG_HOMEPAGE":      p.Homepage,
		"CARGO_PKG_REPOSITORY":    p.Repository,
		"CARGO_PKG_LICENSE":       p.License,
		"CARGO_PKG_LICENSE_FILE":  p.LicenseFile,
		"CARGO_PKG_RUST_VERSION":  p.RustVersion,
		"CARGO_PKG_README":        p.Readme,
		"CARGO_CRATE_NAME":        crateName(name),
		"CARGO_BIN_NAME":          name,
		"CARGO_PRIMARY_PACKAGE":   "1",
	}
}

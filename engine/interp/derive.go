package interp

import (
	"strconv"

	"github.com/dispatch-playground/playground/engine/diag"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The program's own types are *dispatch.Enum values whose Type names one
// of its structs or enums. This file gives them the meaning Rust's derives
// and the program's own trait impls give them: Debug and Display, Clone
// and Copy, Default, PartialEq and PartialOrd, and `as` on a fieldless
// enum.

// userDecl is the declaration of v's type when v is a value of one of the
// program's own structs or enums.
func (in *interp) userDecl(v value) (*dispatch.Enum, *syntax.StructDecl) {
	en, ok := dispatch.Deref(v).(*dispatch.Enum)
	if !ok {
		return nil, nil
	}
	decl := in.structs[en.Type]
	if decl == nil {
		return nil, nil
	}
	return en, decl
}

// traitMethod finds the method of the program's `impl Trait for typ`.
func (in *interp) traitMethod(typ, trait, method string) *syntax.FnDecl {
	for _, im := range in.impls {
		if im.Trait == nil || im.For == nil || lastSeg(im.Trait) != trait || lastSeg(im.For) != typ {
			continue
		}
		for _, m := range im.Methods {
			if m.Name == method {
				return m
			}
		}
	}
	return nil
}

// variantDecl is the variant of an enum declaration (or the struct itself)
// that en is a value of.
func variantDecl(decl *syntax.StructDecl, en *dispatch.Enum) (fields []*syntax.Field, shape syntax.Shape, index int, ok bool) {
	if !decl.Enum {
		return decl.Fields, decl.Shape, 0, true
	}
	for i, f := range decl.Fields {
		if f.Name == en.Variant {
			return f.Fields, f.Shape, i, true
		}
	}
	return nil, syntax.UnitShape, 0, false
}

// ---- formatting ----

// shown is text a program's Debug or Display produced, which the formatter
// pads and aligns as any other value.
type shown string

func (shown) TypeName() string { return "String" }

// hasUser reports whether v is or holds a value of the program's types.
func (in *interp) hasUser(v value, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := dispatch.Deref(v).(type) {
	case *nn.Config:
		return true
	case *dispatch.Enum:
		if in.structs[x.Type] != nil || nn.VariantFields(x) != nil {
			return true
		}
		for _, f := range x.Fields {
			if in.hasUser(f, depth+1) {
				return true
			}
		}
	case *dispatch.Array:
		for _, el := range x.Elems {
			if in.hasUser(el, depth+1) {
				return true
			}
		}
	case dispatch.Tuple:
		for _, el := range x {
			if in.hasUser(el, depth+1) {
				return true
			}
		}
	}
	return false
}

// userSpec formats a value for a `{}` or `{:?}` placeholder when the
// program's own code decides how it prints (its Display or Debug impls, or
// a derived Debug inside it) or when `{:#?}` asks for the pretty form. ok
// is false when the standard formatter decides alone.
func (in *interp) userSpec(spec fmtSpec, v value) (value, bool) {
	if !spec.debug {
		if s, ok := in.displayBurnDerived(v); ok {
			return shown(s), true
		}
		if en, decl := in.userDecl(v); decl != nil {
			if fn := in.traitMethod(en.Type, "Display", "fmt"); fn != nil {
				return shown(in.callFmt(fn, v, spec.pretty)), true
			}
		}
		return v, false
	}
	if !spec.pretty && !in.hasUser(v, 0) {
		return v, false
	}
	return shown(in.debugText(v, spec.pretty, 0)), true
}

// hasDisplayUser is hasDisplay with the program's Display impls.
func (in *interp) hasDisplayUser(v value) bool {
	if _, ok := v.(shown); ok {
		return true
	}
	if in.hasBurnDisplay(v) {
		return true
	}
	if en, decl := in.userDecl(v); decl != nil {
		return in.traitMethod(en.Type, "Display", "fmt") != nil
	}
	return hasDisplay(v)
}

// callFmt calls a program's `fn fmt(&self, f: &mut fmt::Formatter)` and
// returns what it wrote into f; alternate is `{:#?}`'s `#`.
func (in *interp) callFmt(fn *syntax.FnDecl, self value, alternate bool) string {
	params := fn.Params
	if len(params) > 0 && params[0].Self {
		params = params[1:]
	}
	if len(params) != 1 {
		return debug(self)
	}
	// A panic inside fmt has been reported; the text written so far is
	// what a run prints of it.
	f := &formatter{alternate: alternate}
	_, _ = in.callUserSelf(fn, self, []value{f}, fn.NameSpan)
	return f.out.String()
}

// debugText is `{:?}` (pretty: `{:#?}`) of v, with derived Debug for the
// program's types and their own Debug impls.
func (in *interp) debugText(v value, pretty bool, depth int) string {
	if depth > 64 {
		return ".."
	}
	if s, ok := v.(shown); ok {
		return string(s)
	}
	v = dispatch.Deref(v)
	sub := func(x value) string { return in.debugText(x, pretty, depth+1) }
	switch x := v.(type) {
	case *nn.Config:
		// Burn's configs derive Debug: their fields in declaration order.
		vals := make([]string, len(x.Fields))
		for i, f := range x.Fields {
			vals[i] = sub(x.Values[f])
		}
		return debugStruct(x.Type, x.Fields, vals, pretty)
	case *dispatch.Enum:
		if names := nn.VariantFields(x); names != nil && in.structs[x.Type] == nil {
			vals := make([]string, len(names))
			for i, f := range names {
				vals[i] = sub(x.Named[f])
			}
			return debugStruct(x.Variant, names, vals, pretty)
		}
		if decl := in.structs[x.Type]; decl != nil {
			if fn := in.traitMethod(x.Type, "Debug", "fmt"); fn != nil {
				return in.callFmt(fn, x, pretty)
			}
			fields, shape, _, _ := variantDecl(decl, x)
			name := x.Variant
			switch shape {
			case syntax.NamedShape:
				var names, vals []string
				for _, f := range fields {
					names = append(names, f.Name)
					fv, ok := x.Named[f.Name]
					if !ok {
						fv = unknown
					}
					vals = append(vals, sub(fv))
				}
				return debugStruct(name, names, vals, pretty)
			case syntax.TupleShape:
				vals := make([]string, len(x.Fields))
				for i, f := range x.Fields {
					vals[i] = sub(f)
				}
				return debugTuple(name, vals, pretty)
			}
			return name
		}
		if (x.Type == "Option" || x.Type == "Result") && x.Named == nil {
			if len(x.Fields) == 0 {
				return x.Variant
			}
			vals := make([]string, len(x.Fields))
			for i, f := range x.Fields {
				vals[i] = sub(f)
			}
			return debugTuple(x.Variant, vals, pretty)
		}
	case *dispatch.Array:
		vals := make([]string, len(x.Elems))
		for i, el := range x.Elems {
			vals[i] = sub(el)
		}
		if !pretty || len(vals) == 0 {
			return "[" + strings.Join(vals, ", ") + "]"
		}
		return "[\n" + prettyLines(vals) + "]"
	case dispatch.Tuple:
		vals := make([]string, len(x))
		for i, el := range x {
			vals[i] = sub(el)
		}
		if !pretty && len(vals) == 1 {
			return "(" + vals[0] + ",)"
		}
		return debugTuple("", vals, pretty)
	}
	return debug(v)
}

// prettyLines writes each value on its own line, indented by four spaces
// as Rust's PadAdapter does, each followed by a comma.
func prettyLines(vals []string) string {
	var b strings.Builder
	for _, v := range vals {
		b.WriteString("    ")
		b.WriteString(strings.ReplaceAll(v, "\n", "\n    "))
		b.WriteString(",\n")
	}
	return b.String()
}

func debugStruct(name string, names, vals []string, pretty bool) string {
	if len(names) == 0 {
		return name
	}
	parts := make([]string, len(names))
	for i := range names {
		parts[i] = names[i] + ": " + vals[i]
	}
	if pretty {
		return name + " {\n" + prettyLines(parts) + "}"
	}
	return name + " { " + strings.Join(parts, ", ") + " }"
}

func debugTuple(name string, vals []string, pretty bool) string {
	if len(vals) == 0 {
		if name == "" {
			return "()"
		}
		return name
	}
	if pretty {
		return name + "(\n" + prettyLines(vals) + ")"
	}
	return name + "(" + strings.Join(vals, ", ") + ")"
}

// ---- Clone and Copy ----

// cloneValue is a deep copy of a value of the program's types, as a
// derived Clone makes it; other values are shared (they are immutable, or
// the standard library copies them itself).
func (in *interp) cloneValue(v value, depth int) value {
	if depth > 64 {
		return v
	}
	switch x := v.(type) {
	case *dispatch.Enum:
		c := &dispatch.Enum{Type: x.Type, Variant: x.Variant, ErrorRow: x.ErrorRow}
		if x.Fields != nil {
			c.Fields = make([]value, len(x.Fields))
			for i, f := range x.Fields {
				c.Fields[i] = in.cloneValue(f, depth+1)
			}
		}
		if x.Named != nil {
			c.Named = make(map[string]value, len(x.Named))
			for k, f := range x.Named {
				c.Named[k] = in.cloneValue(f, depth+1)
			}
		}
		return c
	case *dispatch.Array:
		c := &dispatch.Array{Vec: x.Vec, Elems: make([]value, len(x.Elems))}
		for i, el := range x.Elems {
			c.Elems[i] = in.cloneValue(el, depth+1)
		}
		return c
	case dispatch.Tuple:
		c := make(dispatch.Tuple, len(x))
		for i, el := range x {
			c[i] = in.cloneValue(el, depth+1)
		}
		return c
	}
	return v
}

// copyOnBind copies a value of a Copy type of the program when it is
// bound to a new place, so that writing through one place leaves the other
// as Rust's Copy does.
func (in *interp) copyOnBind(v value) value {
	switch x := v.(type) {
	case *dispatch.Ref:
		return v
	case dispatch.Tuple:
		return append(dispatch.Tuple(nil), x...)
	}
	if _, decl := in.userDecl(v); decl != nil && derives(decl, "Copy") {
		return in.cloneValue(v, 0)
	}
	return v
}

// userClone is `x.clone()` on a value of the program's types without a
// Clone impl of its own: a derived Clone.
func (in *interp) userClone(recv value) (value, bool) {
	en, decl := in.userDecl(recv)
	if decl == nil {
		return nil, false
	}
	if in.traitMethod(en.Type, "Clone", "clone") != nil {
		return nil, false
	}
	return in.cloneValue(en, 0), true
}

// ---- Default ----

// defaultOf is `Default::default()` of a written type; ok is false when
// the type has no Default the playground knows.
func (in *interp) defaultOf(t *syntax.Type, r source.Range, depth int) (value, bool, *signal) {
	if t == nil || depth > 32 {
		return unknown, false, nil
	}
	switch t.Kind {
	case syntax.TypeTuple:
		out := make(dispatch.Tuple, len(t.Elems))
		for i, el := range t.Elems {
			v, ok, sig := in.defaultOf(el, r, depth+1)
			if sig != nil || !ok {
				return v, ok, sig
			}
			out[i] = v
		}
		if len(out) == 0 {
			return dispatch.Unit{}, true, nil
		}
		return out, true, nil
	case syntax.TypeArray:
		return unknown, true, nil
	case syntax.TypeParen:
		if len(t.Elems) == 1 {
			return in.defaultOf(t.Elems[0], r, depth+1)
		}
	case syntax.TypeRef:
		if len(t.Elems) == 1 && strings.TrimSpace(t.Elems[0].Text) == "str" {
			return dispatch.Str(""), true, nil
		}
	}
	if t.Kind != syntax.TypePath || len(t.Path) == 0 {
		return unknown, false, nil
	}
	return in.defaultNamed(in.typeText(t), r, depth)
}

// defaultNamed is Default::default() of a type named by its text.
func (in *interp) defaultNamed(text string, r source.Range, depth int) (value, bool, *signal) {
	name, _, _ := strings.Cut(text, "<")
	name = strings.TrimSpace(name)
	switch {
	case intTypes[name]:
		return dispatch.Int{V: 0, Suffix: name}, true, nil
	case name == "f32" || name == "f64":
		return dispatch.Float{V: 0, Suffix: name}, true, nil
	case name == "bool":
		return dispatch.Bool(false), true, nil
	case name == "String" || name == "&str":
		return dispatch.Str(""), true, nil
	case name == "char":
		return dispatch.Str("\x00"), true, nil
	case name == "Vec" || name == "VecDeque":
		return &dispatch.Array{Vec: true}, true, nil
	case name == "Option":
		return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
	case name == "()":
		return dispatch.Unit{}, true, nil
	}
	decl := in.structs[name]
	if decl == nil {
		return unknown, false, nil
	}
	return in.userDefault(decl, r, depth)
}

// userDefault is the Default of one of the program's types: its own impl,
// or the derived one that fills each field with its type's Default.
func (in *interp) userDefault(decl *syntax.StructDecl, r source.Range, depth int) (value, bool, *signal) {
	if fn := in.assocFn(decl.Name, "default"); fn != nil {
		v, sig := in.callUser(fn, nil, r)
		return v, true, sig
	}
	if !derives(decl, "Default") {
		return unknown, false, nil
	}
	en := &dispatch.Enum{Type: decl.Name, Variant: decl.Name}
	fields, shape := decl.Fields, decl.Shape
	if decl.Enum {
		// #[default] marks the variant a derived Default builds.
		for _, f := range decl.Fields {
			for _, a := range f.Attrs {
				if a.Path == "default" {
					en.Variant = f.Name
				}
			}
		}
		return en, true, nil
	}
	for i, f := range fields {
		v, ok, sig := in.defaultOf(f.Type, r, depth+1)
		if sig != nil {
			return nil, true, sig
		}
		if !ok {
			v = unknown
		}
		if shape == syntax.NamedShape {
			if en.Named == nil {
				en.Named = map[string]value{}
			}
			en.Named[f.Name] = v
		} else {
			_ = i
			en.Fields = append(en.Fields, v)
		}
	}
	return en, true, nil
}

// ---- comparisons and operators ----

// compareUser orders two values of the program's types as a derived
// PartialOrd does: by variant, then field by field in declaration order.
// known is false when a part cannot be ordered.
// ownOrdering compares two values of a program's type with the type's
// own PartialOrd::partial_cmp, else its own Ord::cmp; own is false when
// it has neither (a derived or no ordering). A None from partial_cmp, a
// panic or a value the engine does not know are not known.
func (in *interp) ownOrdering(a, b *dispatch.Enum) (c int, own, known bool) {
	fn := in.traitMethod(a.Type, "PartialOrd", "partial_cmp")
	if fn == nil {
		fn = in.traitMethod(a.Type, "Ord", "cmp")
	}
	if fn == nil || in.structs[a.Type] == nil {
		return 0, false, false
	}
	v, sig := in.callUserSelf(fn, a, []value{&dispatch.Ref{V: b}}, fn.NameSpan)
	if sig != nil {
		return 0, true, false
	}
	o, isEnum := dispatch.Deref(v).(*dispatch.Enum)
	if isEnum && o.Type == "Option" {
		if o.Variant != "Some" || len(o.Fields) != 1 {
			return 0, true, false
		}
		o, isEnum = dispatch.Deref(o.Fields[0]).(*dispatch.Enum)
	}
	if !isEnum {
		return 0, true, false
	}
	switch o.Variant {
	case "Less":
		return -1, true, true
	case "Equal":
		return 0, true, true
	case "Greater":
		return 1, true, true
	}
	return 0, true, false
}

func (in *interp) compareUser(x, y value, depth int) (c int, known bool) {
	x, y = dispatch.Deref(x), dispatch.Deref(y)
	if depth > 64 {
		return 0, false
	}
	switch a := x.(type) {
	case dispatch.Int:
		if b, ok := y.(dispatch.Int); ok {
			return cmp3(a.V, b.V), true
		}
	case dispatch.Float:
		if b, ok := y.(dispatch.Float); ok {
			return cmp3(a.V, b.V), true
		}
	case dispatch.Str:
		if b, ok := y.(dispatch.Str); ok {
			return strings.Compare(string(a), string(b)), true
		}
	case dispatch.Bool:
		if b, ok := y.(dispatch.Bool); ok {
			return cmp3(boolInt(bool(a)), boolInt(bool(b))), true
		}
	case dispatch.Tuple:
		if b, ok := y.(dispatch.Tuple); ok {
			return in.compareSeq(a, b, depth)
		}
	case *dispatch.Array:
		if b, ok := y.(*dispatch.Array); ok {
			return in.compareSeq(a.Elems, b.Elems, depth)
		}
	case *dispatch.Enum:
		b, ok := y.(*dispatch.Enum)
		if !ok || a.Type != b.Type {
			return 0, false
		}
		if c, own, known := in.ownOrdering(a, b); own {
			return c, known
		}
		ia, ib := in.variantIndex(a), in.variantIndex(b)
		if ia != ib {
			return cmp3(ia, ib), true
		}
		if decl := in.structs[a.Type]; decl != nil {
			fields, shape, _, _ := variantDecl(decl, a)
			if shape == syntax.NamedShape {
				for _, f := range fields {
					if c, known := in.compareUser(a.Named[f.Name], b.Named[f.Name], depth+1); c != 0 || !known {
						return c, known
					}
				}
				return 0, true
			}
		}
		return in.compareSeq(a.Fields, b.Fields, depth)
	}
	return 0, false
}

func (in *interp) compareSeq(a, b []value, depth int) (int, bool) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c, known := in.compareUser(a[i], b[i], depth+1); c != 0 || !known {
			return c, known
		}
	}
	return cmp3(len(a), len(b)), true
}

func (in *interp) variantIndex(en *dispatch.Enum) int {
	if en.Type == "Option" {
		if en.Variant == "Some" {
			return 1
		}
		return 0
	}
	if en.Type == "Result" {
		if en.Variant == "Err" {
			return 1
		}
		return 0
	}
	if decl := in.structs[en.Type]; decl != nil {
		_, _, i, _ := variantDecl(decl, en)
		return i
	}
	return 0
}

func cmp3[T int | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// userBinary applies an operator to a value of the program's types: its
// own operator impl (`impl Add for P`, `impl PartialEq for P`), or the
// derived PartialEq and PartialOrd. ok is false when x is not such a value.
func (in *interp) userBinary(op string, x, y value, r source.Range) (value, bool, *signal) {
	en, decl := in.userDecl(x)
	if decl == nil {
		return nil, false, nil
	}
	traits := map[string][2]string{
		"+": {"Add", "add"}, "-": {"Sub", "sub"}, "*": {"Mul", "mul"}, "/": {"Div", "div"}, "%": {"Rem", "rem"},
		"&": {"BitAnd", "bitand"}, "|": {"BitOr", "bitor"}, "^": {"BitXor", "bitxor"},
		"==": {"PartialEq", "eq"}, "!=": {"PartialEq", "ne"},
	}
	if t, ok := traits[op]; ok {
		if fn := in.traitMethod(en.Type, t[0], t[1]); fn != nil {
			v, sig := in.callUserSelf(fn, x, []value{y}, r)
			return v, true, sig
		}
		if op == "!=" {
			if fn := in.traitMethod(en.Type, "PartialEq", "eq"); fn != nil {
				v, sig := in.callUserSelf(fn, x, []value{y}, r)
				if b, isBool := dispatch.Deref(v).(dispatch.Bool); isBool && sig == nil {
					return !b, true, nil
				}
				return v, true, sig
			}
		}
	}
	switch op {
	case "==", "!=":
		eq, known := valuesEqual(x, y)
		if !known {
			return unknown, true, nil
		}
		return dispatch.Bool(eq == (op == "==")), true, nil
	case "<", "<=", ">", ">=":
		c, known := in.compareUser(x, y, 0)
		if !known {
			return unknown, true, nil
		}
		res := map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
		return dispatch.Bool(res), true, nil
	}
	return nil, false, nil
}

// discriminant is `e as i32` of a fieldless enum of the program: its
// explicit `= value`, or one more than the variant before it.
func (in *interp) discriminant(en *dispatch.Enum, suffix string) (value, bool) {
	decl := in.structs[en.Type]
	if decl == nil || !decl.Enum {
		return nil, false
	}
	next := int64(0)
	for _, f := range decl.Fields {
		if f.Discriminant != nil {
			if d, sig := in.expr(f.Discriminant); sig == nil {
				if n, ok := asInt(d); ok {
					next = n
				}
			}
		}
		if f.Name == en.Variant {
			return dispatch.Int{V: next, Suffix: suffix}, true
		}
		next++
	}
	return nil, false
}

// fieldIndex reads a tuple field `x.0` of a value.
func fieldIndex(name string) (int, bool) {
	i, err := strconv.Atoi(name)
	return i, err == nil && i >= 0
}

// ---- struct literals ----

// finishStructLit completes a struct literal of the program's types: the
// fields of `..base`, then rustc's checks of the fields written (E0560)
// and missing (E0063).
func (in *interp) finishStructLit(e *syntax.StructExpr, en *dispatch.Enum) (value, *signal) {
	decl := in.structs[en.Type]
	if decl == nil {
		if v, sig, ok := in.burnConfigLit(e, en); ok {
			return v, sig
		}
		if e.Base != nil {
			if _, sig := in.expr(e.Base); sig != nil {
				return nil, sig
			}
		}
		return en, nil
	}
	fields, shape, _, ok := variantDecl(decl, en)
	if !ok {
		return en, nil
	}
	what := "struct `" + decl.Name + "`"
	if decl.Enum {
		what = "variant `" + decl.Name + "::" + en.Variant + "`"
	}
	declared := map[string]bool{}
	for _, f := range fields {
		declared[f.Name] = true
	}
	unknownField := false
	for _, f := range e.Fields {
		if !declared[f.Name] {
			unknownField = true
			in.report(diagAt("unknown-field", what+" has no field named `"+f.Name+"`", f.Range))
			delete(en.Named, f.Name)
		}
	}
	if e.Base != nil {
		bv, sig := in.exprExpect(e.Base, decl.Name)
		if sig != nil {
			return nil, sig
		}
		if base, ok := dispatch.Deref(bv).(*dispatch.Enum); ok && base.Type == en.Type {
			for _, f := range fields {
				if _, set := en.Named[f.Name]; !set {
					if v, has := base.Named[f.Name]; has {
						en.Named[f.Name] = v
					}
				}
			}
		} else {
			for _, f := range fields {
				if _, set := en.Named[f.Name]; !set {
					en.Named[f.Name] = unknown
				}
			}
		}
		return en, nil
	}
	if shape != syntax.NamedShape {
		return en, nil
	}
	var missing []string
	for _, f := range fields {
		if _, set := en.Named[f.Name]; !set {
			missing = append(missing, "`"+f.Name+"`")
		}
	}
	// rustc reports missing fields only when every written one exists.
	if len(missing) > 0 && !unknownField {
		word := "field"
		if len(missing) > 1 {
			word = "fields"
		}
		list := missing
		tail := ""
		if len(missing) > 3 {
			list = missing[:3]
			n := len(missing) - 3
			tail = " and " + strconv.Itoa(n) + " other field"
			if n > 1 {
				tail += "s"
			}
		}
		name := decl.Name
		if decl.Enum {
			name += "::" + en.Variant
		}
		in.report(diagAt("missing-field", "missing "+word+" "+joinAnd(list, tail)+" in initializer of `"+name+"`", pathRange(e)))
	}
	for _, f := range fields {
		if _, set := en.Named[f.Name]; !set {
			en.Named[f.Name] = unknown
		}
	}
	return en, nil
}

// burnConfigLit is a struct literal of one of burn-nn's configs (their
// fields are pub): the config, or rustc's errors for a field it does not
// have or leaves out; `..base` fills the rest from another config of the
// same type. ok is false for any other type.
func (in *interp) burnConfigLit(e *syntax.StructExpr, en *dispatch.Enum) (value, *signal, bool) {
	// `burn::nn::LinearConfig { .. }` names the struct last (the segment
	// before it is a module).
	cfg, ok, unknownName, missing := nn.ConfigLiteral(en.Variant, en.Named)
	if !ok {
		return nil, nil, false
	}
	if e.Base != nil {
		bv, sig := in.expr(e.Base)
		if sig != nil {
			return nil, sig, true
		}
		base, isConfig := dispatch.Deref(bv).(*nn.Config)
		if !isConfig || base.Type != cfg.Type {
			return unknown, nil, true
		}
		for _, f := range missing {
			cfg.Values[f] = base.Values[f]
		}
		missing = nil
	}
	if unknownName != "" {
		in.report(diagAt("unknown-field", "struct `"+cfg.Type+"` has no field named `"+unknownName+"`", pathRange(e)))
		return unknown, nil, true
	}
	if len(missing) > 0 {
		list := make([]string, len(missing))
		for i, f := range missing {
			list[i] = "`" + f + "`"
		}
		word, tail := "field", ""
		if len(list) > 1 {
			word = "fields"
		}
		if len(list) > 3 {
			n := len(list) - 3
			list, tail = list[:3], " and "+strconv.Itoa(n)+" other field"
			if n > 1 {
				tail += "s"
			}
		}
		in.report(diagAt("missing-field", "missing "+word+" "+joinAnd(list, tail)+" in initializer of `"+cfg.Type+"`", pathRange(e)))
		return unknown, nil, true
	}
	return cfg, nil, true
}

// joinAnd writes `a`, `b` and `c` as rustc lists names, or `a`, `b`, `c`
// and N other fields when tail is set.
func joinAnd(list []string, tail string) string {
	if tail != "" {
		return strings.Join(list, ", ") + tail
	}
	if len(list) == 1 {
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

func pathRange(e *syntax.StructExpr) source.Range {
	if len(e.Path) == 0 {
		return e.Range
	}
	return source.Range{Start: e.Path[0].Range.Start, End: e.Path[len(e.Path)-1].Range.End}
}

func diagAt(code, msg string, r source.Range) diag.Diagnostic {
	return diag.Diagnostic{Code: code, Severity: diag.Error, Message: msg, File: diag.MainRS, Range: r}
}

// typeKind names v's type as rustc's E0599 does: "struct `S`", "enum `E`",
// or "`T`" for another type.
func (in *interp) typeKind(v value) string {
	if _, decl := in.userDecl(v); decl != nil {
		if decl.Enum {
			return "enum `" + decl.Name + "`"
		}
		return "struct `" + decl.Name + "`"
	}
	return "`" + v.TypeName() + "`"
}

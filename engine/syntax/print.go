package syntax

import (
	"strconv"
	"strings"
)

// Dump renders the tree under n as an S-expression, for golden tests and
// debugging: `a + b * c` reads `(+ a (* b c))`. Paths, literals and types
// print as their text. With spans, every node is followed by `@start..end`
// (byte offsets). Lines are broken, indenting children, when a node does
// not fit in 100 columns.
func Dump(n Node, spans bool) string {
	pr := printer{spans: spans}
	var b strings.Builder
	pr.node(n).render(&b, 0)
	return b.String()
}

// String dumps the file without spans.
func (f *File) String() string { return Dump(f, false) }

// sx is one S-expression: an atom (no kids, not list) or a list.
type sx struct {
	head string
	kids []sx
	list bool
}

const dumpWidth = 100

func (s sx) flat(b *strings.Builder) {
	if !s.list {
		b.WriteString(s.head)
		return
	}
	b.WriteByte('(')
	b.WriteString(s.head)
	for _, k := range s.kids {
		b.WriteByte(' ')
		k.flat(b)
	}
	b.WriteByte(')')
}

func (s sx) render(b *strings.Builder, indent int) {
	var line strings.Builder
	s.flat(&line)
	if !s.list || indent+line.Len() <= dumpWidth {
		b.WriteString(line.String())
		return
	}
	b.WriteByte('(')
	b.WriteString(s.head)
	for _, k := range s.kids {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", indent/2+1))
		k.render(b, indent+2)
	}
	b.WriteByte(')')
}

type printer struct{ spans bool }

func (pr printer) at(head string, n Node) string {
	if !pr.spans {
		return head
	}
	r := n.Span()
	return head + "@" + strconv.Itoa(r.Start) + ".." + strconv.Itoa(r.End)
}

func (pr printer) atom(text string, n Node) sx { return sx{head: pr.at(text, n)} }

func (pr printer) list(head string, n Node, kids ...sx) sx {
	return sx{head: pr.at(head, n), kids: kids, list: true}
}

func word(text string) sx { return sx{head: text} }

func (pr printer) exprs(es []Expr) []sx {
	out := make([]sx, 0, len(es))
	for _, e := range es {
		out = append(out, pr.node(e))
	}
	return out
}

func (pr printer) optExpr(e Expr) sx {
	if e == nil {
		return word("_")
	}
	return pr.node(e)
}

func (pr printer) attrs(as []*Attr) []sx {
	out := make([]sx, 0, len(as))
	for _, a := range as {
		out = append(out, pr.node(a))
	}
	return out
}

func (pr printer) typeOrNone(t *Type) []sx {
	if t == nil {
		return nil
	}
	return []sx{pr.node(t)}
}

func (pr printer) generics(gs []*Generic) []sx {
	if len(gs) == 0 {
		return nil
	}
	kids := make([]sx, 0, len(gs))
	for _, g := range gs {
		kids = append(kids, pr.node(g))
	}
	return []sx{{head: "generics", kids: kids, list: true}}
}

func (pr printer) where(ws []*WherePredicate) []sx {
	if len(ws) == 0 {
		return nil
	}
	kids := make([]sx, 0, len(ws))
	for _, w := range ws {
		kids = append(kids, pr.node(w))
	}
	return []sx{{head: "where", kids: kids, list: true}}
}

// pathText renders a path with its generic arguments; turbofish selects
// the expression form `a::<T>` over the type form `a<T>`.
func (pr printer) pathText(segs []PathSegment, turbofish bool) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteString("::")
		}
		b.WriteString(s.Name)
		if s.Generics != nil {
			if turbofish {
				b.WriteString("::")
			}
			b.WriteString(pr.genericArgsText(s.Generics))
		}
		if s.FnSugar {
			b.WriteByte('(')
			for j, t := range s.FnArgs {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(t.Text)
			}
			b.WriteByte(')')
			if s.FnResult != nil {
				b.WriteString(" -> " + s.FnResult.Text)
			}
		}
	}
	return b.String()
}

func (pr printer) genericArgsText(args []GenericArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = pr.genericArgText(a)
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

func (pr printer) genericArgText(a GenericArg) string {
	switch {
	case a.Lifetime != "":
		return a.Lifetime
	case a.Assoc != "":
		return a.Assoc + " = " + a.Type.Text
	case a.Type != nil:
		return a.Type.Text
	case a.Const != nil:
		if lit, ok := a.Const.(*LitExpr); ok {
			return lit.Text
		}
		var b strings.Builder
		printer{}.node(a.Const).flat(&b)
		return b.String()
	}
	return ""
}

func tokensText(ts []Token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && needsSpace(ts[i-1], t) {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func (pr printer) node(n Node) sx {
	switch n := n.(type) {
	case *File:
		var kids []sx
		forEachChild(n, func(c Node) { kids = append(kids, pr.node(c)) })
		return pr.list("file", n, kids...)

	case *Attr:
		text := "#[" + n.Path
		switch {
		case n.Eq:
			text += " = " + tokensText(n.Args)
		case n.ArgsRange.Len() > 0:
			text += "(" + tokensText(n.Args) + ")"
		}
		return pr.atom(text+"]", n)
	case *UseDecl:
		head := "use"
		if n.Pub {
			head = "use pub"
		}
		return pr.list(head, n, append(pr.attrs(n.Attrs), word(n.Path))...)
	case *FnDecl:
		head := "fn"
		for _, q := range []struct {
			on   bool
			name string
		}{{n.Pub, "pub"}, {n.Const, "const"}, {n.Async, "async"}, {n.Unsafe, "unsafe"}} {
			if q.on {
				head += " " + q.name
			}
		}
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		kids = append(kids, pr.generics(n.Generics)...)
		params := make([]sx, 0, len(n.Params))
		for _, p := range n.Params {
			params = append(params, pr.node(p))
		}
		kids = append(kids, sx{head: "params", kids: params, list: true})
		if n.Result != nil {
			kids = append(kids, sx{head: "->", kids: []sx{pr.node(n.Result)}, list: true})
		}
		kids = append(kids, pr.where(n.Where)...)
		if n.Body != nil {
			kids = append(kids, pr.node(n.Body))
		}
		return pr.list(head, n, kids...)
	case *Param:
		kids := pr.attrs(n.Attrs)
		if n.Self {
			self := "self"
			switch {
			case n.SelfRef && n.SelfMut:
				self = "&mut self"
			case n.SelfRef:
				self = "&self"
			case n.SelfMut:
				self = "mut self"
			}
			kids = append(kids, word(self))
		} else {
			kids = append(kids, pr.node(n.Pat))
		}
		kids = append(kids, pr.typeOrNone(n.Type)...)
		return pr.list("param", n, kids...)
	case *Generic:
		head := n.Name
		if n.Const {
			head = "const " + n.Name
		}
		var kids []sx
		for _, t := range n.Bounds {
			kids = append(kids, pr.node(t))
		}
		if n.Default != nil {
			kids = append(kids, word("= "+pr.genericArgText(*n.Default)))
		}
		if len(kids) == 0 {
			return pr.atom(head, n)
		}
		return pr.list(head+":", n, kids...)
	case *WherePredicate:
		head := n.Lifetime
		var kids []sx
		if n.Type != nil {
			head = ":"
			kids = append(kids, pr.node(n.Type))
		} else {
			head += ":"
		}
		for _, t := range n.Bounds {
			kids = append(kids, pr.node(t))
		}
		return pr.list(head, n, kids...)
	case *TraitDecl:
		head := "trait"
		if n.Pub {
			head += " pub"
		}
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		kids = append(kids, pr.generics(n.Generics)...)
		if len(n.Supers) > 0 {
			supers := make([]sx, 0, len(n.Supers))
			for _, t := range n.Supers {
				supers = append(supers, pr.node(t))
			}
			kids = append(kids, sx{head: ":", kids: supers, list: true})
		}
		kids = append(kids, pr.where(n.Where)...)
		members(n.Methods, n.Assoc, func(c Node) { kids = append(kids, pr.node(c)) })
		return pr.list(head, n, kids...)
	case *ImplDecl:
		kids := append(pr.attrs(n.Attrs), pr.generics(n.Generics)...)
		if n.Trait != nil {
			kids = append(kids, pr.node(n.Trait), word("for"))
		}
		kids = append(kids, pr.typeOrNone(n.For)...)
		kids = append(kids, pr.where(n.Where)...)
		members(n.Methods, n.Assoc, func(c Node) { kids = append(kids, pr.node(c)) })
		return pr.list("impl", n, kids...)
	case *StructDecl:
		head := "struct"
		switch {
		case n.Enum:
			head = "enum"
		case n.Union:
			head = "union"
		case n.Shape == TupleShape:
			head = "struct tuple"
		case n.Shape == UnitShape:
			head = "struct unit"
		}
		if n.Pub {
			head += " pub"
		}
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		kids = append(kids, pr.generics(n.Generics)...)
		kids = append(kids, pr.where(n.Where)...)
		for _, f := range n.Fields {
			kids = append(kids, pr.node(f))
		}
		return pr.list(head, n, kids...)
	case *Field:
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		switch {
		case len(n.Fields) > 0 || n.Shape == TupleShape:
			head := "fields"
			if n.Shape == TupleShape {
				head = "tuple"
			}
			inner := make([]sx, 0, len(n.Fields))
			for _, f := range n.Fields {
				if n.Shape == TupleShape {
					inner = append(inner, pr.node(f.Type))
				} else {
					inner = append(inner, pr.node(f))
				}
			}
			kids = append(kids, sx{head: head, kids: inner, list: true})
		case n.Type != nil:
			kids = append(kids, pr.node(n.Type))
		}
		if n.Discriminant != nil {
			kids = append(kids, word("="), pr.node(n.Discriminant))
		}
		head := "field"
		if n.Pub {
			head = "field pub"
		}
		return pr.list(head, n, kids...)
	case *ModDecl:
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		for _, it := range n.Items {
			kids = append(kids, pr.node(it))
		}
		return pr.list("mod", n, kids...)
	case *ConstDecl:
		head := "const"
		if n.Static {
			head = "static"
			if n.Mut {
				head = "static mut"
			}
		}
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		kids = append(kids, pr.typeOrNone(n.Type)...)
		if n.Value != nil {
			kids = append(kids, pr.node(n.Value))
		}
		return pr.list(head, n, kids...)
	case *MacroRulesDecl:
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		for _, r := range n.Rules {
			kids = append(kids, sx{head: "rule", kids: []sx{word(strconv.Quote(TokensText(r.Matcher))), word("=>"),
				word(strconv.Quote(TokensText(r.Transcriber)))}, list: true})
		}
		return pr.list("macro_rules!", n, kids...)
	case *MacroItem:
		return pr.list("macro-item", n, append(pr.attrs(n.Attrs), pr.node(n.Call))...)
	case *MacroPat:
		return pr.list("macro-pat", n, pr.node(n.Call))
	case *ExternCrateDecl:
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		if n.Alias != "" {
			kids = append(kids, word("as"), word(n.Alias))
		}
		return pr.list("extern-crate", n, kids...)
	case *TypeAliasDecl:
		kids := append(pr.attrs(n.Attrs), word(n.Name))
		kids = append(kids, pr.generics(n.Generics)...)
		if len(n.Bounds) > 0 {
			bounds := make([]sx, 0, len(n.Bounds))
			for _, t := range n.Bounds {
				bounds = append(bounds, pr.node(t))
			}
			kids = append(kids, sx{head: ":", kids: bounds, list: true})
		}
		kids = append(kids, pr.typeOrNone(n.Type)...)
		return pr.list("type", n, kids...)

	case *Type:
		if n.Kind == TypeBad {
			return pr.atom("<bad type>", n)
		}
		if n.Macro != nil {
			return pr.list("macro-type", n, pr.node(n.Macro))
		}
		return pr.atom(n.Text, n)

	case *LetStmt:
		kids := append(pr.attrs(n.Attrs), pr.node(n.Pat))
		if n.Type != nil {
			kids = append(kids, sx{head: ":", kids: []sx{pr.node(n.Type)}, list: true})
		}
		if n.Init != nil {
			kids = append(kids, pr.node(n.Init))
		}
		if n.Else != nil {
			kids = append(kids, sx{head: "else", kids: []sx{pr.node(n.Else)}, list: true})
		}
		return pr.list("let", n, kids...)
	case *ExprStmt:
		head := "expr"
		if n.Semi {
			head = "semi"
		}
		return pr.list(head, n, append(pr.attrs(n.Attrs), pr.node(n.X))...)
	case *ItemStmt:
		return pr.node(n.Item)

	case *IdentPat:
		text := n.Name
		if n.Mut {
			text = "mut " + text
		}
		if n.Ref {
			text = "ref " + text
		}
		if n.Sub != nil {
			return pr.list("@", n, word(text), pr.node(n.Sub))
		}
		if n.Mut || n.Ref {
			return pr.list(text, n)
		}
		return pr.atom(text, n)
	case *WildPat:
		return pr.atom("_", n)
	case *RestPat:
		return pr.atom("..", n)
	case *BadPat:
		return pr.atom("<bad pattern>", n)
	case *TuplePat:
		kids := make([]sx, 0, len(n.Elems))
		for _, p := range n.Elems {
			kids = append(kids, pr.node(p))
		}
		return pr.list("tuple", n, kids...)
	case *TupleStructPat:
		path := pr.pathText(n.Path, true)
		if !n.Paren {
			return pr.atom(path, n)
		}
		kids := make([]sx, 0, len(n.Elems))
		for _, p := range n.Elems {
			kids = append(kids, pr.node(p))
		}
		return pr.list(path, n, kids...)
	case *LitPat:
		return pr.node(n.Lit)
	case *StructPat:
		kids := make([]sx, 0, len(n.Fields)+1)
		for _, f := range n.Fields {
			kids = append(kids, pr.node(f))
		}
		if n.Rest {
			kids = append(kids, word(".."))
		}
		return pr.list(pr.pathText(n.Path, true)+" {}", n, kids...)
	case *FieldPat:
		if n.Shorthand {
			return pr.node(n.Pat)
		}
		return pr.list(n.Name+":", n, pr.node(n.Pat))
	case *RefPat:
		head := "&"
		if n.Mut {
			head = "&mut"
		}
		return pr.list(head, n, pr.node(n.Pat))
	case *RangePat:
		head := ".."
		if n.Inclusive {
			head = "..="
		}
		return pr.list(head, n, pr.optExpr(n.Lo), pr.optExpr(n.Hi))
	case *SlicePat:
		kids := make([]sx, 0, len(n.Elems))
		for _, p := range n.Elems {
			kids = append(kids, pr.node(p))
		}
		return pr.list("slice", n, kids...)
	case *OrPat:
		kids := make([]sx, 0, len(n.Alts))
		for _, p := range n.Alts {
			kids = append(kids, pr.node(p))
		}
		return pr.list("|", n, kids...)
	case *ParenPat:
		return pr.list("paren", n, pr.node(n.Pat))

	case *PathExpr:
		text := pr.pathText(n.Segments, true)
		if n.QSelf != nil {
			q := "<" + n.QSelf.Text
			if n.QTrait != nil {
				q += " as " + n.QTrait.Text
			}
			text = q + ">::" + text
		}
		return pr.atom(text, n)
	case *LitExpr:
		return pr.atom(n.Text, n)
	case *CallExpr:
		return pr.list("call", n, append([]sx{pr.node(n.Fun)}, pr.exprs(n.Args)...)...)
	case *MethodCallExpr:
		name := n.Name
		if n.Generics != nil {
			name += "::" + pr.genericArgsText(n.Generics)
		}
		return pr.list("method", n, append([]sx{pr.node(n.Recv), word(name)}, pr.exprs(n.Args)...)...)
	case *FieldExpr:
		return pr.list("field", n, pr.node(n.X), word(n.Name))
	case *IndexExpr:
		return pr.list("index", n, pr.node(n.X), pr.node(n.Index))
	case *UnaryExpr:
		return pr.list(unaryName(n.Op), n, pr.node(n.X))
	case *BinaryExpr:
		return pr.list(n.Op, n, pr.node(n.X), pr.node(n.Y))
	case *AssignExpr:
		return pr.list(n.Op, n, pr.node(n.Lhs), pr.node(n.Rhs))
	case *CastExpr:
		return pr.list("as", n, pr.node(n.X), pr.node(n.Type))
	case *ArrayExpr:
		return pr.list("array", n, pr.exprs(n.Elems)...)
	case *ArrayRepeatExpr:
		return pr.list("array-repeat", n, pr.node(n.Elem), pr.node(n.Len))
	case *TupleExpr:
		return pr.list("tuple", n, pr.exprs(n.Elems)...)
	case *ParenExpr:
		return pr.list("paren", n, pr.node(n.X))
	case *RangeExpr:
		head := ".."
		if n.Inclusive {
			head = "..="
		}
		return pr.list(head, n, pr.optExpr(n.Lo), pr.optExpr(n.Hi))
	case *BlockExpr:
		head := "block"
		if n.Modifier != "" {
			head = n.Modifier + " block"
		}
		if n.Label != "" {
			head += " " + n.Label
		}
		kids := make([]sx, 0, len(n.Stmts))
		for _, s := range n.Stmts {
			kids = append(kids, pr.node(s))
		}
		return pr.list(head, n, kids...)
	case *IfExpr:
		head := "if"
		var kids []sx
		if n.Let != nil {
			head = "if-let"
			kids = append(kids, pr.node(n.Let))
		}
		kids = append(kids, pr.node(n.Cond), pr.node(n.Then))
		if n.Else != nil {
			kids = append(kids, pr.node(n.Else))
		}
		return pr.list(head, n, kids...)
	case *ForExpr:
		return pr.list(labeled("for", n.Label), n, pr.node(n.Pat), pr.node(n.Iter), pr.node(n.Body))
	case *WhileExpr:
		if n.Let != nil {
			return pr.list(labeled("while-let", n.Label), n, pr.node(n.Let), pr.node(n.Cond), pr.node(n.Body))
		}
		return pr.list(labeled("while", n.Label), n, pr.node(n.Cond), pr.node(n.Body))
	case *LoopExpr:
		return pr.list(labeled("loop", n.Label), n, pr.node(n.Body))
	case *MatchExpr:
		kids := []sx{pr.node(n.X)}
		for _, a := range n.Arms {
			kids = append(kids, pr.node(a))
		}
		return pr.list("match", n, kids...)
	case *MatchArm:
		kids := make([]sx, 0, len(n.Pats)+3)
		for _, p := range n.Pats {
			kids = append(kids, pr.node(p))
		}
		if n.Guard != nil {
			kids = append(kids, sx{head: "if", kids: []sx{pr.node(n.Guard)}, list: true})
		}
		if n.Body != nil {
			kids = append(kids, word("=>"), pr.node(n.Body))
		}
		return pr.list("arm", n, kids...)
	case *BreakExpr:
		var kids []sx
		if n.Label != "" {
			kids = append(kids, word(n.Label))
		}
		if n.Value != nil {
			kids = append(kids, pr.node(n.Value))
		}
		return pr.list("break", n, kids...)
	case *ContinueExpr:
		if n.Label != "" {
			return pr.list("continue", n, word(n.Label))
		}
		return pr.list("continue", n)
	case *ReturnExpr:
		if n.Value != nil {
			return pr.list("return", n, pr.node(n.Value))
		}
		return pr.list("return", n)
	case *MacroExpr:
		head := n.Name + "!"
		if n.Repeat {
			head += " repeat"
		}
		var kids []sx
		if n.Tokens != nil {
			kids = append(kids, word(strconv.Quote(TokensText(n.Tokens))))
		}
		for i, a := range n.Args {
			if i < len(n.Steps) && n.Steps[i] != nil {
				kids = append(kids, sx{head: "step", kids: []sx{pr.node(a), pr.node(n.Steps[i])}, list: true})
			} else {
				kids = append(kids, pr.node(a))
			}
		}
		if n.Arm != nil {
			kids = append(kids, pr.node(n.Arm))
		}
		for _, f := range n.Fields {
			kids = append(kids, sx{head: "field", kids: []sx{pr.node(f)}, list: true})
		}
		return pr.list(head, n, kids...)
	case *ClosureExpr:
		head := "closure"
		if n.Move {
			head = "closure move"
		}
		params := make([]sx, 0, len(n.Params))
		for _, p := range n.Params {
			params = append(params, pr.node(p))
		}
		kids := []sx{{head: "params", kids: params, list: true}}
		if n.Result != nil {
			kids = append(kids, sx{head: "->", kids: []sx{pr.node(n.Result)}, list: true})
		}
		kids = append(kids, pr.node(n.Body))
		return pr.list(head, n, kids...)
	case *StructExpr:
		kids := make([]sx, 0, len(n.Fields)+1)
		for _, f := range n.Fields {
			kids = append(kids, pr.node(f))
		}
		if n.Base != nil {
			kids = append(kids, sx{head: "..", kids: []sx{pr.node(n.Base)}, list: true})
		}
		return pr.list(pr.pathText(n.Path, true)+" {}", n, kids...)
	case *FieldInit:
		if n.Shorthand {
			return pr.atom(n.Name, n)
		}
		return pr.list(n.Name+":", n, pr.node(n.Value))
	case *TryExpr:
		return pr.list("?", n, pr.node(n.X))
	case *AwaitExpr:
		return pr.list("await", n, pr.node(n.X))
	case *BadExpr:
		return pr.atom("<bad expr>", n)
	}
	return word("<unknown node>")
}

func labeled(head, label string) string {
	if label == "" {
		return head
	}
	return head + " " + label
}

func unaryName(op string) string {
	switch op {
	case "-":
		return "neg"
	case "!":
		return "not"
	case "*":
		return "deref"
	case "&":
		return "ref"
	}
	return "ref-mut"
}

package syntax

// Inspect traverses the tree under n depth-first, in source order: it calls
// fn(n) and, when fn returns true, inspects each child. Children are the
// nodes of the fields, every one of whose ranges lies inside its parent's.
// A tuple variant's Type duplicates its Fields and is not visited;
// neither are the Path of impl/dyn types (their Bounds are).
func Inspect(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	forEachChild(n, func(c Node) { Inspect(c, fn) })
}

// Walk inspects the whole file: its items and bare statements interleaved
// in source order.
func (f *File) Walk(fn func(Node) bool) { Inspect(f, fn) }

// forEachChild calls visit for each non-nil child of n in source order.
func forEachChild(n Node, visit func(Node)) {
	expr := func(e Expr) {
		if e != nil {
			visit(e)
		}
	}
	pat := func(p Pattern) {
		if p != nil {
			visit(p)
		}
	}
	typ := func(t *Type) {
		if t != nil {
			visit(t)
		}
	}
	block := func(b *BlockExpr) {
		if b != nil {
			visit(b)
		}
	}
	attrs := func(as []*Attr) {
		for _, a := range as {
			visit(a)
		}
	}
	generics := func(gs []*Generic) {
		for _, g := range gs {
			visit(g)
		}
	}
	where := func(ws []*WherePredicate) {
		for _, w := range ws {
			visit(w)
		}
	}
	genericArg := func(a GenericArg) {
		typ(a.Type)
		expr(a.Const)
	}
	path := func(segs []PathSegment) {
		for _, s := range segs {
			for _, g := range s.Generics {
				genericArg(g)
			}
			for _, t := range s.FnArgs {
				typ(t)
			}
			typ(s.FnResult)
		}
	}
	switch n := n.(type) {
	case *File:
		items, stmts := n.Items, n.Stmts
		for len(items) > 0 || len(stmts) > 0 {
			if len(stmts) == 0 || len(items) > 0 && items[0].Span().Start <= stmts[0].Span().Start {
				visit(items[0])
				items = items[1:]
			} else {
				visit(stmts[0])
				stmts = stmts[1:]
			}
		}

	// items
	case *UseDecl:
		attrs(n.Attrs)
	case *FnDecl:
		attrs(n.Attrs)
		generics(n.Generics)
		for _, p := range n.Params {
			visit(p)
		}
		typ(n.Result)
		where(n.Where)
		block(n.Body)
	case *TraitDecl:
		attrs(n.Attrs)
		generics(n.Generics)
		for _, t := range n.Supers {
			typ(t)
		}
		where(n.Where)
		members(n.Methods, n.Assoc, visit)
	case *ImplDecl:
		attrs(n.Attrs)
		generics(n.Generics)
		typ(n.Trait)
		typ(n.For)
		where(n.Where)
		members(n.Methods, n.Assoc, visit)
	case *StructDecl:
		attrs(n.Attrs)
		generics(n.Generics)
		// A tuple struct's where-clause follows its fields.
		if n.Shape != TupleShape {
			where(n.Where)
		}
		for _, f := range n.Fields {
			visit(f)
		}
		if n.Shape == TupleShape {
			where(n.Where)
		}
	case *Field:
		attrs(n.Attrs)
		if len(n.Fields) > 0 || n.Shape == TupleShape {
			for _, f := range n.Fields {
				visit(f)
			}
		} else {
			typ(n.Type)
		}
		expr(n.Discriminant)
	case *ModDecl:
		attrs(n.Attrs)
		for _, it := range n.Items {
			visit(it)
		}
	case *ConstDecl:
		attrs(n.Attrs)
		typ(n.Type)
		expr(n.Value)
	case *ExternCrateDecl:
		attrs(n.Attrs)
	case *MacroRulesDecl:
		attrs(n.Attrs)
	case *MacroItem:
		attrs(n.Attrs)
		visit(n.Call)
	case *TypeAliasDecl:
		attrs(n.Attrs)
		generics(n.Generics)
		for _, t := range n.Bounds {
			typ(t)
		}
		typ(n.Type)
	case *Param:
		attrs(n.Attrs)
		pat(n.Pat)
		typ(n.Type)
	case *Generic:
		for _, t := range n.Bounds {
			typ(t)
		}
		if n.Default != nil {
			genericArg(*n.Default)
		}
	case *WherePredicate:
		typ(n.Type)
		for _, t := range n.Bounds {
			typ(t)
		}
	case *Attr:

	// types
	case *Type:
		if n.Macro != nil {
			visit(n.Macro)
		}
		typ(n.QSelf)
		typ(n.QTrait)
		if len(n.Bounds) > 0 {
			for _, t := range n.Bounds {
				typ(t)
			}
		} else {
			path(n.Path)
		}
		for _, t := range n.Elems {
			typ(t)
		}
		expr(n.Len)
		typ(n.Result)

	// statements
	case *LetStmt:
		attrs(n.Attrs)
		pat(n.Pat)
		typ(n.Type)
		expr(n.Init)
		block(n.Else)
	case *ExprStmt:
		attrs(n.Attrs)
		expr(n.X)
	case *ItemStmt:
		visit(n.Item)

	// patterns
	case *IdentPat:
		pat(n.Sub)
	case *TuplePat:
		for _, p := range n.Elems {
			pat(p)
		}
	case *TupleStructPat:
		path(n.Path)
		for _, p := range n.Elems {
			pat(p)
		}
	case *LitPat:
		expr(n.Lit)
	case *StructPat:
		path(n.Path)
		for _, f := range n.Fields {
			visit(f)
		}
	case *FieldPat:
		pat(n.Pat)
	case *RefPat:
		pat(n.Pat)
	case *RangePat:
		expr(n.Lo)
		expr(n.Hi)
	case *SlicePat:
		for _, p := range n.Elems {
			pat(p)
		}
	case *OrPat:
		for _, p := range n.Alts {
			pat(p)
		}
	case *ParenPat:
		pat(n.Pat)
	case *MacroPat:
		visit(n.Call)

	// expressions
	case *PathExpr:
		typ(n.QSelf)
		typ(n.QTrait)
		path(n.Segments)
	case *CallExpr:
		expr(n.Fun)
		for _, a := range n.Args {
			expr(a)
		}
	case *MethodCallExpr:
		expr(n.Recv)
		for _, g := range n.Generics {
			genericArg(g)
		}
		for _, a := range n.Args {
			expr(a)
		}
	case *FieldExpr:
		expr(n.X)
	case *IndexExpr:
		expr(n.X)
		expr(n.Index)
	case *UnaryExpr:
		expr(n.X)
	case *BinaryExpr:
		expr(n.X)
		expr(n.Y)
	case *AssignExpr:
		expr(n.Lhs)
		expr(n.Rhs)
	case *CastExpr:
		expr(n.X)
		typ(n.Type)
	case *ArrayExpr:
		for _, e := range n.Elems {
			expr(e)
		}
	case *ArrayRepeatExpr:
		expr(n.Elem)
		expr(n.Len)
	case *TupleExpr:
		for _, e := range n.Elems {
			expr(e)
		}
	case *ParenExpr:
		expr(n.X)
	case *RangeExpr:
		expr(n.Lo)
		expr(n.Hi)
	case *BlockExpr:
		for _, s := range n.Stmts {
			visit(s)
		}
	case *IfExpr:
		pat(n.Let)
		expr(n.Cond)
		block(n.Then)
		expr(n.Else)
	case *ForExpr:
		pat(n.Pat)
		expr(n.Iter)
		block(n.Body)
	case *WhileExpr:
		pat(n.Let)
		expr(n.Cond)
		block(n.Body)
	case *LoopExpr:
		block(n.Body)
	case *MatchExpr:
		expr(n.X)
		for _, a := range n.Arms {
			visit(a)
		}
	case *MatchArm:
		for _, p := range n.Pats {
			pat(p)
		}
		expr(n.Guard)
		expr(n.Body)
	case *BreakExpr:
		expr(n.Value)
	case *ReturnExpr:
		expr(n.Value)
	case *MacroExpr:
		for i, a := range n.Args {
			expr(a)
			if i < len(n.Steps) {
				expr(n.Steps[i])
			}
		}
		if n.Arm != nil {
			visit(n.Arm)
		}
		for _, f := range n.Fields {
			expr(f)
		}
	case *ClosureExpr:
		for _, p := range n.Params {
			visit(p)
		}
		typ(n.Result)
		expr(n.Body)
	case *StructExpr:
		path(n.Path)
		for _, f := range n.Fields {
			visit(f)
		}
		expr(n.Base)
	case *FieldInit:
		expr(n.Value)
	case *TryExpr:
		expr(n.X)
	case *AwaitExpr:
		expr(n.X)
	}
}

// members visits a trait's or impl's functions and other items in source
// order.
func members(methods []*FnDecl, assoc []Item, visit func(Node)) {
	for len(methods) > 0 || len(assoc) > 0 {
		if len(assoc) == 0 || len(methods) > 0 && methods[0].Range.Start <= assoc[0].Span().Start {
			visit(methods[0])
			methods = methods[1:]
		} else {
			visit(assoc[0])
			assoc = assoc[1:]
		}
	}
}

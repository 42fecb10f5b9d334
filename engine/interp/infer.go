package interp

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// ---- inference of a let's type from a later use ----

// inferLets gives each `let x = Default::default();` of stmts that writes
// no type the type rustc infers for it from a later statement of the same
// block (inferLetType), so the let builds that value where it stands, as
// Rust does: `let device = Default::default();` then
// `Tensor::from_data(x, &device)` makes x a Device at the let, and
// `device.settings()` is a Device method.
func (in *interp) inferLets(stmts []syntax.Stmt) {
	for i, s := range stmts {
		ls, ok := s.(*syntax.LetStmt)
		if !ok || ls.Type != nil || ls.Init == nil {
			continue
		}
		if _, done := in.letTypes[ls]; done {
			continue
		}
		if in.letTypes == nil {
			in.letTypes = map[*syntax.LetStmt]string{}
		}
		in.letTypes[ls] = in.inferLetType(ls, stmts[i+1:])
	}
}

// inferLetType is the type of a `let NAME = Default::default();` that the
// first use of NAME as a borrowed argument decides: a parameter of one of
// the program's functions gives its declared type; every argument position
// of Burn's API that a `&x` of a Default type fills is a device
// (`impl Into<TensorCreationOptions>` has From<&Device> and
// From<(&Device, DType)>, crates/burn-tensor/src/tensor/api/options.rs:76-98;
// the other device parameters are `&Device`). "" when nothing decides.
func (in *interp) inferLetType(ls *syntax.LetStmt, rest []syntax.Stmt) string {
	id, ok := ls.Pat.(*syntax.IdentPat)
	if !ok || !isDefaultCall(ls.Init) {
		return ""
	}
	name := id.Name
	found := ""
	for _, s := range rest {
		syntax.Inspect(s, func(n syntax.Node) bool {
			if found != "" {
				return false
			}
			switch e := n.(type) {
			case *syntax.CallExpr:
				for i, a := range e.Args {
					if t := in.argUse(e, i, a, name); t != "" {
						found = t
						return false
					}
				}
			case *syntax.MethodCallExpr:
				for _, a := range e.Args {
					if borrows(a, name) {
						found = "Device"
						return false
					}
				}
			}
			return true
		})
		if found != "" {
			return found
		}
		if next, ok := s.(*syntax.LetStmt); ok && bindsName(next.Pat, name) {
			// Shadowed: later uses are another binding's.
			return ""
		}
	}
	return ""
}

// argUse is the type argument i of call decides for NAME, "" when the
// argument is not `&NAME` (or a tuple holding it).
func (in *interp) argUse(call *syntax.CallExpr, i int, a syntax.Expr, name string) string {
	if !borrows(a, name) {
		return ""
	}
	path, ok := call.Fun.(*syntax.PathExpr)
	if !ok {
		return ""
	}
	segs := make([]string, len(path.Segments))
	for j, s := range path.Segments {
		segs[j] = s.Name
	}
	r := in.resolveIn(in.mod, segs, 0)
	if r.external != nil {
		return "Device"
	}
	fn := r.item.fn
	if fn == nil && len(r.rest) == 1 {
		// An associated function: the program's own (a method of its
		// types), else Burn's through an alias (TestTensor::<2>::from_data).
		if it := r.item; it.typ != nil {
			fn = in.assocFn(it.typ.Name, r.rest[0])
		}
		if al := r.item.alias; fn == nil && al != nil && al.Type != nil {
			target, _, _ := strings.Cut(in.typeText(al.Type), "<")
			if in.structs[target] == nil {
				return "Device"
			}
			fn = in.assocFn(target, r.rest[0])
		}
	}
	if _, tuple := a.(*syntax.TupleExpr); tuple || fn == nil {
		return ""
	}
	params := fn.Params
	if len(params) > 0 && params[0].Self {
		params = params[1:]
	}
	if i >= len(params) || params[i].Type == nil {
		return ""
	}
	t := strings.TrimSpace(in.typeText(params[i].Type))
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "&mut "), "&"))
	if t == "" || strings.HasPrefix(t, "impl ") || len(t) == 1 {
		// A generic parameter decides nothing by itself.
		return ""
	}
	return t
}

// borrows reports whether e is `&NAME`, or a tuple `(&NAME, ..)`.
func borrows(e syntax.Expr, name string) bool {
	switch x := e.(type) {
	case *syntax.UnaryExpr:
		if x.Op != "&" {
			return false
		}
		p, ok := x.X.(*syntax.PathExpr)
		return ok && p.QSelf == nil && len(p.Segments) == 1 && p.Segments[0].Name == name && len(p.Segments[0].Generics) == 0
	case *syntax.TupleExpr:
		return len(x.Elems) > 0 && borrows(x.Elems[0], name)
	case *syntax.ParenExpr:
		return borrows(x.X, name)
	}
	return false
}

// isDefaultCall reports whether e is `Default::default()` (a path ending
// in Default::default, no arguments).
func isDefaultCall(e syntax.Expr) bool {
	call, ok := e.(*syntax.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	p, ok := call.Fun.(*syntax.PathExpr)
	if !ok || p.QSelf != nil {
		return false
	}
	n := len(p.Segments)
	return n >= 2 && p.Segments[n-2].Name == "Default" && p.Segments[n-1].Name == "default"
}

func bindsName(p syntax.Pattern, name string) bool {
	binds := false
	syntax.Inspect(p, func(n syntax.Node) bool {
		if id, ok := n.(*syntax.IdentPat); ok && id.Name == name {
			binds = true
		}
		return !binds
	})
	return binds
}

// ---- `.into()` whose target the context decides ----

// burnInto is `x.into()` whose target type is one of Burn's that From
// impls convert into: a Tensor (From<T: Into<TensorData>>,
// crates/burn-tensor/src/tensor/api/base.rs:84-92), a TensorData from an
// array, or a Shape from an array of sizes (cubecl-zspace's
// `impl<T: IntoIterator<Item: AsSize>> From<T> for Shape`). The target is
// the declared type, or the other operand's type in an assert_eq!.
func (in *interp) burnInto(e *syntax.MethodCallExpr, recv value, args []value, expect string) (value, bool, *signal) {
	if _, isData := dispatch.Deref(recv).(*dispatch.TensorData); isData && e.Name == "iter" {
		return in.dataIter(e, recv, args, expect)
	}
	if shape, isShape := dispatch.Deref(recv).(*dispatch.ShapeValue); isShape {
		switch {
		case shapeSliceMethods[e.Name]:
			// Shape::iter, and the slice methods Shape's Deref<Target = [usize]> gives it.
			return in.stdMethod(e, shapeDims(shape), args, expect)
		case e.Name == "into" && len(args) == 0 && strings.HasPrefix(strings.TrimSpace(expect), "Vec<"):
			// impl From<Shape> for Vec<usize>.
			dims := shapeDims(shape)
			dims.Vec = true
			return dims, true, nil
		}
	}
	if _, isTensor := dispatch.Deref(recv).(*dispatch.Tensor); isTensor && e.Name == "iter_dim" {
		// Burn's DimIter: the model returns the parts, iterated here.
		return in.dataIter(e, recv, args, expect)
	}
	if e.Name != "into" || len(args) != 0 {
		return nil, false, nil
	}
	target, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(expect, "burn::tensor::")), "<")
	var path []string
	switch dispatch.Deref(recv).(type) {
	case *dispatch.Array:
		switch target {
		case "Tensor":
			path = []string{"Tensor", "from"}
		case "TensorData":
			path = []string{"TensorData", "from"}
		case "Shape":
			path = []string{"Shape", "from"}
		}
	case *dispatch.TensorData:
		if target == "Tensor" {
			path = []string{"Tensor", "from"}
		}
	}
	if path == nil {
		return nil, false, nil
	}
	v, sig := in.burn(dispatch.Call{Path: path, Args: []value{recv}, Expect: expect}, e.Range, []source.Range{e.Range, e.Recv.Span()})
	return v, true, sig
}

// operandType is the type an operand of `==` (assert_eq!) gives the other
// one when PartialEq has a single impl for it: Shape == Shape.
func operandType(v value) string {
	if _, ok := dispatch.Deref(v).(*dispatch.ShapeValue); ok {
		return "Shape"
	}
	return ""
}

// shapeDims is a Shape's dims as the [usize] slice it derefs to.
func shapeDims(s *dispatch.ShapeValue) *dispatch.Array {
	dims := s.Dims()
	elems := make([]value, len(dims))
	for i, d := range dims {
		elems[i] = dispatch.Int{V: d, Suffix: "usize"}
	}
	return &dispatch.Array{Elems: elems}
}

// dataIter is TensorData::iter::<E>(): the model gives the elements as an
// array, which iterates as a slice iterator does.
func (in *interp) dataIter(e *syntax.MethodCallExpr, recv value, args []value, expect string) (value, bool, *signal) {
	inputs := []source.Range{e.Recv.Span()}
	for _, a := range e.Args {
		inputs = append(inputs, a.Span())
	}
	var generics [][]string
	if len(e.Generics) > 0 {
		generics = [][]string{in.genericTexts(e.Generics)}
	}
	v, sig := in.burnAt(dispatch.Call{Recv: recv, Method: e.Name, Args: args, Generics: generics, Expect: expect}, e.Range, e.NameSpan, inputs)
	if sig != nil {
		return nil, true, sig
	}
	arr, ok := dispatch.Deref(v).(*dispatch.Array)
	if !ok {
		return v, true, nil
	}
	it, handled, sig := in.stdMethod(&syntax.MethodCallExpr{Range: e.Range, Recv: e.Recv, Name: "iter", NameSpan: e.NameSpan}, arr, nil, "")
	if !handled {
		return unknown, true, sig
	}
	return it, true, sig
}

// shapeSliceMethods are the methods of [usize] a Shape answers through
// Deref (cubecl-zspace shape.rs: `impl Deref for Shape { type Target = [usize] }`),
// and its own iter.
var shapeSliceMethods = map[string]bool{
	"iter": true, "is_empty": true, "first": true, "last": true, "get": true, "contains": true,
	"starts_with": true, "ends_with": true, "windows": true, "chunks": true,
}

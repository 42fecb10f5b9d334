package interp

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

func asInt(v value) (int64, bool) {
	if i, ok := dispatch.Deref(v).(dispatch.Int); ok {
		return i.V, true
	}
	return 0, false
}

func asFloat(v value) (float64, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Float:
		return x.V, true
	case dispatch.Int:
		return float64(x.V), true
	case rstd.Char:
		return float64(x), true
	}
	return 0, false
}

// isPrimitive reports whether v is a number, bool or string the interpreter
// computes itself.
func isPrimitive(v value) bool {
	switch dispatch.Deref(v).(type) {
	case dispatch.Int, dispatch.Float, dispatch.Bool, dispatch.Str:
		return true
	}
	return false
}

// isBurn reports whether v is one of the dispatch model's own values.
func isBurn(v value) bool {
	if isStd(v) {
		return false
	}
	switch dispatch.Deref(v).(type) {
	case dispatch.Int, dispatch.Float, dispatch.Bool, dispatch.Str, dispatch.Unit, dispatch.Unknown,
		*dispatch.Array, dispatch.Tuple, *dispatch.Range, *dispatch.Enum, *dispatch.Opaque, *closure, *fnValue:
		return false
	}
	return true
}

// operator method names, as Rust's std::ops traits call them.
var binaryMethods = map[string]string{
	"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem",
	"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
	"&": "bitand", "|": "bitor", "^": "bitxor", "<<": "shl", ">>": "shr",
}

func (in *interp) unary(e *syntax.UnaryExpr) (value, *signal) {
	x, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	switch e.Op {
	case "&", "&mut":
		return &dispatch.Ref{V: x, Mut: e.Op == "&mut"}, nil
	case "*":
		if r, ok := x.(*dispatch.Ref); ok {
			return r.V, nil
		}
		return x, nil
	}
	if isUnknown(x) {
		return unknown, nil
	}
	switch v := dispatch.Deref(x).(type) {
	case dispatch.Int, *rstd.Big:
		if e.Op == "-" {
			n, err := rstd.Neg(v)
			return in.stdResult(n, err, e.Range, e.Range)
		}
		return rstd.Not(v), nil
	case dispatch.Float:
		if e.Op == "-" {
			return dispatch.Float{V: -v.V, Suffix: v.Suffix}, nil
		}
	case dispatch.Bool:
		if e.Op == "!" {
			return !v, nil
		}
	}
	if isBurn(x) {
		method := map[string]string{"-": "neg", "!": "not"}[e.Op]
		return in.burn(dispatch.Call{Recv: x, Method: method}, e.Range, []source.Range{e.X.Span()})
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("cannot apply unary operator `%s` to type `%s`", e.Op, x.TypeName()), File: diag.MainRS, Range: e.Range})
	return unknown, nil
}

func (in *interp) binary(e *syntax.BinaryExpr) (value, *signal) {
	if e.Op == "&&" || e.Op == "||" {
		l, known, sig := in.cond(e.X)
		if sig != nil {
			return nil, sig
		}
		if known && (l == (e.Op == "||")) {
			return dispatch.Bool(l), nil
		}
		r, rknown, sig := in.cond(e.Y)
		if sig != nil {
			return nil, sig
		}
		if !known || !rknown {
			return unknown, nil
		}
		return dispatch.Bool(r), nil
	}
	x, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	y, sig := in.expr(e.Y)
	if sig != nil {
		return nil, sig
	}
	return in.applyBinary(e.Op, x, y, e.Range, e.X.Span(), e.Y.Span())
}

func (in *interp) applyBinary(op string, x, y value, r, xr, yr source.Range) (value, *signal) {
	if isUnknown(x) || isUnknown(y) {
		return unknown, nil
	}
	if isBurn(x) || isBurn(y) || dispatch.HasOperator(x, binaryMethods[op]) {
		method := binaryMethods[op]
		return in.burn(dispatch.Call{Recv: x, Method: method, Args: []value{y}}, r, []source.Range{xr, yr})
	}
	if v, ok, sig := in.userBinary(op, x, y, r); ok {
		return v, sig
	}
	if v, ok, msg := primitiveBinary(op, dispatch.Deref(x), dispatch.Deref(y)); ok {
		if msg != "" {
			return in.userPanic(r, msg)
		}
		if s, isStr := v.(dispatch.Str); isStr {
			if fits, sig := in.buildText(len(s), r); !fits || sig != nil {
				return unknown, sig
			}
		}
		return v, nil
	}
	if op == "==" || op == "!=" {
		if eq, known := valuesEqual(x, y); known {
			return dispatch.Bool(eq == (op == "==")), nil
		}
	}
	in.report(diag.Diagnostic{Code: "type-mismatch", Severity: diag.Error,
		Message: fmt.Sprintf("cannot apply `%s` to `%s` and `%s`", op, x.TypeName(), y.TypeName()), File: diag.MainRS, Range: r})
	return unknown, nil
}

// Text the program builds (format!, println!, string +) costs a step per
// bytesPerStep bytes, so that the step budget bounds the copying a loop
// can do; and a string holds at most maxStringLen bytes, so that a loop
// doubling one stops long before memory runs out.
const (
	bytesPerStep = 64
	maxStringLen = 1 << 20
)

// buildText charges the building of n bytes of text. A string over
// maxStringLen does not fit: a run stops, a check goes on with an unknown
// value.
func (in *interp) buildText(n int, r source.Range) (fits bool, sig *signal) {
	if n > maxStringLen {
		in.report(diag.Diagnostic{Code: "playground-memory-limit", Severity: diag.Error,
			Message: fmt.Sprintf("a string of %d bytes is larger than the playground's memory budget of %d bytes", n, maxStringLen),
			File:    diag.MainRS, Range: r})
		if in.opts.Mode == Run {
			in.limited = "memory"
			return false, stop
		}
		return false, nil
	}
	return true, in.stepN(n/bytesPerStep, r)
}

// primitiveBinary computes op on numbers, bools, strings and chars
// (engine/rstd). msg is set when Rust would panic (overflow, division by
// zero).
func primitiveBinary(op string, x, y value) (v value, ok bool, msg string) {
	v, ok, err := rstd.Binary(op, x, y)
	if p, isPanic := rstd.AsPanic(err); isPanic {
		return nil, true, p.Msg
	}
	return v, ok, ""
}

// valuesEqual compares values the interpreter understands; known is false
// when it cannot tell.
func valuesEqual(x, y value) (eq, known bool) {
	x, y = dispatch.Deref(x), dispatch.Deref(y)
	if v, ok, msg := primitiveBinary("==", x, y); ok && msg == "" {
		return bool(v.(dispatch.Bool)), true
	}
	switch a := x.(type) {
	case dispatch.Unit:
		_, ok := y.(dispatch.Unit)
		return ok, true
	case *dispatch.Array:
		b, ok := y.(*dispatch.Array)
		if !ok {
			return false, false
		}
		if len(a.Elems) != len(b.Elems) {
			return false, true
		}
		for i := range a.Elems {
			if eq, known := valuesEqual(a.Elems[i], b.Elems[i]); !eq || !known {
				return eq, known
			}
		}
		return true, true
	case dispatch.Tuple:
		b, ok := y.(dispatch.Tuple)
		if !ok || len(a) != len(b) {
			return false, ok
		}
		for i := range a {
			if eq, known := valuesEqual(a[i], b[i]); !eq || !known {
				return eq, known
			}
		}
		return true, true
	case *dispatch.Enum:
		b, ok := y.(*dispatch.Enum)
		if !ok {
			return false, false
		}
		if a.Type != b.Type || a.Variant != b.Variant || len(a.Fields) != len(b.Fields) {
			return false, a.Type == b.Type
		}
		for i := range a.Fields {
			if eq, known := valuesEqual(a.Fields[i], b.Fields[i]); !eq || !known {
				return eq, known
			}
		}
		if len(a.Named) != len(b.Named) {
			return false, true
		}
		for k, av := range a.Named {
			bv, ok := b.Named[k]
			if !ok {
				return false, true
			}
			if eq, known := valuesEqual(av, bv); !eq || !known {
				return eq, known
			}
		}
		return true, true
	}
	return false, false
}

func (in *interp) assign(e *syntax.AssignExpr) (value, *signal) {
	rhs, sig := in.expr(e.Rhs)
	if sig != nil {
		return nil, sig
	}
	if e.Op != "=" {
		cur, sig := in.expr(e.Lhs)
		if sig != nil {
			return nil, sig
		}
		rhs, sig = in.applyBinary(e.Op[:len(e.Op)-1], cur, rhs, e.Range, e.Lhs.Span(), e.Rhs.Span())
		if sig != nil {
			return nil, sig
		}
	}
	return dispatch.Unit{}, in.store(e.Lhs, rhs)
}

// store writes v to a place: a variable, a field of a struct value, an
// element of an array, or through a `*` dereference.
func (in *interp) store(place syntax.Expr, v value) *signal {
	switch p := place.(type) {
	case *syntax.PathExpr:
		if len(p.Segments) == 1 {
			if b := in.scope.lookup(p.Segments[0].Name); b != nil {
				if r, ok := b.v.(*dispatch.Ref); ok && r.Mut {
					r.Store(v)
				} else {
					b.v = v
				}
				return nil
			}
		}
	case *syntax.UnaryExpr:
		if p.Op == "*" {
			if !isPlace(p.X) {
				// `*map.entry(k).or_insert(0) = v`: a write through
				// the `&mut` a std method returned.
				x, sig := in.expr(p.X)
				if sig != nil {
					return sig
				}
				if r, ok := x.(*dispatch.Ref); ok {
					r.Store(v)
					return nil
				}
				if isUnknown(x) {
					return nil
				}
			}
			return in.store(p.X, v)
		}
	case *syntax.ParenExpr:
		return in.store(p.X, v)
	case *syntax.FieldExpr:
		x, sig := in.expr(p.X)
		if sig != nil {
			return sig
		}
		if en, ok := dispatch.Deref(x).(*dispatch.Enum); ok && en.Named != nil {
			en.Named[p.Name] = v
			return nil
		}
		if en, ok := dispatch.Deref(x).(*dispatch.Enum); ok {
			if i, isIndex := fieldIndex(p.Name); isIndex && i < len(en.Fields) {
				en.Fields[i] = v
				return nil
			}
		}
		if t, ok := dispatch.Deref(x).(dispatch.Tuple); ok {
			if i, isIndex := fieldIndex(p.Name); isIndex && i < len(t) {
				t[i] = v
				return nil
			}
		}
		if m, ok := nn.WithField(dispatch.Deref(x), p.Name, v); ok {
			// A field of one of Burn's modules: the place holds a copy
			// with it.
			return in.store(p.X, m)
		}
		if isUnknown(x) {
			return nil
		}
	case *syntax.IndexExpr:
		x, sig := in.expr(p.X)
		if sig != nil {
			return sig
		}
		i, sig := in.expr(p.Index)
		if sig != nil {
			return sig
		}
		if arr, ok := dispatch.Deref(x).(*dispatch.Array); ok {
			if n, ok := asInt(i); ok && n >= 0 && n < int64(len(arr.Elems)) {
				arr.Elems[n] = v
				return nil
			} else if ok {
				_, sig := in.userPanic(p.Range, rstd.IndexPanic(int64(len(arr.Elems)), i).Error())
				return sig
			}
		}
		if isUnknown(x) || isUnknown(i) {
			return nil
		}
	}
	in.unsupported(place.Span(), "the playground cannot assign to this expression")
	return nil
}

func (in *interp) cast(e *syntax.CastExpr) (value, *signal) {
	x, sig := in.expr(e.X)
	if sig != nil {
		return nil, sig
	}
	t := in.typeText(e.Type)
	if c, ok := rstd.Cast(x, t); ok {
		return c, nil
	}
	switch v := dispatch.Deref(x).(type) {
	case *dispatch.Enum:
		if d, ok := in.discriminant(v, t); ok {
			return d, nil
		}
	}
	return x, nil
}

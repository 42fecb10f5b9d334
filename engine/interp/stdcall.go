package interp

import (
	"errors"
	"math"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/rstd"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// The evaluator's side of engine/rstd: std calls closures back and charges
// the step budget through stdCaller, and what std returns (a value, a std
// panic, or the evaluator's own stop) comes back as a value or a signal.

// stdCaller is rstd.Caller for one call site.
type stdCaller struct {
	in *interp
	r  source.Range
}

// sigError carries a signal of the evaluator through std.
type sigError struct{ sig *signal }

func (e *sigError) Error() string { return "evaluation stopped" }

func (c *stdCaller) Call(fn value, args []value) (value, error) {
	if f, ok := fn.(*rstd.FnRef); ok {
		v, handled, err := rstd.CallRef(c, f, args)
		if !handled {
			return unknown, nil
		}
		return v, err
	}
	v, sig := c.in.callBack(fn, args, c.r)
	if sig != nil {
		return nil, &sigError{sig}
	}
	return v, nil
}

func (c *stdCaller) Step() error {
	if sig := c.in.step(c.r); sig != nil {
		return &sigError{sig}
	}
	return nil
}

// stdResult turns what std returned into the evaluator's terms: a std
// panic is the program's, located at `at` (a method's name, as rustc's
// #[track_caller] reports it) and marked at r.
func (in *interp) stdResult(v value, err error, r, at source.Range) (value, *signal) {
	if err == nil {
		return v, nil
	}
	if se, ok := err.(*sigError); ok {
		return nil, se.sig
	}
	if p, ok := rstd.AsPanic(err); ok {
		return in.userPanicAt(r, at, "user-panic", p.Msg)
	}
	// Burn's panics and rustc's errors from an iterator of Burn's (a
	// DataLoader's batches: engine/data), at the expression that pulls it.
	var bp *dispatch.Panic
	if errors.As(err, &bp) {
		return in.raise(bp, r, nil, "", false)
	}
	var ue *dispatch.UsageError
	if errors.As(err, &ue) {
		in.report(diag.Diagnostic{Code: ue.Code, Severity: diag.Error, Phase: diag.Check, Message: ue.Message,
			File: diag.MainRS, Range: r, Help: ue.Help})
		if in.opts.Mode == Run {
			return nil, stop
		}
		return unknown, nil
	}
	return unknown, nil
}

// isStd reports whether v is one of the values std adds to the language.
func isStd(v value) bool {
	switch dispatch.Deref(v).(type) {
	case rstd.Char, rstd.CharRange, *rstd.Big, *rstd.Iter, *rstd.Map, *rstd.Set, *rstd.Entry, *rstd.FnRef, *rstd.Cell:
		return true
	}
	return false
}

// isPlace reports whether a receiver can be written back to, for the std
// methods that replace a String or an Option (push_str, take).
func isPlace(e syntax.Expr) bool {
	switch x := e.(type) {
	case *syntax.PathExpr:
		return len(x.Segments) == 1
	case *syntax.FieldExpr, *syntax.IndexExpr:
		return true
	case *syntax.ParenExpr:
		return isPlace(x.X)
	case *syntax.UnaryExpr:
		return x.Op == "*"
	}
	return false
}

// stdIndex is indexing a std value other than a slice: `&s[1..3]` on a
// str, `map[&key]` on a HashMap or BTreeMap.
func (in *interp) stdIndex(e *syntax.IndexExpr, x, idx value) (value, bool, *signal) {
	switch c := dispatch.Deref(x).(type) {
	case dispatch.Str:
		r, ok := dispatch.Deref(idx).(*dispatch.Range)
		if !ok {
			return nil, false, nil
		}
		lo, hi := int64(0), int64(len(c))
		if r.Lo != nil {
			lo = *r.Lo
		}
		if r.Hi != nil {
			hi = *r.Hi
			if r.Inclusive {
				hi++
			}
		}
		v, err := rstd.StrSlice(string(c), lo, hi)
		v, sig := in.stdResult(v, err, e.Range, e.Range)
		return v, true, sig
	case *rstd.Map:
		v, _, err := rstd.Method(&stdCaller{in: in, r: e.Range}, rstd.Call{Recv: c, Name: "get", Args: []value{idx}})
		if en, ok := v.(*dispatch.Enum); ok && err == nil {
			if en.Variant == "None" {
				v, sig := in.userPanic(e.Range, "no entry found for key")
				return v, true, sig
			}
			return en.Fields[0], true, nil
		}
		return unknown, true, nil
	}
	return nil, false, nil
}

// rangeBound is an integer as a bound of a Range, which holds int64: a
// u64 or u128 beyond it saturates (a loop that long ends at the step
// budget all the same).
func rangeBound(v value) (int64, bool) {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		if x.V < 0 && (x.Suffix == "u64" || x.Suffix == "usize") {
			return math.MaxInt64, true
		}
		return x.V, true
	case *rstd.Big:
		if x.V.Sign() < 0 {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	case rstd.Char:
		return int64(x), true
	}
	return 0, false
}

// burnInts gives Burn's model the integers it can hold: the model keeps an
// integer as an int64, so a u64 or usize beyond it (usize::MAX) reaches it
// saturated, as the largest size it can name. Arguments without one are
// returned as they are.
func burnInts(args []value) []value {
	for i, a := range args {
		if s, changed := saturated(a, 0); changed {
			out := append([]value(nil), args...)
			out[i] = s
			for j := i + 1; j < len(out); j++ {
				out[j], _ = saturated(out[j], 0)
			}
			return out
		}
	}
	return args
}

func saturated(v value, depth int) (value, bool) {
	switch x := v.(type) {
	case dispatch.Int:
		if x.V < 0 && (x.Suffix == "u64" || x.Suffix == "usize") {
			return dispatch.Int{V: math.MaxInt64, Suffix: x.Suffix}, true
		}
	case *rstd.Big:
		n, _ := rangeBound(x)
		return dispatch.Int{V: n, Suffix: x.Suffix}, true
	case *dispatch.Array:
		if depth > 8 {
			return v, false
		}
		for i, el := range x.Elems {
			if s, changed := saturated(el, depth+1); changed {
				out := &dispatch.Array{Elems: append([]value(nil), x.Elems...), Vec: x.Vec}
				out.Elems[i] = s
				for j := i + 1; j < len(out.Elems); j++ {
					out.Elems[j], _ = saturated(out.Elems[j], depth+1)
				}
				return out, true
			}
		}
	}
	return v, false
}

// userIter is a value of the program's own type that implements Iterator
// (it has a next method) as an rstd iterator, whose every pull calls that
// next on the value.
func (in *interp) userIter(x *dispatch.Enum, r source.Range) (*rstd.Iter, bool) {
	if x.Type == "Option" || x.Type == "Result" {
		return nil, false
	}
	fn := in.assocFn(x.Type, "next")
	if fn == nil {
		return nil, false
	}
	self := &dispatch.Ref{V: x, Mut: true}
	return rstd.FromNext(func() (value, error) {
		if sig := in.step(r); sig != nil {
			return nil, &sigError{sig}
		}
		v, sig := in.callUserSelf(fn, self, nil, r)
		if sig != nil {
			return nil, &sigError{sig}
		}
		return v, nil
	}), true
}

// memFunction is std::mem's swap, replace and take: they write through
// their `&mut` arguments, which the evaluator holds as the places the
// call names (`&mut a`).
func (in *interp) memFunction(name string, args []value, e *syntax.CallExpr) (value, bool, *signal) {
	place := func(i int) (syntax.Expr, bool) {
		if i >= len(e.Args) {
			return nil, false
		}
		if u, ok := e.Args[i].(*syntax.UnaryExpr); ok && u.Op == "&mut" && isPlace(u.X) {
			return u.X, true
		}
		if isPlace(e.Args[i]) {
			return &syntax.UnaryExpr{Op: "*", X: e.Args[i], Range: e.Args[i].Span()}, true
		}
		return nil, false
	}
	for _, a := range args {
		if isUnknown(a) {
			return unknown, true, nil
		}
	}
	switch name {
	case "swap":
		a, ok1 := place(0)
		b, ok2 := place(1)
		if !ok1 || !ok2 || len(args) != 2 {
			return nil, false, nil
		}
		x, y := dispatch.Deref(args[0]), dispatch.Deref(args[1])
		if sig := in.store(a, y); sig != nil {
			return nil, true, sig
		}
		return dispatch.Unit{}, true, in.store(b, x)
	case "replace", "take":
		dst, ok := place(0)
		if !ok {
			return nil, false, nil
		}
		old := dispatch.Deref(args[0])
		var v value
		if name == "replace" {
			if len(args) != 2 {
				return nil, false, nil
			}
			v = args[1]
		} else {
			v = rstd.DefaultLike(old)
		}
		return old, true, in.store(dst, v)
	case "drop", "forget":
		return dispatch.Unit{}, true, nil
	case "size_of", "align_of":
		return nil, false, nil
	}
	return nil, false, nil
}

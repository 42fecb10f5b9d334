package rstd

import (
	"errors"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Value is a value of the snippet language.
type Value = dispatch.Value

// Caller is what std needs from the evaluator.
type Caller interface {
	// Call calls a closure or function value. An error stops the std
	// function and is passed back to the evaluator unchanged.
	Call(fn Value, args []Value) (Value, error)
	// Step charges one step of the budget: an iterator pays one for every
	// element it pulls.
	Step() error
}

// Panic is a panic of std, with std's message.
type Panic struct{ Msg string }

func (p *Panic) Error() string { return p.Msg }

func panicf(msg string) error { return &Panic{Msg: msg} }

// AsPanic reports whether err is a std panic.
func AsPanic(err error) (*Panic, bool) {
	if err == nil {
		return nil, false
	}
	if p, ok := err.(*Panic); ok {
		return p, true
	}
	var p *Panic
	ok := errors.As(err, &p)
	return p, ok
}

// Call is one method call on a std value.
type Call struct {
	Recv     Value
	Name     string
	Args     []Value
	Generics []string // the turbofish: `sum::<i32>()` has ["i32"]
	Expect   string   // the type the context asks for: `let v: Vec<i32> = ..`
	// SetRecv writes a new value to the receiver's place, for the methods
	// that mutate a String or an Option (push_str, take); nil when the
	// receiver is not a place.
	SetRecv func(Value)
}

var unknown Value = dispatch.Unknown{}

func isUnknown(v Value) bool {
	_, ok := dispatch.Deref(v).(dispatch.Unknown)
	return ok
}

// Char is Rust's char.
type Char rune

func (Char) TypeName() string { return "char" }

func some(v Value) Value { return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []Value{v}} }
func none() Value        { return &dispatch.Enum{Type: "Option", Variant: "None"} }
func ok(v Value) Value   { return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []Value{v}} }
func errv(v Value) Value { return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []Value{v}} }
func usize(n int) Value  { return dispatch.Int{V: int64(n), Suffix: "usize"} }
func option(v Value, present bool) Value {
	if present {
		return some(v)
	}
	return none()
}

// Method runs a method of std on its receiver. handled is false when the
// receiver is not a std value or std has no such method on it.
func Method(c Caller, call Call) (v Value, handled bool, err error) {
	v, handled, err = typeMethod(c, call)
	if handled {
		return v, handled, err
	}
	recv := dispatch.Deref(call.Recv)
	switch call.Name {
	case "cmp", "partial_cmp", "max", "min":
		if len(call.Args) == 1 {
			if o, known := Compare(recv, call.Args[0]); known {
				switch call.Name {
				case "cmp":
					return ordering(o), true, nil
				case "partial_cmp":
					return some(ordering(o)), true, nil
				case "max":
					if o > 0 {
						return recv, true, nil
					}
					return call.Args[0], true, nil
				}
				if o <= 0 {
					return recv, true, nil
				}
				return call.Args[0], true, nil
			}
		}
	case "eq", "ne":
		if len(call.Args) == 1 {
			if eq, known := Equal(recv, call.Args[0]); known {
				return dispatch.Bool(eq == (call.Name == "eq")), true, nil
			}
		}
	}
	if isStdValue(recv) {
		if p, isPtr := pointerMethod(recv, call.Name, call.Args); isPtr && len(call.Args) == 0 {
			return p, true, nil
		}
	}
	return nil, false, nil
}

// MutatesRecv reports whether a std method may replace its receiver (a
// String's push_str, an Option's take): the evaluator then
// passes Call.SetRecv.
func MutatesRecv(name string) bool {
	switch name {
	case "push_str", "push", "clear", "insert", "insert_str", "truncate", "pop", "take", "replace", "get_or_insert",
		"get_or_insert_with", "remove":
		return true
	}
	return false
}

// Owns reports whether v is a value whose methods std runs (the
// evaluator asks before building a call).
func Owns(v Value) bool { return isStdValue(dispatch.Deref(v)) }

// isStdValue reports whether v is a value std owns.
func isStdValue(v Value) bool {
	switch v.(type) {
	case dispatch.Int, *Big, dispatch.Float, dispatch.Bool, Char, dispatch.Str, *dispatch.Array, dispatch.Tuple, dispatch.Unit,
		*dispatch.Range, *dispatch.FloatRange, CharRange, *Iter, *Map, *Set, *Entry, *Cell, Duration, *JoinHandle, PathBuf, *dispatch.Enum:
		return true
	}
	return false
}

func typeMethod(c Caller, call Call) (v Value, handled bool, err error) {
	switch x := dispatch.Deref(call.Recv).(type) {
	case dispatch.Int:
		return intMethod(x, call)
	case *Big:
		return bigMethod(x, call)
	case dispatch.Float:
		return floatMethod(x, call)
	case dispatch.Bool:
		return boolMethod(c, x, call)
	case Char:
		return charMethod(x, call)
	case dispatch.Str:
		return strMethod(c, x, call)
	case *dispatch.Array:
		return vecMethod(c, x, call)
	case *dispatch.Range:
		if call.Name == "into" && len(call.Args) == 0 {
			// Into<Slice> (Burn's) or the range itself: a Slice is
			// held as its range.
			return x, true, nil
		}
		it, ok := rangeIter(c, x)
		if !ok {
			return nil, false, nil
		}
		return iterMethod(c, it, call)
	case *dispatch.FloatRange:
		switch {
		case call.Name == "contains" && len(call.Args) == 1:
			f, isFloat := dispatch.Deref(call.Args[0]).(dispatch.Float)
			if !isFloat {
				return nil, false, nil
			}
			return dispatch.Bool(x.Contains(f.V)), true, nil
		case call.Name == "start" && x.Inclusive, call.Name == "end" && x.Inclusive:
			if call.Name == "start" {
				return x.Lo, true, nil
			}
			return x.Hi, true, nil
		case call.Name == "is_empty":
			return dispatch.Bool(!(x.Lo.V < x.Hi.V || x.Inclusive && x.Lo.V == x.Hi.V)), true, nil
		case call.Name == "clone":
			return x, true, nil
		}
		return nil, false, nil
	case CharRange:
		if call.Name == "contains" && len(call.Args) == 1 {
			ch, isChar := dispatch.Deref(call.Args[0]).(Char)
			if !isChar {
				return nil, false, nil
			}
			lo, hi := *x.R.Lo, *x.R.Hi
			return dispatch.Bool(int64(ch) >= lo && (int64(ch) < hi || x.R.Inclusive && int64(ch) == hi)), true, nil
		}
		it, ok := charRangeIter(c, x)
		if !ok {
			return nil, false, nil
		}
		return iterMethod(c, it, call)
	case *Iter:
		return iterMethod(c, x, call)
	case *Map:
		return mapMethod(c, x, call)
	case *Set:
		return setMethod(c, x, call)
	case *Entry:
		return entryMethod(c, x, call)
	case *Cell:
		return cellMethod(x, call)
	case Duration:
		return durationMethod(x, call)
	case *JoinHandle:
		return joinHandleMethod(x, call)
	case PathBuf:
		return pathMethod(x, call)
	case *dispatch.Enum:
		return optionResultMethod(c, x, call)
	case dispatch.Tuple, dispatch.Unit:
		if call.Name == "clone" {
			return x, true, nil
		}
	}
	return nil, false, nil
}

// pointerMethod is what Box, Rc, Arc, RefCell, Cell and Mutex add to the
// value they hold, which the playground keeps in their place.
func pointerMethod(recv Value, name string, args []Value) (Value, bool) {
	switch name {
	case "borrow", "as_ref", "deref", "into_inner", "get_mut":
		return recv, true
	case "borrow_mut", "as_mut", "deref_mut":
		return &dispatch.Ref{V: recv, Mut: true}, true
	case "lock", "read", "write", "try_lock", "try_borrow", "try_borrow_mut":
		return ok(recv), true
	}
	return nil, false
}

// clonable reports a method every std value has.
func cloneLike(name string) bool {
	switch name {
	case "clone", "to_owned", "into", "cloned", "copied":
		return true
	}
	return false
}

func intArg(args []Value, i int) (int64, bool) {
	if i >= len(args) {
		return 0, false
	}
	n, ok := dispatch.Deref(args[i]).(dispatch.Int)
	return n.V, ok
}

func truthy(v Value) (bool, bool) {
	b, ok := dispatch.Deref(v).(dispatch.Bool)
	return bool(b), ok
}

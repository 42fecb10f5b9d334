package rstd

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Option and Result, with std's panic messages.

// UnwrapMessage is the panic of unwrap or expect on a None or an Err
// (expectMsg is expect's argument; hasMsg false for unwrap).
func UnwrapMessage(e *dispatch.Enum, method, expectMsg string) string {
	inner := ""
	if len(e.Fields) == 1 {
		inner = Debug(e.Fields[0])
	}
	switch {
	case method == "expect" && e.Type == "Option":
		return expectMsg
	case method == "expect":
		return expectMsg + ": " + inner
	case method == "expect_err":
		return expectMsg + ": " + inner
	case method == "unwrap_err":
		return "called `Result::unwrap_err()` on an `Ok` value: " + inner
	case e.Type == "Option":
		return "called `Option::unwrap()` on a `None` value"
	}
	return "called `Result::unwrap()` on an `Err` value: " + inner
}

func optionResultMethod(c Caller, e *dispatch.Enum, call Call) (Value, bool, error) {
	isOption := e.Type == "Option"
	if !isOption && e.Type != "Result" {
		if call.Name == "clone" {
			return e, true, nil
		}
		if call.Name == "cmp" || call.Name == "partial_cmp" {
			if len(call.Args) == 1 {
				if o, known := Compare(e, call.Args[0]); known {
					if call.Name == "partial_cmp" {
						return some(ordering(o)), true, nil
					}
					return ordering(o), true, nil
				}
			}
		}
		if e.Type == "Ordering" {
			switch call.Name {
			case "reverse":
				return ordering(-orderingOf(e)), true, nil
			case "then":
				if orderingOf(e) == 0 && len(call.Args) == 1 {
					return call.Args[0], true, nil
				}
				return e, true, nil
			case "is_eq", "is_lt", "is_gt", "is_le", "is_ge", "is_ne":
				o := orderingOf(e)
				return dispatch.Bool(map[string]bool{"is_eq": o == 0, "is_lt": o < 0, "is_gt": o > 0, "is_le": o <= 0, "is_ge": o >= 0, "is_ne": o != 0}[call.Name]), true, nil
			}
		}
		if s, isErr := errorDisplay(e); isErr && call.Name == "to_string" {
			return dispatch.Str(s), true, nil
		}
		return nil, false, nil
	}
	good := e.Variant == "Some" || e.Variant == "Ok"
	var inner Value = dispatch.Unit{}
	if len(e.Fields) == 1 {
		inner = e.Fields[0]
	}
	args := call.Args
	var f Value
	if len(args) == 1 && isFn(args[0]) {
		f = args[0]
	}
	wrap := func(v Value) Value { return &dispatch.Enum{Type: e.Type, Variant: e.Variant, Fields: []Value{v}} }
	switch call.Name {
	case "clone", "as_ref", "as_mut", "as_deref", "as_deref_mut", "cloned", "copied":
		return e, true, nil
	case "is_some", "is_ok":
		return dispatch.Bool(good), true, nil
	case "is_none", "is_err":
		return dispatch.Bool(!good), true, nil
	case "is_some_and", "is_ok_and", "is_none_or", "is_err_and":
		if f == nil {
			return nil, false, nil
		}
		if call.Name == "is_err_and" {
			if good {
				return dispatch.Bool(false), true, nil
			}
		} else if !good {
			return dispatch.Bool(call.Name == "is_none_or"), true, nil
		}
		r, err := call1(c, f, inner)
		return r, true, err
	case "unwrap", "expect":
		if good {
			return inner, true, nil
		}
		msg, _ := strArg(args, 0)
		return nil, true, panicf(UnwrapMessage(e, call.Name, msg))
	case "unwrap_err", "expect_err":
		if !good {
			return inner, true, nil
		}
		msg, _ := strArg(args, 0)
		return nil, true, panicf(UnwrapMessage(e, call.Name, msg))
	case "unwrap_or":
		if good {
			return inner, true, nil
		}
		if len(args) == 1 {
			return args[0], true, nil
		}
	case "unwrap_or_else":
		if good {
			return inner, true, nil
		}
		if f == nil {
			return nil, false, nil
		}
		var fargs []Value
		if !isOption {
			fargs = []Value{inner}
		}
		r, err := c.Call(f, fargs)
		return r, true, err
	case "unwrap_or_default":
		if good {
			return inner, true, nil
		}
		// The value's type is not kept at run time: the context's type
		// when it names one, else an integer's 0 (the usual case).
		return defaultOf(call.Expect), true, nil
	case "map", "and_then", "map_err", "or_else", "filter", "inspect":
		if f == nil {
			return nil, false, nil
		}
		onGood := call.Name != "map_err" && call.Name != "or_else"
		if good != onGood {
			return e, true, nil
		}
		var fargs []Value
		if good || !isOption {
			fargs = []Value{inner}
		}
		r, err := c.Call(f, fargs)
		if err != nil {
			return nil, true, err
		}
		switch call.Name {
		case "map":
			return wrap(r), true, nil
		case "map_err":
			return errv(r), true, nil
		case "filter":
			if keep(r) {
				return e, true, nil
			}
			return none(), true, nil
		case "inspect":
			return e, true, nil
		}
		return r, true, nil
	case "map_or", "map_or_else":
		if len(args) != 2 || !isFn(args[1]) || (call.Name == "map_or_else" && !isFn(args[0])) {
			return nil, false, nil
		}
		if good {
			r, err := call1(c, args[1], inner)
			return r, true, err
		}
		if call.Name == "map_or" {
			return args[0], true, nil
		}
		var fargs []Value
		if !isOption {
			fargs = []Value{inner}
		}
		r, err := c.Call(args[0], fargs)
		return r, true, err
	case "and":
		if len(args) == 1 {
			if good {
				return args[0], true, nil
			}
			return e, true, nil
		}
	case "or":
		if len(args) == 1 {
			if good {
				return e, true, nil
			}
			return args[0], true, nil
		}
	case "xor":
		if len(args) != 1 {
			return nil, false, nil
		}
		if o, isEnum := dispatch.Deref(args[0]).(*dispatch.Enum); isEnum {
			og := o.Variant == "Some"
			switch {
			case good && !og:
				return e, true, nil
			case !good && og:
				return o, true, nil
			}
			return none(), true, nil
		}
	case "ok_or", "ok_or_else":
		if !isOption || len(args) != 1 || (call.Name == "ok_or_else" && !isFn(args[0])) {
			return nil, false, nil
		}
		if good {
			return ok(inner), true, nil
		}
		if call.Name == "ok_or" {
			return errv(args[0]), true, nil
		}
		r, err := c.Call(args[0], nil)
		return errv(r), true, err
	case "ok":
		if isOption {
			return nil, false, nil
		}
		return option(inner, good), true, nil
	case "err":
		if isOption {
			return nil, false, nil
		}
		return option(inner, !good), true, nil
	case "take", "replace", "insert", "get_or_insert", "get_or_insert_with":
		if !isOption || call.SetRecv == nil {
			return nil, false, nil
		}
		switch call.Name {
		case "take":
			call.SetRecv(none())
			return e, true, nil
		case "replace":
			if len(args) == 1 {
				call.SetRecv(some(args[0]))
				return e, true, nil
			}
		case "insert":
			if len(args) == 1 {
				call.SetRecv(some(args[0]))
				return args[0], true, nil
			}
		default:
			if good {
				return inner, true, nil
			}
			if len(args) == 1 {
				v := args[0]
				if call.Name == "get_or_insert_with" {
					var err error
					if v, err = c.Call(args[0], nil); err != nil {
						return nil, true, err
					}
				}
				call.SetRecv(some(v))
				return v, true, nil
			}
		}
	case "iter", "into_iter":
		if good {
			return sliceIter(c, []Value{inner}), true, nil
		}
		return sliceIter(c, nil), true, nil
	case "flatten":
		if !good {
			return e, true, nil
		}
		return inner, true, nil
	case "zip":
		if len(args) != 1 {
			return nil, false, nil
		}
		if o, isEnum := dispatch.Deref(args[0]).(*dispatch.Enum); isEnum {
			if good && o.Variant == "Some" && len(o.Fields) == 1 {
				return some(dispatch.Tuple{inner, o.Fields[0]}), true, nil
			}
			return none(), true, nil
		}
	case "unwrap_unchecked":
		return inner, true, nil
	}
	return nil, false, nil
}

package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/syntax"
)

// stdMethod runs methods of Rust's standard library on the values the
// interpreter owns (numbers, strings, arrays and vectors, ranges, Option and
// Result). handled is false when the receiver is not one of those, or the
// method belongs to Burn.
func (in *interp) stdMethod(e *syntax.MethodCallExpr, recv value, args []value) (v value, handled bool, sig *signal) {
	name := e.Name
	switch x := dispatch.Deref(recv).(type) {
	case dispatch.Int:
		switch name {
		case "clone", "to_owned":
			return x, true, nil
		case "to_string":
			return dispatch.Str(display(x)), true, nil
		case "abs":
			if x.V < 0 {
				return dispatch.Int{V: -x.V, Suffix: x.Suffix}, true, nil
			}
			return x, true, nil
		case "pow":
			if n, ok := intArg(args, 0); ok {
				// By squaring: the same wrapped product as n
				// multiplications, in log n of them.
				r, base := int64(1), x.V
				for ; n > 0; n >>= 1 {
					if n&1 == 1 {
						r *= base
					}
					base *= base
				}
				return dispatch.Int{V: r, Suffix: x.Suffix}, true, nil
			}
		case "min", "max":
			if n, ok := intArg(args, 0); ok {
				if (name == "min") == (n < x.V) {
					return dispatch.Int{V: n, Suffix: x.Suffix}, true, nil
				}
				return x, true, nil
			}
		case "into":
			return x, true, nil
		}
	case dispatch.Float:
		if f, ok := floatMethod(name, x.V, args); ok {
			return dispatch.Float{V: f, Suffix: x.Suffix}, true, nil
		}
		switch name {
		case "clone", "into":
			return x, true, nil
		case "to_string":
			return dispatch.Str(display(x)), true, nil
		case "is_nan":
			return dispatch.Bool(math.IsNaN(x.V)), true, nil
		}
	case dispatch.Bool:
		switch name {
		case "clone":
			return x, true, nil
		case "to_string":
			return dispatch.Str(display(x)), true, nil
		case "then_some":
			if x && len(args) == 1 {
				return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: args}, true, nil
			}
			return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
		}
	case dispatch.Str:
		switch name {
		case "clone", "to_string", "to_owned", "into", "as_str", "trim":
			return x, true, nil
		case "len":
			return dispatch.Int{V: int64(len(x)), Suffix: "usize"}, true, nil
		case "parse":
			// parse is directed by the type asked for, which the
			// playground reads from the text: a number parses as one,
			// anything else (an Iroh endpoint id, a socket address)
			// stays the string Burn's types are built from.
			text := strings.TrimSpace(string(x))
			if i, err := strconv.ParseInt(text, 10, 64); err == nil {
				return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{dispatch.Int{V: i}}}, true, nil
			}
			if f, err := strconv.ParseFloat(text, 64); err == nil {
				return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{dispatch.Float{V: f}}}, true, nil
			}
			return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []value{x}}, true, nil
		}
	case *dispatch.Array:
		return in.arrayMethod(e, x, args)
	case *dispatch.Range:
		switch name {
		case "rev", "into_iter", "iter", "step_by", "map", "collect", "enumerate", "zip", "for_each", "sum", "len", "filter":
			if x.Lo != nil && x.Hi != nil {
				hi := *x.Hi
				if x.Inclusive {
					hi++
				}
				n := hi - *x.Lo
				if n < 0 {
					n = 0
				}
				if n > maxArrayLen {
					return nil, false, nil
				}
				if sig := in.stepN(int(n), e.Range); sig != nil {
					return nil, true, sig
				}
				arr := &dispatch.Array{}
				for i := *x.Lo; i < hi; i++ {
					arr.Elems = append(arr.Elems, dispatch.Int{V: i})
				}
				if name == "step_by" {
					step, ok := intArg(args, 0)
					if !ok || step <= 0 {
						return nil, false, nil
					}
					var kept []value
					for i := 0; i < len(arr.Elems); i += int(step) {
						kept = append(kept, arr.Elems[i])
					}
					arr.Elems = kept
					return arr, true, nil
				}
				if name == "len" {
					return dispatch.Int{V: int64(len(arr.Elems)), Suffix: "usize"}, true, nil
				}
				return in.arrayMethod(e, arr, args)
			}
		}
	case *dispatch.Enum:
		return in.enumMethod(e, x, args)
	case dispatch.Tuple:
		if name == "clone" {
			return x, true, nil
		}
	case *closure, *fnValue:
		if name == "clone" {
			return x, true, nil
		}
	case dispatch.Unit:
		if name == "clone" {
			return x, true, nil
		}
	}
	return nil, false, nil
}

func intArg(args []value, i int) (int64, bool) {
	if i >= len(args) {
		return 0, false
	}
	return asInt(args[i])
}

func floatMethod(name string, x float64, args []value) (float64, bool) {
	switch name {
	case "abs":
		return math.Abs(x), true
	case "sqrt":
		return math.Sqrt(x), true
	case "exp":
		return math.Exp(x), true
	case "ln":
		return math.Log(x), true
	case "floor":
		return math.Floor(x), true
	case "ceil":
		return math.Ceil(x), true
	case "round":
		return math.Round(x), true
	case "powi", "powf":
		if len(args) == 1 {
			if p, ok := asFloat(args[0]); ok {
				return math.Pow(x, p), true
			}
		}
	case "min", "max":
		if len(args) == 1 {
			if y, ok := asFloat(args[0]); ok {
				if name == "min" {
					return math.Min(x, y), true
				}
				return math.Max(x, y), true
			}
		}
	}
	return 0, false
}

// arrayMethod handles Vec, array, slice and iterator methods. Iterators are
// eager: `iter()` is the array itself, `map` builds a new one.
func (in *interp) arrayMethod(e *syntax.MethodCallExpr, x *dispatch.Array, args []value) (value, bool, *signal) {
	fn := func() (value, bool) {
		if len(args) == 1 {
			switch f := dispatch.Deref(args[0]).(type) {
			case *closure, *fnValue:
				return f, true
			}
		}
		return nil, false
	}
	apply := func(f value, vs ...value) (value, *signal) {
		switch f := f.(type) {
		case *closure:
			return in.callClosure(f, vs, e.Range)
		case *fnValue:
			return in.callUser(f.decl, vs, e.Range)
		}
		return unknown, nil
	}
	switch e.Name {
	case "iter", "into_iter", "iter_mut", "clone", "to_vec", "collect", "cloned", "copied", "as_slice", "into", "to_owned":
		return &dispatch.Array{Elems: append([]value(nil), x.Elems...), Vec: x.Vec || e.Name == "to_vec" || e.Name == "collect"}, true, nil
	case "len":
		return dispatch.Int{V: int64(len(x.Elems)), Suffix: "usize"}, true, nil
	case "is_empty":
		return dispatch.Bool(len(x.Elems) == 0), true, nil
	case "push":
		if len(args) == 1 {
			x.Elems = append(x.Elems, args[0])
			return dispatch.Unit{}, true, nil
		}
	case "pop":
		if len(x.Elems) == 0 {
			return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
		}
		last := x.Elems[len(x.Elems)-1]
		x.Elems = x.Elems[:len(x.Elems)-1]
		return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{last}}, true, nil
	case "first", "last":
		if len(x.Elems) == 0 {
			return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
		}
		el := x.Elems[0]
		if e.Name == "last" {
			el = x.Elems[len(x.Elems)-1]
		}
		return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{el}}, true, nil
	case "get":
		if i, ok := intArg(args, 0); ok {
			if i < 0 || i >= int64(len(x.Elems)) {
				return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
			}
			return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{x.Elems[i]}}, true, nil
		}
	case "rev":
		out := make([]value, len(x.Elems))
		for i, v := range x.Elems {
			out[len(out)-1-i] = v
		}
		return &dispatch.Array{Elems: out}, true, nil
	case "enumerate":
		out := make([]value, len(x.Elems))
		for i, v := range x.Elems {
			out[i] = dispatch.Tuple{dispatch.Int{V: int64(i), Suffix: "usize"}, v}
		}
		return &dispatch.Array{Elems: out}, true, nil
	case "zip":
		if len(args) == 1 {
			if other, ok := dispatch.Deref(args[0]).(*dispatch.Array); ok {
				n := min(len(x.Elems), len(other.Elems))
				out := make([]value, n)
				for i := range n {
					out[i] = dispatch.Tuple{x.Elems[i], other.Elems[i]}
				}
				return &dispatch.Array{Elems: out}, true, nil
			}
		}
	case "map", "for_each", "filter", "all", "any":
		f, ok := fn()
		if !ok {
			break
		}
		out := &dispatch.Array{}
		for _, el := range x.Elems {
			v, sig := apply(f, el)
			if sig != nil {
				return nil, true, sig
			}
			switch e.Name {
			case "map":
				out.Elems = append(out.Elems, v)
			case "filter":
				if b, ok := dispatch.Deref(v).(dispatch.Bool); ok && bool(b) {
					out.Elems = append(out.Elems, el)
				}
			case "all", "any":
				b, ok := dispatch.Deref(v).(dispatch.Bool)
				if !ok {
					return unknown, true, nil
				}
				if bool(b) == (e.Name == "any") {
					return b, true, nil
				}
			}
		}
		switch e.Name {
		case "for_each":
			return dispatch.Unit{}, true, nil
		case "all":
			return dispatch.Bool(true), true, nil
		case "any":
			return dispatch.Bool(false), true, nil
		}
		return out, true, nil
	case "sum", "product":
		if len(x.Elems) == 0 {
			return dispatch.Int{V: map[string]int64{"sum": 0, "product": 1}[e.Name]}, true, nil
		}
		acc := x.Elems[0]
		for _, el := range x.Elems[1:] {
			op := "+"
			if e.Name == "product" {
				op = "*"
			}
			v, sig := in.applyBinary(op, acc, el, e.Range, e.Range, e.Range)
			if sig != nil {
				return nil, true, sig
			}
			acc = v
		}
		return acc, true, nil
	case "contains":
		if len(args) == 1 {
			for _, el := range x.Elems {
				if eq, _ := valuesEqual(el, args[0]); eq {
					return dispatch.Bool(true), true, nil
				}
			}
			return dispatch.Bool(false), true, nil
		}
	}
	return nil, false, nil
}

func (in *interp) enumMethod(e *syntax.MethodCallExpr, x *dispatch.Enum, args []value) (value, bool, *signal) {
	isSome := (x.Type == "Option" && x.Variant == "Some") || (x.Type == "Result" && x.Variant == "Ok")
	isNone := (x.Type == "Option" && x.Variant == "None") || (x.Type == "Result" && x.Variant == "Err")
	if !isSome && !isNone {
		if e.Name == "clone" {
			return x, true, nil
		}
		return nil, false, nil
	}
	inner := func() value {
		if len(x.Fields) == 1 {
			return x.Fields[0]
		}
		return dispatch.Unit{}
	}
	switch e.Name {
	case "clone", "as_ref", "as_mut", "take":
		return x, true, nil
	case "is_some", "is_ok":
		return dispatch.Bool(isSome), true, nil
	case "is_none", "is_err":
		return dispatch.Bool(isNone), true, nil
	case "unwrap", "expect":
		if isSome {
			return inner(), true, nil
		}
		msg := ""
		switch {
		case e.Name == "expect" && len(args) == 1:
			msg = display(args[0])
			if x.Type == "Result" {
				msg += ": " + debug(inner())
			}
		case x.Type == "Option":
			msg = "called `Option::unwrap()` on a `None` value"
		default:
			msg = "called `Result::unwrap()` on an `Err` value: " + debug(inner())
		}
		if err, ok := dispatch.Deref(inner()).(*dispatch.Enum); ok && x.Type == "Result" && err.ErrorRow != "" {
			// An error of Burn's API: the panic is the program's, at its
			// unwrap, but it stands for Burn's row.
			p := dispatch.Panic{ID: err.ErrorRow, Message: msg, Location: in.callerLocation(e.NameSpan), Input: -1}
			v, sig := in.raise(&p, e.Range, nil, "", false)
			return v, true, sig
		}
		v, sig := in.userPanicAt(e.Range, e.NameSpan, "user-panic", msg)
		return v, true, sig
	case "unwrap_or":
		if isSome {
			return inner(), true, nil
		}
		if len(args) == 1 {
			return args[0], true, nil
		}
	case "unwrap_or_default":
		if isSome {
			return inner(), true, nil
		}
		return unknown, true, nil
	case "ok":
		if x.Type == "Result" {
			if isSome {
				return &dispatch.Enum{Type: "Option", Variant: "Some", Fields: x.Fields}, true, nil
			}
			return &dispatch.Enum{Type: "Option", Variant: "None"}, true, nil
		}
	case "map":
		if isNone {
			return x, true, nil
		}
		if len(args) == 1 {
			if c, ok := dispatch.Deref(args[0]).(*closure); ok {
				v, sig := in.callClosure(c, []value{inner()}, e.Range)
				if sig != nil {
					return nil, true, sig
				}
				return &dispatch.Enum{Type: x.Type, Variant: x.Variant, Fields: []value{v}}, true, nil
			}
		}
	}
	in.report(diag.Diagnostic{Code: "unknown-method", Severity: diag.Error,
		Message: fmt.Sprintf("no method named `%s` found for enum `%s` in the current scope", e.Name, x.Type),
		File:    diag.MainRS, Range: e.NameSpan})
	return unknown, true, nil
}

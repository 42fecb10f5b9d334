package rstd

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Iterator's consumers: they pull until they have their answer.

func drain(it *Iter, each func(Value) (stop bool, err error)) error {
	for {
		v, more, err := it.next()
		if err != nil || !more {
			return err
		}
		if stop, err := each(v); stop || err != nil {
			return err
		}
	}
}

func iterConsume(c Caller, it *Iter, call Call) (Value, bool, error) {
	args := call.Args
	var f Value
	if len(args) >= 1 && isFn(args[len(args)-1]) {
		f = args[len(args)-1]
	}
	switch call.Name {
	case "peek":
		if it.peek == nil {
			return nil, false, nil
		}
		v, more, err := it.peek()
		return option(v, more), true, err
	case "next_if":
		if it.peek == nil || f == nil {
			return nil, false, nil
		}
		v, more, err := it.peek()
		if err != nil || !more {
			return none(), true, err
		}
		r, err := call1(c, f, v)
		if err != nil || !keep(r) {
			return none(), true, err
		}
		it.next()
		return some(v), true, nil
	case "count":
		n := 0
		err := drain(it, func(Value) (bool, error) { n++; return false, nil })
		return usize(n), true, err
	case "last":
		var last Value
		err := drain(it, func(v Value) (bool, error) { last = v; return false, nil })
		return option(last, last != nil), true, err
	case "nth":
		n, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		for ; n > 0; n-- {
			if _, more, err := it.next(); !more || err != nil {
				return none(), true, err
			}
		}
		v, more, err := it.next()
		return option(v, more), true, err
	case "for_each":
		if f == nil {
			return nil, false, nil
		}
		err := drain(it, func(v Value) (bool, error) { _, err := call1(c, f, v); return false, err })
		return dispatch.Unit{}, true, err
	case "fold":
		if len(args) != 2 || f == nil {
			return nil, false, nil
		}
		acc := args[0]
		err := drain(it, func(v Value) (bool, error) {
			var err error
			acc, err = c.Call(f, []Value{acc, v})
			return false, err
		})
		return acc, true, err
	case "reduce":
		if f == nil {
			return nil, false, nil
		}
		var acc Value
		err := drain(it, func(v Value) (bool, error) {
			if acc == nil {
				acc = v
				return false, nil
			}
			var err error
			acc, err = c.Call(f, []Value{acc, v})
			return false, err
		})
		return option(acc, acc != nil), true, err
	case "any", "all":
		if f == nil {
			return nil, false, nil
		}
		want := call.Name == "any"
		result := Value(dispatch.Bool(!want))
		err := drain(it, func(v Value) (bool, error) {
			r, err := call1(c, f, v)
			if err != nil {
				return true, err
			}
			b, isBool := truthy(r)
			if !isBool {
				result = unknown
				return true, nil
			}
			if b == want {
				result = dispatch.Bool(want)
				return true, nil
			}
			return false, nil
		})
		return result, true, err
	case "find", "position", "find_map", "rposition":
		if f == nil {
			return nil, false, nil
		}
		var found Value
		i := 0
		err := drain(it, func(v Value) (bool, error) {
			r, err := call1(c, f, v)
			if err != nil {
				return true, err
			}
			switch call.Name {
			case "find_map":
				if inner, present := optionValue(r); present {
					found = inner
					return true, nil
				}
			default:
				if b, isBool := truthy(r); b || !isBool {
					found = v
					if call.Name != "find" {
						found = usize(i)
					}
					return true, nil
				}
			}
			i++
			return false, nil
		})
		return option(found, found != nil), true, err
	case "sum", "product":
		return sumProduct(c, it, call)
	case "min", "max", "min_by_key", "max_by_key", "min_by", "max_by":
		return minMax(c, it, call, f)
	case "collect":
		target := call.Expect
		if len(call.Generics) > 0 {
			target = call.Generics[0]
		}
		return collect(c, it, target)
	case "partition":
		if f == nil {
			return nil, false, nil
		}
		yes, no := &dispatch.Array{Vec: true}, &dispatch.Array{Vec: true}
		err := drain(it, func(v Value) (bool, error) {
			r, err := call1(c, f, v)
			if keep(r) {
				yes.Elems = append(yes.Elems, v)
			} else {
				no.Elems = append(no.Elems, v)
			}
			return false, err
		})
		return dispatch.Tuple{yes, no}, true, err
	case "unzip":
		a, b := &dispatch.Array{Vec: true}, &dispatch.Array{Vec: true}
		err := drain(it, func(v Value) (bool, error) {
			if t, isTuple := dispatch.Deref(v).(dispatch.Tuple); isTuple && len(t) == 2 {
				a.Elems, b.Elems = append(a.Elems, t[0]), append(b.Elems, t[1])
			}
			return false, nil
		})
		return dispatch.Tuple{a, b}, true, err
	case "len":
		// ExactSizeIterator: the remaining elements, which the iterator
		// then yields from a buffer.
		var buf []Value
		err := drain(it, func(v Value) (bool, error) { buf = append(buf, v); return false, nil })
		src := sliceIter(noStep{}, buf)
		it.next, it.back = src.next, src.back
		return usize(len(buf)), true, err
	case "clone":
		var buf []Value
		err := drain(it, func(v Value) (bool, error) { buf = append(buf, v); return false, nil })
		src := sliceIter(noStep{}, buf)
		it.next, it.back = src.next, src.back
		return sliceIter(c, buf), true, err
	}
	return nil, false, nil
}

// noStep is a Caller for re-yielding elements already paid for.
type noStep struct{}

func (noStep) Call(Value, []Value) (Value, error) { return unknown, nil }
func (noStep) Step() error                        { return nil }

// elemType is the type a sum or product is asked for: `sum::<i32>()`, the
// let's declared type, or the elements' own.
func sumProduct(c Caller, it *Iter, call Call) (Value, bool, error) {
	typ := call.Expect
	if len(call.Generics) > 0 {
		typ = call.Generics[0]
	}
	op := "+"
	if call.Name == "product" {
		op = "*"
	}
	var acc Value
	err := drain(it, func(v Value) (bool, error) {
		v = dispatch.Deref(v)
		if isUnknown(v) {
			acc = unknown
			return true, nil
		}
		if acc == nil {
			acc = withType(v, typ)
			return false, nil
		}
		r, isNum, err := Binary(op, acc, withType(v, typ))
		if err != nil {
			return true, err
		}
		if !isNum {
			acc = unknown
			return true, nil
		}
		acc = r
		return false, nil
	})
	if err != nil {
		return nil, true, err
	}
	if acc == nil {
		n := int64(0)
		if op == "*" {
			n = 1
		}
		if typ == "f32" || typ == "f64" {
			return dispatch.Float{V: float64(n), Suffix: typ}, true, nil
		}
		return dispatch.Int{V: n, Suffix: typ}, true, nil
	}
	return acc, true, nil
}

// withType gives an unsuffixed number the type the context names.
func withType(v Value, typ string) Value {
	switch x := v.(type) {
	case dispatch.Int:
		if x.Suffix == "" && IsIntType(typ) {
			x.Suffix = typ
		}
		return x
	case dispatch.Float:
		if x.Suffix == "" && (typ == "f32" || typ == "f64") {
			return round(x.V, typ)
		}
		return x
	}
	return v
}

func minMax(c Caller, it *Iter, call Call, f Value) (Value, bool, error) {
	isMax := strings.HasPrefix(call.Name, "max")
	byKey := strings.HasSuffix(call.Name, "_by_key")
	by := strings.HasSuffix(call.Name, "_by")
	if (byKey || by) && f == nil {
		return nil, false, nil
	}
	var best, bestKey Value
	err := drain(it, func(v Value) (bool, error) {
		key := v
		if byKey {
			var err error
			if key, err = call1(c, f, v); err != nil {
				return true, err
			}
		}
		if best == nil {
			best, bestKey = v, key
			return false, nil
		}
		var cmp int
		if by {
			r, err := c.Call(f, []Value{best, v})
			if err != nil {
				return true, err
			}
			cmp = orderingOf(r)
		} else {
			var known bool
			if cmp, known = Compare(bestKey, key); !known {
				return false, nil
			}
		}
		// max keeps the last of equal elements, min the first.
		if (isMax && cmp <= 0) || (!isMax && cmp > 0) {
			best, bestKey = v, key
		}
		return false, nil
	})
	return option(best, best != nil), true, err
}

func orderingOf(v Value) int {
	if e, isEnum := dispatch.Deref(v).(*dispatch.Enum); isEnum {
		switch e.Variant {
		case "Less":
			return -1
		case "Greater":
			return 1
		}
	}
	return 0
}

// collect builds the collection target names ("Vec<_>", "String",
// "HashMap<_, _>", "Result<Vec<_>, _>", ...; empty is a Vec).
func collect(c Caller, it *Iter, target string) (Value, bool, error) {
	target = strings.TrimSpace(target)
	outer, inner := target, ""
	if i := strings.IndexByte(target, '<'); i >= 0 {
		outer, inner = target[:i], strings.TrimSuffix(target[i+1:], ">")
		if j := topComma(inner); j >= 0 {
			inner = inner[:j]
		}
	}
	if k := strings.LastIndex(outer, "::"); k >= 0 {
		outer = outer[k+2:]
	}
	switch outer {
	case "Result", "Option":
		var failed Value
		wrap := "Ok"
		if outer == "Option" {
			wrap = "Some"
		}
		vals := &Iter{Kind: "GenericShunt", next: func() (Value, bool, error) {
			v, more, err := it.next()
			if !more || err != nil {
				return nil, false, err
			}
			e, isEnum := dispatch.Deref(v).(*dispatch.Enum)
			if !isEnum || len(e.Fields) > 1 {
				return unknown, true, nil
			}
			if e.Variant != wrap {
				failed = e
				return nil, false, nil
			}
			return e.Fields[0], true, nil
		}}
		coll, handled, err := collect(c, vals, inner)
		if err != nil || !handled {
			return coll, handled, err
		}
		if failed != nil {
			return failed, true, nil
		}
		return &dispatch.Enum{Type: outer, Variant: wrap, Fields: []Value{coll}}, true, nil
	case "String":
		var b strings.Builder
		err := drain(it, func(v Value) (bool, error) {
			switch x := dispatch.Deref(v).(type) {
			case Char:
				b.WriteRune(rune(x))
			case dispatch.Str:
				b.WriteString(string(x))
			}
			return false, nil
		})
		return dispatch.Str(b.String()), true, err
	case "HashMap", "BTreeMap":
		m := NewMap(outer)
		err := drain(it, func(v Value) (bool, error) {
			if t, isTuple := dispatch.Deref(v).(dispatch.Tuple); isTuple && len(t) == 2 {
				m.Insert(t[0], t[1])
			}
			return false, nil
		})
		return m, true, err
	case "HashSet", "BTreeSet":
		s := NewSet(outer)
		err := drain(it, func(v Value) (bool, error) { s.Insert(v); return false, nil })
		return s, true, err
	}
	arr := &dispatch.Array{Vec: true}
	err := drain(it, func(v Value) (bool, error) { arr.Elems = append(arr.Elems, v); return false, nil })
	return arr, true, err
}

// topComma is the index of the first comma outside angle brackets.
func topComma(s string) int {
	depth := 0
	for i, r := range s {
		switch r {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

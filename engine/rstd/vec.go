package rstd

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Vec, arrays and slices, HashMap and HashSet methods.

// IndexPanic is the panic of `v[i]` out of bounds.
func IndexPanic(length int64, index Value) error {
	return panicf(fmt.Sprintf("index out of bounds: the len is %d but the index is %s", length, IntText(index)))
}

// SlicePanic is the panic of `v[lo..hi]` out of bounds, as std words it;
// openEnd is set for `v[lo..]`.
func SlicePanic(lo, hi, length int64, openEnd bool) error {
	switch {
	case openEnd && lo > length:
		return panicf(fmt.Sprintf("range start index %d out of range for slice of length %d", lo, length))
	case lo > hi:
		return panicf(fmt.Sprintf("slice index starts at %d but ends at %d", lo, hi))
	case hi > length:
		return panicf(fmt.Sprintf("range end index %d out of range for slice of length %d", hi, length))
	}
	return panicf(fmt.Sprintf("range start index %d out of range for slice of length %d", lo, length))
}

// bounds resolves a range argument against a length.
func bounds(r *dispatch.Range, n int) (lo, hi int64) {
	lo, hi = 0, int64(n)
	if r.Lo != nil {
		lo = *r.Lo
	}
	if r.Hi != nil {
		hi = *r.Hi
		if r.Inclusive {
			hi++
		}
	}
	return lo, hi
}

func vecMethod(c Caller, x *dispatch.Array, call Call) (Value, bool, error) {
	args := call.Args
	n := len(x.Elems)
	var f Value
	if len(args) >= 1 && isFn(args[len(args)-1]) {
		f = args[len(args)-1]
	}
	switch call.Name {
	case "iter", "iter_mut", "into_iter", "drain":
		if call.Name == "drain" && len(args) == 1 {
			r, isRange := dispatch.Deref(args[0]).(*dispatch.Range)
			if !isRange {
				return nil, false, nil
			}
			lo, hi := bounds(r, n)
			if lo < 0 || lo > hi || hi > int64(n) {
				return nil, true, SlicePanic(lo, hi, int64(n), r.Hi == nil)
			}
			out := append([]Value(nil), x.Elems[lo:hi]...)
			x.Elems = append(x.Elems[:lo], x.Elems[hi:]...)
			return sliceIter(c, out), true, nil
		}
		elems := x.Elems
		switch call.Name {
		case "drain":
			x.Elems = nil
		case "iter_mut":
			return mutIter(c, x), true, nil
		}
		return sliceIter(c, elems), true, nil
	case "try_into":
		// Vec<T> or &[T] into [T; N]: N is the array type the context
		// names, else the playground cannot tell whether it fits.
		at := strings.LastIndex(call.Expect, "; ")
		close := strings.Index(call.Expect[max(at, 0):], "]")
		if len(args) != 0 || at < 0 || close < 0 {
			return unknown, true, nil
		}
		want, err := strconv.Atoi(strings.TrimSpace(call.Expect[at+2 : at+close]))
		if err != nil {
			return unknown, true, nil
		}
		if want != n {
			return &dispatch.Enum{Type: "Result", Variant: "Err", Fields: []Value{x}}, true, nil
		}
		return &dispatch.Enum{Type: "Result", Variant: "Ok", Fields: []Value{&dispatch.Array{Elems: append([]Value(nil), x.Elems...)}}}, true, nil
	case "clone", "to_vec", "to_owned", "into", "into_vec", "as_slice", "as_mut_slice", "into_boxed_slice", "cloned", "copied":
		return &dispatch.Array{Elems: append([]Value(nil), x.Elems...), Vec: x.Vec || call.Name == "to_vec" || call.Name == "to_owned"}, true, nil
	case "len", "capacity":
		return usize(n), true, nil
	case "is_empty":
		return dispatch.Bool(n == 0), true, nil
	case "push", "push_back":
		if len(args) == 1 {
			x.Elems = append(x.Elems, args[0])
			return dispatch.Unit{}, true, nil
		}
	case "push_front":
		if len(args) == 1 {
			x.Elems = append([]Value{args[0]}, x.Elems...)
			return dispatch.Unit{}, true, nil
		}
	case "pop", "pop_back":
		if n == 0 {
			return none(), true, nil
		}
		last := x.Elems[n-1]
		x.Elems = x.Elems[:n-1]
		return some(last), true, nil
	case "pop_front":
		if n == 0 {
			return none(), true, nil
		}
		first := x.Elems[0]
		x.Elems = x.Elems[1:]
		return some(first), true, nil
	case "insert":
		i, isInt := intArg(args, 0)
		if !isInt || len(args) != 2 {
			return nil, false, nil
		}
		if i < 0 || i > int64(n) {
			return nil, true, panicf(fmt.Sprintf("insertion index (is %d) should be <= len (is %d)", i, n))
		}
		x.Elems = append(x.Elems, nil)
		copy(x.Elems[i+1:], x.Elems[i:])
		x.Elems[i] = args[1]
		return dispatch.Unit{}, true, nil
	case "remove", "swap_remove":
		i, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		if i < 0 || i >= int64(n) {
			return nil, true, panicf(fmt.Sprintf("%s index (is %d) should be < len (is %d)", map[string]string{"remove": "removal", "swap_remove": "swap_remove"}[call.Name], i, n))
		}
		v := x.Elems[i]
		if call.Name == "swap_remove" {
			x.Elems[i] = x.Elems[n-1]
			x.Elems = x.Elems[:n-1]
		} else {
			x.Elems = append(x.Elems[:i], x.Elems[i+1:]...)
		}
		return v, true, nil
	case "truncate":
		if k, isInt := intArg(args, 0); isInt {
			if k < int64(n) && k >= 0 {
				x.Elems = x.Elems[:k]
			}
			return dispatch.Unit{}, true, nil
		}
	case "clear":
		x.Elems = nil
		return dispatch.Unit{}, true, nil
	case "extend", "extend_from_slice", "append":
		if len(args) != 1 {
			return nil, false, nil
		}
		it, isIter := IntoIter(c, args[0])
		if !isIter {
			return nil, false, nil
		}
		err := drain(it, func(v Value) (bool, error) { x.Elems = append(x.Elems, v); return false, nil })
		if other, isArr := dispatch.Deref(args[0]).(*dispatch.Array); isArr && call.Name == "append" {
			other.Elems = nil
		}
		return dispatch.Unit{}, true, err
	case "resize":
		k, isInt := intArg(args, 0)
		if !isInt || len(args) != 2 {
			return nil, false, nil
		}
		for int64(len(x.Elems)) < k {
			if err := c.Step(); err != nil {
				return nil, true, err
			}
			x.Elems = append(x.Elems, args[1])
		}
		if k >= 0 && k < int64(len(x.Elems)) {
			x.Elems = x.Elems[:k]
		}
		return dispatch.Unit{}, true, nil
	case "fill":
		if len(args) == 1 {
			for i := range x.Elems {
				x.Elems[i] = args[0]
			}
			return dispatch.Unit{}, true, nil
		}
	case "get", "get_mut":
		if i, isInt := intArg(args, 0); isInt {
			if i < 0 || i >= int64(n) {
				return none(), true, nil
			}
			if call.Name == "get_mut" {
				return some(elemRef(x, int(i))), true, nil
			}
			return some(x.Elems[i]), true, nil
		}
		if len(args) != 1 {
			return nil, false, nil
		}
		if r, isRange := dispatch.Deref(args[0]).(*dispatch.Range); isRange {
			lo, hi := bounds(r, n)
			if lo < 0 || lo > hi || hi > int64(n) {
				return none(), true, nil
			}
			return some(&dispatch.Array{Elems: x.Elems[lo:hi]}), true, nil
		}
	case "first", "last", "first_mut", "last_mut":
		if n == 0 {
			return none(), true, nil
		}
		at := n - 1
		if strings.HasPrefix(call.Name, "first") {
			at = 0
		}
		if strings.HasSuffix(call.Name, "_mut") {
			return some(elemRef(x, at)), true, nil
		}
		return some(x.Elems[at]), true, nil
	case "split_first", "split_last":
		if n == 0 {
			return none(), true, nil
		}
		if call.Name == "split_first" {
			return some(dispatch.Tuple{x.Elems[0], &dispatch.Array{Elems: x.Elems[1:]}}), true, nil
		}
		return some(dispatch.Tuple{x.Elems[n-1], &dispatch.Array{Elems: x.Elems[:n-1]}}), true, nil
	case "contains":
		if len(args) == 1 {
			for _, el := range x.Elems {
				if eq, _ := Equal(el, args[0]); eq {
					return dispatch.Bool(true), true, nil
				}
			}
			return dispatch.Bool(false), true, nil
		}
	case "starts_with", "ends_with":
		if len(args) == 1 {
			if p, isArr := dispatch.Deref(args[0]).(*dispatch.Array); isArr {
				if len(p.Elems) > n {
					return dispatch.Bool(false), true, nil
				}
				off := 0
				if call.Name == "ends_with" {
					off = n - len(p.Elems)
				}
				for i, e := range p.Elems {
					if eq, _ := Equal(x.Elems[off+i], e); !eq {
						return dispatch.Bool(false), true, nil
					}
				}
				return dispatch.Bool(true), true, nil
			}
		}
	case "sort", "sort_unstable", "sort_by", "sort_unstable_by", "sort_by_key", "sort_unstable_by_key", "sort_by_cached_key":
		var err error
		byKey := strings.HasSuffix(call.Name, "_key")
		by := strings.HasSuffix(call.Name, "_by")
		if (byKey || by) && f == nil {
			return nil, false, nil
		}
		keys := x.Elems
		if byKey {
			keys = make([]Value, n)
			for i, e := range x.Elems {
				if keys[i], err = call1(c, f, e); err != nil {
					return nil, true, err
				}
			}
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool {
			if err != nil {
				return false
			}
			if by {
				var r Value
				r, err = c.Call(f, []Value{x.Elems[idx[i]], x.Elems[idx[j]]})
				return orderingOf(r) < 0
			}
			cmp, _ := Compare(keys[idx[i]], keys[idx[j]])
			return cmp < 0
		})
		if err != nil {
			return nil, true, err
		}
		sorted := make([]Value, n)
		for i, k := range idx {
			sorted[i] = x.Elems[k]
		}
		copy(x.Elems, sorted)
		if err := stepN(c, n); err != nil {
			return nil, true, err
		}
		return dispatch.Unit{}, true, nil
	case "dedup", "dedup_by_key":
		var out []Value
		var last Value
		for _, e := range x.Elems {
			key := e
			if call.Name == "dedup_by_key" {
				if f == nil {
					return nil, false, nil
				}
				var err error
				if key, err = call1(c, f, e); err != nil {
					return nil, true, err
				}
			}
			if last != nil {
				if eq, _ := Equal(last, key); eq {
					continue
				}
			}
			out, last = append(out, e), key
		}
		x.Elems = out
		return dispatch.Unit{}, true, nil
	case "retain":
		if f == nil {
			return nil, false, nil
		}
		var out []Value
		for _, e := range x.Elems {
			r, err := call1(c, f, e)
			if err != nil {
				return nil, true, err
			}
			if keep(r) {
				out = append(out, e)
			}
		}
		x.Elems = out
		return dispatch.Unit{}, true, nil
	case "reverse":
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			x.Elems[i], x.Elems[j] = x.Elems[j], x.Elems[i]
		}
		return dispatch.Unit{}, true, nil
	case "swap":
		i, ok1 := intArg(args, 0)
		j, ok2 := intArg(args, 1)
		if !ok1 || !ok2 {
			return nil, false, nil
		}
		for _, k := range []int64{i, j} {
			if k < 0 || k >= int64(n) {
				return nil, true, IndexPanic(int64(n), dispatch.Int{V: k, Suffix: "usize"})
			}
		}
		x.Elems[i], x.Elems[j] = x.Elems[j], x.Elems[i]
		return dispatch.Unit{}, true, nil
	case "split_at", "split_at_mut":
		k, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		if k < 0 || k > int64(n) {
			return nil, true, panicf("mid > len")
		}
		return dispatch.Tuple{&dispatch.Array{Elems: x.Elems[:k]}, &dispatch.Array{Elems: x.Elems[k:]}}, true, nil
	case "join", "concat", "connect":
		sep := ""
		if len(args) == 1 {
			s, isStr := dispatch.Deref(args[0]).(dispatch.Str)
			if !isStr {
				if ch, isChar := dispatch.Deref(args[0]).(Char); isChar {
					s, isStr = dispatch.Str(string(rune(ch))), true
				}
			}
			if !isStr {
				return nil, false, nil
			}
			sep = string(s)
		}
		if n > 0 {
			if _, isArr := dispatch.Deref(x.Elems[0]).(*dispatch.Array); isArr && call.Name == "concat" {
				out := &dispatch.Array{Vec: true}
				for _, e := range x.Elems {
					if a, ok := dispatch.Deref(e).(*dispatch.Array); ok {
						out.Elems = append(out.Elems, a.Elems...)
					}
				}
				return out, true, nil
			}
		}
		parts := make([]string, n)
		for i, e := range x.Elems {
			parts[i] = Display(e)
		}
		return dispatch.Str(strings.Join(parts, sep)), true, nil
	case "windows", "chunks", "chunks_exact":
		k, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		if k <= 0 {
			if call.Name == "windows" {
				return nil, true, panicf("window size must be non-zero")
			}
			return nil, true, panicf("chunk size must be non-zero")
		}
		var parts []Value
		if call.Name == "windows" {
			for i := 0; i+int(k) <= n; i++ {
				parts = append(parts, &dispatch.Array{Elems: x.Elems[i : i+int(k)]})
			}
		} else {
			for i := 0; i < n; i += int(k) {
				end := min(i+int(k), n)
				if end-i < int(k) && call.Name == "chunks_exact" {
					break
				}
				parts = append(parts, &dispatch.Array{Elems: x.Elems[i:end]})
			}
		}
		return sliceIter(c, parts), true, nil
	case "repeat":
		k, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		out := &dispatch.Array{Vec: true}
		for range k {
			if err := stepN(c, n); err != nil {
				return nil, true, err
			}
			out.Elems = append(out.Elems, x.Elems...)
		}
		return out, true, nil
	case "binary_search":
		if len(args) == 1 {
			i := sort.Search(n, func(i int) bool { c, _ := Compare(x.Elems[i], args[0]); return c >= 0 })
			if i < n {
				if eq, _ := Equal(x.Elems[i], args[0]); eq {
					return ok(usize(i)), true, nil
				}
			}
			return errv(usize(i)), true, nil
		}
	}
	// An array's map (`[1, 2].map(f)`, an array again): the elements
	// through the iterator, collected back. Neither an array nor a Vec is
	// an iterator: `v.sum()` is rustc's "no method named `sum`", so
	// every other Iterator method is left unhandled.
	if x.Vec || call.Name != "map" {
		return nil, false, nil
	}
	v, handled, err := iterMethod(c, sliceIter(c, x.Elems), call)
	if !handled || err != nil {
		return v, handled, err
	}
	if it, isIter := v.(*Iter); isIter {
		out, _, err := collect(c, it, "")
		if arr, isArr := out.(*dispatch.Array); isArr {
			arr.Vec = x.Vec
		}
		return out, true, err
	}
	return v, true, nil
}

func stepN(c Caller, n int) error {
	for range n {
		if err := c.Step(); err != nil {
			return err
		}
	}
	return nil
}

func mapMethod(c Caller, m *Map, call Call) (Value, bool, error) {
	args := call.Args
	switch call.Name {
	case "insert":
		if len(args) == 2 {
			old, had := m.Insert(args[0], args[1])
			return option(old, had), true, nil
		}
	case "get", "get_mut":
		if len(args) == 1 {
			if i, has := m.find(args[0]); has {
				if call.Name == "get_mut" {
					return some(m.Vals[i]), true, nil
				}
				return some(dispatch.Deref(m.Vals[i])), true, nil
			}
			return none(), true, nil
		}
	case "contains_key":
		if len(args) == 1 {
			_, has := m.find(args[0])
			return dispatch.Bool(has), true, nil
		}
	case "remove":
		if len(args) == 1 {
			v, had := m.remove(args[0])
			return option(v, had), true, nil
		}
	case "len":
		return usize(len(m.Keys)), true, nil
	case "is_empty":
		return dispatch.Bool(len(m.Keys) == 0), true, nil
	case "clear":
		*m = *NewMap(m.Kind)
		return dispatch.Unit{}, true, nil
	case "clone":
		return m.clone(), true, nil
	case "keys", "into_keys":
		return sliceIter(c, append([]Value(nil), m.Keys...)), true, nil
	case "values", "values_mut", "into_values":
		vals := make([]Value, len(m.Vals))
		for i, v := range m.Vals {
			if call.Name == "values_mut" {
				vals[i] = v
			} else {
				vals[i] = dispatch.Deref(v)
			}
		}
		return sliceIter(c, vals), true, nil
	case "iter", "into_iter", "iter_mut", "drain":
		pairs := make([]Value, len(m.Keys))
		for i := range m.Keys {
			v := m.Vals[i]
			if call.Name != "iter_mut" {
				v = dispatch.Deref(v)
			}
			pairs[i] = dispatch.Tuple{m.Keys[i], v}
		}
		if call.Name == "drain" {
			*m = *NewMap(m.Kind)
		}
		return sliceIter(c, pairs), true, nil
	case "entry":
		if len(args) == 1 {
			return &Entry{m: m, key: args[0]}, true, nil
		}
	case "extend":
		if len(args) == 1 {
			it, isIter := IntoIter(c, args[0])
			if !isIter {
				return nil, false, nil
			}
			err := drain(it, func(v Value) (bool, error) {
				if t, isTuple := dispatch.Deref(v).(dispatch.Tuple); isTuple && len(t) == 2 {
					m.Insert(t[0], t[1])
				}
				return false, nil
			})
			return dispatch.Unit{}, true, err
		}
	case "first_key_value", "last_key_value":
		if len(m.Keys) == 0 {
			return none(), true, nil
		}
		i := 0
		if call.Name == "last_key_value" {
			i = len(m.Keys) - 1
		}
		return some(dispatch.Tuple{m.Keys[i], dispatch.Deref(m.Vals[i])}), true, nil
	case "retain":
		if len(args) == 1 {
			out := NewMap(m.Kind)
			for i, k := range m.Keys {
				r, err := c.Call(args[0], []Value{k, m.Vals[i]})
				if err != nil {
					return nil, true, err
				}
				if keep(r) {
					out.insertNew(k, m.Vals[i].(*dispatch.Ref))
				}
			}
			*m = *out
			return dispatch.Unit{}, true, nil
		}
	}
	return nil, false, nil
}

// Entry is HashMap's entry(key).
type Entry struct {
	m   *Map
	key Value
}

func (*Entry) TypeName() string { return "Entry<_, _>" }

// EntryMethod runs or_insert and its kin: they return the slot, a `&mut V`.
func entryMethod(c Caller, e *Entry, call Call) (Value, bool, error) {
	if i, has := e.m.find(e.key); has {
		switch call.Name {
		case "or_insert", "or_insert_with", "or_default", "or_insert_with_key":
			return e.m.Vals[i], true, nil
		case "and_modify":
			if len(call.Args) == 1 {
				_, err := c.Call(call.Args[0], []Value{e.m.Vals[i]})
				return e, true, err
			}
		case "key":
			return e.key, true, nil
		}
		return nil, false, nil
	}
	var v Value
	switch call.Name {
	case "or_insert":
		if len(call.Args) != 1 {
			return nil, false, nil
		}
		v = call.Args[0]
	case "or_insert_with", "or_insert_with_key":
		if len(call.Args) != 1 {
			return nil, false, nil
		}
		var args []Value
		if call.Name == "or_insert_with_key" {
			args = []Value{e.key}
		}
		var err error
		if v, err = c.Call(call.Args[0], args); err != nil {
			return nil, true, err
		}
	case "or_default":
		v = defaultOf(call.Expect)
	case "and_modify":
		return e, true, nil
	case "key":
		return e.key, true, nil
	default:
		return nil, false, nil
	}
	slot := &dispatch.Ref{V: v, Mut: true}
	e.m.insertNew(e.key, slot)
	return slot, true, nil
}

// defaultOf is Default::default() of a type the context names; an unknown
// type gives 0, the default of the numbers that counting maps hold.
func defaultOf(typ string) Value {
	typ = strings.TrimSpace(typ)
	switch {
	case typ == "String" || typ == "&str":
		return dispatch.Str("")
	case typ == "bool":
		return dispatch.Bool(false)
	case typ == "f32" || typ == "f64":
		return dispatch.Float{Suffix: typ}
	case strings.HasPrefix(typ, "Vec"):
		return &dispatch.Array{Vec: true}
	case strings.HasPrefix(typ, "Option"):
		return none()
	case strings.HasPrefix(typ, "HashMap") || strings.HasPrefix(typ, "BTreeMap"):
		return NewMap(strings.SplitN(typ, "<", 2)[0])
	case strings.HasPrefix(typ, "HashSet") || strings.HasPrefix(typ, "BTreeSet"):
		return NewSet(strings.SplitN(typ, "<", 2)[0])
	case IsIntType(typ):
		return dispatch.Int{Suffix: typ}
	}
	return dispatch.Int{}
}

func setMethod(c Caller, s *Set, call Call) (Value, bool, error) {
	args := call.Args
	switch call.Name {
	case "insert":
		if len(args) == 1 {
			return dispatch.Bool(s.Insert(args[0])), true, nil
		}
	case "contains":
		if len(args) == 1 {
			return dispatch.Bool(s.index[keyOf(args[0])]), true, nil
		}
	case "remove":
		if len(args) == 1 {
			k := keyOf(args[0])
			if !s.index[k] {
				return dispatch.Bool(false), true, nil
			}
			delete(s.index, k)
			for i, e := range s.Elems {
				if keyOf(e) == k {
					s.Elems = append(s.Elems[:i], s.Elems[i+1:]...)
					break
				}
			}
			return dispatch.Bool(true), true, nil
		}
	case "len":
		return usize(len(s.Elems)), true, nil
	case "is_empty":
		return dispatch.Bool(len(s.Elems) == 0), true, nil
	case "iter", "into_iter", "drain":
		return sliceIter(c, append([]Value(nil), s.Elems...)), true, nil
	case "clone":
		out := NewSet(s.Kind)
		for _, e := range s.Elems {
			out.Insert(e)
		}
		return out, true, nil
	case "union", "intersection", "difference", "symmetric_difference", "is_subset", "is_superset", "is_disjoint":
		if len(args) != 1 {
			return nil, false, nil
		}
		o, isSet := dispatch.Deref(args[0]).(*Set)
		if !isSet {
			return nil, false, nil
		}
		var out []Value
		in := func(set *Set, v Value) bool { return set.index[keyOf(v)] }
		switch call.Name {
		case "union":
			out = append(out, s.Elems...)
			for _, e := range o.Elems {
				if !in(s, e) {
					out = append(out, e)
				}
			}
		case "intersection", "difference":
			for _, e := range s.Elems {
				if in(o, e) == (call.Name == "intersection") {
					out = append(out, e)
				}
			}
		case "symmetric_difference":
			for _, e := range s.Elems {
				if !in(o, e) {
					out = append(out, e)
				}
			}
			for _, e := range o.Elems {
				if !in(s, e) {
					out = append(out, e)
				}
			}
		case "is_subset", "is_superset", "is_disjoint":
			a, b := s, o
			if call.Name == "is_superset" {
				a, b = o, s
			}
			for _, e := range a.Elems {
				if in(b, e) == (call.Name == "is_disjoint") {
					return dispatch.Bool(false), true, nil
				}
			}
			return dispatch.Bool(true), true, nil
		}
		return sliceIter(c, out), true, nil
	case "extend":
		if len(args) == 1 {
			it, isIter := IntoIter(c, args[0])
			if !isIter {
				return nil, false, nil
			}
			return dispatch.Unit{}, true, drain(it, func(v Value) (bool, error) { s.Insert(v); return false, nil })
		}
	}
	return nil, false, nil
}

// StrSlice is `&s[lo..hi]`, with str's panics.
func StrSlice(s string, lo, hi int64) (Value, error) {
	n := int64(len(s))
	switch {
	case lo > hi:
		return nil, panicf(fmt.Sprintf("begin <= end (%d <= %d) when slicing `%s`", lo, hi, s))
	case hi > n || lo > n:
		bad := hi
		if lo > n {
			bad = lo
		}
		return nil, panicf(fmt.Sprintf("byte index %d is out of bounds of `%s`", bad, s))
	}
	for _, i := range []int64{lo, hi} {
		if i < n && !utf8.RuneStart(s[i]) {
			start := i
			for start > 0 && !utf8.RuneStart(s[start]) {
				start--
			}
			r, size := utf8.DecodeRuneInString(s[start:])
			return nil, panicf(fmt.Sprintf("byte index %d is not a char boundary; it is inside %s (bytes %d..%d) of `%s`", i, charDebug(r), start, start+int64(size), s))
		}
	}
	return dispatch.Str(s[lo:hi]), nil
}

// mutIter is iter_mut: each element comes as a `&mut` slot, written back
// to the vector when the next one is pulled (and at the end), so
// `for x in v.iter_mut() { *x += 1 }` changes v.
// elemRef is `&mut x[i]`: a borrow whose writes land in the array.
func elemRef(x *dispatch.Array, i int) *dispatch.Ref {
	return &dispatch.Ref{V: x.Elems[i], Mut: true, In: x, At: i}
}

func mutIter(c Caller, x *dispatch.Array) *Iter {
	i := 0
	var slot *dispatch.Ref
	writeBack := func() {
		if slot != nil && i-1 < len(x.Elems) {
			x.Elems[i-1] = slot.V
		}
		slot = nil
	}
	return &Iter{Kind: "IterMut", done: writeBack, next: func() (Value, bool, error) {
		writeBack()
		if i >= len(x.Elems) {
			return nil, false, nil
		}
		if err := c.Step(); err != nil {
			return nil, false, err
		}
		slot = &dispatch.Ref{V: x.Elems[i], Mut: true}
		i++
		return slot, true, nil
	}}
}

// IterMut is `(&mut v).into_iter()`, for `for x in &mut v`.
func IterMut(c Caller, x *dispatch.Array) *Iter { return mutIter(c, x) }

package rstd

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Map is a HashMap or a BTreeMap. A HashMap keeps insertion order (see
// doc.go); a BTreeMap keeps its keys sorted. Each value sits in a mutable
// slot, so `*map.entry(k).or_insert(0) += 1` writes into the map.
type Map struct {
	Kind  string // "HashMap" or "BTreeMap"
	Keys  []Value
	Vals  []Value // each a *dispatch.Ref slot
	index map[string]int
}

func (m *Map) TypeName() string { return m.Kind + "<_, _>" }

// NewMap is an empty HashMap or BTreeMap.
func NewMap(kind string) *Map { return &Map{Kind: kind, index: map[string]int{}} }

// keyOf is the identity of a key: its Debug text, with its type for
// numbers (1u8 and 1i32 are never in one map, but 1 and "1" could be).
func keyOf(v Value) string {
	v = dispatch.Deref(v)
	if i, isInt := v.(dispatch.Int); isInt {
		return IntText(i)
	}
	return fmt.Sprintf("%T|%s", v, Debug(v))
}

func (m *Map) find(k Value) (int, bool) {
	i, ok := m.index[keyOf(k)]
	return i, ok
}

// Insert sets k to v and returns the old value.
func (m *Map) Insert(k, v Value) (old Value, had bool) {
	if i, ok := m.find(k); ok {
		slot := m.Vals[i].(*dispatch.Ref)
		old, slot.V = slot.V, v
		return old, true
	}
	m.insertNew(k, &dispatch.Ref{V: v, Mut: true})
	return nil, false
}

func (m *Map) insertNew(k Value, slot *dispatch.Ref) {
	at := len(m.Keys)
	if m.Kind == "BTreeMap" {
		at = sort.Search(len(m.Keys), func(i int) bool { c, _ := Compare(m.Keys[i], k); return c > 0 })
	}
	m.Keys = append(m.Keys, nil)
	m.Vals = append(m.Vals, nil)
	copy(m.Keys[at+1:], m.Keys[at:])
	copy(m.Vals[at+1:], m.Vals[at:])
	m.Keys[at], m.Vals[at] = k, slot
	m.reindex(at)
}

func (m *Map) reindex(from int) {
	for i := from; i < len(m.Keys); i++ {
		m.index[keyOf(m.Keys[i])] = i
	}
}

func (m *Map) remove(k Value) (Value, bool) {
	i, ok := m.find(k)
	if !ok {
		return nil, false
	}
	v := dispatch.Deref(m.Vals[i])
	delete(m.index, keyOf(k))
	m.Keys = append(m.Keys[:i], m.Keys[i+1:]...)
	m.Vals = append(m.Vals[:i], m.Vals[i+1:]...)
	m.reindex(i)
	return v, true
}

func (m *Map) clone() *Map {
	out := NewMap(m.Kind)
	for i, k := range m.Keys {
		out.Keys = append(out.Keys, k)
		out.Vals = append(out.Vals, &dispatch.Ref{V: dispatch.Deref(m.Vals[i]), Mut: true})
		out.index[keyOf(k)] = i
	}
	return out
}

// Set is a HashSet (insertion order) or a BTreeSet (sorted).
type Set struct {
	Kind  string
	Elems []Value
	index map[string]bool
}

func (s *Set) TypeName() string { return s.Kind + "<_>" }

// NewSet is an empty HashSet or BTreeSet.
func NewSet(kind string) *Set { return &Set{Kind: kind, index: map[string]bool{}} }

// Insert adds v; it reports whether v was new.
func (s *Set) Insert(v Value) bool {
	k := keyOf(v)
	if s.index[k] {
		return false
	}
	s.index[k] = true
	at := len(s.Elems)
	if s.Kind == "BTreeSet" {
		at = sort.Search(len(s.Elems), func(i int) bool { c, _ := Compare(s.Elems[i], v); return c > 0 })
	}
	s.Elems = append(s.Elems, nil)
	copy(s.Elems[at+1:], s.Elems[at:])
	s.Elems[at] = v
	return true
}

// Function calls an associated function of std: `Vec::new`,
// `HashMap::new`, `String::from`, `Box::new`, `i32::from_str_radix`,
// `char::from_digit`. path is the resolved path, std:: prefixes and all.
func Function(c Caller, path []string, args []Value) (Value, bool, error) {
	if !HasFunctions(path) {
		return nil, false, nil
	}
	typ, name := path[len(path)-2], path[len(path)-1]
	if IsAtomic(typ) {
		return atomicFunction(typ, name, args)
	}
	switch typ {
	case "Duration":
		return durationFunction(name, args)
	case "thread":
		return threadFunction(c, name, args)
	case "iter":
		return iterFunction(c, name, args)
	case "Path", "PathBuf":
		return pathFunction(typ, name, args)
	case "Vec", "VecDeque":
		switch name {
		case "new", "with_capacity":
			return &dispatch.Array{Vec: true}, true, nil
		case "from":
			if len(args) == 1 {
				if a, isArr := dispatch.Deref(args[0]).(*dispatch.Array); isArr {
					return &dispatch.Array{Elems: append([]Value(nil), a.Elems...), Vec: true}, true, nil
				}
			}
		}
	case "HashMap", "BTreeMap":
		switch name {
		case "new", "with_capacity", "default":
			return NewMap(typ), true, nil
		case "from", "from_iter":
			if len(args) == 1 {
				if it, isIter := IntoIter(c, args[0]); isIter {
					return collect(c, it, typ)
				}
			}
		}
	case "HashSet", "BTreeSet":
		switch name {
		case "new", "with_capacity", "default":
			return NewSet(typ), true, nil
		case "from", "from_iter":
			if len(args) == 1 {
				if it, isIter := IntoIter(c, args[0]); isIter {
					return collect(c, it, typ)
				}
			}
		}
	case "String":
		switch name {
		case "new", "with_capacity":
			return dispatch.Str(""), true, nil
		case "from", "from_str":
			if len(args) == 1 {
				return dispatch.Str(Display(args[0])), true, nil
			}
		case "from_utf8":
			if len(args) == 1 {
				if a, isArr := dispatch.Deref(args[0]).(*dispatch.Array); isArr {
					var b []byte
					for _, e := range a.Elems {
						n, _ := intArg([]Value{e}, 0)
						b = append(b, byte(n))
					}
					return ok(dispatch.Str(b)), true, nil
				}
			}
		}
	case "RefCell", "Cell", "Mutex", "RwLock":
		if name == "new" && len(args) == 1 {
			return NewCell(typ, args[0]), true, nil
		}
		if name == "default" {
			return NewCell(typ, unknown), true, nil
		}
		if name == "clone" && len(args) == 1 {
			return dispatch.Deref(args[0]), true, nil
		}
	case "Box", "Rc", "Arc":
		if name == "new" && len(args) == 1 {
			return args[0], true, nil
		}
		if name == "strong_count" {
			return usize(1), true, nil
		}
		if (name == "clone" || name == "from") && len(args) == 1 {
			return dispatch.Deref(args[0]), true, nil
		}
	case "char":
		switch name {
		case "from_digit":
			d, ok1 := intArg(args, 0)
			radix, ok2 := intArg(args, 1)
			if ok1 && ok2 {
				if d >= 0 && d < radix {
					return some(Char(strings.ToLower(big.NewInt(d).Text(int(radix)))[0])), true, nil
				}
				return none(), true, nil
			}
		case "from_u32":
			if n, isInt := intArg(args, 0); isInt {
				return some(Char(rune(n))), true, nil
			}
		case "from":
			if n, isInt := intArg(args, 0); isInt {
				return Char(rune(n)), true, nil
			}
		}
	case "Some":
	}
	if IsIntType(typ) {
		switch name {
		case "from_str_radix":
			if len(args) != 2 {
				return nil, false, nil
			}
			s, isStr := dispatch.Deref(args[0]).(dispatch.Str)
			radix, isInt := intArg(args, 1)
			if len(args) == 2 && isStr && isInt {
				return parseInt(string(s), intTypes[typ], int(radix)), true, nil
			}
		case "from", "try_from":
			if len(args) == 1 {
				v, isInt := Cast(args[0], typ)
				if !isInt {
					return nil, false, nil
				}
				if name == "try_from" {
					a, _, _ := toBig(args[0])
					if a == nil || !fits(a, intTypes[typ]) {
						return errv(&dispatch.Enum{Type: "TryFromIntError", Variant: "TryFromIntError", Fields: []Value{dispatch.Unit{}}}), true, nil
					}
					return ok(v), true, nil
				}
				return v, true, nil
			}
		case "max", "min", "pow", "abs":
			if len(args) >= 1 {
				return Method(c, Call{Recv: withType(dispatch.Deref(args[0]), typ), Name: name, Args: args[1:]})
			}
		}
	}
	if (typ == "f32" || typ == "f64") && len(args) >= 1 {
		return Method(c, Call{Recv: withType(dispatch.Deref(args[0]), typ), Name: name, Args: args[1:]})
	}
	if typ == "cmp" && len(args) == 2 && (name == "max" || name == "min") {
		o, known := Compare(args[0], args[1])
		if !known {
			return nil, false, nil
		}
		// std::cmp::max returns the second of equal values, min the first.
		if (name == "max") == (o > 0) {
			return args[0], true, nil
		}
		return args[1], true, nil
	}
	if len(args) >= 1 && HasFunctions(path) {
		// A method through its type's path, or used as a value:
		// `char::is_alphabetic(c)`, `.filter_map(Result::ok)`.
		return Method(c, Call{Recv: args[0], Name: name, Args: args[1:]})
	}
	return nil, false, nil
}

// HasFunctions reports whether path names an associated function of a
// type std owns (the evaluator asks before building a call).
func HasFunctions(path []string) bool {
	if len(path) < 2 {
		return false
	}
	name := path[len(path)-1]
	switch typ := path[len(path)-2]; typ {
	case "Vec", "VecDeque", "HashMap", "BTreeMap", "HashSet", "BTreeSet", "String", "Box", "Rc", "Arc", "RefCell", "Cell",
		"Mutex", "RwLock", "char", "f32", "f64", "str", "cmp", "mem", "Duration", "thread", "iter", "Path", "PathBuf":
		return true
	case "Option", "Result", "Iterator", "Ord", "PartialOrd", "Clone", "ToString":
		// Option::unwrap and Result::ok are functions; Option::Some is
		// a variant.
		return name != "" && name[0] >= 'a' && name[0] <= 'z'
	default:
		return IsIntType(typ) || IsAtomic(typ)
	}
}

// Compare orders two values as Ord/PartialOrd do; known is false for
// values without an order (or NaN).
func Compare(a, b Value) (int, bool) {
	a, b = dispatch.Deref(a), dispatch.Deref(b)
	if c, isCell := a.(*Cell); isCell {
		a = dispatch.Deref(c.Slot.V)
	}
	if c, isCell := b.(*Cell); isCell {
		b = dispatch.Deref(c.Slot.V)
	}
	switch x := a.(type) {
	case dispatch.Int:
		if y, isInt := b.(dispatch.Int); isInt {
			t := intType(x.Suffix)
			if x.Suffix == "" {
				t = intType(y.Suffix)
			}
			if !t.Signed && t.Bits == 64 {
				return cmp3(uint64(x.V), uint64(y.V)), true
			}
			return cmp3(x.V, y.V), true
		}
		if _, isBig := b.(*Big); isBig {
			p, _, _ := toBig(a)
			q, _, _ := toBig(b)
			return p.Cmp(q), true
		}
	case *Big:
		p, _, ok1 := toBig(a)
		q, _, ok2 := toBig(b)
		if ok1 && ok2 {
			return p.Cmp(q), true
		}
	case dispatch.Float:
		if y, isFloat := b.(dispatch.Float); isFloat {
			if x.V != x.V || y.V != y.V {
				return 0, false
			}
			return cmp3(x.V, y.V), true
		}
	case dispatch.Str:
		if y, isStr := b.(dispatch.Str); isStr {
			return strings.Compare(string(x), string(y)), true
		}
	case Char:
		if y, isChar := b.(Char); isChar {
			return cmp3(x, y), true
		}
	case dispatch.Bool:
		if y, isBool := b.(dispatch.Bool); isBool {
			return cmp3(b2i(bool(x)), b2i(bool(y))), true
		}
	case dispatch.Tuple:
		if y, isTuple := b.(dispatch.Tuple); isTuple {
			return compareLists(x, y)
		}
	case *dispatch.Array:
		if y, isArr := b.(*dispatch.Array); isArr {
			return compareLists(x.Elems, y.Elems)
		}
	case dispatch.Unit:
		return 0, true
	case *dispatch.Enum:
		y, isEnum := b.(*dispatch.Enum)
		if !isEnum || x.Type != y.Type {
			return 0, false
		}
		if x.Variant != y.Variant {
			// Option: None < Some; Result: Ok < Err; Ordering in order.
			rank := map[string]int{"None": 0, "Some": 1, "Ok": 0, "Err": 1, "Less": 0, "Equal": 1, "Greater": 2}
			rx, okx := rank[x.Variant]
			ry, oky := rank[y.Variant]
			if okx && oky {
				return cmp3(rx, ry), true
			}
			return 0, false
		}
		if len(x.Named) > 0 || len(y.Named) > 0 {
			if len(x.Named) != len(y.Named) {
				return 0, false
			}
			keys := FieldOrder(x)
			a, b := make([]Value, len(keys)), make([]Value, len(keys))
			for i, k := range keys {
				a[i] = x.Named[k]
				var has bool
				if b[i], has = y.Named[k]; !has {
					return 0, false
				}
			}
			return compareLists(a, b)
		}
		return compareLists(x.Fields, y.Fields)
	}
	return 0, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmp3[T int | int64 | uint64 | float64 | Char](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compareLists(a, b []Value) (int, bool) {
	for i := 0; i < len(a) && i < len(b); i++ {
		c, known := Compare(a[i], b[i])
		if !known || c != 0 {
			return c, known
		}
	}
	return cmp3(len(a), len(b)), true
}

// Equal is PartialEq; known is false for values std cannot compare.
func Equal(a, b Value) (eq, known bool) {
	a, b = dispatch.Deref(a), dispatch.Deref(b)
	switch x := a.(type) {
	case *Map:
		y, isMap := b.(*Map)
		if !isMap || len(x.Keys) != len(y.Keys) {
			return false, isMap
		}
		for i, k := range x.Keys {
			j, has := y.find(k)
			if !has {
				return false, true
			}
			if eq, known := Equal(x.Vals[i], y.Vals[j]); !eq || !known {
				return eq, known
			}
		}
		return true, true
	case *Set:
		y, isSet := b.(*Set)
		if !isSet || len(x.Elems) != len(y.Elems) {
			return false, isSet
		}
		for k := range x.index {
			if !y.index[k] {
				return false, true
			}
		}
		return true, true
	case dispatch.Float:
		if y, isFloat := b.(dispatch.Float); isFloat {
			return x.V == y.V, true
		}
	}
	c, known := Compare(a, b)
	return known && c == 0, known
}

// FnRef is a std function used as a value: `.map(String::from)`,
// `.or_insert_with(Vec::new)`.
type FnRef struct{ Path []string }

func (f *FnRef) TypeName() string { return "fn " + strings.Join(f.Path, "::") }

// CallRef calls a FnRef; ok is false when it names nothing std has.
func CallRef(c Caller, f *FnRef, args []Value) (Value, bool, error) {
	return Function(c, f.Path, args)
}

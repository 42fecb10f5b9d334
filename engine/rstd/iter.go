package rstd

import (
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Iter is a Rust iterator: lazy, it pulls one element at a time from its
// source, so an adapter's closure runs only for the elements a consumer
// asks for.
type Iter struct {
	Kind string // the adapter, for Debug and diagnostics: "Map", "Filter", "Range"
	next func() (Value, bool, error)
	// back pulls from the other end; nil when the iterator is not
	// double-ended.
	back func() (Value, bool, error)
	// peek looks at the next element without pulling it (Peekable).
	peek func() (Value, bool, error)
	// done finishes an iterator a loop left early (iter_mut writes its
	// last element back); nil when there is nothing to finish.
	done func()
	// open is set when the iterator's end is not known (open.go).
	open bool
}

// Close finishes an iterator a `for` loop left with break or return.
func (it *Iter) Close() {
	if it.done != nil {
		it.done()
	}
}

func (it *Iter) TypeName() string { return it.Kind + "<_>" }

// Next pulls the next element; more is false at the end.
func (it *Iter) Next() (v Value, more bool, err error) { return it.next() }

// IntoIter is `IntoIterator::into_iter` of a collection, a range, an
// Option or an iterator (itself); ok is false for a value that is not
// iterable.
func IntoIter(c Caller, v Value) (*Iter, bool) {
	switch x := dispatch.Deref(v).(type) {
	case *Iter:
		return x, true
	case *dispatch.Array:
		return sliceIter(c, x.Elems), true
	case *dispatch.Range:
		return rangeIter(c, x)
	case CharRange:
		return charRangeIter(c, x)
	case *Map:
		pairs := make([]Value, len(x.Keys))
		for i := range x.Keys {
			pairs[i] = dispatch.Tuple{x.Keys[i], x.Vals[i]}
		}
		return sliceIter(c, pairs), true
	case *Set:
		return sliceIter(c, x.Elems), true
	case *dispatch.Enum:
		if x.Type == "Option" {
			return sliceIter(c, x.Fields), true
		}
	}
	return nil, false
}

func sliceIter(c Caller, elems []Value) *Iter {
	lo, hi := 0, len(elems)
	return &Iter{Kind: "Iter",
		next: func() (Value, bool, error) {
			if lo >= hi {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			lo++
			return elems[lo-1], true, nil
		},
		back: func() (Value, bool, error) {
			if lo >= hi {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			hi--
			return elems[hi], true, nil
		}}
}

func rangeIter(c Caller, r *dispatch.Range) (*Iter, bool) {
	if r.Lo == nil {
		return nil, false
	}
	lo, hi := *r.Lo, int64(math.MaxInt64)
	done := false
	if r.Hi != nil {
		hi = *r.Hi
		if !r.Inclusive {
			if hi == math.MinInt64 {
				done = true
			}
			hi--
		}
	}
	if lo > hi {
		done = true
	}
	return &Iter{Kind: "Range",
		next: func() (Value, bool, error) {
			if done {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			v := lo
			if lo == hi {
				done = true
			} else {
				lo++
			}
			return dispatch.Int{V: v, Suffix: r.Suffix}, true, nil
		},
		back: func() (Value, bool, error) {
			if done {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			v := hi
			if lo == hi {
				done = true
			} else {
				hi--
			}
			return dispatch.Int{V: v, Suffix: r.Suffix}, true, nil
		}}, true
}

func call1(c Caller, f Value, x Value) (Value, error) { return c.Call(f, []Value{x}) }

// isFn reports whether v can be called.
func isFn(v Value) bool {
	switch dispatch.Deref(v).(type) {
	case dispatch.Int, dispatch.Float, dispatch.Str, dispatch.Bool, *dispatch.Array, dispatch.Tuple, *dispatch.Enum, *dispatch.Range, *Iter, *Map, *Set, Char, *Big:
		return false
	}
	return true
}

// keep is a predicate's answer; an unknown one keeps the element, so a
// check visits what follows.
func keep(v Value) bool {
	b, ok := truthy(v)
	return b || !ok
}

func mapped(kind string, it *Iter, f func(Value) (Value, error)) *Iter {
	out := &Iter{Kind: kind, next: func() (Value, bool, error) {
		v, more, err := it.next()
		if !more || err != nil {
			return nil, false, err
		}
		v, err = f(v)
		return v, err == nil, err
	}}
	if it.back != nil {
		out.back = func() (Value, bool, error) {
			v, more, err := it.back()
			if !more || err != nil {
				return nil, false, err
			}
			v, err = f(v)
			return v, err == nil, err
		}
	}
	return out
}

// filtered keeps the elements f maps to a value (ok true), mapped.
func filtered(kind string, it *Iter, f func(Value) (Value, bool, error)) *Iter {
	pull := func(src func() (Value, bool, error)) func() (Value, bool, error) {
		return func() (Value, bool, error) {
			for {
				v, more, err := src()
				if !more || err != nil {
					return nil, false, err
				}
				out, keep, err := f(v)
				if err != nil {
					return nil, false, err
				}
				if keep {
					return out, true, nil
				}
			}
		}
	}
	out := &Iter{Kind: kind, next: pull(it.next)}
	if it.back != nil {
		out.back = pull(it.back)
	}
	return out
}

// iterMethod runs Iterator's adapters and consumers.
func iterMethod(c Caller, it *Iter, call Call) (Value, bool, error) {
	if opensWith(it, call.Args) {
		return openMethod(c, it, call)
	}
	return knownEndMethod(c, it, call)
}

// knownEndMethod is iterMethod on iterators whose end is known.
func knownEndMethod(c Caller, it *Iter, call Call) (Value, bool, error) {
	args := call.Args
	fn := func(i int) (Value, bool) {
		if i < len(args) && isFn(args[i]) {
			return args[i], true
		}
		return nil, false
	}
	switch call.Name {
	case "iter", "into_iter", "iter_mut", "by_ref", "cloned", "copied", "fuse":
		return it, true, nil
	case "next":
		v, more, err := it.next()
		return option(v, more), true, err
	case "next_back":
		if it.back == nil {
			return nil, false, nil
		}
		v, more, err := it.back()
		return option(v, more), true, err
	case "map", "inspect":
		f, isF := fn(0)
		if !isF {
			return nil, false, nil
		}
		inspect := call.Name == "inspect"
		return mapped(strings.ToUpper(call.Name[:1])+call.Name[1:], it, func(v Value) (Value, error) {
			r, err := call1(c, f, v)
			if inspect {
				return v, err
			}
			return r, err
		}), true, nil
	case "filter":
		f, isF := fn(0)
		if !isF {
			return nil, false, nil
		}
		return filtered("Filter", it, func(v Value) (Value, bool, error) {
			r, err := call1(c, f, v)
			return v, err == nil && keep(r), err
		}), true, nil
	case "filter_map":
		f, isF := fn(0)
		if !isF {
			return nil, false, nil
		}
		return filtered("FilterMap", it, func(v Value) (Value, bool, error) {
			r, err := call1(c, f, v)
			if err != nil {
				return nil, false, err
			}
			inner, present := optionValue(r)
			return inner, present, nil
		}), true, nil
	case "enumerate":
		i := 0
		return &Iter{Kind: "Enumerate", next: func() (Value, bool, error) {
			v, more, err := it.next()
			if !more || err != nil {
				return nil, false, err
			}
			i++
			return dispatch.Tuple{usize(i - 1), v}, true, nil
		}}, true, nil
	case "zip", "chain":
		if len(args) != 1 {
			return nil, false, nil
		}
		other, isIter := IntoIter(c, args[0])
		if !isIter {
			return nil, false, nil
		}
		if call.Name == "chain" {
			first := true
			return &Iter{Kind: "Chain", next: func() (Value, bool, error) {
				if first {
					v, more, err := it.next()
					if more || err != nil {
						return v, more, err
					}
					first = false
				}
				return other.next()
			}}, true, nil
		}
		return &Iter{Kind: "Zip", next: func() (Value, bool, error) {
			a, more, err := it.next()
			if !more || err != nil {
				return nil, false, err
			}
			b, more, err := other.next()
			if !more || err != nil {
				return nil, false, err
			}
			return dispatch.Tuple{a, b}, true, nil
		}}, true, nil
	case "rev":
		if it.back == nil {
			// Not double-ended in the model: the remaining elements,
			// pulled now, from the back.
			var buf []Value
			for {
				v, more, err := it.next()
				if err != nil {
					return nil, true, err
				}
				if !more {
					break
				}
				buf = append(buf, v)
			}
			src := sliceIter(c, buf)
			return &Iter{Kind: "Rev", next: src.back, back: src.next}, true, nil
		}
		return &Iter{Kind: "Rev", next: it.back, back: it.next}, true, nil
	case "skip", "take", "step_by":
		n, isInt := intArg(args, 0)
		if !isInt {
			return nil, false, nil
		}
		switch call.Name {
		case "skip":
			skipped := false
			return &Iter{Kind: "Skip", next: func() (Value, bool, error) {
				if !skipped {
					skipped = true
					for range n {
						if _, more, err := it.next(); !more || err != nil {
							return nil, false, err
						}
					}
				}
				return it.next()
			}}, true, nil
		case "take":
			left := n
			return &Iter{Kind: "Take", next: func() (Value, bool, error) {
				if left <= 0 {
					return nil, false, nil
				}
				left--
				return it.next()
			}}, true, nil
		}
		if n <= 0 {
			return nil, true, panicf("assertion failed: step != 0")
		}
		first := true
		return &Iter{Kind: "StepBy", next: func() (Value, bool, error) {
			if !first {
				for range n - 1 {
					if _, more, err := it.next(); !more || err != nil {
						return nil, false, err
					}
				}
			}
			first = false
			return it.next()
		}}, true, nil
	case "skip_while", "take_while", "map_while":
		f, isF := fn(0)
		if !isF {
			return nil, false, nil
		}
		done := false
		switch call.Name {
		case "skip_while":
			return &Iter{Kind: "SkipWhile", next: func() (Value, bool, error) {
				for {
					v, more, err := it.next()
					if !more || err != nil || done {
						return v, more, err
					}
					r, err := call1(c, f, v)
					if err != nil {
						return nil, false, err
					}
					if !keep(r) {
						done = true
						return v, true, nil
					}
				}
			}}, true, nil
		case "take_while":
			return &Iter{Kind: "TakeWhile", next: func() (Value, bool, error) {
				if done {
					return nil, false, nil
				}
				v, more, err := it.next()
				if !more || err != nil {
					return nil, false, err
				}
				r, err := call1(c, f, v)
				if err != nil {
					return nil, false, err
				}
				if !keep(r) {
					done = true
					return nil, false, nil
				}
				return v, true, nil
			}}, true, nil
		}
		return &Iter{Kind: "MapWhile", next: func() (Value, bool, error) {
			if done {
				return nil, false, nil
			}
			v, more, err := it.next()
			if !more || err != nil {
				return nil, false, err
			}
			r, err := call1(c, f, v)
			if err != nil {
				return nil, false, err
			}
			inner, present := optionValue(r)
			done = !present
			return inner, present, nil
		}}, true, nil
	case "flat_map", "flatten":
		var f Value
		if call.Name == "flat_map" {
			var isF bool
			if f, isF = fn(0); !isF {
				return nil, false, nil
			}
		}
		var cur *Iter
		return &Iter{Kind: "FlatMap", next: func() (Value, bool, error) {
			for {
				if cur != nil {
					v, more, err := cur.next()
					if more || err != nil {
						return v, more, err
					}
					cur = nil
				}
				v, more, err := it.next()
				if !more || err != nil {
					return nil, false, err
				}
				if f != nil {
					if v, err = call1(c, f, v); err != nil {
						return nil, false, err
					}
				}
				inner, isIter := IntoIter(c, v)
				if !isIter {
					if e, isEnum := dispatch.Deref(v).(*dispatch.Enum); isEnum && e.Type == "Result" {
						inner = sliceIter(c, okFields(e))
					} else {
						return unknown, true, nil
					}
				}
				cur = inner
			}
		}}, true, nil
	case "peekable":
		return peekable(it), true, nil
	case "scan":
		if len(args) != 2 || !isFn(args[1]) {
			return nil, false, nil
		}
		state := &dispatch.Ref{V: args[0], Mut: true}
		done := false
		return &Iter{Kind: "Scan", next: func() (Value, bool, error) {
			if done {
				return nil, false, nil
			}
			v, more, err := it.next()
			if !more || err != nil {
				return nil, false, err
			}
			r, err := c.Call(args[1], []Value{state, v})
			if err != nil {
				return nil, false, err
			}
			inner, present := optionValue(r)
			done = !present
			return inner, present, nil
		}}, true, nil
	}
	return iterConsume(c, it, call)
}

func okFields(e *dispatch.Enum) []Value {
	if e.Variant == "Ok" {
		return e.Fields
	}
	return nil
}

// optionValue is the value in a Some; present is false for None. An
// unknown value is present (and unknown).
func optionValue(v Value) (Value, bool) {
	e, isEnum := dispatch.Deref(v).(*dispatch.Enum)
	if !isEnum {
		return unknown, true
	}
	if e.Variant == "Some" && len(e.Fields) == 1 {
		return e.Fields[0], true
	}
	return nil, false
}

// peekable is an iterator with a slot for the element peek pulled.
func peekable(it *Iter) *Iter {
	p := &Iter{Kind: "Peekable"}
	var slot Value
	var has, ended bool
	p.next = func() (Value, bool, error) {
		if has {
			has = false
			return slot, true, nil
		}
		if ended {
			return nil, false, nil
		}
		return it.next()
	}
	p.back = nil
	p.peek = func() (Value, bool, error) {
		if !has && !ended {
			v, more, err := it.next()
			if err != nil {
				return nil, false, err
			}
			if !more {
				ended = true
			} else {
				slot, has = v, true
			}
		}
		return slot, has, nil
	}
	return p
}

// CharRange is a range of chars: `'a'..='z'`. Its bounds are the code
// points.
type CharRange struct{ R *dispatch.Range }

func (CharRange) TypeName() string { return "RangeInclusive<char>" }

func charRangeIter(c Caller, r CharRange) (*Iter, bool) {
	it, ok := rangeIter(c, r.R)
	if !ok {
		return nil, false
	}
	return mapped("Range", it, func(v Value) (Value, error) { return Char(rune(v.(dispatch.Int).V)), nil }), true
}

// FromNext is an iterator over a program's own Iterator impl: next is its
// `fn next(&mut self) -> Option<Item>`, which the adapters pull as they
// pull any source.
func FromNext(next func() (Value, error)) *Iter {
	done := false
	return &Iter{Kind: "Iter", next: func() (Value, bool, error) {
		if done {
			return nil, false, nil
		}
		r, err := next()
		if err != nil {
			return nil, false, err
		}
		v, present := optionValue(r)
		done = !present
		return v, present, nil
	}}
}

// IsIterMethod reports whether name is a method Iterator provides (an
// adapter or a consumer), which a program's own iterator gets by
// implementing next.
func IsIterMethod(name string) bool {
	_, ok := iterMethods[name]
	return ok
}

var iterMethods = map[string]bool{}

func init() {
	for _, n := range []string{"map", "filter", "filter_map", "enumerate", "zip", "chain", "rev", "skip", "take", "step_by",
		"skip_while", "take_while", "map_while", "flat_map", "flatten", "peekable", "cloned", "copied", "inspect", "scan", "fuse", "by_ref",
		"fold", "reduce", "sum", "product", "min", "max", "min_by", "max_by", "min_by_key", "max_by_key", "any", "all", "find",
		"find_map", "position", "count", "last", "nth", "for_each", "collect", "partition", "unzip"} {
		iterMethods[n] = true
	}
}

package rstd

import "github.com/dispatch-playground/playground/engine/dispatch"

// An open iterator gives the elements the engine knows, then ends where
// the real one may go on: a DataLoader's pass over a dataset whose length
// the engine does not know (engine/data) gives its first batch and stops.
// The elements it gives run as they are (their trace and panics are
// Burn's), but no answer that depends on where it ends is known: count,
// last, sum, fold, collect and the like are unknown, and so is next, find
// or position once the known elements are used up. An adapter of an open
// iterator (map, enumerate, filter, zip with one, ...) is open too.

// FromNextOpen is FromNext for an iterator whose end is not known.
func FromNextOpen(next func() (Value, error)) *Iter {
	it := FromNext(next)
	it.open = true
	return it
}

// Open reports whether the iterator's end is not known.
func (it *Iter) Open() bool { return it.open }

// opensWith reports whether a method of it gives an open answer: it or
// one of the iterators it is given is open.
func opensWith(it *Iter, args []Value) bool {
	if it.open {
		return true
	}
	for _, a := range args {
		if x, isIter := dispatch.Deref(a).(*Iter); isIter && x.open {
			return true
		}
	}
	return false
}

// openMethod is iterMethod on an open iterator.
func openMethod(c Caller, it *Iter, call Call) (Value, bool, error) {
	v, handled, err := knownEndMethod(c, it, call)
	if err != nil || !handled {
		return v, handled, err
	}
	if out, isIter := v.(*Iter); isIter {
		out.open = true
		return out, true, nil
	}
	switch call.Name {
	case "next", "nth", "peek", "next_if", "find", "find_map", "position", "rposition":
		// A Some is an element the engine knows; a None may be an
		// element it does not.
		if _, present := optionValue(v); present {
			return v, true, nil
		}
	case "any":
		if b, isBool := dispatch.Deref(v).(dispatch.Bool); isBool && bool(b) {
			return v, true, nil
		}
	case "all":
		if b, isBool := dispatch.Deref(v).(dispatch.Bool); isBool && !bool(b) {
			return v, true, nil
		}
	case "for_each":
		return v, true, nil
	}
	return unknown, true, nil
}

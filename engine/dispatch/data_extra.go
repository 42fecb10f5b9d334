package dispatch

import (
	"fmt"
)

// withinIntRange is TensorData::assert_within_range(start..end) and
// assert_within_range_inclusive(start..=end) over an integer range
// (burn-std/src/data/compare.rs:371-399): the first element outside it
// panics with "Element ({elem:?}) is not within range {range:?}". Int data
// is read as the range's integers; other data is not modelled.
func withinIntRange(d *TensorData, r *Range, inclusive bool) (Value, *UsageError, *Panic, bool) {
	if r.Lo == nil || r.Hi == nil || r.Inclusive != inclusive {
		return nil, nil, nil, false
	}
	if d.values == nil {
		return unchecked(d, nil), nil, nil, true
	}
	if !d.values.DType.IsInt() {
		return nil, nil, nil, false
	}
	line, sep := 374, ".."
	if inclusive {
		line, sep = 397, "..="
	}
	for k := range d.values.NumElements() {
		x := d.values.Int(k)
		if x < *r.Lo || x > *r.Hi || (!inclusive && x == *r.Hi) {
			p := newPanic("std-data-not-within-range", at(locDataCompare, line),
				fmt.Sprintf("Element (%d) is not within range %d%s%d", x, *r.Lo, sep, *r.Hi))
			p.TrackCaller = false
			return Unit{}, nil, p.on(0), true
		}
	}
	return Unit{}, nil, nil, true
}

// dataMethodPath is a method of TensorData called by its path with the
// data first (`TensorData::assert_approx_eq::<F>(&a, &b, tolerance)`), as
// Rust allows every method: the call is the method call on that data.
func (w *World) dataMethodPath(name string, c Call) (Value, *UsageError, *Panic, bool) {
	switch name {
	case "assert_approx_eq", "assert_eq", "assert_within_range", "assert_within_range_inclusive", "try_to_vec", "try_into_vec":
	default:
		return nil, nil, nil, false
	}
	if len(c.Args) == 0 {
		return nil, nil, nil, false
	}
	d, ok := Deref(c.Args[0]).(*TensorData)
	if !ok {
		return nil, nil, nil, false
	}
	var generics [][]string
	if g := lastGenerics(c); g != nil {
		generics = [][]string{g}
	}
	v, ue, p, ok := w.dataMethod(d, Call{Recv: c.Args[0], Method: name, Args: c.Args[1:], Generics: generics, Expect: c.Expect})
	if ue != nil && ue.Arg > 0 {
		ue.Arg++
	}
	if p != nil && p.Input >= 0 {
		p.Input++
	}
	return v, ue, p, ok
}

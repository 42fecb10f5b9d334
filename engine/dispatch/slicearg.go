package dispatch

import "github.com/dispatch-playground/playground/engine/burncheck"

// SteppedSlice is one item `range;step` of Burn's s! macro:
// Slice::from_range_stepped(range, step) (crates/burn-std/src/tensor/
// slice.rs:222-290). Of is the range or index as written; an item without a
// step stays a plain *Range or Int.
type SteppedSlice struct {
	Of   Value
	Step int64
}

// TypeName is Burn's Slice.
func (*SteppedSlice) TypeName() string { return "Slice" }

// sliceFunction is Slice::from_range_stepped(range, step), which s! items
// with a step call: its assert of a non-zero step (slice.rs:467-472).
func sliceFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "new":
		return sliceNew(a)
	case "full":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &Range{}, nil, nil
	case "from":
		// From<Range<..>> and From<isize> (slice.rs): a Slice is how the
		// engine holds a range already.
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		switch v := a.get(0).(type) {
		case *Range, Int, *SteppedSlice:
			return v, nil, nil
		}
		return nil, errArgType(1, "impl Into<Slice>", c.Args[0]), nil
	case "from_range_stepped":
	default:
		return nil, errUnknownFunction("struct `Slice`", name), nil
	}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	switch a.get(0).(type) {
	case *Range, Int:
	default:
		return nil, errArgType(1, "impl Into<Slice>", c.Args[0]), nil
	}
	step, ue := a.int(1)
	if ue != nil {
		return nil, errArgType(2, "isize", c.Args[1]), nil
	}
	if _, f := burncheck.SteppedSlice(burncheck.FullSlice(), step); f != nil {
		return nil, nil, checkFailed(f).on(2)
	}
	return &SteppedSlice{Of: a.get(0), Step: step}, nil, nil
}

// sliceNew is Slice::new(start, end, step) (slice.rs:395-398): the same
// assert of a non-zero step.
func sliceNew(a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	start, ue := a.int(0)
	if ue != nil {
		return nil, errArgType(1, "isize", a.c.Args[0]), nil
	}
	r := &Range{Lo: &start}
	e, ok := a.get(1).(*Enum)
	switch {
	case ok && e.Type == "Option" && e.Variant == "Some" && len(e.Fields) == 1:
		end, ok := Deref(e.Fields[0]).(Int)
		if !ok {
			return nil, errArgType(2, "Option<isize>", a.c.Args[1]), nil
		}
		r.Hi = &end.V
	case ok && e.Type == "Option" && e.Variant == "None":
	default:
		return nil, errArgType(2, "Option<isize>", a.c.Args[1]), nil
	}
	step, ue := a.int(2)
	if ue != nil {
		return nil, errArgType(3, "isize", a.c.Args[2]), nil
	}
	if step == 0 {
		return nil, nil, newPanic(burncheck.IDSliceStepZero, "crates/burn-std/src/tensor/slice.rs:396", "Step cannot be zero").on(3)
	}
	if step == 1 {
		return r, nil, nil
	}
	return &SteppedSlice{Of: r, Step: step}, nil, nil
}

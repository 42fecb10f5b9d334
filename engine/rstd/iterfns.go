package rstd

import "github.com/dispatch-playground/playground/engine/dispatch"

// iterFunction is a function of std::iter that makes an iterator. Each
// element costs a step as it is pulled, so `repeat(x)` without a `take`
// ends at the step budget, as a run that never ends would.
func iterFunction(c Caller, name string, args []Value) (Value, bool, error) {
	switch name {
	case "repeat":
		if len(args) != 1 {
			return nil, false, nil
		}
		v := args[0]
		return &Iter{Kind: "Repeat", next: func() (Value, bool, error) {
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			return v, true, nil
		}}, true, nil
	case "repeat_n":
		n, isInt := dispatch.Deref(args[len(args)-1]).(dispatch.Int)
		if len(args) != 2 || !isInt || n.V < 0 {
			return nil, false, nil
		}
		v, left := args[0], n.V
		return &Iter{Kind: "RepeatN", next: func() (Value, bool, error) {
			if left == 0 {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			left--
			return v, true, nil
		}}, true, nil
	case "once":
		if len(args) != 1 {
			return nil, false, nil
		}
		return sliceIter(c, []Value{args[0]}), true, nil
	case "empty":
		if len(args) != 0 {
			return nil, false, nil
		}
		return sliceIter(c, nil), true, nil
	case "from_fn":
		if len(args) != 1 {
			return nil, false, nil
		}
		f := args[0]
		return FromNext(func() (Value, error) { return c.Call(f, nil) }), true, nil
	case "successors":
		if len(args) != 2 {
			return nil, false, nil
		}
		next, f := dispatch.Deref(args[0]), args[1]
		return &Iter{Kind: "Successors", next: func() (Value, bool, error) {
			cur, present := optionValue(next)
			if !present {
				return nil, false, nil
			}
			if err := c.Step(); err != nil {
				return nil, false, err
			}
			n, err := c.Call(f, []Value{&dispatch.Ref{V: cur}})
			if err != nil {
				return nil, false, err
			}
			next = dispatch.Deref(n)
			return cur, true, nil
		}}, true, nil
	}
	return nil, false, nil
}

package rstd

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// The atomics of std::sync::atomic are Cells of their kind: one slot that
// every clone of the Arc around them shares. Threads run one after the
// other in the playground (see JoinHandle), so every ordering gives the
// same value and the Ordering argument is read and ignored.

// atomicTypes are the atomic integer types with the primitive each holds.
var atomicTypes = map[string]string{
	"AtomicU8": "u8", "AtomicU16": "u16", "AtomicU32": "u32", "AtomicU64": "u64", "AtomicUsize": "usize",
	"AtomicI8": "i8", "AtomicI16": "i16", "AtomicI32": "i32", "AtomicI64": "i64", "AtomicIsize": "isize",
	"AtomicBool": "bool",
}

// IsAtomic reports whether typ is one of std's atomic types.
func IsAtomic(typ string) bool { _, ok := atomicTypes[typ]; return ok }

func atomicFunction(typ, name string, args []Value) (Value, bool, error) {
	prim := atomicTypes[typ]
	switch name {
	case "new":
		if len(args) == 1 {
			return NewCell(typ, typedAs(args[0], prim)), true, nil
		}
	case "default":
		if prim == "bool" {
			return NewCell(typ, dispatch.Bool(false)), true, nil
		}
		return NewCell(typ, dispatch.Int{Suffix: prim}), true, nil
	}
	return nil, false, nil
}

func typedAs(v Value, prim string) Value {
	if i, ok := dispatch.Deref(v).(dispatch.Int); ok && i.Suffix == "" && prim != "bool" {
		i.Suffix = prim
		return i
	}
	return dispatch.Deref(v)
}

// atomicMethod is a method of an atomic; handled is false for the methods
// all cells share (get_mut, into_inner).
func atomicMethod(c *Cell, call Call) (Value, bool, error) {
	args := call.Args
	prim := atomicTypes[c.Kind]
	arg := func(i int) Value { return typedAs(args[i], prim) }
	switch call.Name {
	case "load":
		if len(args) == 1 {
			return c.Slot.V, true, nil
		}
	case "store":
		if len(args) == 2 {
			c.Slot.V = arg(0)
			return dispatch.Unit{}, true, nil
		}
	case "swap":
		if len(args) == 2 {
			old := c.Slot.V
			c.Slot.V = arg(0)
			return old, true, nil
		}
	case "compare_exchange", "compare_exchange_weak":
		if len(args) == 4 {
			old := c.Slot.V
			if eq, known := Equal(old, arg(0)); known && eq {
				c.Slot.V = arg(1)
				return ok(old), true, nil
			} else if !known {
				return unknown, true, nil
			}
			return errv(old), true, nil
		}
	case "fetch_add", "fetch_sub", "fetch_max", "fetch_min", "fetch_and", "fetch_or", "fetch_xor", "fetch_nand":
		if len(args) != 2 {
			return nil, false, nil
		}
		old := c.Slot.V
		if prim == "bool" {
			a, aok := old.(dispatch.Bool)
			b, bok := dispatch.Deref(args[0]).(dispatch.Bool)
			if !aok || !bok {
				return unknown, true, nil
			}
			switch call.Name {
			case "fetch_and":
				c.Slot.V = a && b
			case "fetch_or":
				c.Slot.V = a || b
			case "fetch_xor":
				c.Slot.V = dispatch.Bool(a != b)
			case "fetch_nand":
				c.Slot.V = !(a && b)
			default:
				return nil, false, nil
			}
			return old, true, nil
		}
		// Atomic arithmetic wraps around on overflow.
		op := strings.TrimPrefix(call.Name, "fetch_")
		var next Value
		var err error
		switch op {
		case "max", "min":
			cmp, known := Compare(old, arg(0))
			if !known {
				return unknown, true, nil
			}
			next = old
			if op == "max" && cmp < 0 || op == "min" && cmp > 0 {
				next = arg(0)
			}
		case "add", "sub":
			x, isInt := dispatch.Deref(old).(dispatch.Int)
			if !isInt {
				return unknown, true, nil
			}
			next, _, err = intMethod(x, Call{Name: "wrapping_" + op, Args: []Value{arg(0)}})
		case "nand":
			var and Value
			if and, _, err = IntBinary("&", old, arg(0), prim); err == nil && and != nil {
				next = Not(and)
			}
		default:
			next, _, err = IntBinary(map[string]string{"and": "&", "or": "|", "xor": "^"}[op], old, arg(0), prim)
		}
		if err != nil || next == nil {
			return unknown, true, nil
		}
		c.Slot.V = next
		return old, true, nil
	}
	return nil, false, nil
}

// JoinHandle is a std::thread::JoinHandle. A spawned thread runs to its
// end when it is spawned, before the spawning thread goes on: one of the
// interleavings the program allows, and the one every run of the
// playground takes, so its results do not depend on timing.
type JoinHandle struct {
	V Value
}

func (*JoinHandle) TypeName() string { return "JoinHandle<_>" }

func threadFunction(c Caller, name string, args []Value) (Value, bool, error) {
	switch name {
	case "spawn":
		if len(args) != 1 {
			return nil, false, nil
		}
		v, err := c.Call(args[0], nil)
		if err != nil {
			return nil, true, err
		}
		return &JoinHandle{V: v}, true, nil
	case "yield_now":
		return dispatch.Unit{}, true, nil
	}
	return nil, false, nil
}

func joinHandleMethod(h *JoinHandle, call Call) (Value, bool, error) {
	switch call.Name {
	case "join":
		return ok(h.V), true, nil
	case "is_finished":
		return dispatch.Bool(true), true, nil
	}
	return nil, false, nil
}

package rstd

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Cell is a RefCell, Cell, Mutex or RwLock: one slot that every clone of
// the Rc or Arc around it shares (Rc and Arc themselves are transparent:
// Rc::new(x) is x). borrow_mut and lock hand out the slot itself, a `&mut`,
// so `*cell.borrow_mut() += 1` and `*m.lock().unwrap() += 1` write into
// the cell. Cloning a Cell shares it, as cloning the Rc around it does; a
// RefCell cloned on its own would be a copy in Rust.
type Cell struct {
	Kind string // "RefCell", "Cell", "Mutex", "RwLock"
	Slot *dispatch.Ref
}

func (c *Cell) TypeName() string { return c.Kind + "<_>" }

// NewCell is RefCell::new(v) and its kin.
func NewCell(kind string, v Value) *Cell {
	return &Cell{Kind: kind, Slot: &dispatch.Ref{V: v, Mut: true}}
}

func cellMethod(c *Cell, call Call) (Value, bool, error) {
	if IsAtomic(c.Kind) {
		if v, handled, err := atomicMethod(c, call); handled {
			return v, true, err
		}
	}
	args := call.Args
	switch call.Name {
	case "clone":
		return c, true, nil
	case "borrow", "get", "get_mut", "read_only":
		if call.Name == "get_mut" {
			return c.Slot, true, nil
		}
		return c.Slot.V, true, nil
	case "borrow_mut", "as_ptr":
		return c.Slot, true, nil
	case "try_borrow", "try_borrow_mut":
		return ok(c.Slot), true, nil
	case "lock", "read", "write", "try_lock", "try_read", "try_write":
		return ok(c.Slot), true, nil
	case "set":
		if len(args) == 1 {
			c.Slot.V = args[0]
			return dispatch.Unit{}, true, nil
		}
	case "replace", "swap":
		if len(args) == 1 {
			if other, isCell := dispatch.Deref(args[0]).(*Cell); isCell && call.Name == "swap" {
				c.Slot.V, other.Slot.V = other.Slot.V, c.Slot.V
				return dispatch.Unit{}, true, nil
			}
			old := c.Slot.V
			c.Slot.V = args[0]
			return old, true, nil
		}
	case "take":
		old := c.Slot.V
		c.Slot.V = defaultLike(old)
		return old, true, nil
	case "into_inner":
		if c.Kind == "Mutex" || c.Kind == "RwLock" {
			return ok(c.Slot.V), true, nil
		}
		return c.Slot.V, true, nil
	case "is_poisoned":
		return dispatch.Bool(false), true, nil
	}
	return nil, false, nil
}

// defaultLike is DefaultLike.
func defaultLike(v Value) Value { return DefaultLike(v) }

// DefaultLike is Default::default() of the type of v (std::mem::take).
func DefaultLike(v Value) Value {
	switch x := dispatch.Deref(v).(type) {
	case dispatch.Int:
		return dispatch.Int{Suffix: x.Suffix}
	case dispatch.Float:
		return dispatch.Float{Suffix: x.Suffix}
	case dispatch.Str:
		return dispatch.Str("")
	case dispatch.Bool:
		return dispatch.Bool(false)
	case *dispatch.Array:
		return &dispatch.Array{Vec: x.Vec}
	case *dispatch.Enum:
		if x.Type == "Option" {
			return none()
		}
	case *Map:
		return NewMap(x.Kind)
	case *Set:
		return NewSet(x.Kind)
	}
	return unknown
}

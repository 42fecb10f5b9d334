package rstd

import (
	"github.com/dispatch-playground/playground/engine/dispatch"
)

// Binary computes a binary operator on std's primitive values: integers
// (with a debug build's overflow panics), floats (f32 rounded to f32),
// bools, strings and chars, and the comparisons of everything Ord orders.
// ok is false when the operands are not std's or the operator does not
// apply to them.
func Binary(op string, x, y Value) (v Value, ok bool, err error) {
	x, y = dispatch.Deref(x), dispatch.Deref(y)
	switch a := x.(type) {
	case dispatch.Int:
		switch b := y.(type) {
		case dispatch.Int:
			// A shift has its left operand's type; the other
			// operators take the type of whichever side has one.
			suffix := a.Suffix
			if suffix == "" && op != "<<" && op != ">>" {
				suffix = b.Suffix
			}
			return IntBinary(op, a, b, suffix)
		case *Big:
			return IntBinary(op, a, b, b.Suffix)
		case dispatch.Float:
			if a.Suffix == "" {
				// An unsuffixed integer literal next to a float is a
				// type error in Rust; the playground is lenient and
				// promotes it.
				v, ok := FloatBinary(op, float64(a.V), b.V, b.Suffix)
				return v, ok, nil
			}
		}
	case *Big:
		switch y.(type) {
		case dispatch.Int, *Big:
			return IntBinary(op, a, y, a.Suffix)
		}
	case dispatch.Float:
		switch b := y.(type) {
		case dispatch.Float:
			suffix := a.Suffix
			if suffix == "" {
				suffix = b.Suffix
			}
			v, ok := FloatBinary(op, a.V, b.V, suffix)
			return v, ok, nil
		case dispatch.Int:
			v, ok := FloatBinary(op, a.V, float64(b.V), a.Suffix)
			return v, ok, nil
		}
	case dispatch.Bool:
		if b, isBool := y.(dispatch.Bool); isBool {
			switch op {
			case "&", "&&":
				return a && b, true, nil
			case "|", "||":
				return a || b, true, nil
			case "^":
				return dispatch.Bool(a != b), true, nil
			}
		}
	case dispatch.Str:
		if op == "+" {
			switch b := y.(type) {
			case dispatch.Str:
				return a + b, true, nil
			}
		}
	}
	switch op {
	case "==", "!=":
		eq, known := Equal(x, y)
		if !known {
			return nil, false, nil
		}
		return dispatch.Bool(eq == (op == "==")), true, nil
	case "<", "<=", ">", ">=":
		c, known := Compare(x, y)
		if !known {
			if fx, isF := x.(dispatch.Float); isF {
				if _, isF2 := y.(dispatch.Float); isF2 && (fx.V != fx.V || y.(dispatch.Float).V != y.(dispatch.Float).V) {
					return dispatch.Bool(false), true, nil // NaN compares false
				}
			}
			return nil, false, nil
		}
		r, _ := compareOp(op, c)
		return r, true, nil
	}
	return nil, false, nil
}

package dispatch

import (
	"strconv"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Tensor::cast (crates/burn-tensor/src/tensor/api/float.rs:312, int.rs:192,
// bool.rs:107) through the Cast trait (crates/burn-tensor/src/tensor/api/cast.rs):
// the dtype argument's type decides the output kind.
//
//	Float: FloatDType -> float_cast, a no-op at the current dtype (cast.rs:23-37);
//	       IntDType -> float_into_int (cast.rs:39-45);
//	       DType -> into FloatDType, then as FloatDType (cast.rs:53-60).
//	Int:   IntDType -> int_cast, a no-op at the current dtype (cast.rs:64-74);
//	       FloatDType -> int_into_float (cast.rs:76-82);
//	       DType -> into IntDType, then as IntDType (cast.rs:90-97).
//	Bool:  IntDType -> bool_into_int; FloatDType -> bool_into_float (cast.rs:101-115).
func (w *World) castTensor(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	e, ok := a.get(0).(*Enum)
	if !ok || (e.Type != "FloatDType" && e.Type != "IntDType" && e.Type != "DType") {
		return nil, castBound(a.get(0), t), nil
	}
	dt, ue := dtypeValue(e)
	if ue != nil {
		return nil, castBound(e, t), nil
	}
	target := e.Type
	if target == "DType" {
		switch t.kind {
		case KindFloat, KindQFloat:
			if !dt.IsFloat() {
				return nil, nil, panicFloatDTypeConversion(dt).on(1)
			}
			target = "FloatDType"
		case KindInt:
			if !dt.IsInt() {
				return nil, nil, panicIntDTypeConversion(dt).on(1)
			}
			target = "IntDType"
		default:
			return nil, castBound(e, t), nil
		}
	}
	if t.kind == KindQFloat {
		// A quantized primitive panics "Should be Float primitive kind"
		// (cast.rs:31), a site the playground has no record of yet.
		return nil, errUnsupported("Tensor::cast of a quantized tensor"), nil
	}
	outKind := KindFloat
	if target == "IntDType" {
		outKind = KindInt
	}
	if outKind == t.kind && dt == t.dtype {
		return t, nil, nil
	}
	var op string
	switch {
	case t.kind == KindFloat && outKind == KindFloat:
		op = "float_cast"
	case t.kind == KindFloat:
		op = "float_into_int"
	case t.kind == KindInt && outKind == KindInt:
		op = "int_cast"
	case t.kind == KindInt:
		op = "int_into_float"
	case outKind == KindInt:
		op = "bool_into_int"
	default:
		op = "bool_into_float"
	}
	out, p := w.unaryOp(t, op, outKind, nil, dt)
	if p != nil {
		return nil, nil, p
	}
	w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) { return t.vals(), nil })
	return out, nil, nil
}

// castBound is rustc's error for a dtype argument with no Cast impl for
// the tensor's kind (a BoolDType, a DType on a bool tensor, a number).
func castBound(v Value, t *Tensor) *UsageError {
	kind := t.KindName()
	if t.kind == KindQFloat {
		kind = "Float"
	}
	return &UsageError{Code: "wrong-arguments", Arg: 1,
		Message: "the trait bound `" + v.TypeName() + ": Cast<" + strconv.Itoa(t.Rank()) + ", " + kind + ">` is not satisfied"}
}

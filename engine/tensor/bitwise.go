package tensor

import "fmt"

// The bitwise methods of an Int tensor (crates/burn-tensor/src/tensor/api/
// int.rs:111-168) as Flex computes them (crates/burn-flex/src/ops/int.rs:
// 618-671): each element widened to i64, the op applied, the result
// narrowed back to the dtype; a scalar is first narrowed to the dtype
// (binary.rs:384-420). Shifts are i64's wrapping_shl and wrapping_shr:
// the amount's low six bits, an arithmetic right shift.
var bitwiseOps = map[string]func(a, b int64) int64{
	"bitwise_and":         func(a, b int64) int64 { return a & b },
	"bitwise_or":          func(a, b int64) int64 { return a | b },
	"bitwise_xor":         func(a, b int64) int64 { return a ^ b },
	"bitwise_left_shift":  func(a, b int64) int64 { return a << (uint64(b) & 63) },
	"bitwise_right_shift": func(a, b int64) int64 { return a >> (uint64(b) & 63) },
}

// IsBitwise reports a bitwise method, its _scalar form, or bitwise_not.
func IsBitwise(method string) bool {
	if method == "bitwise_not" {
		return true
	}
	_, ok := bitwiseOps[trimScalar(method)]
	return ok
}

func trimScalar(method string) string {
	const suffix = "_scalar"
	if len(method) > len(suffix) && method[len(method)-len(suffix):] == suffix {
		return method[:len(method)-len(suffix)]
	}
	return method
}

// Bitwise applies the bitwise method: with b for the tensor forms (b
// broadcast against a), with s for the _scalar forms, alone for
// bitwise_not.
func Bitwise(method string, a, b *Tensor, s Scalar) (*Tensor, error) {
	if !a.DType.IsInt() || (b != nil && b.DType != a.DType) {
		return nil, kindError("%s of a %s tensor", method, a.DType.Kind())
	}
	if method == "bitwise_not" {
		out := newData(a.DType, a.Shape)
		for i, x := range a.I {
			out.I[i] = a.DType.wrapInt(^x)
		}
		return &Tensor{Data: *out}, nil
	}
	name := trimScalar(method)
	op, ok := bitwiseOps[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownOp, method)
	}
	if name != method {
		v := s.asInt(a.DType)
		out := newData(a.DType, a.Shape)
		for i, x := range a.I {
			out.I[i] = a.DType.wrapInt(op(x, v))
		}
		return &Tensor{Data: *out}, nil
	}
	if b == nil {
		return nil, kindError("%s without its other tensor", method)
	}
	shape, err := broadcastShape(a.Shape, b.Shape)
	if err != nil {
		return nil, err
	}
	ia, ib := broadcastIndex(a.Shape, shape), broadcastIndex(b.Shape, shape)
	out := newData(a.DType, shape)
	for i := range out.I {
		out.I[i] = a.DType.wrapInt(op(a.I[at(ia, i)], b.I[at(ib, i)]))
	}
	return &Tensor{Data: *out}, nil
}

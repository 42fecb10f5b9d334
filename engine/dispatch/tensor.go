package dispatch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Kind is a tensor's element kind, burn-tensor's BridgeKind.
type Kind int

const (
	KindFloat Kind = iota
	KindInt
	KindBool
	KindQFloat
)

var kindNames = [...]string{"Float", "Int", "Bool", "QFloat"}

func (k Kind) String() string { return kindNames[k] }

// handleName is BackendTensor::name(): the variant a plain handle prints as.
func (k Kind) handleName() string {
	if k == KindQFloat {
		return "Quantized"
	}
	return kindNames[k]
}

// opPrefix is the prefix of the Backend trait's ops for this kind.
func (k Kind) opPrefix() string {
	switch k {
	case KindInt:
		return "int"
	case KindBool:
		return "bool"
	case KindQFloat:
		return "q"
	}
	return "float"
}

// Tensor is a burn_tensor::Tensor<D, K> as dispatch looks at it: the
// DispatchTensor's kind (backend, and the Autodiff wrapper of tracked
// floats), its checkpointing option, dtype and shape, which may be as
// large as int64 allows; and, while the run's budget lasts, its values.
type Tensor struct {
	kind  Kind
	shape []int64
	dtype DType

	// on is the plain device of the backend handle; a tracked float is
	// Autodiff(<on's variant>(..)) and reports an autodiff device.
	on      *Device
	tracked bool
	// ckp is DispatchTensor::checkpointing: nil is None.
	ckp  *Strategy
	node *adNode // the autodiff graph node of a tracked float

	origin int
	handle uint64 // fusion/router TensorId
	// literal holds the elements of a tensor made from literal data, in
	// row-major order, for the few checks burn-tensor runs on values; nil
	// for every computed tensor.
	literal []float64
	// val is the tensor's elements as package tensor computes them, and
	// lazy the same not made yet (a creation op's, see tensor.Lazy); both
	// are nil when the tensor carries its shape only. Read them through
	// vals, ask hasVals.
	val  *tensor.Tensor
	lazy *tensor.Lazy
	// q is a quantized tensor's i8 values and scales (values then holds
	// them dequantized); see api_quant.go.
	q *tensor.QTensor
}

// TypeName is the Rust type: Tensor<2>, Tensor<2, Int>, Tensor<2, Bool>.
func (t *Tensor) TypeName() string {
	if t.kind == KindFloat || t.kind == KindQFloat {
		return fmt.Sprintf("Tensor<%d>", len(t.shape))
	}
	return fmt.Sprintf("Tensor<%d, %s>", len(t.shape), t.kind)
}

// WithoutValues is the tensor as the engine knows it when its values are
// not known (data whose order a seeded shuffle decides, engine/data): the
// same shape, kind, dtype, device and graph, no values.
func (t *Tensor) WithoutValues() *Tensor {
	c := *t
	c.literal, c.val, c.lazy, c.q = nil, nil, nil, nil
	return &c
}

// vals is the tensor's values, made now if they were left for later; nil
// when it carries its shape only.
func (t *Tensor) vals() *tensor.Tensor {
	if t.val == nil && t.lazy != nil {
		t.val, t.lazy = t.lazy.Force(), nil
	}
	return t.val
}

// preview is the values' preview (Data.Preview), without making values
// left for later.
func (t *Tensor) preview(max int) string {
	if t.val == nil && t.lazy != nil {
		return t.lazy.Preview(max)
	}
	return t.val.Preview(max)
}

// hasVals reports whether the tensor has values, made or not yet.
func (t *Tensor) hasVals() bool { return t.val != nil || t.lazy != nil }

// setVals gives the tensor values, dropping any left for later.
func (t *Tensor) setVals(v *tensor.Tensor) { t.val, t.lazy = v, nil }

// derive gives out from's values through f, an f that keeps them (a
// move, detach, require_grad; nil is the values as they are): now if
// from's are made, later if they are left for later.
func (out *Tensor) derive(from *Tensor, f func(*tensor.Tensor) *tensor.Tensor) {
	if f == nil {
		f = func(v *tensor.Tensor) *tensor.Tensor { return v }
	}
	switch {
	case from.val != nil:
		out.setVals(f(from.val))
	case from.lazy != nil:
		out.val, out.lazy = nil, from.lazy.Then(f)
	default:
		out.setVals(nil)
	}
}

// requireGrad is tensor.RequireGrad on values known to be a float's.
func requireGrad(v *tensor.Tensor) *tensor.Tensor {
	r, _ := v.RequireGrad()
	return r
}

// Rank is D.
func (t *Tensor) Rank() int { return len(t.shape) }

// Shape is the tensor's dims.
func (t *Tensor) Shape() []int64 { return append([]int64(nil), t.shape...) }

// KindName is "Float", "Int", "Bool" or "QFloat".
func (t *Tensor) KindName() string { return t.kind.String() }

// Kind is the element kind.
func (t *Tensor) Kind() Kind { return t.kind }

// DType is the tensor's dtype.
func (t *Tensor) DType() DType { return t.dtype }

// Tracked reports a float in an autodiff graph (DispatchTensorKind::Autodiff).
func (t *Tensor) Tracked() bool { return t.tracked }

// Origin is the call site that created the tensor.
func (t *Tensor) Origin() int { return t.origin }

// Backend is the backend variant of the handle.
func (t *Tensor) Backend() Backend { return t.on.backend }

// Device is what tensor.device() reports (DispatchTensor::device,
// crates/burn-dispatch/src/tensor.rs:421-442): the handle's device, wrapped
// in Autodiff for a tracked float; then, when the tensor carries a
// checkpointing strategy, a non-float is reported on the autodiff device
// too and the autodiff device takes that strategy. So a float gradient
// reports a plain device while an int tensor made on an autodiff device
// still reports an autodiff one after moving to a plain device.
func (t *Tensor) Device() *Device {
	d := t.on
	if d.session != nil {
		c := *d
		c.session = nil
		d = &c
	}
	if t.tracked {
		d = d.withAutodiff(Disabled)
	}
	if t.ckp != nil {
		if !t.dtype.IsFloat() && !d.autodiff {
			d = d.withAutodiff(Disabled)
		}
		if d.autodiff {
			d = d.withAutodiff(*t.ckp)
		}
	}
	return d
}

// numElements is the product of dims; ok is false when it overflows int64.
func numElements(shape []int64) (n int64, ok bool) {
	n = 1
	for _, d := range shape {
		if d != 0 && n > (1<<63-1)/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// shapeDebug is the Debug of burn's Shape (cubecl-zspace's derived
// `Shape { dims: [..] }`).
func shapeDebug(shape []int64) string { return "Shape { dims: " + dimsDebug(shape) + " }" }

func dimsDebug(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// kindDebug is the derived Debug of the tensor's DispatchTensorKind, which
// binary_op! and binary_float! print when operands sit on two backends
// (crates/burn-dispatch/src/tensor.rs:203-276). Backend primitives print
// their own Debug: Flex its FlexTensor fields, cubecl backends (fusion on
// by default) and Remote their `{ id, shape, .. }` handles. The ids are
// process-wide counters that the model numbers from zero in creation
// order; where a primitive prints its data (NdArray, LibTorch) the data is
// elided as `..`.
func (t *Tensor) kindDebug() string {
	if t.tracked {
		return "Autodiff(" + t.innerKindDebug() + ")"
	}
	return t.innerKindDebug()
}

// innerKindDebug is the kind inside the Autodiff box: what
// binary_float! prints for two tracked floats on two backends.
func (t *Tensor) innerKindDebug() string {
	var handle string
	if t.tracked {
		handle = "Autodiff(" + t.node.debug(t.primitiveDebug()) + ")"
	} else {
		handle = t.kind.handleName() + "(" + t.primitiveDebug() + ")"
	}
	return t.on.backend.String() + "(" + handle + ")"
}

func (t *Tensor) primitiveDebug() string {
	switch b := t.on.backend; {
	case b == Flex:
		// crates/burn-flex/src/tensor.rs:27-36. `unique` is the buffer's Arc
		// count; a clone is usually moved into the op that consumes it, so
		// the model prints the common case.
		return fmt.Sprintf("FlexTensor { shape: %s, dtype: %s, contiguous: true, unique: true }",
			shapeDebug(t.shape), t.dtype)
	case b.isCube():
		// burn-fusion/src/tensor.rs:47-59
		return fmt.Sprintf("{ id: TensorId { value: %d }, shape: %s, device: %s }", t.handle, shapeDebug(t.shape), t.on.payloadDebug())
	case b == Remote || b == Capture:
		// burn-router/src/tensor.rs:107-121: both are BackendRouter tensors.
		return fmt.Sprintf("{ id: TensorId { value: %d }, shape: %s, dtype: %s, device: %s }", t.handle, shapeDebug(t.shape), t.dtype, t.on.payloadDebug())
	case b == NdArray:
		return ndarrayVariant(t.dtype) + "(..)"
	case b == LibTorch:
		return fmt.Sprintf("TchTensor { tensor: Tensor[%s, %s], storage: .. }", dimsDebug(t.shape), tchKind(t.dtype))
	}
	return ""
}

func ndarrayVariant(d DType) string {
	if d.IsBool() {
		return "Bool"
	}
	return string(d)
}

func tchKind(d DType) string {
	switch d {
	case F64:
		return "Double"
	case F16:
		return "Half"
	case BF16:
		return "BFloat16"
	case I64:
		return "Int64"
	case I32:
		return "Int"
	case I16:
		return "Int16"
	case I8:
		return "Int8"
	case U8:
		return "Uint8"
	}
	if d.IsBool() {
		return "Bool"
	}
	return "Float"
}

package tensor

import "fmt"

// Tensor is a tensor's values and, for a float tensor that an autodiff
// graph tracks, its node in that graph. Operations never modify their
// inputs: a Tensor may be shared as freely as Rust clones one, and clones
// share the autodiff node, as Burn's do.
type Tensor struct {
	Data
	node *node
}

// Tracked reports a float tensor an autodiff graph records (a leaf that
// requires grad or a result computed from one): burn-autodiff's
// is_tracked.
func (t *Tensor) Tracked() bool { return t.node != nil }

// IsLeaf reports a tensor no tracked operation produced.
func (t *Tensor) IsLeaf() bool { return t.node == nil || t.node.leaf }

// RequireGrad is require_grad() on an autodiff device: an untracked tensor
// becomes a leaf whose gradient backward keeps, a leaf stays as it is, and
// a result of tracked operations is refused (Burn panics "Can't convert a
// non leaf tensor into a tracked tensor"). On a plain device Burn's
// require_grad does nothing, so the caller does not call this there.
func (t *Tensor) RequireGrad() (*Tensor, error) {
	switch {
	case !t.DType.IsFloat():
		return nil, kindError("require_grad on a %s tensor", t.DType.Kind())
	case t.node == nil:
		return &Tensor{Data: t.Data, node: &node{leaf: true, size: t.NumElements()}}, nil
	case t.node.leaf:
		return t, nil
	}
	return nil, ErrNotLeaf
}

// Detach is detach(): the same values, outside any graph.
func (t *Tensor) Detach() *Tensor { return &Tensor{Data: t.Data} }

// ToDevice is to_device: the same values on another device. Moving a
// tracked tensor is a step of the graph in burn-autodiff
// (float_to_device), so the moved tensor is no leaf: its gradient flows
// back to the original, and grad() on it finds nothing.
func (t *Tensor) ToDevice() *Tensor {
	return track(&t.Data, []*Tensor{t}, func(g *Data, _ []bool) []*Data { return []*Data{g} })
}

// IntoData is into_data() / to_data(): the values as TensorData.
func (t *Tensor) IntoData() *Data {
	d := t.Data
	return &d
}

// Zeros is Tensor::zeros(shape, (&device, dtype)).
func Zeros(shape []int, dtype DType) *Tensor { return &Tensor{Data: *newData(dtype, shape)} }

// Ones is Tensor::ones.
func Ones(shape []int, dtype DType) *Tensor { return Full(shape, dtype, IntScalar(1)) }

// Empty is Tensor::empty. Burn leaves the memory uninitialized and each
// backend shows whatever it holds; the playground shows zeros.
func Empty(shape []int, dtype DType) *Tensor { return Zeros(shape, dtype) }

// Full is Tensor::full(shape, value, device): the value converted to the
// dtype as Scalar::elem converts it.
func Full(shape []int, dtype DType, value Scalar) *Tensor {
	d := newData(dtype, shape)
	switch {
	case dtype.IsFloat():
		v := value.asFloat(dtype)
		for i := range d.F {
			d.F[i] = v
		}
	case dtype.IsInt():
		v := value.asInt(dtype)
		for i := range d.I {
			d.I[i] = v
		}
	default:
		v := value.F != 0 || value.I != 0
		for i := range d.B {
			d.B[i] = v
		}
	}
	return &Tensor{Data: *d}
}

// FromFloats builds a tensor from row-major values (the caller flattens
// nested arrays) converted to dtype: from_floats, or from_data of float
// literals.
func FromFloats(values []float64, shape []int, dtype DType) (*Tensor, error) {
	if len(values) != numel(shape) {
		return nil, shapeError("%d values for shape %v", len(values), shape)
	}
	src := &Data{DType: F64, Shape: shape, F: values}
	return &Tensor{Data: *src.Cast(dtype)}, nil
}

// FromInts builds a tensor from row-major ints: from_ints, or from_data of
// int literals.
func FromInts(values []int64, shape []int, dtype DType) (*Tensor, error) {
	if len(values) != numel(shape) {
		return nil, shapeError("%d values for shape %v", len(values), shape)
	}
	src := &Data{DType: I64, Shape: shape, I: values}
	return &Tensor{Data: *src.Cast(dtype)}, nil
}

// FromBools builds a tensor from row-major bools.
func FromBools(values []bool, shape []int, dtype DType) (*Tensor, error) {
	if len(values) != numel(shape) {
		return nil, shapeError("%d values for shape %v", len(values), shape)
	}
	src := &Data{DType: BoolNative, Shape: shape, B: values}
	return &Tensor{Data: *src.Cast(dtype)}, nil
}

// FromData is Tensor::from_data(data, device): the data converted to the
// dtype the tensor is created with.
func FromData(d *Data, dtype DType) *Tensor {
	if d.DType == dtype {
		return &Tensor{Data: *d}
	}
	return &Tensor{Data: *d.Cast(dtype)}
}

// Arange is Tensor::arange(start..end) and arange_step(start..end, step):
// start, start+step, ... below end.
func Arange(start, end, step int64, dtype DType) (*Tensor, error) {
	if step <= 0 {
		return nil, shapeError("arange step %d", step)
	}
	n := 0
	if end > start {
		n = int((end - start + step - 1) / step)
	}
	values := make([]int64, n)
	for i := range values {
		values[i] = start + int64(i)*step
	}
	return FromInts(values, []int{n}, dtype)
}

// String summarises a tensor for test failures and debugging; Display is
// what Rust prints.
func (t *Tensor) String() string {
	return fmt.Sprintf("Tensor%v %s %s", t.Shape, t.DType, t.Preview(PreviewElements))
}

package dispatch

import (
	"fmt"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// ShapeValue is burn's Shape, as tensor.shape() returns it.
type ShapeValue struct{ dims []int64 }

// TensorData is burn's TensorData: its shape and dtype, and its values
// when the tensor it was read from had them.
type TensorData struct {
	shape []int64
	dtype DType
	// values are the elements; nil when the tensor read carried its
	// shape only.
	values *tensor.Data
	// q is quantized data's values and scales (values then holds the i8
	// values); see api_quant.go.
	q *tensor.QTensor
}

func (*ShapeValue) TypeName() string { return "Shape" }
func (*TensorData) TypeName() string { return "TensorData" }

// Dims is the shape's dims.
func (s *ShapeValue) Dims() []int64 { return append([]int64(nil), s.dims...) }

func (w *World) shapeFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "new" && name != "from" {
		return nil, errUnknownFunction("struct `Shape`", name), nil
	}
	a := argList{c: c}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	// A Shape holds any dims; only counting its elements can overflow.
	arr, ok := a.get(0).(*Array)
	if !ok {
		return nil, errArgType(1, "[usize; D]", c.Args[0]), nil
	}
	dims := make([]int64, len(arr.Elems))
	for i, e := range arr.Elems {
		n, ok := Deref(e).(Int)
		if !ok || n.V < 0 {
			return nil, errArgType(1, "[usize; D]", c.Args[0]), nil
		}
		dims[i] = n.V
	}
	return &ShapeValue{dims: dims}, nil, nil
}

func (w *World) shapeMethod(s *ShapeValue, c Call) (Value, *UsageError, *Panic) {
	switch c.Method {
	case "num_elements":
		n, ok := numElements(s.dims)
		if !ok {
			// The product of the dims in a usize overflows, which a debug
			// build checks; the site is inside Burn's shape code, so the
			// playground names no location.
			return nil, nil, newPanic("shape-overflow", "", "attempt to multiply with overflow").on(0)
		}
		return Int{V: n, Suffix: "usize"}, nil, nil
	case "num_dims", "rank", "len":
		return Int{V: int64(len(s.dims)), Suffix: "usize"}, nil, nil
	case "dims", "to_vec", "as_slice":
		elems := make([]Value, len(s.dims))
		for i, d := range s.dims {
			elems[i] = Int{V: d, Suffix: "usize"}
		}
		return &Array{Elems: elems, Vec: c.Method == "to_vec"}, nil, nil
	case "clone":
		return &ShapeValue{dims: s.Dims()}, nil, nil
	case "eq", "ne":
		if len(c.Args) == 1 {
			if o, ok := Deref(c.Args[0]).(*ShapeValue); ok {
				return Bool(dimsDebug(s.dims) == dimsDebug(o.dims) == (c.Method == "eq")), nil, nil
			}
		}
	}
	return nil, errUnknownMethod("struct `Shape`", c.Method), nil
}

// tensorDataFunction is TensorData::from(array) and
// TensorData::new(values, shape).
func (w *World) tensorDataFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if v, ue, p, ok := w.dataMethodPath(name, c); ok {
		return v, ue, p
	}
	a := argList{c: c}
	switch name {
	case "from":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		shape, ue := dataShape(a.get(0))
		if ue != nil {
			ue.Arg = 1
			return nil, ue, nil
		}
		dtype := literalDType(a.get(0))
		return &TensorData{shape: shape, dtype: dtype, values: literalData(a.get(0), shape, dtype)}, nil, nil
	case "new":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		shape, ue := shapeArg(a, 1)
		if ue != nil {
			return nil, ue, nil
		}
		dtype := literalDType(a.get(0))
		if dt, ok := turbofishElement(c); ok {
			// TensorData::new::<E, _>(Vec<E>, shape) (burn-std
			// data/tensor/base.rs:131): the turbofish types the values.
			dtype = dt
		}
		if vec, isVec := a.get(0).(*Array); isVec {
			// check_data_len (base.rs:183-190): the values fill the shape.
			if n, ok := numElements(shape); ok && n != int64(len(vec.Elems)) {
				return nil, nil, dataLenPanic(shape, n, len(vec.Elems)).on(0)
			}
		}
		return &TensorData{shape: shape, dtype: dtype, values: literalData(a.get(0), shape, dtype)}, nil, nil
	case "quantized":
		return w.tensorDataQuantized(c)
	case "zeros", "ones", "full":
		return w.dataFilled(name, c)
	case "random":
		return nil, errUnsupported("TensorData::" + name), nil
	}
	return nil, errUnknownFunction("struct `TensorData`", name), nil
}

// literalDType is the element type of literal data: a suffix when given,
// else what Rust's literals default to, f64 for floats and i32 for ints
// (TensorData::from([1.0, 2.0]) holds f64, which the derived PartialEq
// and a strict assert_eq tell apart from a tensor's f32 data), and bool.
// An array has one element type, which any of its elements may fix:
// [0.elem(), f32::MIN] is f32 data, an element's suffix winning over an
// unsuffixed literal and a float over an int.
func literalDType(v Value) DType {
	var first, suffixed, float Value
	var walk func(v Value)
	walk = func(v Value) {
		if suffixed != nil {
			return
		}
		switch x := Deref(v).(type) {
		case *Array:
			for _, e := range x.Elems {
				walk(e)
			}
			return
		case Float:
			if float == nil {
				float = x
			}
			if x.Suffix != "" {
				suffixed = x
			}
		case Int:
			if x.Suffix != "" {
				suffixed = x
			}
		}
		if first == nil {
			first = Deref(v)
		}
	}
	walk(v)
	v = first
	if suffixed != nil {
		v = suffixed
	} else if float != nil {
		v = float
	}
	switch x := v.(type) {
	case Float:
		if x.Suffix == "f32" {
			return F32
		}
		return F64
	case Int:
		if d, ok := dtypeVariants[upperASCII(x.Suffix)]; ok {
			return d
		}
		return I32
	case Bool:
		return "Bool(Native)"
	}
	return F32
}

// maxLiteralValues bounds the values a tensor keeps from its literal data.
const maxLiteralValues = 1 << 16

// literalValues flattens nested literal arrays of numbers and bools, nil
// when the data is not all literals or too large.
func literalValues(v Value) []float64 {
	var out []float64
	var walk func(v Value) bool
	walk = func(v Value) bool {
		switch x := Deref(v).(type) {
		case *Array:
			for _, e := range x.Elems {
				if !walk(e) {
					return false
				}
			}
			return true
		case Int:
			out = append(out, float64(x.V))
		case Float:
			out = append(out, x.V)
		case Bool:
			out = append(out, map[Bool]float64{false: 0, true: 1}[x])
		default:
			return false
		}
		return len(out) <= maxLiteralValues
	}
	if !walk(v) {
		return nil
	}
	return out
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func (w *World) tensorDataMethod(d *TensorData, c Call) (Value, *UsageError, *Panic) {
	if v, ue, p, ok := w.qDataMethod(d, c); ok {
		return v, ue, p
	}
	if v, ue, p, ok := w.dataMethod(d, c); ok {
		return v, ue, p
	}
	if c.Method == "iter" {
		return dataIter(d, c)
	}
	switch c.Method {
	case "clone":
		return d, nil, nil
	case "num_elements":
		n, _ := numElements(d.shape)
		return Int{V: n, Suffix: "usize"}, nil, nil
	}
	return nil, errUnknownMethod("struct `TensorData`", c.Method), nil
}

// dataLenPanic is TensorData's check_data_len failing (burn-std
// data/tensor/base.rs:183-190): n elements in shape, got values given.
func dataLenPanic(shape []int64, n int64, got int) *Panic {
	return newPanic("std-data-len", "crates/burn-std/src/data/tensor/base.rs:188",
		fmt.Sprintf("assertion `left == right` failed: Shape %s is invalid for input of size %d\n  left: %d\n right: %d",
			shapeDebug(shape), got, n, got))
}

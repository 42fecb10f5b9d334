package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Data is a tensor's values in row-major order: burn_std::TensorData with
// its elements decoded. Exactly one of F, I and B holds the elements,
// chosen by the dtype's kind:
//   - F for float dtypes, each value already rounded to the dtype;
//   - I for int dtypes, each value wrapped to the dtype's width (U64 as
//     its bit pattern);
//   - B for the bool stores.
//
// Data is never modified after an operation returns it, so tensors may
// share it.
type Data struct {
	DType DType
	Shape []int
	F     []float64
	I     []int64
	B     []bool
}

// Scalar is burn_std::Scalar as the operations take it: a float, or an int
// when IsInt is set.
type Scalar struct {
	F     float64
	I     int64
	IsInt bool
}

// FloatScalar is Scalar::Float(f).
func FloatScalar(f float64) Scalar { return Scalar{F: f} }

// IntScalar is Scalar::Int(i).
func IntScalar(i int64) Scalar { return Scalar{I: i, IsInt: true} }

// asFloat is the scalar as the float dtype holds it (Scalar::elem).
func (s Scalar) asFloat(d DType) float64 {
	if s.IsInt {
		return d.roundFloat(float64(s.I))
	}
	return d.roundFloat(s.F)
}

// asInt is the scalar as the int dtype holds it: a float converts as
// Rust's `as` does.
func (s Scalar) asInt(d DType) int64 {
	if s.IsInt {
		return d.wrapInt(s.I)
	}
	return d.floatToInt(s.F)
}

// integer is Scalar::try_as_integer: a float without a fractional part
// counts as an int.
func (s Scalar) integer() (int64, bool) {
	if s.IsInt {
		return s.I, true
	}
	if math.Floor(s.F) == s.F && !math.IsInf(s.F, 0) {
		return int64(s.F), true
	}
	return 0, false
}

// NumElements is the product of the dims.
func (d *Data) NumElements() int { return numel(d.Shape) }

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// Float reads element i of any kind as a float64 (bools as 0 and 1).
func (d *Data) Float(i int) float64 {
	switch {
	case d.DType.IsFloat():
		return d.F[i]
	case d.DType.IsInt():
		return d.DType.intToFloat(d.I[i])
	}
	if d.B[i] {
		return 1
	}
	return 0
}

// Int reads element i of any kind as an int64: floats truncate as Rust's
// `as i64` does, bools are 0 and 1.
func (d *Data) Int(i int) int64 {
	switch {
	case d.DType.IsFloat():
		return I64.floatToInt(d.F[i])
	case d.DType.IsInt():
		return d.I[i]
	}
	if d.B[i] {
		return 1
	}
	return 0
}

// Bool reads element i of any kind as a bool: non-zero is true.
func (d *Data) Bool(i int) bool {
	switch {
	case d.DType.IsFloat():
		return d.F[i] != 0
	case d.DType.IsInt():
		return d.I[i] != 0
	}
	return d.B[i]
}

// newData allocates zeroed storage for a dtype and shape.
func newData(dtype DType, shape []int) *Data {
	n := numel(shape)
	d := &Data{DType: dtype, Shape: append([]int(nil), shape...)}
	switch {
	case dtype.IsFloat():
		d.F = make([]float64, n)
	case dtype.IsInt():
		d.I = make([]int64, n)
	default:
		d.B = make([]bool, n)
	}
	return d
}

// Cast converts the values to another dtype, as TensorData::convert_dtype
// and the backends' casts do: float to int truncates and saturates, a bool
// is 0 or 1, anything non-zero is a true bool.
func (d *Data) Cast(to DType) *Data {
	out := newData(to, d.Shape)
	n := d.NumElements()
	switch {
	case to.IsFloat():
		for i := range n {
			out.F[i] = to.roundFloat(d.Float(i))
		}
	case to.IsInt():
		for i := range n {
			if d.DType.IsFloat() {
				out.I[i] = to.floatToInt(d.F[i])
			} else {
				out.I[i] = to.wrapInt(d.Int(i))
			}
		}
	default:
		for i := range n {
			out.B[i] = d.Bool(i)
		}
	}
	return out
}

// Bytes is the little-endian byte buffer TensorData holds for these
// values.
func (d *Data) Bytes() []byte {
	n := d.NumElements()
	size := d.DType.Size()
	buf := make([]byte, n*size)
	for i := range n {
		b := buf[i*size : (i+1)*size]
		switch d.DType {
		case F64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(d.F[i]))
		case F32, Flex32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(d.F[i])))
		case F16:
			binary.LittleEndian.PutUint16(b, f16Bits(d.F[i]))
		case BF16:
			binary.LittleEndian.PutUint16(b, bf16Bits(d.F[i]))
		case I64, U64:
			binary.LittleEndian.PutUint64(b, uint64(d.I[i]))
		case I32, U32:
			binary.LittleEndian.PutUint32(b, uint32(d.I[i]))
		case I16, U16:
			binary.LittleEndian.PutUint16(b, uint16(d.I[i]))
		case I8, U8:
			b[0] = byte(d.I[i])
		case BoolU32:
			if d.B[i] {
				binary.LittleEndian.PutUint32(b, 1)
			}
		default:
			if d.B[i] {
				b[0] = 1
			}
		}
	}
	return buf
}

// Equal is TensorData's derived PartialEq, which `assert_eq!` on two
// TensorData uses: same bytes, shape and dtype. Comparing bytes makes a
// NaN equal to the same NaN and 0.0 unequal to -0.0.
func (d *Data) Equal(other *Data) bool {
	if d.DType != other.DType || !sameShape(d.Shape, other.Shape) {
		return false
	}
	a, b := d.Bytes(), other.Bytes()
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// DataError is burn_std::DataError::DTypeMismatch, what to_vec and
// into_vec return when the element type is not the data's dtype.
type DataError struct {
	Expected, Actual DType
}

// Error is the thiserror Display.
func (e *DataError) Error() string {
	return fmt.Sprintf("Expected data type %s, but got %s", e.Expected, e.Actual)
}

// Debug is the derived Debug, which `.unwrap()` prints after
// "called `Result::unwrap()` on an `Err` value: ".
func (e *DataError) Debug() string {
	return fmt.Sprintf("DTypeMismatch { expected: %s, actual: %s }", e.Expected, e.Actual)
}

// ToVec is TensorData::to_vec::<E>() (and into_vec, try_to_vec): the
// values when elem is the data's dtype, else a DTypeMismatch. A
// Bool(U8)/Bool(U32) store also reads as u8/u32, as matches_target_dtype
// allows. The caller reads the elements through F, I or B of the result.
func (d *Data) ToVec(elem DType) (*Data, error) {
	ok := elem == d.DType ||
		(d.DType == BoolU8 && elem == U8) || (d.DType == BoolU32 && elem == U32)
	if !ok {
		return nil, &DataError{Expected: elem, Actual: d.DType}
	}
	if elem == d.DType {
		return d, nil
	}
	return d.Cast(elem), nil
}

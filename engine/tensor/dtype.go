package tensor

import (
	"math"
)

// DType is burn_std::DType without the quantized variants.
type DType uint8

const (
	F64 DType = iota
	F32
	Flex32
	F16
	BF16
	I64
	I32
	I16
	I8
	U64
	U32
	U16
	U8
	// The three bool stores: how many bytes a bool takes in the backend's
	// buffers. They print differently in TensorData's Display.
	BoolNative
	BoolU8
	BoolU32
)

var dtypeDebug = [...]string{
	F64: "F64", F32: "F32", Flex32: "Flex32", F16: "F16", BF16: "BF16",
	I64: "I64", I32: "I32", I16: "I16", I8: "I8",
	U64: "U64", U32: "U32", U16: "U16", U8: "U8",
	BoolNative: "Bool(Native)", BoolU8: "Bool(U8)", BoolU32: "Bool(U32)",
}

// dtypeNames are DType::name() (crates/burn-std/src/tensor/dtype.rs).
var dtypeNames = [...]string{
	F64: "f64", F32: "f32", Flex32: "flex32", F16: "f16", BF16: "bf16",
	I64: "i64", I32: "i32", I16: "i16", I8: "i8",
	U64: "u64", U32: "u32", U16: "u16", U8: "u8",
	BoolNative: "bool", BoolU8: "bool(u8)", BoolU32: "bool(u32)",
}

// ParseDType reads a dtype from its Rust Debug text ("F32", "Bool(U8)"),
// the form package dispatch holds dtypes in.
func ParseDType(debug string) (DType, bool) {
	for d, s := range dtypeDebug {
		if s == debug {
			return DType(d), true
		}
	}
	return 0, false
}

// String is the dtype's Rust Debug text.
func (d DType) String() string {
	if int(d) < len(dtypeDebug) {
		return dtypeDebug[d]
	}
	return "DType(?)"
}

// Name is DType::name(), the text Tensor's Display prints after `dtype:`.
func (d DType) Name() string {
	if int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return "?"
}

// IsFloat is DType::is_float.
func (d DType) IsFloat() bool { return d <= BF16 }

// IsInt reports the signed and unsigned integer dtypes.
func (d DType) IsInt() bool { return d >= I64 && d <= U8 }

// unsigned reports U64, U32, U16 and U8.
func (d DType) unsigned() bool { return d >= U64 && d <= U8 }

// IsBool reports the three bool stores.
func (d DType) IsBool() bool { return d >= BoolNative && d <= BoolU32 }

// Kind is the tensor kind a dtype belongs to: "Float", "Int" or "Bool",
// as burn-tensor's Kind::as_str prints it.
func (d DType) Kind() string {
	switch {
	case d.IsFloat():
		return "Float"
	case d.IsInt():
		return "Int"
	}
	return "Bool"
}

// Size is DType::size in bytes.
func (d DType) Size() int {
	switch d {
	case F64, I64, U64:
		return 8
	case F32, Flex32, I32, U32, BoolU32:
		return 4
	case F16, BF16, I16, U16:
		return 2
	}
	return 1
}

// roundFloat rounds x to the nearest value the float dtype holds, ties to
// even, as a backend computing in that dtype stores every result.
func (d DType) roundFloat(x float64) float64 {
	switch d {
	case F32, Flex32:
		return float64(float32(x))
	case F16:
		return roundBinary(x, 10, -14, 15)
	case BF16:
		return roundBinary(x, 7, -126, 127)
	}
	return x
}

// roundBinary rounds x to a binary format with mant stored mantissa bits
// and exponents emin..emax (subnormals below emin), ties to even.
func roundBinary(x float64, mant, emin, emax int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, exp := math.Frexp(x)
	e := max(exp-1, emin)
	quantum := math.Ldexp(1, e-mant)
	r := math.RoundToEven(x/quantum) * quantum
	if math.Abs(r) >= math.Ldexp(1, emax+1) {
		return math.Inf(int(math.Copysign(1, x)))
	}
	return r
}

// wrapInt keeps the low bits of v that the int dtype holds, as Rust's
// wrapping arithmetic does in release builds. U64 values live in int64 as
// their bit pattern.
func (d DType) wrapInt(v int64) int64 {
	switch d {
	case I32:
		return int64(int32(v))
	case I16:
		return int64(int16(v))
	case I8:
		return int64(int8(v))
	case U32:
		return int64(uint32(v))
	case U16:
		return int64(uint16(v))
	case U8:
		return int64(uint8(v))
	}
	return v
}

// intRange is the closed range of values the int dtype holds, as float64,
// for saturating casts. U64 tops out at 2^64-1.
func (d DType) intRange() (lo, hi float64) {
	switch d {
	case I32:
		return math.MinInt32, math.MaxInt32
	case I16:
		return math.MinInt16, math.MaxInt16
	case I8:
		return math.MinInt8, math.MaxInt8
	case U64:
		return 0, math.MaxUint64
	case U32:
		return 0, math.MaxUint32
	case U16:
		return 0, math.MaxUint16
	case U8:
		return 0, math.MaxUint8
	}
	return math.MinInt64, math.MaxInt64
}

// floatToInt is Rust's `as` cast from a float to the int dtype: it
// truncates toward zero, saturates at the dtype's bounds and maps NaN to 0.
func (d DType) floatToInt(x float64) int64 {
	if math.IsNaN(x) {
		return 0
	}
	lo, hi := d.intRange()
	x = math.Trunc(x)
	switch {
	case x <= lo:
		x = lo
	case x >= hi:
		if d == U64 {
			return -1 // all bits set: u64::MAX
		}
		if d == I64 {
			return math.MaxInt64
		}
		x = hi
	}
	if d == U64 {
		return int64(uint64(x))
	}
	return int64(x)
}

// intToFloat is the exact value of a stored int of dtype d.
func (d DType) intToFloat(v int64) float64 {
	if d == U64 {
		return float64(uint64(v))
	}
	return float64(v)
}

// f16Bits is the IEEE binary16 encoding of x, which must already be
// rounded to f16.
func f16Bits(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
	}
	switch {
	case math.IsNaN(x):
		return 0x7E00
	case math.IsInf(x, 0):
		return sign | 0x7C00
	case x == 0:
		return sign
	}
	a := math.Abs(x)
	_, exp := math.Frexp(a)
	e := exp - 1
	if e < -14 {
		return sign | uint16(a/math.Ldexp(1, -24))
	}
	mantissa := uint16((a/math.Ldexp(1, e) - 1) * 1024)
	return sign | uint16(e+15)<<10 | mantissa
}

// bf16Bits is the bfloat16 encoding of x, which must already be rounded
// to bf16: the high half of its f32 encoding.
func bf16Bits(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7FC0
	}
	return uint16(math.Float32bits(float32(x)) >> 16)
}

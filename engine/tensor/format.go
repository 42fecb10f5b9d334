package tensor

import (
	"math"
	"strconv"
	"strings"
)

// Rust's formatting of numbers (library/core/src/fmt/float.rs): what `{}`,
// `{:?}`, `{:.N}` and `{:+.Ne}` print for f32 and f64. f16 and bf16 print
// through f32, as the half crate's Display and Debug forward to to_f32().
// bits is 32 or 64: the shortest digits that round-trip depend on it.

// floatBits is how many bits the dtype's values print with.
func floatBits(d DType) int {
	if d == F64 {
		return 64
	}
	return 32
}

// DebugFloat is `{:?}` of an f32 (bits 32) or f64: the shortest
// round-trip digits with at least one fractional digit, or the shortest
// exponential form when the magnitude is below 1e-4 or at least 1e16.
func DebugFloat(x float64, bits int) string {
	if s, ok := nonFinite(x); ok {
		return s
	}
	if x != 0 && useExponent(math.Abs(x), bits) {
		return rustExponent(strconv.FormatFloat(x, 'e', -1, bits), false)
	}
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// useExponent compares in the value's own type: 1e-4 and 1e16 are not
// exact in f32, and Rust compares against the f32 constants.
func useExponent(abs float64, bits int) bool {
	if bits == 32 {
		a := float32(abs)
		return a < float32(1e-4) || a >= float32(1e16)
	}
	return abs < 1e-4 || abs >= 1e16
}

// DisplayFloat is `{}` of an f32 or f64: the shortest round-trip digits,
// never an exponent and no forced fraction ("1", "0.1", "-0").
func DisplayFloat(x float64, bits int) string {
	if s, ok := nonFinite(x); ok {
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, bits)
}

// FixedFloat is `{:.N}` (and `{:.N?}`): exactly prec fractional digits of
// the exact binary value, ties to even.
func FixedFloat(x float64, bits, prec int) string {
	if s, ok := nonFinite(x); ok {
		return s
	}
	return strconv.FormatFloat(x, 'f', prec, bits)
}

// ExpFloat is `{:.Ne}`, or `{:+.Ne}` with plus: a mantissa with prec
// fractional digits and Rust's bare exponent ("1.00e-2", "+5.00e-3").
func ExpFloat(x float64, bits, prec int, plus bool) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			if plus {
				return "+inf"
			}
			return "inf"
		}
		return "-inf"
	}
	return rustExponent(strconv.FormatFloat(x, 'e', prec, bits), plus)
}

// rustExponent rewrites Go's "1.5e+07" / "1e-05" as Rust's "1.5e7" /
// "1e-5", with a leading '+' on non-negative values when plus is set.
func rustExponent(s string, plus bool) string {
	mantissa, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	if plus && !strings.HasPrefix(mantissa, "-") {
		mantissa = "+" + mantissa
	}
	return mantissa + "e" + strconv.Itoa(e)
}

func nonFinite(x float64) (string, bool) {
	switch {
	case math.IsNaN(x):
		return "NaN", true
	case math.IsInf(x, 1):
		return "inf", true
	case math.IsInf(x, -1):
		return "-inf", true
	}
	return "", false
}

// elemDebug is `{:?}` of element i, as the element type of the dtype
// prints it.
func (d *Data) elemDebug(i int) string {
	switch {
	case d.DType.IsFloat():
		return DebugFloat(d.F[i], floatBits(d.DType))
	case d.DType.IsInt():
		return d.intText(i)
	case d.DType == BoolNative:
		return strconv.FormatBool(d.B[i])
	}
	// Bool(U8) and Bool(U32) stores hold 0 and 1.
	if d.B[i] {
		return "1"
	}
	return "0"
}

// elemDisplay is `{}` of element i.
func (d *Data) elemDisplay(i int) string {
	if d.DType.IsFloat() {
		return DisplayFloat(d.F[i], floatBits(d.DType))
	}
	return d.elemDebug(i)
}

func (d *Data) intText(i int) string {
	if d.DType == U64 {
		return strconv.FormatUint(uint64(d.I[i]), 10)
	}
	return strconv.FormatInt(d.I[i], 10)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// dimsDebug is `{:?}` of a dims list, as Shape's Display prints it.
func dimsDebug(dims []int) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// debugStr is `{:?}` of a plain ASCII str: quoted.
func debugStr(s string) string { return strconv.Quote(s) }

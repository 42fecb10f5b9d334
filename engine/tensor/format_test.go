package tensor

import (
	"math"
	"testing"
)

// What rustc 1.9x prints for these values.
func TestRustFloatFormatting(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{DebugFloat(1, 32), "1.0"},
		{DebugFloat(0, 64), "0.0"},
		{DebugFloat(math.Copysign(0, -1), 32), "-0.0"},
		{DebugFloat(float64(float32(0.1)), 32), "0.1"},
		{DebugFloat(float64(float32(1.0/3)), 32), "0.33333334"},
		{DebugFloat(1.0/3, 64), "0.3333333333333333"},
		{DebugFloat(float64(float32(123456789)), 32), "123456790.0"},
		{DebugFloat(1e15, 64), "1000000000000000.0"},
		{DebugFloat(1e16, 64), "1e16"},
		{DebugFloat(1.5e16, 64), "1.5e16"},
		{DebugFloat(-2.5e-7, 64), "-2.5e-7"},
		{DebugFloat(1e-5, 64), "1e-5"},
		{DebugFloat(0.0001, 64), "0.0001"},
		// 1e-4 rounded to f32 is the f32 constant 1e-4: not below it.
		{DebugFloat(float64(float32(1e-4)), 32), "0.0001"},
		{DebugFloat(math.NaN(), 64), "NaN"},
		{DebugFloat(math.Inf(1), 32), "inf"},
		{DebugFloat(math.Inf(-1), 32), "-inf"},
		{DisplayFloat(1, 32), "1"},
		{DisplayFloat(math.Copysign(0, -1), 64), "-0"},
		{DisplayFloat(1e20, 64), "100000000000000000000"},
		{DisplayFloat(1e-7, 64), "0.0000001"},
		{DisplayFloat(float64(float32(0.1)), 32), "0.1"},
		{FixedFloat(0.125, 64, 2), "0.12"},
		{FixedFloat(0.375, 64, 2), "0.38"},
		{FixedFloat(2.5, 64, 0), "2"},
		{FixedFloat(3.5, 64, 0), "4"},
		{FixedFloat(float64(float32(0.1)), 32, 10), "0.1000000015"},
		{ExpFloat(0.01, 64, 2, true), "+1.00e-2"},
		{ExpFloat(float64(float32(0.005)), 64, 2, true), "+5.00e-3"},
		{ExpFloat(0, 64, 2, true), "+0.00e0"},
		{ExpFloat(-123.456, 64, 2, true), "-1.23e2"},
		{ExpFloat(math.Inf(1), 64, 2, true), "+inf"},
		{ExpFloat(math.NaN(), 64, 2, true), "NaN"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}

func TestRoundingToDTypes(t *testing.T) {
	cases := []struct {
		d    DType
		in   float64
		want float64
	}{
		{F32, 0.1, float64(float32(0.1))},
		{F16, 0.1, 0.0999755859375},
		{F16, 65504, 65504},
		{F16, 65519, 65504},       // below the halfway point to 2^16
		{F16, 65520, math.Inf(1)}, // the tie rounds to even: overflow
		{F16, 1 + 0x1p-11, 1},     // a tie between 1 and 1+2^-10 goes to 1
		{F16, 0x1p-25, 0},         // half the smallest subnormal ties to 0
		{F16, 0x1p-24 * 1.5, 0x1p-23},
		{BF16, 0.1, 0.10009765625},
		{BF16, 1 + 0x1p-8, 1},
		{F64, 0.1, 0.1},
	}
	for _, c := range cases {
		if got := c.d.roundFloat(c.in); got != c.want {
			t.Errorf("%s(%v) = %v, want %v", c.d, c.in, got, c.want)
		}
	}
	if f16Bits(12.5) != 0x4A40 || f16Bits(-2) != 0xC000 || f16Bits(0x1p-24) != 0x0001 || f16Bits(65504) != 0x7BFF {
		t.Error("f16 encodings")
	}
	if bf16Bits(1) != 0x3F80 {
		t.Error("bf16 encoding of 1")
	}
}

func TestIntDTypes(t *testing.T) {
	if I8.wrapInt(200) != -56 || U8.wrapInt(-1) != 255 || I32.wrapInt(1<<31) != math.MinInt32 {
		t.Error("wrapping")
	}
	cases := []struct {
		d    DType
		in   float64
		want int64
	}{
		{I32, 2.9, 2}, {I32, -2.9, -2}, {I32, 1e20, math.MaxInt32}, {I32, math.NaN(), 0},
		{U8, -5, 0}, {U8, 300, 255}, {I64, 1e30, math.MaxInt64}, {U64, 1e30, -1},
	}
	for _, c := range cases {
		if got := c.d.floatToInt(c.in); got != c.want {
			t.Errorf("%v as %s = %d, want %d", c.in, c.d, got, c.want)
		}
	}
	for _, s := range []string{"F32", "Bool(U8)", "Flex32", "U16"} {
		d, ok := ParseDType(s)
		if !ok || d.String() != s {
			t.Errorf("ParseDType(%q) = %v, %v", s, d, ok)
		}
	}
	if _, ok := ParseDType("QFloat"); ok {
		t.Error("quantized dtypes hold no values here")
	}
	if BoolU8.Name() != "bool(u8)" || Flex32.Name() != "flex32" || !Flex32.IsFloat() || U8.IsFloat() {
		t.Error("names and kinds")
	}
}

package rstd

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

// testCaller calls Go functions standing for closures and counts steps.
type testCaller struct {
	steps int
	limit int
}

type goFn func(args []Value) Value

func (goFn) TypeName() string { return "closure" }

var errBudget = errors.New("budget")

func (c *testCaller) Call(fn Value, args []Value) (Value, error) {
	if f, ok := fn.(goFn); ok {
		return f(args), nil
	}
	return dispatch.Unknown{}, nil // the evaluator's answer for what it cannot call
}
func (c *testCaller) Step() error {
	c.steps++
	if c.limit > 0 && c.steps > c.limit {
		return errBudget
	}
	return nil
}

func i32(v int64) Value             { return dispatch.Int{V: v} }
func typed(v int64, s string) Value { return dispatch.Int{V: v, Suffix: s} }

func method(t *testing.T, c Caller, recv Value, name string, args ...Value) Value {
	t.Helper()
	v, handled, err := Method(c, Call{Recv: recv, Name: name, Args: args})
	if !handled || err != nil {
		t.Fatalf("%s.%s: handled %v, err %v", Debug(recv), name, handled, err)
	}
	return v
}

func TestIntOverflowPanics(t *testing.T) {
	max := func(s string) Value { v, _ := IntConst(s, "MAX"); return v }
	min := func(s string) Value { v, _ := IntConst(s, "MIN"); return v }
	cases := []struct {
		op     string
		x, y   Value
		suffix string
		want   string // the result's Display, or the panic
	}{
		{"+", typed(2147483647, "i32"), typed(1, "i32"), "i32", "attempt to add with overflow"},
		{"+", i32(2147483647), i32(1), "", "2147483648"}, // no type named: i64's range
		{"*", i32(1 << 32), i32(1 << 32), "", "attempt to multiply with overflow"},
		{"+", i32(2147483646), i32(1), "", "2147483647"},
		{"-", typed(0, "u32"), typed(1, "u32"), "u32", "attempt to subtract with overflow"},
		{"*", typed(200, "u8"), typed(2, "u8"), "u8", "attempt to multiply with overflow"},
		{"*", typed(100, "u8"), typed(2, "u8"), "u8", "200"},
		{"/", i32(1), i32(0), "", "attempt to divide by zero"},
		{"%", i32(1), i32(0), "", "attempt to calculate the remainder with a divisor of zero"},
		{"/", min("i32"), i32(-1), "i32", "attempt to divide with overflow"},
		{"<<", typed(1, "i32"), i32(32), "i32", "attempt to shift left with overflow"},
		{"<<", typed(1, "i32"), i32(31), "i32", "-2147483648"},
		{"<<", i32(1), i32(64), "", "attempt to shift left with overflow"},
		{">>", typed(8, "u8"), i32(8), "u8", "attempt to shift right with overflow"},
		{"+", max("u64"), typed(0, "u64"), "u64", "18446744073709551615"},
		{"+", max("u64"), typed(1, "u64"), "u64", "attempt to add with overflow"},
		{"-", max("u64"), typed(1, "u64"), "u64", "18446744073709551614"},
		{"*", max("i64"), typed(2, "i128"), "i128", "18446744073709551614"},
		{"+", max("i128"), typed(1, "i128"), "i128", "attempt to add with overflow"},
		{"+", max("u128"), typed(0, "u128"), "u128", "340282366920938463463374607431768211455"},
		{"<", max("u64"), typed(1, "u64"), "u64", "false"},
		{"-", typed(-128, "i8"), typed(1, "i8"), "i8", "attempt to subtract with overflow"},
	}
	for _, c := range cases {
		v, ok, err := IntBinary(c.op, c.x, c.y, c.suffix)
		got := ""
		if err != nil {
			got = err.Error()
		} else if ok {
			got = Display(v)
		}
		if got != c.want {
			t.Errorf("%s %s %s (%s) = %q, want %q", Display(c.x), c.op, Display(c.y), c.suffix, got, c.want)
		}
	}
	if _, err := Neg(min("i32")); err == nil || err.Error() != "attempt to negate with overflow" {
		t.Errorf("-i32::MIN: %v", err)
	}
}

func TestIntMethods(t *testing.T) {
	c := &testCaller{}
	cases := []struct {
		recv Value
		name string
		args []Value
		want string // Debug of the result, or the panic
	}{
		{typed(250, "u8"), "checked_add", []Value{typed(10, "u8")}, "None"},
		{typed(250, "u8"), "checked_add", []Value{typed(5, "u8")}, "Some(255)"},
		{typed(250, "u8"), "wrapping_add", []Value{typed(10, "u8")}, "4"},
		{typed(250, "u8"), "saturating_add", []Value{typed(10, "u8")}, "255"},
		{typed(250, "u8"), "overflowing_add", []Value{typed(10, "u8")}, "(4, true)"},
		{typed(-128, "i8"), "wrapping_neg", nil, "-128"},
		{typed(-128, "i8"), "checked_abs", nil, "None"},
		{typed(5, "i32"), "checked_div", []Value{typed(0, "i32")}, "None"},
		{typed(0, "u32"), "wrapping_sub", []Value{typed(1, "u32")}, "4294967295"},
		{typed(-5, "i32"), "saturating_mul", []Value{typed(1<<30, "i32")}, "-2147483648"},
		{typed(2, "i32"), "pow", []Value{typed(10, "u32")}, "1024"},
		{typed(2, "i32"), "pow", []Value{typed(31, "u32")}, "attempt to multiply with overflow"},
		{typed(3, "i64"), "pow", []Value{typed(1_000_000_000_000_000_000, "u32")}, "attempt to multiply with overflow"},
		{typed(2, "u64"), "checked_pow", []Value{typed(64, "u32")}, "None"},
		{typed(-7, "i32"), "abs", nil, "7"},
		{typed(-2147483648, "i32"), "abs", nil, "attempt to negate with overflow"},
		{typed(-7, "i32"), "rem_euclid", []Value{typed(3, "i32")}, "2"},
		{typed(-7, "i32"), "div_euclid", []Value{typed(3, "i32")}, "-3"},
		{typed(0b1011, "u8"), "count_ones", nil, "3"},
		{typed(1, "u32"), "leading_zeros", nil, "31"},
		{typed(8, "u16"), "trailing_zeros", nil, "3"},
		{typed(-1, "i16"), "count_ones", nil, "16"},
		{typed(64, "u32"), "is_power_of_two", nil, "true"},
		{typed(3, "i32"), "min", []Value{typed(1, "i32")}, "1"},
		{typed(3, "i32"), "max", []Value{typed(1, "i32")}, "3"},
		{typed(15, "i32"), "clamp", []Value{typed(0, "i32"), typed(10, "i32")}, "10"},
		{typed(-3, "i32"), "signum", nil, "-1"},
		{typed(3, "u8"), "abs_diff", []Value{typed(10, "u8")}, "7"},
		{typed(1, "i32"), "wrapping_shl", []Value{typed(33, "u32")}, "2"},
		{typed(1, "i32"), "checked_shl", []Value{typed(32, "u32")}, "None"},
	}
	for _, tc := range cases {
		v, handled, err := Method(c, Call{Recv: tc.recv, Name: tc.name, Args: tc.args})
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case handled:
			got = Debug(v)
		}
		if got != tc.want {
			t.Errorf("%s.%s%v = %q, want %q", Debug(tc.recv), tc.name, tc.args, got, tc.want)
		}
	}
}

func TestCasts(t *testing.T) {
	cases := []struct {
		v    Value
		to   string
		want string
	}{
		{i32(-1), "u8", "255"},
		{i32(300), "u8", "44"},
		{i32(-1), "u64", "18446744073709551615"},
		{i32(-1), "u128", "340282366920938463463374607431768211455"},
		{typed(200, "u8"), "i8", "-56"},
		{dispatch.Float{V: 300.7}, "u8", "255"},
		{dispatch.Float{V: -5.5}, "u8", "0"},
		{dispatch.Float{V: -5.9}, "i32", "-5"},
		{dispatch.Float{V: math.NaN()}, "i32", "0"},
		{dispatch.Float{V: math.Inf(1)}, "i64", "9223372036854775807"},
		{dispatch.Float{V: 1e20}, "u64", "18446744073709551615"},
		{typed(-1, "u64"), "f64", "18446744073709552000"},
		{dispatch.Float{V: 0.1}, "f32", "0.1"},
		{i32(16777217), "f32", "16777216"},
		{dispatch.Bool(true), "i32", "1"},
		{Char('A'), "u8", "65"},
		{typed(97, "u8"), "char", "a"},
	}
	for _, c := range cases {
		v, ok := Cast(c.v, c.to)
		if !ok {
			t.Errorf("%s as %s: not handled", Debug(c.v), c.to)
			continue
		}
		if got := Display(v); got != c.want {
			t.Errorf("%s as %s = %s, want %s", Debug(c.v), c.to, got, c.want)
		}
	}
}

func f32(v float64) Value { return dispatch.Float{V: float64(float32(v)), Suffix: "f32"} }

func TestFloats(t *testing.T) {
	c := &testCaller{}
	// f32 arithmetic rounds to f32 after each operation.
	v, _, _ := Binary("+", f32(0.1), f32(0.2))
	if got := Display(v); got != "0.3" {
		t.Errorf("0.1f32 + 0.2f32 = %s, want 0.3 (f32 prints its own shortest digits)", got)
	}
	v, _, _ = Binary("+", dispatch.Float{V: 0.1}, dispatch.Float{V: 0.2})
	if got := Display(v); got != "0.30000000000000004" {
		t.Errorf("0.1 + 0.2 = %s", got)
	}
	v, _, _ = Binary("/", f32(1), f32(3))
	if got := Debug(v); got != "0.33333334" {
		t.Errorf("1f32/3f32 = %s, want 0.33333334", got)
	}
	cases := []struct {
		recv Value
		name string
		args []Value
		want string
	}{
		{f32(2), "sqrt", nil, "1.4142135"},
		{dispatch.Float{V: 2}, "sqrt", nil, "1.4142135623730951"},
		{dispatch.Float{V: 2}, "powi", []Value{i32(10)}, "1024.0"},
		{dispatch.Float{V: 2}, "powf", []Value{dispatch.Float{V: 0.5}}, "1.4142135623730951"},
		{dispatch.Float{V: -2.5}, "abs", nil, "2.5"},
		{dispatch.Float{V: 2.5}, "round", nil, "3.0"},
		{dispatch.Float{V: -2.5}, "round", nil, "-3.0"},
		{dispatch.Float{V: 2.7}, "trunc", nil, "2.0"},
		{dispatch.Float{V: -2.25}, "fract", nil, "-0.25"},
		{dispatch.Float{V: -0.0}, "signum", nil, "1.0"},
		{dispatch.Float{V: math.NaN()}, "is_nan", nil, "true"},
		{dispatch.Float{V: math.Inf(1)}, "is_finite", nil, "false"},
		{dispatch.Float{V: 1}, "max", []Value{dispatch.Float{V: math.NaN()}}, "1.0"},
		{dispatch.Float{V: 5}, "clamp", []Value{dispatch.Float{V: 0}, dispatch.Float{V: 1}}, "1.0"},
		{dispatch.Float{V: math.Pi}, "to_degrees", nil, "180.0"},
		{dispatch.Float{V: 2}, "mul_add", []Value{dispatch.Float{V: 3}, dispatch.Float{V: 4}}, "10.0"},
		{dispatch.Float{V: 3}, "hypot", []Value{dispatch.Float{V: 4}}, "5.0"},
		{dispatch.Float{V: 4}, "recip", nil, "0.25"},
		{dispatch.Float{V: 1}, "atan2", []Value{dispatch.Float{V: 1}}, "0.7853981633974483"},
		{dispatch.Float{V: 100}, "log10", nil, "2.0"},
		{dispatch.Float{V: 8}, "log2", nil, "3.0"},
		{dispatch.Float{V: 0}, "tanh", nil, "0.0"},
		{dispatch.Float{V: 1}, "exp", nil, "2.718281828459045"},
		{dispatch.Float{V: 1}, "clamp", []Value{dispatch.Float{V: 2}, dispatch.Float{V: 1}}, "min > max, or either was NaN. min = 2.0, max = 1.0"},
	}
	for _, tc := range cases {
		v, handled, err := Method(c, Call{Recv: tc.recv, Name: tc.name, Args: tc.args})
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case handled:
			got = Debug(v)
		}
		if got != tc.want {
			t.Errorf("%s.%s = %q, want %q", Debug(tc.recv), tc.name, got, tc.want)
		}
	}
	consts := map[string]string{
		"f32::MAX": "340282350000000000000000000000000000000", "f32::EPSILON": "0.00000011920929",
		"std::f32::consts::PI": "3.1415927", "std::f64::consts::E": "2.718281828459045",
		"u64::MAX": "18446744073709551615", "i8::MIN": "-128", "usize::MAX": "18446744073709551615",
		"u32::BITS": "32", "f64::consts::TAU": "6.283185307179586",
	}
	for path, want := range consts {
		v, ok := Const(strings.Split(path, "::"))
		if !ok || Display(v) != want {
			t.Errorf("%s = %v (%v), want %s", path, v, ok, want)
		}
	}
}

package rstd

import (
	"math"
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
)

func TestFormatSpecs(t *testing.T) {
	pi := dispatch.Float{V: 3.14159265}
	cases := []struct {
		format string
		args   []Value
		want   string
	}{
		{"{:>8}|{:<5}|{:^7}|{:*^9}", []Value{i32(42), dispatch.Str("ab"), dispatch.Str("mid"), dispatch.Str("x")}, "      42|ab   |  mid  |****x****"},
		{"{:.3}|{:8.3}|{:<8.2}|", []Value{pi, pi, pi}, "3.142|   3.142|3.14    |"},
		{"{:+}|{:+}|{:+.1}", []Value{i32(5), i32(-5), dispatch.Float{V: 2}}, "+5|-5|+2.0"},
		{"{:x}|{:X}|{:#x}|{:o}|{:#o}|{:b}|{:#b}", []Value{i32(255), i32(255), i32(255), i32(8), i32(8), i32(5), i32(5)}, "ff|FF|0xff|10|0o10|101|0b101"},
		{"{:x}|{:#010b}", []Value{i32(-1), typed(5, "u8")}, "ffffffff|0b00000101"},
		{"{:e}|{:E}|{:e}|{:.2e}|{:e}", []Value{dispatch.Float{V: 1500}, dispatch.Float{V: 0.00012}, dispatch.Float{V: 1}, dispatch.Float{V: 1234.5}, i32(1500)}, "1.5e3|1.2E-4|1e0|1.23e3|1.5e3"},
		{"{:08.2}|{:05}|{:+06}|{:<05}", []Value{dispatch.Float{V: -3.14159}, i32(42), i32(7), i32(3)}, "-0003.14|00042|+00007|00003"},
		{"{0} {1} {0}|{name}", []Value{i32(1), i32(2)}, "1 2 1|N"},
		{"{:1$}|", []Value{i32(7), i32(4)}, "   7|"},
		{"{:.*}|{:>w$}|{:.prec$}", []Value{i32(1), dispatch.Float{V: 2.55}, dispatch.Str("r"), dispatch.Float{V: 1}}, "2.5|    r|1.00"},
		{"{:?}|{:?}|{:?}|{:?}", []Value{dispatch.Str("q\"\n"), Char('\''), Char('a'), dispatch.Float{V: 1}}, `"q\"\n"|'\''|'a'|1.0`},
		{"{:?}", []Value{dispatch.Float{V: 1e16}}, "1e16"},
		{"{}|{:?}", []Value{f32(16777216), f32(0.1)}, "16777216|0.1"},
		{"{}|{}|{}", []Value{dispatch.Float{V: math.Inf(1)}, dispatch.Float{V: math.NaN()}, dispatch.Float{V: math.Copysign(0, -1)}}, "inf|NaN|-0"},
		{"{:.2}|{:5}|", []Value{dispatch.Str("abcdef"), Char('c')}, "ab|c    |"},
		{"{:>6?}|{:.1?}", []Value{dispatch.Str("a"), &dispatch.Array{Elems: []Value{dispatch.Float{V: 0.25}, dispatch.Float{V: 1}}}}, `   "a"|[0.2, 1.0]`},
		{"{{{}}}", []Value{i32(1)}, "{1}"},
	}
	lookup := func(name string) (Value, bool) {
		switch name {
		case "name":
			return dispatch.Str("N"), true
		case "w":
			return usize(5), true
		case "prec":
			return usize(2), true
		}
		return nil, false
	}
	for _, c := range cases {
		got, err := Format(c.format, c.args, nil, lookup, nil)
		if err != nil {
			t.Errorf("%q: %s", c.format, err.Msg)
			continue
		}
		if got != c.want {
			t.Errorf("%q = %q, want %q", c.format, got, c.want)
		}
	}
	for _, bad := range []string{"{", "}", "{} {}", "{:y}", "{nope}", "{5}"} {
		if _, err := Format(bad, []Value{i32(1)}, nil, lookup, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestDebugLayout(t *testing.T) {
	point := &dispatch.Enum{Type: "Point", Variant: "Point", Named: map[string]Value{"x": i32(1), "y": dispatch.Float{V: 2}}}
	m := NewMap("HashMap")
	m.Insert(dispatch.Str("k"), &dispatch.Array{Elems: []Value{i32(1)}})
	set := NewSet("BTreeSet")
	set.Insert(i32(3))
	set.Insert(i32(1))
	cases := []struct {
		v             Value
		debug, pretty string
	}{
		{point, "Point { x: 1, y: 2.0 }", "Point {\n    x: 1,\n    y: 2.0,\n}"},
		{dispatch.Tuple{i32(1), dispatch.Str("a")}, `(1, "a")`, "(\n    1,\n    \"a\",\n)"},
		{dispatch.Tuple{i32(1)}, "(1,)", "(\n    1,\n)"},
		{&dispatch.Array{}, "[]", "[]"},
		{some(point), "Some(Point { x: 1, y: 2.0 })", "Some(\n    Point {\n        x: 1,\n        y: 2.0,\n    },\n)"},
		{m, `{"k": [1]}`, "{\n    \"k\": [\n        1,\n    ],\n}"},
		{NewMap("HashMap"), "{}", "{}"},
		{set, "{1, 3}", "{\n    1,\n    3,\n}"},
		{&dispatch.Enum{Type: "Unit", Variant: "Unit"}, "Unit", "Unit"},
		{&dispatch.Enum{Type: "ParseIntError", Variant: "ParseIntError", Named: map[string]Value{"kind": &dispatch.Enum{Type: "IntErrorKind", Variant: "InvalidDigit"}}}, "ParseIntError { kind: InvalidDigit }", "ParseIntError {\n    kind: InvalidDigit,\n}"},
	}
	for _, c := range cases {
		if got := Debug(c.v); got != c.debug {
			t.Errorf("{:?} = %q, want %q", got, c.debug)
		}
		if got := PrettyDebug(c.v); got != c.pretty {
			t.Errorf("{:#?} = %q, want %q", got, c.pretty)
		}
	}
}

func TestParse(t *testing.T) {
	cases := []struct{ text, typ, want string }{
		{"42", "i32", "Ok(42)"},
		{"+7", "u8", "Ok(7)"},
		{"-7", "u8", "Err(ParseIntError { kind: InvalidDigit })"},
		{"", "i32", "Err(ParseIntError { kind: Empty })"},
		{" 1", "i32", "Err(ParseIntError { kind: InvalidDigit })"},
		{"256", "u8", "Err(ParseIntError { kind: PosOverflow })"},
		{"-129", "i8", "Err(ParseIntError { kind: NegOverflow })"},
		{"18446744073709551615", "u64", "Ok(18446744073709551615)"},
		{"2.5", "f64", "Ok(2.5)"},
		{"1e3", "f32", "Ok(1000.0)"},
		{"inf", "f64", "Ok(inf)"},
		{"abc", "f64", "Err(ParseFloatError { kind: Invalid })"},
		{"0x10", "f64", "Err(ParseFloatError { kind: Invalid })"},
		{"", "f32", "Err(ParseFloatError { kind: Empty })"},
		{"true", "bool", "Ok(true)"},
		{"yes", "bool", "Err(ParseBoolError)"},
		{"x", "char", "Ok('x')"},
	}
	for _, c := range cases {
		if got := Debug(Parse(c.text, c.typ)); got != c.want {
			t.Errorf("%q.parse::<%s>() = %s, want %s", c.text, c.typ, got, c.want)
		}
	}
	errs := map[string]string{
		"i32|x": "invalid digit found in string", "i32|": "cannot parse integer from empty string",
		"u8|999": "number too large to fit in target type", "f64|z": "invalid float literal", "bool|z": "provided string was not `true` or `false`",
	}
	for in, want := range errs {
		typ, text, _ := cut(in)
		r := Parse(text, typ).(*dispatch.Enum)
		if got := Display(r.Fields[0]); got != want {
			t.Errorf("Display of %q.parse::<%s>()'s error = %q, want %q", text, typ, got, want)
		}
	}
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '|' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

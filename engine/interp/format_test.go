package interp

import (
	"testing"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/source"
)

func TestFormatFloatLikeRust(t *testing.T) {
	cases := []struct {
		v              dispatch.Float
		display, debug string
	}{
		{dispatch.Float{V: 1}, "1", "1.0"},
		{dispatch.Float{V: 0.1}, "0.1", "0.1"},
		{dispatch.Float{V: -2.5}, "-2.5", "-2.5"},
		{dispatch.Float{V: 1e16}, "10000000000000000", "1e16"},
		{dispatch.Float{V: 1e-5}, "0.00001", "1e-5"},
		{dispatch.Float{V: 0.1, Suffix: "f32"}, "0.1", "0.1"},
		{dispatch.Float{V: float64(float32(0.1)) * 3, Suffix: "f32"}, "0.3", "0.3"},
		{dispatch.Float{V: 0}, "0", "0.0"},
	}
	for _, c := range cases {
		if got := display(c.v); got != c.display {
			t.Errorf("Display(%v) = %q, want %q", c.v, got, c.display)
		}
		if got := debug(c.v); got != c.debug {
			t.Errorf("Debug(%v) = %q, want %q", c.v, got, c.debug)
		}
	}
}

func TestFormatArgs(t *testing.T) {
	in := newInterp(nil, nil, Options{})
	in.define("captured", dispatch.Int{V: 7}, false, source.Range{})
	cases := []struct {
		format string
		args   []value
		want   string
	}{
		{"{} and {}", []value{dispatch.Int{V: 1}, dispatch.Str("two")}, "1 and two"},
		{"{:?}", []value{dispatch.Str("q\"")}, `"q\""`},
		{"{1} {0}", []value{dispatch.Int{V: 1}, dispatch.Int{V: 2}}, "2 1"},
		{"{captured}", nil, "7"},
		{"{:.2}", []value{dispatch.Float{V: 3.14159}}, "3.14"},
		{"[{:>4}]", []value{dispatch.Int{V: 42}}, "[  42]"},
		{"[{:<4}]", []value{dispatch.Str("ab")}, "[ab  ]"},
		{"[{:*^6}]", []value{dispatch.Str("ab")}, "[**ab**]"},
		{"{{}}", nil, "{}"},
		{"{:?}", []value{&dispatch.Array{Elems: []value{dispatch.Int{V: 2}, dispatch.Int{V: 3}}}}, "[2, 3]"},
		{"{:?}", []value{dispatch.Tuple{dispatch.Int{V: 1}, dispatch.Bool(true)}}, "(1, true)"},
		{"{:?}", []value{&dispatch.Enum{Type: "Option", Variant: "Some", Fields: []value{dispatch.Float{V: 1}}}}, "Some(1.0)"},
	}
	for _, c := range cases {
		got, err := in.formatArgs(c.format, c.args, nil)
		if err != nil {
			t.Errorf("format %q: %s", c.format, err.msg)
			continue
		}
		if got != c.want {
			t.Errorf("format %q = %q, want %q", c.format, got, c.want)
		}
	}
	for _, bad := range []string{"{", "}", "{} {}", "{:y}", "{nope}"} {
		if _, err := in.formatArgs(bad, []value{dispatch.Int{V: 1}}, nil); err == nil {
			t.Errorf("format %q: no error", bad)
		}
	}
}

// TestFormatArgsMacro is format_args!: printed, and written by write_fmt.
func TestFormatArgsMacro(t *testing.T) {
	runOK(t, `
use std::fmt;
struct P(i32);
impl fmt::Display for P {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_fmt(format_args!("P={}", self.0)) }
}
fn main() { println!("{} {}", P(3), format_args!("{}-{:?}", 1, "x")); }`, "P=3 1-\"x\"\n")
}

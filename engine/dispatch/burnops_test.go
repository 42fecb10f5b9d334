package dispatch

import (
	"strings"
	"testing"
)

// opCase is one call of a Burn op and the values it must give, printed as
// Preview prints them.
type opCase struct {
	name string
	call Call
	want string
}

func runOpCases(t *testing.T, w *World, cases []opCase) {
	t.Helper()
	for _, c := range cases {
		out, ok := mustCall(t, w, c.call).(*Tensor)
		if !ok || out.values == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if got := out.values.Preview(64); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
	}
}

type opFixture struct {
	w      *World
	d      *Device
	floats func(rank string, vals Value) *Tensor
	ints   func(rank string, vals Value) *Tensor
}

func newOpFixture(t *testing.T, extra ...string) opFixture {
	w := world(t, append([]string{"flex"}, extra...)...)
	d := device(t, w, "flex")
	return opFixture{w: w, d: d,
		floats: func(rank string, vals Value) *Tensor {
			return mustCall(t, w, fnG("Tensor::from_floats", []string{rank}, vals, ref(d))).(*Tensor)
		},
		ints: func(rank string, vals Value) *Tensor {
			return mustCall(t, w, fnG("Tensor::from_ints", []string{rank, "Int"}, vals, ref(d))).(*Tensor)
		}}
}

// cumprod, cummin and cummax: the examples of their doc comments
// (numeric.rs:570-584, orderable.rs:1040-1088) and the int tests.
func TestCumulativeOps(t *testing.T) {
	fx := newOpFixture(t)
	m := fx.floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	mn := fx.floats("2", arr(arr(f(3), f(5), f(2)), arr(f(4), f(1), f(6))))
	mx := fx.floats("2", arr(arr(f(3), f(1), f(2)), arr(f(4), f(5), f(2))))
	ints := fx.ints("2", arr(arr(i(1), i(2), i(3)), arr(i(4), i(5), i(6))))
	runOpCases(t, fx.w, []opCase{
		{"cumprod(0)", method(m, "cumprod", i(0)), "[[1.0, 2.0, 3.0], [4.0, 10.0, 18.0]]"},
		{"cumprod(-1)", method(m, "cumprod", i(-1)), "[[1.0, 2.0, 6.0], [4.0, 20.0, 120.0]]"},
		{"cummin(0)", method(mn, "cummin", i(0)), "[[3.0, 5.0, 2.0], [3.0, 1.0, 2.0]]"},
		{"cummin(1)", method(mn, "cummin", i(1)), "[[3.0, 3.0, 2.0], [4.0, 1.0, 1.0]]"},
		{"cummax(1)", method(mx, "cummax", i(1)), "[[3.0, 3.0, 3.0], [4.0, 5.0, 5.0]]"},
		{"int cumprod(1)", method(ints, "cumprod", i(1)), "[[1, 2, 6], [4, 20, 120]]"},
		{"int cummax(0)", method(ints, "cummax", i(0)), "[[1, 2, 3], [4, 5, 6]]"},
	})
	out := mustCall(t, fx.w, method(m, "cummin", i(1))).(*Tensor)
	if op := fx.w.trace[len(fx.w.trace)-1].Op; op != "float_cummin" || !sameShape(out.shape, []int64{2, 3}) {
		t.Errorf("cummin dispatches %s with shape %v", op, out.shape)
	}
	p := mustPanic(t, fx.w, method(m, "cumprod", i(2)))
	if !strings.Contains(p.Message, "dimension 2 out of bounds: 0..2") || !strings.Contains(p.Location, "numeric.rs:586") {
		t.Errorf("cumprod(2): %s at %s", p.Message, p.Location)
	}
	bools := mustCall(t, fx.w, method(m, "greater_elem", f(2))).(*Tensor)
	mustReject(t, fx.w, method(bools, "cummax", i(0)))
}

func sameShape(a, b []int64) bool {
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

package dispatch

import (
	"strings"
	"testing"
)

// signal::irfft (fft.rs:128-165): the output's n points along dim (n, or
// 2 * (bins - 1)), Dispatch's irfft op, the IRFFT dim check, and the
// inputs whose panics are not modelled left unknown.
func TestIrfftShapes(t *testing.T) {
	fx := newOpFixture(t)
	some := func(n int64) *Enum { return &Enum{Type: "Option", Variant: "Some", Fields: []Value{i(n)}} }
	none := &Enum{Type: "Option", Variant: "None"}
	spec := func(shape ...int64) *Tensor { return ones(t, fx.w, fx.d, "", shape...) }
	irfft := func(re, im *Tensor, dim int64, n Value) Call {
		return Call{Path: []string{"burn", "tensor", "signal", "irfft"}, Args: []Value{re, im, i(dim), n}}
	}
	for _, c := range []struct {
		re   []int64
		dim  int64
		n    Value
		want []int64
	}{
		{[]int64{2, 5}, 1, none, []int64{2, 8}},
		{[]int64{3, 2}, 0, none, []int64{4, 2}},
		{[]int64{2, 5}, -1, some(16), []int64{2, 16}},
		{[]int64{2, 5}, 1, some(4), []int64{2, 4}},
	} {
		out := mustCall(t, fx.w, irfft(spec(c.re...), spec(c.re...), c.dim, c.n)).(*Tensor)
		if !sameShape(out.shape, c.want) || lastOps(fx.w, 1) != "irfft" {
			t.Errorf("irfft of %v along %d with %s: %v by %s, want %v", c.re, c.dim, Debug(c.n), out.shape, lastOps(fx.w, 1), c.want)
		}
	}
	p := mustPanic(t, fx.w, irfft(spec(2, 5), spec(2, 5), 2, none))
	if !strings.Contains(p.Message, "Operation: 'IRFFT'") {
		t.Errorf("irfft along dim 2 of a rank-2 tensor: %q", p.Message)
	}
	for name, c := range map[string]Call{
		"n of 6":             irfft(spec(2, 5), spec(2, 5), 1, some(6)),
		"n of 0":             irfft(spec(2, 5), spec(2, 5), 1, some(0)),
		"6 points from None": irfft(spec(2, 4), spec(2, 4), 1, none),
		"halves that differ": irfft(spec(2, 5), spec(2, 3), 1, none),
	} {
		if _, err := fx.w.Call(c); err == nil {
			t.Errorf("irfft with %s ran", name)
		}
	}
}

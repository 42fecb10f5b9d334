package tensor

import (
	"slices"
	"testing"
)

// TestRandomLaterIsRandom: a tensor drawn later has Random's values, the
// generator is where Random leaves it (so the next draw is the same), and
// its preview, made from six elements, is the made tensor's preview. BF16
// Uniform rounds up to the high end often, so its redraws are covered.
func TestRandomLaterIsRandom(t *testing.T) {
	dists := []Distribution{{Kind: DistDefault}, Uniform(-1, 1), Uniform(0.99, 1), Uniform(0.999, 1), Bernoulli(0.3), Normal(2, 0.5), Uniform(0, 10)}
	for _, dt := range []DType{F32, F64, F16, BF16, I64, I32, U8, BoolNative} {
		for _, dist := range dists {
			for _, shape := range [][]int{{3}, {4, 5}, {2, 3, 17}} {
				eager, lazy := NewRNG(7), NewRNG(7)
				want, err := Random(shape, dt, dist, eager)
				l, lerr := RandomLater(shape, dt, dist, lazy)
				if (err == nil) != (lerr == nil) {
					t.Fatalf("%v %v: errors %v and %v", dt, dist, err, lerr)
				}
				if err != nil {
					continue
				}
				if eager.next() != lazy.next() {
					t.Errorf("%v %v %v: the generator is not where Random leaves it", dt, dist, shape)
				}
				if p, q := l.Preview(PreviewElements), want.Preview(PreviewElements); p != q {
					t.Errorf("%v %v %v: preview %s, want %s", dt, dist, shape, p, q)
				}
				got := l.Force()
				if !slices.Equal(got.F, want.F) || !slices.Equal(got.I, want.I) || !slices.Equal(got.B, want.B) {
					t.Errorf("%v %v %v: values differ from Random's", dt, dist, shape)
				}
				if l.Force() != got {
					t.Errorf("Force made the tensor twice")
				}
			}
		}
	}
}

// TestRedrawKeepsOneDrawPerElement: in BF16 a Uniform close to its high
// end rounds up to it often; each element still takes one draw. One with
// no bf16 value below its high end ends too.
func TestRedrawKeepsOneDrawPerElement(t *testing.T) {
	rng := NewRNG(1)
	out, err := Random([]int{1000}, BF16, Uniform(0.99, 1), rng)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range out.F {
		if !(v >= BF16.roundFloat(0.99) && v < 1) {
			t.Fatalf("value %v outside [0.999, 1)", v)
		}
	}
	if _, err := Random([]int{10}, BF16, Uniform(0.999, 1), NewRNG(1)); err != nil {
		t.Fatal(err)
	}
	after := NewRNG(1)
	for range 1000 {
		after.next()
	}
	if rng.state != after.state {
		t.Errorf("1000 elements did not take 1000 draws")
	}
}

// TestFullLater: a fill made later, and its preview.
func TestFullLater(t *testing.T) {
	for _, dt := range []DType{F32, I64, BoolNative} {
		l := FullLater([]int{30, 2}, dt, IntScalar(1))
		want := Full([]int{30, 2}, dt, IntScalar(1))
		if p, q := l.Preview(PreviewElements), want.Preview(PreviewElements); p != q {
			t.Errorf("%v: preview %s, want %s", dt, p, q)
		}
		if got := l.Force(); !slices.Equal(got.F, want.F) || !slices.Equal(got.I, want.I) || !slices.Equal(got.B, want.B) {
			t.Errorf("%v: values differ from Full's", dt)
		}
	}
}

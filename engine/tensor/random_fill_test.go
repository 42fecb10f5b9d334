package tensor

import "testing"

// TestFillFloatIsSampleFloat: the loops of fillFloat draw exactly what
// sampleFloat draws, element by element, and leave the generator where it
// leaves it.
func TestFillFloatIsSampleFloat(t *testing.T) {
	dists := []Distribution{
		{Kind: DistDefault},
		{Kind: DistBernoulli, Low: 0.3},
		{Kind: DistUniform, Low: -2, High: 3},
		{Kind: DistUniform, Low: 1, High: 1.0000001},
	}
	for _, d := range []DType{F32, Flex32, F64} {
		for _, dist := range dists {
			a, b := NewRNG(7), NewRNG(7)
			got := make([]float64, 1000)
			if !fillFloat(got, dist, d, a) {
				t.Fatalf("%s %v: not filled", d, dist)
			}
			for i := range got {
				if want := sampleFloat(dist, d, b); got[i] != want {
					t.Fatalf("%s %v: element %d is %v, want %v", d, dist, i, got[i], want)
				}
			}
			if a.next() != b.next() {
				t.Errorf("%s %v: the generators differ after the fill", d, dist)
			}
		}
	}
	if fillFloat(make([]float64, 1), Distribution{Kind: DistNormal, High: 1}, F32, NewRNG(1)) ||
		fillFloat(make([]float64, 1), Distribution{Kind: DistDefault}, F16, NewRNG(1)) {
		t.Error("fillFloat took a case it leaves to sampleFloat")
	}
}

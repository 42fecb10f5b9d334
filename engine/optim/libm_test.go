package optim

import (
	"math"
	"testing"
)

// TestLibm: the correctly rounded cos and powers agree with Go's to an
// ulp, and hit values known exactly.
func TestLibm(t *testing.T) {
	if got := cosF64(math.Pi); got != -1 {
		t.Errorf("cos(pi) = %v", got)
	}
	if got := cosF64(0); got != 1 {
		t.Errorf("cos(0) = %v", got)
	}
	// cos(pi/2) is the f64 of pi/2's distance to the true pi/2.
	if got := cosF64(math.Pi / 2); got != 6.123233995736766e-17 {
		t.Errorf("cos(pi/2) = %v", got)
	}
	for i := 0; i <= 40; i++ {
		x := float64(i) / 7 * math.Pi
		got, want := cosF64(x), math.Cos(x)
		if math.Abs(got-want) > 2*math.Abs(math.Nextafter(want, math.Inf(1))-want)+1e-300 {
			t.Errorf("cos(%v) = %v, Go %v", x, got, want)
		}
	}
	if got := powNegHalf(4); got != 0.5 {
		t.Errorf("4^-0.5 = %v", got)
	}
	if got := powNegThreeHalves(4); got != 0.125 {
		t.Errorf("4^-1.5 = %v", got)
	}
	for _, x := range []float64{2, 3, 512, 4000, 12345.5} {
		if got, want := powNegThreeHalves(x), math.Pow(x, -1.5); math.Abs(got-want) > 2*(math.Nextafter(want, 1)-want) {
			t.Errorf("%v^-1.5 = %v, Go %v", x, got, want)
		}
	}
}

package optim

import (
	"math"
	"math/big"
	"sync"
)

// Rust's f64::cos and f64::powf call the platform's libm, whose results
// are the exact ones rounded to nearest in all but rare cases; Go's
// math.Cos and math.Pow are off by an ulp more often. The schedulers'
// rates are printed with every digit, so these compute the exact value
// at 256 bits and round it once.

const libmPrec = 256

var bigPi = sync.OnceValue(func() *big.Float {
	// Machin: pi = 16 atan(1/5) - 4 atan(1/239).
	a := atanInv(5)
	a.Mul(a, big.NewFloat(16).SetPrec(libmPrec))
	b := atanInv(239)
	b.Mul(b, big.NewFloat(4).SetPrec(libmPrec))
	return a.Sub(a, b)
})

// atanInv is atan(1/n) by its series.
func atanInv(n int64) *big.Float {
	x := new(big.Float).SetPrec(libmPrec).Quo(big.NewFloat(1).SetPrec(libmPrec), big.NewFloat(float64(n)).SetPrec(libmPrec))
	x2 := new(big.Float).SetPrec(libmPrec).Mul(x, x)
	sum := new(big.Float).SetPrec(libmPrec).Set(x)
	term := new(big.Float).SetPrec(libmPrec).Set(x)
	eps := new(big.Float).SetPrec(libmPrec).SetMantExp(big.NewFloat(1), -libmPrec-8)
	for k := int64(1); ; k++ {
		term.Mul(term, x2)
		t := new(big.Float).SetPrec(libmPrec).Quo(term, big.NewFloat(float64(2*k+1)).SetPrec(libmPrec))
		if k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Cmp(eps) < 0 {
			return sum
		}
	}
}

// cosF64 is f64::cos, the exact cosine of x rounded to nearest.
func cosF64(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	r := new(big.Float).SetPrec(libmPrec).SetFloat64(math.Abs(x))
	pi := bigPi()
	twoPi := new(big.Float).SetPrec(libmPrec).Add(pi, pi)
	// r mod 2pi, then into [0, pi] (cos is even about pi).
	q := new(big.Float).SetPrec(libmPrec).Quo(r, twoPi)
	n, _ := q.Int(nil)
	r.Sub(r, new(big.Float).SetPrec(libmPrec).Mul(new(big.Float).SetPrec(libmPrec).SetInt(n), twoPi))
	if r.Cmp(pi) > 0 {
		r.Sub(twoPi, r)
	}
	// Taylor series of cos at 0, |r| <= pi.
	r2 := new(big.Float).SetPrec(libmPrec).Mul(r, r)
	sum := big.NewFloat(1).SetPrec(libmPrec)
	term := big.NewFloat(1).SetPrec(libmPrec)
	eps := new(big.Float).SetPrec(libmPrec).SetMantExp(big.NewFloat(1), -libmPrec-8)
	for k := int64(1); k < 200; k++ {
		term.Mul(term, r2)
		term.Quo(term, big.NewFloat(float64((2*k-1)*(2*k))).SetPrec(libmPrec))
		if k%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
		if term.Cmp(eps) < 0 {
			break
		}
	}
	f, _ := sum.Float64()
	return f
}

// powNegHalf is x.powf(-0.5) and powNegThreeHalves x.powf(-1.5) for a
// positive finite x: 1/sqrt(x) and 1/(x sqrt(x)), exact, rounded once.
func powNegHalf(x float64) float64 { return powHalves(x, 1) }

func powNegThreeHalves(x float64) float64 { return powHalves(x, 3) }

func powHalves(x float64, k int) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return math.Pow(x, -float64(k)/2)
	}
	bx := new(big.Float).SetPrec(libmPrec).SetFloat64(x)
	d := new(big.Float).SetPrec(libmPrec).Sqrt(bx)
	if k == 3 {
		d.Mul(d, bx)
	}
	f, _ := new(big.Float).SetPrec(libmPrec).Quo(big.NewFloat(1).SetPrec(libmPrec), d).Float64()
	return f
}

package tensor

import (
	"fmt"
	"math"
)

// DistributionKind names a burn_std::Distribution variant.
type DistributionKind uint8

const (
	// DistDefault is Distribution::Default: uniform over [0, 1) for
	// floats (rand's StandardUniform), every bit pattern for ints.
	DistDefault DistributionKind = iota
	// DistBernoulli is Bernoulli(p): 1 with probability p, else 0.
	DistBernoulli
	// DistUniform is Uniform(low, high): uniform over [low, high).
	DistUniform
	// DistNormal is Normal(mean, std).
	DistNormal
)

// Distribution is burn_std::Distribution with its parameters: P for
// Bernoulli, Low/High for Uniform, Mean/Std (as Low/High) for Normal.
type Distribution struct {
	Kind      DistributionKind
	Low, High float64
}

// Bernoulli is Distribution::Bernoulli(p).
func Bernoulli(p float64) Distribution { return Distribution{Kind: DistBernoulli, Low: p} }

// Uniform is Distribution::Uniform(low, high).
func Uniform(low, high float64) Distribution {
	return Distribution{Kind: DistUniform, Low: low, High: high}
}

// Normal is Distribution::Normal(mean, std).
func Normal(mean, std float64) Distribution {
	return Distribution{Kind: DistNormal, Low: mean, High: std}
}

// DefaultSeed seeds a backend's generator until the snippet calls
// `device.seed(n)`. Burn seeds from the operating system's entropy then;
// the playground picks a fixed seed so that a run is reproducible.
const DefaultSeed uint64 = 0

// RNG is the playground's random generator: SplitMix64 (Steele, Lea and
// Flood, 2014), one per backend as each Burn backend keeps its own. Burn's
// backends draw from their own generators (rand's StdRng on the CPU,
// counter-based kernels on GPUs), so no simulator can print the numbers a
// real run would; the playground's numbers are its own, the same for the
// same seed and sequence of calls on every platform.
type RNG struct{ state uint64 }

// NewRNG returns a generator seeded as `device.seed(seed)` seeds one.
func NewRNG(seed uint64) *RNG { return &RNG{state: seed} }

// splitMixGamma is SplitMix64's increment: the state after n draws is the
// state before plus n of it.
const splitMixGamma = 0x9E3779B97F4A7C15

func (r *RNG) next() uint64 {
	r.state += splitMixGamma
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// unit draws from [0, 1) with as many random bits as the float dtype's
// significand, so the value is exact in the dtype and never rounds up to 1.
func (r *RNG) unit(d DType) float64 {
	bits := 53
	switch d {
	case F32, Flex32:
		bits = 24
	case F16:
		bits = 11
	case BF16:
		bits = 8
	}
	return float64(r.next()>>(64-bits)) / float64(uint64(1)<<bits)
}

// normal draws a standard normal value by the Box-Muller transform.
func (r *RNG) normal() float64 {
	u1 := 1 - r.unit(F64) // (0, 1]: the log stays finite
	u2 := r.unit(F64)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// check reports the parameters rand refuses, which Burn unwraps
// (crates/burn-std/src/distribution.rs): an empty or non-finite uniform
// range, a probability outside [0, 1], a negative or non-finite std.
func (dist Distribution) check() error {
	switch dist.Kind {
	case DistUniform:
		if !(dist.Low < dist.High) || math.IsInf(dist.High-dist.Low, 0) {
			return fmt.Errorf("%w: Uniform(%v, %v)", ErrDistribution, dist.Low, dist.High)
		}
	case DistBernoulli:
		if !(dist.Low >= 0 && dist.Low <= 1) {
			return fmt.Errorf("%w: Bernoulli(%v)", ErrDistribution, dist.Low)
		}
	case DistNormal:
		if !(dist.High >= 0) || math.IsInf(dist.High, 0) {
			return fmt.Errorf("%w: Normal(%v, %v)", ErrDistribution, dist.Low, dist.High)
		}
	}
	return nil
}

// Random is Tensor::random(shape, distribution, (&device, dtype)): values
// drawn from rng in row-major order.
func Random(shape []int, dtype DType, dist Distribution, rng *RNG) (*Tensor, error) {
	if err := dist.check(); err != nil {
		return nil, err
	}
	out := newData(dtype, shape)
	n := out.NumElements()
	switch {
	case dtype.IsFloat():
		if !fillFloat(out.F[:n], dist, dtype, rng) {
			for i := range n {
				out.F[i] = sampleFloat(dist, dtype, rng)
			}
		}
	case dtype.IsInt():
		lo, hi := dtype.floatToInt(dist.Low), dtype.floatToInt(dist.High)
		if dist.Kind == DistUniform && lo >= hi {
			return nil, fmt.Errorf("%w: Uniform(%d, %d) is empty for %s", ErrDistribution, lo, hi, dtype)
		}
		for i := range n {
			out.I[i] = sampleInt(dist, dtype, lo, hi, rng)
		}
	default:
		for i := range n {
			out.B[i] = sampleFloat(dist, F32, rng) != 0
		}
	}
	return &Tensor{Data: *out}, nil
}

// fillFloat draws dst as sampleFloat draws each element, for the common
// cases (Bernoulli, and Uniform and Default in f32 or f64), in loops with no
// call per element: the values and the generator's state after are the
// same, and a WebAssembly build, where every call costs, runs several
// times faster. It reports false for the cases it leaves to sampleFloat.
func fillFloat(dst []float64, dist Distribution, d DType, rng *RNG) bool {
	f32 := d == F32 || d == Flex32
	if !f32 && d != F64 {
		return false
	}
	const unit53 = 1.0 / (1 << 53)
	switch dist.Kind {
	case DistBernoulli:
		p := dist.Low
		for i := range dst {
			if float64(rng.next()>>11)*unit53 < p {
				dst[i] = 1
			} else {
				dst[i] = 0
			}
		}
	case DistUniform:
		lo, width, hi := dist.Low, dist.High-dist.Low, dist.High
		for i := range dst {
			z := rng.next()
			v := lo + float64(z>>11)*unit53*width
			if f32 {
				v = float64(float32(v))
			}
			if v >= hi {
				v = redrawUniform(dist, d, z)
			}
			dst[i] = v
		}
	case DistNormal:
		return false
	default:
		if f32 {
			const unit24 = 1.0 / (1 << 24)
			for i := range dst {
				dst[i] = float64(rng.next()>>40) * unit24
			}
		} else {
			for i := range dst {
				dst[i] = float64(rng.next()>>11) * unit53
			}
		}
	}
	return true
}

func sampleFloat(dist Distribution, d DType, rng *RNG) float64 {
	switch dist.Kind {
	case DistBernoulli:
		if rng.unit(F64) < dist.Low {
			return 1
		}
		return 0
	case DistUniform:
		z := rng.next()
		v := d.roundFloat(dist.Low + float64(z>>11)/(1<<53)*(dist.High-dist.Low))
		if v >= dist.High {
			v = redrawUniform(dist, d, z)
		}
		return v
	case DistNormal:
		return d.roundFloat(dist.Low + dist.High*rng.normal())
	}
	return rng.unit(d)
}

// redrawUniform draws again a Uniform value that rounded up to its high
// end in d (z was its draw), from a generator of its own seeded by z, so
// that every element of a Uniform tensor takes exactly one draw of the
// backend's stream: element i's value depends on the stream's state and i
// only, which is what lets Lazy draw a tensor's values later, or a few of
// them for a preview.
//
// A range narrower than the dtype's spacing (Uniform(0.999, 1.0) in bf16)
// holds no value below its high end; after 64 draws it gives the low end
// as the dtype rounds it, rather than drawing forever.
func redrawUniform(dist Distribution, d DType, z uint64) float64 {
	alt := RNG{state: z}
	for range 64 {
		v := d.roundFloat(dist.Low + alt.unit(F64)*(dist.High-dist.Low))
		if v < dist.High {
			return v
		}
	}
	return d.roundFloat(dist.Low)
}

// drawsPerElement is how many draws of the stream one element of a tensor
// of dist takes: two for Normal (Box-Muller), one for the others.
func drawsPerElement(dist Distribution) uint64 {
	if dist.Kind == DistNormal {
		return 2
	}
	return 1
}

// sampleInt draws an int of dtype d; a uniform range [lo, hi) is taken
// modulo its width, whose bias is below 2^-32 for any range a snippet uses.
func sampleInt(dist Distribution, d DType, lo, hi int64, rng *RNG) int64 {
	switch dist.Kind {
	case DistBernoulli:
		if rng.unit(F64) < dist.Low {
			return 1
		}
		return 0
	case DistUniform:
		width := uint64(hi - lo)
		return d.wrapInt(lo + int64(rng.next()%width))
	case DistNormal:
		return d.floatToInt(dist.Low + dist.High*rng.normal())
	}
	return d.wrapInt(int64(rng.next()))
}

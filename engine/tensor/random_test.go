package tensor

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestRandomIsDeterministicPerSeed(t *testing.T) {
	draw := func(seed uint64) []float64 {
		x, err := Random([]int{4, 4}, F32, Distribution{}, NewRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		return x.F
	}
	if !slices.Equal(draw(DefaultSeed), draw(DefaultSeed)) {
		t.Error("the same seed draws the same values")
	}
	if slices.Equal(draw(1), draw(2)) {
		t.Error("different seeds draw different values")
	}
	// SplitMix64 from seed 0: the first output is 0xE220A8397B1DCDAF, whose
	// top 24 bits make the first f32 draw.
	if got := draw(0)[0]; got != float64(0xE220A8)/float64(1<<24) {
		t.Errorf("first draw of seed 0 = %v", got)
	}
	// One generator continues its sequence across calls, as a backend's
	// does.
	rng := NewRNG(5)
	a, _ := Random([]int{3}, F64, Distribution{}, rng)
	b, _ := Random([]int{3}, F64, Distribution{}, rng)
	if slices.Equal(a.F, b.F) {
		t.Error("a second call continues the sequence")
	}
}

func TestRandomDistributions(t *testing.T) {
	const n = 20000
	rng := NewRNG(42)
	stats := func(values []float64) (lo, hi, mean, std float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range values {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			mean += v
		}
		mean /= float64(len(values))
		for _, v := range values {
			std += (v - mean) * (v - mean)
		}
		return lo, hi, mean, math.Sqrt(std / float64(len(values)))
	}
	for _, d := range []DType{F64, F32, F16, BF16} {
		x, _ := Random([]int{n}, d, Distribution{}, rng)
		lo, hi, mean, _ := stats(x.F)
		if lo < 0 || hi >= 1 || math.Abs(mean-0.5) > 0.02 {
			t.Errorf("%s Default: [%v, %v] mean %v", d, lo, hi, mean)
		}
		for _, v := range x.F {
			if v != d.roundFloat(v) {
				t.Fatalf("%s draw %v is not a %s value", d, v, d)
			}
		}
	}
	u, _ := Random([]int{n}, F32, Uniform(-3, 5), rng)
	if lo, hi, mean, _ := stats(u.F); lo < -3 || hi >= 5 || math.Abs(mean-1) > 0.1 {
		t.Errorf("Uniform(-3, 5): [%v, %v] mean %v", lo, hi, mean)
	}
	g, _ := Random([]int{n}, F64, Normal(2, 0.5), rng)
	if _, _, mean, std := stats(g.F); math.Abs(mean-2) > 0.02 || math.Abs(std-0.5) > 0.02 {
		t.Errorf("Normal(2, 0.5): mean %v std %v", mean, std)
	}
	bern, _ := Random([]int{n}, F32, Bernoulli(0.25), rng)
	if _, _, mean, _ := stats(bern.F); math.Abs(mean-0.25) > 0.02 {
		t.Errorf("Bernoulli(0.25): mean %v", mean)
	}
	ints, _ := Random([]int{n}, I32, Uniform(0, 10), rng)
	seen := map[int64]bool{}
	for _, v := range ints.I {
		if v < 0 || v >= 10 {
			t.Fatalf("Uniform(0, 10) int draw %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 10 {
		t.Errorf("int draws cover %d of 10 values", len(seen))
	}
	bytes, _ := Random([]int{100}, U8, Distribution{}, rng)
	for _, v := range bytes.I {
		if v < 0 || v > 255 {
			t.Fatalf("u8 draw %d", v)
		}
	}
	for _, bad := range []Distribution{Uniform(1, 1), Uniform(2, 1), Bernoulli(1.5), Normal(0, -1)} {
		if _, err := Random([]int{1}, F32, bad, rng); !errors.Is(err, ErrDistribution) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if _, err := Random([]int{1}, I32, Uniform(0.2, 0.7), rng); !errors.Is(err, ErrDistribution) {
		t.Error("Uniform(0.2, 0.7) holds no int")
	}
}

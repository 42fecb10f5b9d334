package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAttentionByHand(t *testing.T) {
	// One head, two queries, two keys of dim 1: q = [0, 1], k = [0, 1],
	// v = [[1, 2], [3, 4]], scale 1. Row 0 scores [0, 0]: the mean of v;
	// row 1 scores [0, 1]: weights 1/(1+e) and e/(1+e).
	q := mustFloats(t, []float64{0, 1}, []int{1, 1, 2, 1}, F64)
	k := mustFloats(t, []float64{0, 1}, []int{1, 1, 2, 1}, F64)
	v := mustFloats(t, []float64{1, 2, 3, 4}, []int{1, 1, 2, 2}, F64)
	one := 1.0
	e := math.E
	w0, w1 := 1/(1+e), e/(1+e)
	cases := []struct {
		name string
		mask *Tensor
		o    AttentionOptions
		want []float64
	}{
		{"plain", nil, AttentionOptions{Scale: &one}, []float64{2, 3, w0*1 + w1*3, w0*2 + w1*4}},
		// Causal: row 0 sees key 0 only.
		{"causal", nil, AttentionOptions{Scale: &one, Causal: true}, []float64{1, 2, w0*1 + w1*3, w0*2 + w1*4}},
		// A fully masked row is zeros, not NaN (the clamped max and sum).
		{"masked row", boolMask(t, []bool{true, true, false, true}, []int{1, 1, 2, 2}), AttentionOptions{Scale: &one}, []float64{0, 0, 1, 2}},
	}
	for _, c := range cases {
		got, err := Attention(q, k, v, c.mask, nil, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !closeTo(got.F, c.want, 1e-12) {
			t.Errorf("%s: got %v, want %v", c.name, got.F, c.want)
		}
	}
	// The default scale is 1/sqrt(head_dim): dim 4 halves the scores.
	q4 := mustFloats(t, []float64{2, 0, 0, 0}, []int{1, 1, 1, 4}, F64)
	k4 := mustFloats(t, []float64{1, 0, 0, 0, 0, 0, 0, 0}, []int{1, 1, 2, 4}, F64)
	v4 := mustFloats(t, []float64{1, 0}, []int{1, 1, 2, 1}, F64)
	got, _ := Attention(q4, k4, v4, nil, nil, AttentionOptions{})
	if want := e / (e + 1); math.Abs(got.F[0]-want) > 1e-12 {
		t.Errorf("default scale: %v, want %v", got.F[0], want)
	}
}

func boolMask(t *testing.T, values []bool, shape []int) *Tensor {
	t.Helper()
	b, err := FromBools(values, shape, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAttentionAgainstNaive checks attention against loops over the
// definition, with softcap, a broadcast mask and bias, and causal masking
// of a cross attention (more keys than queries), and its gradient against
// central differences.
func TestAttentionAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 8))
	for trial := range 60 {
		b, h, sq, sk, d, dv := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(4), 1+r.IntN(4), 1+r.IntN(3), 1+r.IntN(3)
		if sk < sq {
			sk = sq
		}
		qv, kv, vv := randomValues(r, b*h*sq*d), randomValues(r, b*h*sk*d), randomValues(r, b*h*sk*dv)
		maskv := make([]bool, sq*sk)
		for i := range maskv {
			maskv[i] = r.IntN(4) == 0
		}
		biasv := randomValues(r, b*sq*sk)
		var o AttentionOptions
		if r.IntN(2) == 0 {
			s := 0.3 + r.Float64()
			o.Scale = &s
		}
		if r.IntN(2) == 0 {
			c := 0.5 + r.Float64()*2
			o.Softcap = &c
		}
		o.Causal = r.IntN(2) == 0
		mask := boolMask(t, maskv, []int{1, 1, sq, sk})
		bias := mustFloats(t, biasv, []int{b, 1, sq, sk}, F64)
		naive := func(qv []float64) []float64 {
			scale := 1 / math.Sqrt(float64(d))
			if o.Scale != nil {
				scale = *o.Scale
			}
			out := make([]float64, b*h*sq*dv)
			for bi := range b {
				for hi := range h {
					for i := range sq {
						scores := make([]float64, sk)
						for j := range sk {
							s := 0.0
							for x := range d {
								s += qv[((bi*h+hi)*sq+i)*d+x] * kv[((bi*h+hi)*sk+j)*d+x]
							}
							s *= scale
							if o.Softcap != nil {
								s = *o.Softcap * math.Tanh(s / *o.Softcap)
							}
							if maskv[i*sk+j] || (o.Causal && j > i+sk-sq) {
								s = math.Inf(-1)
							}
							scores[j] = s + biasv[(bi*sq+i)*sk+j]
						}
						mx := math.Inf(-1)
						for _, s := range scores {
							mx = math.Max(mx, s)
						}
						mx = math.Max(mx, -math.MaxFloat64)
						sum := 0.0
						for j := range scores {
							scores[j] = math.Exp(scores[j] - mx)
							sum += scores[j]
						}
						sum = math.Max(sum, 0x1p-1022)
						for j := range sk {
							for x := range dv {
								out[((bi*h+hi)*sq+i)*dv+x] += scores[j] / sum * vv[((bi*h+hi)*sk+j)*dv+x]
							}
						}
					}
				}
			}
			return out
		}
		qt, _ := mustFloats(t, qv, []int{b, h, sq, d}, F64).RequireGrad()
		got, err := Attention(qt, mustFloats(t, kv, []int{b, h, sk, d}, F64), mustFloats(t, vv, []int{b, h, sk, dv}, F64), mask, bias, o)
		if err != nil {
			t.Fatal(err)
		}
		want := naive(qv)
		if !closeTo(got.F, want, 1e-9) {
			t.Fatalf("trial %d: got %v, want %v", trial, got.F, want)
		}
		loss, _ := Reduce("sum", got, BoolNative)
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			t.Fatal(err)
		}
		g, _ := grads.Get(qt)
		for i := range qv {
			const eps = 1e-6
			up, down := append([]float64(nil), qv...), append([]float64(nil), qv...)
			up[i] += eps
			down[i] -= eps
			fd := 0.0
			for j, y := range naive(up) {
				fd += (y - naive(down)[j]) / (2 * eps)
			}
			if math.Abs(g.F[i]-fd) > 1e-5 {
				t.Fatalf("trial %d: d/dq[%d] = %v, finite difference %v", trial, i, g.F[i], fd)
			}
		}
	}
}

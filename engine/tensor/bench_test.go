package tensor

import (
	"fmt"
	"testing"
)

func BenchmarkMatmul(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			rng := NewRNG(1)
			x, _ := Random([]int{n, n}, F32, Distribution{}, rng)
			y, _ := Random([]int{n, n}, F32, Distribution{}, rng)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Matmul(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTrainingStep is a typical snippet: a two-layer perceptron's
// forward pass on a batch, a softmax cross-entropy style loss, backward,
// and printing a gradient.
func BenchmarkTrainingStep(b *testing.B) {
	rng := NewRNG(1)
	input, _ := Random([]int{32, 64}, F32, Distribution{}, rng)
	w1, _ := Random([]int{64, 128}, F32, Normal(0, 0.1), rng)
	w2, _ := Random([]int{128, 10}, F32, Normal(0, 0.1), rng)
	b.ReportAllocs()
	for b.Loop() {
		l1, _ := w1.RequireGrad()
		l2, _ := w2.RequireGrad()
		h, _ := Matmul(input, l1)
		h = relu(h)
		logits, _ := Matmul(h, l2)
		logp, _ := LogSoftmax(logits, 1)
		mean, _ := Reduce("mean", logp, BoolNative)
		loss, _ := Unary("neg", mean)
		grads, err := Backward(loss, NewBudget(DefaultBudget, DefaultWork))
		if err != nil {
			b.Fatal(err)
		}
		g, _ := grads.Get(l2)
		_ = g.Display("Device<Flex(Cpu)>", DefaultPrintOptions())
	}
}

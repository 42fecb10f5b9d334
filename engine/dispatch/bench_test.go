package dispatch

import "testing"

// BenchmarkTrainingStep is one forward and backward pass of a small model
// through the dispatch model: creation, matmul, add, sum, backward, grad.
func BenchmarkTrainingStep(b *testing.B) {
	w := world(b, "flex")
	ad := mustCall(b, w, method(device(b, w, "flex"), "autodiff")).(*Device)
	for b.Loop() {
		x := ones(b, w, ad, "", 16, 8)
		wt := mustCall(b, w, method(ones(b, w, ad, "", 8, 4), "require_grad"))
		y := mustCall(b, w, method(x, "matmul", wt))
		loss := mustCall(b, w, method(mustCall(b, w, method(y, "add", f(1))), "sum"))
		grads := mustCall(b, w, method(loss, "backward"))
		mustCall(b, w, method(wt, "grad", ref(grads)))
		w.trace = w.trace[:0]
	}
}

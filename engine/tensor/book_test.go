package tensor

import "testing"

// The book's autodiff example (spec.md section 11, snippet 4):
//
//	let ad = Device::wgpu(Default::default()).autodiff();
//	let w = Tensor::<2>::ones([3, 5], &ad).require_grad();
//	let loss = w.clone().powf_scalar(3.0).sum();
//	let mut grads = loss.backward();
//	let peeked = w.grad(&grads);
//	let taken = w.grad_remove(&mut grads);
//
// By hand: loss = sum(w^3), so d loss / d w = 3 w^2 = 3 at w = 1, for each
// of the 15 elements; loss itself is 15. powf_scalar(3.0) has an integral
// exponent, so Burn takes float_powi_scalar's general case, whose
// derivative is powf_scalar(w, 2) * 3.
func TestBookAutodiffExample(t *testing.T) {
	budget := NewBudget(DefaultBudget, DefaultWork)
	w, err := Ones([]int{3, 5}, F32).RequireGrad()
	if err != nil {
		t.Fatal(err)
	}
	cubed, err := WithScalar("powf_scalar", w, FloatScalar(3.0))
	if err != nil {
		t.Fatal(err)
	}
	loss, err := Reduce("sum", cubed, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	if !sameShape(loss.Shape, []int{1}) || loss.F[0] != 15 {
		t.Fatalf("loss = %v, want [15.0] of shape [1]", loss)
	}
	grads, err := Backward(loss, budget)
	if err != nil {
		t.Fatal(err)
	}
	peeked, ok := grads.Get(w)
	if !ok {
		t.Fatal("w.grad(&grads) is None")
	}
	for i, g := range peeked.F {
		if g != 3 {
			t.Fatalf("gradient element %d = %v, want 3", i, g)
		}
	}
	if peeked.Tracked() {
		t.Error("a gradient must come back untracked")
	}
	// A gradient is a plain-kind float (spec.md §3, §6): its device is the
	// plain wgpu device, not the autodiff one w reports.
	want := "Tensor {\n" +
		"  data:\n" +
		"[[3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0]],\n" +
		"  shape:  [3, 5],\n" +
		"  device:  Device<Wgpu(DefaultDevice)>,\n" +
		"  kind:  \"Float\",\n" +
		"  dtype:  \"f32\",\n" +
		"}"
	if got := peeked.Display("Device<Wgpu(DefaultDevice)>", DefaultPrintOptions()); got != want {
		t.Errorf("println!(\"{}\", peeked) =\n%s\nwant\n%s", got, want)
	}
	wantW := "Tensor {\n" +
		"  data:\n" +
		"[[1.0, 1.0, 1.0, 1.0, 1.0],\n" +
		" [1.0, 1.0, 1.0, 1.0, 1.0],\n" +
		" [1.0, 1.0, 1.0, 1.0, 1.0]],\n" +
		"  shape:  [3, 5],\n" +
		"  device:  Device<Autodiff { device: Wgpu(DefaultDevice), checkpointing: Disabled }>,\n" +
		"  kind:  \"Float\",\n" +
		"  dtype:  \"f32\",\n" +
		"}"
	if got := w.Display("Device<Autodiff { device: Wgpu(DefaultDevice), checkpointing: Disabled }>", DefaultPrintOptions()); got != wantW {
		t.Errorf("println!(\"{}\", w) =\n%s\nwant\n%s", got, wantW)
	}

	taken, ok := grads.Remove(w)
	if !ok || taken.F[0] != 3 {
		t.Fatalf("w.grad_remove(&mut grads) = %v, %v", taken, ok)
	}
	if _, ok := grads.Get(w); ok {
		t.Error("the gradient is still there after grad_remove")
	}
	if _, ok := grads.Remove(w); ok {
		t.Error("a second grad_remove found a gradient")
	}
	// The intermediate cubed was consumed by the backward pass.
	if _, ok := grads.Get(cubed); ok {
		t.Error("an intermediate result kept its gradient")
	}
}

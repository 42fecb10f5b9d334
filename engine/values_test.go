package engine_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// The book's autodiff example (spec.md section 11, snippet 4), printing
// what it computes. By hand: loss = sum(w^3) over the 15 ones of w, so
// loss = 15 and d loss / d w = 3 w^2 = 3 for every element. The gradient
// is a plain float on the inner wgpu device, and Display names it so.
func TestBookAutodiffPrintsGradients(t *testing.T) {
	res := engine.Run(engine.Request{
		Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"wgpu\"] }\n",
		Snippet: `use burn::tensor::{Device, Tensor};

let ad = Device::wgpu(Default::default()).autodiff();
let w = Tensor::<2>::ones([3, 5], &ad).require_grad();
let loss = w.clone().powf_scalar(3.0).sum();
let mut grads = loss.backward();

// Look at the gradient and leave it in the container...
let peeked = w.grad(&grads);
// ...or take it out for good.
let taken = w.grad_remove(&mut grads);
println!("{}", peeked.unwrap());
println!("{:?}", w.grad(&grads));
println!("loss = {}", loss.into_scalar::<f32>());
println!("{:.1}", taken.unwrap());
`})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	want := "Tensor {\n  data:\n" +
		"[[3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0]],\n" +
		"  shape:  [3, 5],\n" +
		"  device:  Device<Wgpu(DefaultDevice)>,\n" +
		"  kind:  \"Float\",\n" +
		"  dtype:  \"f32\",\n" +
		"}\n" +
		"None\n" +
		"loss = 15\n" +
		"Tensor {\n  data:\n" +
		"[[3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0]],\n" +
		"  shape:  [3, 5],\n" +
		"  device:  Device<Wgpu(DefaultDevice)>,\n" +
		"  kind:  \"Float\",\n" +
		"  dtype:  \"f32\",\n" +
		"}\n"
	if res.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", res.Output, want)
	}
}

// A 10^12-element tensor runs through the whole engine with shapes only:
// the run succeeds, the output says values were elided, once, the print of
// its mean is not checked (its data are not known), and the heap does not
// grow by more than a small constant.
func TestHugeTensorRunsWithShapesOnly(t *testing.T) {
	req := engine.Request{Snippet: `use burn::tensor::{Device, Tensor};
let device = Device::default();
let huge = Tensor::<2>::ones([1_000_000, 1_000_000], &device);
let scaled = huge.clone() * 2.0 + huge;
println!("{:?}", scaled.dims());
println!("{}", scaled.mean());
`}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := engine.Run(req)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %+v", res.Status, res.Diagnostics)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Errorf("the heap grew by %d bytes", grown)
	}
	if after.TotalAlloc-before.TotalAlloc > 256<<20 {
		t.Errorf("the run allocated %d bytes", after.TotalAlloc-before.TotalAlloc)
	}
	const note = "note: values of tensors beyond the playground's budget of 1,000,000 elements per run were not computed; those tensors carry shapes only\n"
	if res.Output != "[1000000, 1000000]\n"+note {
		t.Errorf("output:\n%s", res.Output)
	}
	if res.Complete || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "playground-unchecked" {
		t.Errorf("the print of the mean is not unchecked: complete %v, %+v", res.Complete, res.Diagnostics)
	}
	for _, ev := range res.Trace {
		if strings.Contains(ev.Note, "values:") {
			t.Errorf("trace entry %s previews values of a shape-only tensor: %s", ev.Op, ev.Note)
		}
	}
}

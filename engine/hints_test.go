package engine_test

import (
	"fmt"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

// TestHints: the check labels each `let` of a tensor, at its pattern, and
// each use of a variable that holds one, with the tensor's type, device,
// shape and autodiff, in the order of the text; a let in a loop shows its
// last run. The check's hints come with a rejected or panicking Result too.
func TestHints(t *testing.T) {
	ex, ok := examples.ByName("wrong-device-add")
	if !ok {
		t.Fatal("no wrong-device-add example")
	}
	res := engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
	var got []string
	for _, h := range res.Hints {
		got = append(got, fmt.Sprintf("%s:%d:%d-%d %s", h.File, h.Span.Start.Line, h.Span.Start.Column, h.Span.End.Column, h.Label))
	}
	want := []string{
		"main.rs:6:9-10 Tensor<2> · Cuda(Cuda(0)) · [2, 3]",
		"main.rs:7:9-10 Tensor<2> · Wgpu(DefaultDevice) · [2, 3]",
		"main.rs:8:13-14 Tensor<2> · Cuda(Cuda(0)) · [2, 3]",
		"main.rs:8:17-18 Tensor<2> · Wgpu(DefaultDevice) · [2, 3]",
	}
	if res.Status != engine.StatusPanicked || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("status %s, hints\n%q\nwant\n%q", res.Status, got, want)
	}

	loop := "use burn::tensor::{Device, Tensor};\nfn main() {\n    let device = Device::default().autodiff();\n    let mut x = Tensor::<1>::ones([1], &device);\n    for _ in 0..3 {\n        let y = Tensor::cat(vec![x.clone(), x], 0);\n        x = y;\n    }\n}\n"
	res = engine.Run(engine.Request{Snippet: loop})
	if len(res.Hints) != 5 || res.Hints[1].Label != "Tensor<1> · Flex(Cpu) · [8] · autodiff" || res.Hints[1].Span.Start.Line != 6 {
		t.Errorf("hints of a loop: %+v", res.Hints)
	}
}

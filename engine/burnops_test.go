package engine_test

import (
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// Programs that use the tensor ops burn-tensor composes, run end to end:
// what they print is what Burn prints (values worked by hand; TensorData
// displays its elements flat).
func TestComposedOpsPrograms(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"iter_dim from both ends", `
    let t = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let mut it = t.iter_dim(1);
    let first = it.next().unwrap();
    let last = it.next_back().unwrap();
    println!("{} {} {}", first.into_data(), last.into_data(), it.len());
`, "[1.0, 4.0] [3.0, 6.0] 1\n"},
		{"stepped slices", `
    let t = Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]], &device);
    println!("{}", t.clone().slice(s![0..3;2, 0..4;-1]).into_data());
    println!("{}", t.slice([s![..;-1]]).into_data());
`, "[4.0, 3.0, 2.0, 1.0, 12.0, 11.0, 10.0, 9.0]\n[9.0, 10.0, 11.0, 12.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0]\n"},
		{"pad and cumprod", `
    let t = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device);
    println!("{}", t.clone().pad([(2, 1)], PadMode::Reflect).into_data());
    println!("{}", t.cumprod(0).into_data());
`, "[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]\n[1.0, 2.0, 6.0]\n"},
	}
	for _, c := range cases {
		src := "use burn::tensor::{Tensor, s, ops::PadMode};\nfn main() {\n    let device = Default::default();\n" + c.body + "}\n"
		res := engine.Run(engine.Request{Snippet: src})
		if res.Status != "ok" || res.Output != c.want || len(res.Diagnostics) != 0 {
			t.Errorf("%s: status %s, output %q, diagnostics %v\nwant %q", c.name, res.Status, res.Output, res.Diagnostics, c.want)
		}
	}
}

package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// A Vec of f32s some of whose values come from outside (a file, `rand`)
// has a known length: Tensor::from_floats of it has that shape and no
// values, so it is traced and an assertion on its values is unchecked,
// never passed. An array whose nesting does not match the rank stays
// unknown.
func TestFromFloatsOfUnknownValuesHasItsShape(t *testing.T) {
	res := run(t, engine.Request{
		Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"flex\"] }\n",
		Snippet: `use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let x = std::fs::read("x").unwrap().len() as f32;
    let mut seq = vec![x, 1.0];
    seq.push(x + 1.0);
    let a = Tensor::<1>::from_floats(seq.as_slice(), &device);
    println!("{:?}", a.dims());
    assert_eq!(a.sum().into_scalar::<f32>(), 3.0);
    let rows = vec![vec![x, x], vec![1.0, 2.0]];
    let b: Tensor<2> = Tensor::from_data(TensorData::new(rows.concat(), [2, 2]), &device);
    let c = Tensor::<2>::from_floats([[x, 1.0], [2.0, x]], &device);
    println!("{:?}", c.dims());
}
`})
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s complete %v, want an incomplete ok:\n%s", res.Status, res.Complete, Summary(res))
	}
	if res.Output != "[3]\n[2, 2]\n" {
		t.Errorf("output %q, want the shapes", res.Output)
	}
	var shapes []string
	for _, e := range res.Trace {
		if e.Op == "float_from_data" {
			shapes = append(shapes, fmt.Sprint(e.Shape))
			if strings.Contains(e.Note, "values") {
				t.Errorf("a tensor of unknown values shows values: %s", e.Note)
			}
		}
	}
	if strings.Join(shapes, " ") != "[3] [2 2]" {
		t.Errorf("made %v, want [3] and [2 2]:\n%s", shapes, Summary(res))
	}
	unchecked := false
	for _, d := range res.Diagnostics {
		if d.Code == "playground-unchecked" && strings.HasPrefix(d.Message, "`assert_eq!` was not checked") {
			unchecked = true
		}
	}
	if !unchecked {
		t.Errorf("the assertion on unknown values was not reported unchecked:\n%s", Summary(res))
	}
}

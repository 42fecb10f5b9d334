package engine_test

import (
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// The graphs of burn-autodiff's memory management tests
// (crates/burn-backend-tests/tests/autodiff/memory_management.rs), written
// anew: each test builds the same graph and runs the same backward passes.
// memoryPrelude is what they share: a tracked 2x2 leaf.
const memoryPrelude = `use burn::tensor::{Device, Tensor, TensorData};

fn leaf(device: &Device) -> Tensor<2> {
    Tensor::from_data(TensorData::from([[1.0, 2.0], [3.0, 4.0]]), device).require_grad()
}
`

// memoryTests are the graphs of memory_management.rs, by the name of
// Burn's test, each with whether Burn panics running it.
var memoryTests = []struct {
	burn   string
	panics bool
	body   string
}{
	{"test_mm_independent_trees", false, `
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cd = c * d;
    let first = ab * cd;
    let (e, f, g, h) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ef = e.clone() * f.clone();
    let gh = g.clone() * h.clone();
    let second = ef * gh;
    let _g1 = first.backward();
    let g2 = second.backward();
    assert!(e.grad(&g2).is_some());
    assert!(f.grad(&g2).is_some());
    assert!(g.grad(&g2).is_some());
    assert!(h.grad(&g2).is_some());`},
	{"test_mm_crossover_trees_root_unavailable", true, `
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cd = c * d;
    let first = ab.clone() * cd;
    let e = leaf(&dev);
    let f = leaf(&dev);
    let ef = e.clone() * f.clone();
    let crossing = ab * ef;
    let _g1 = first.backward();
    let _g2 = crossing.backward();`},
	{"test_mm_crossover_trees_with_referred_subtree", false, `
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cd = c * d;
    let first = ab.clone() * cd;
    let e = leaf(&dev);
    let f = leaf(&dev);
    let ef = e.clone() * f.clone();
    let _crossing = ab * ef.clone();
    let _g1 = first.backward();
    let _g2 = ef.backward();`},
	{"test_mm_three_crossover_trees_last_still_usable", false, `
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cd = c * d;
    let first = ab * cd.clone();
    let (e, f, g, h) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ef = e * f;
    let gh = g * h;
    let last = ef * gh.clone();
    let _middle = cd * gh;
    let _g1 = first.backward();
    let _g2 = last.backward();`},
	{"test_mm_three_crossover_trees_middle_one_unavailable", true, `
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cd = c * d;
    let first = ab * cd.clone();
    let (e, f, g, h) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ef = e * f;
    let gh = g * h;
    let _last = ef * gh.clone();
    let middle = cd * gh;
    let _g1 = first.backward();
    let _g2 = middle.backward();`},
	{"test_mm_self_referencing_tree", false, `
    let dev = Device::default().autodiff();
    let (a, b, c) = (leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a * b;
    let cab = c * ab.clone();
    let top = ab * cab;
    let _g = top.backward();`},
	{"test_mm_with_non_impacting_detach", false, `
    let dev = Device::default().autodiff();
    let (a, b, c) = (leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a.clone() * b.clone();
    let top = ab.detach() * c.clone();
    let g = top.backward();
    assert!(c.grad(&g).is_some());`},
	{"test_mm_with_missing_require_grad_after_cleanup", false, `
    let dev = Device::default().autodiff();
    let data = TensorData::from([[1.0, 2.0], [3.0, 4.0]]);
    let a = leaf(&dev);
    let b = Tensor::<2>::from_data(data.clone(), &dev);
    let c = Tensor::<2>::from_data(data.clone(), &dev);
    let ab = a.clone() * b.clone();
    let top = ab * c.clone();
    Tensor::<2>::from_data(data, &dev).require_grad().backward();
    let g = top.backward();
    assert!(a.grad(&g).is_some());
    assert!(b.grad(&g).is_none());
    assert!(c.grad(&g).is_none());`},
	{"test_mm_with_detach_after_cleanup", false, `
    let dev = Device::default().autodiff();
    let (a, b, c) = (leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a.clone() * b.clone();
    let top = ab * c.clone().detach();
    leaf(&dev).backward();
    let g = top.backward();
    assert!(a.grad(&g).is_some());
    assert!(b.grad(&g).is_some());
    assert!(c.grad(&g).is_none());`},
	{"test_mm_deletables_propagate_well", true, `
    let dev = Device::default().autodiff();
    let (a, b) = (leaf(&dev), leaf(&dev));
    let ab = a * b;
    let up = ab.clone().exp();
    let _down = up.clone().log();
    let _g1 = ab.backward();
    let _g2 = up.backward();`},
	{"test_mm_node_explored_once_can_still_be_tagged_as_useful_when_found_again_deeper", false, `
    let dev = Device::default().autodiff();
    for _ in 0..12 {
        let (a, b) = (leaf(&dev), leaf(&dev));
        let eb = b.clone().exp();
        let ea = a.exp();
        let _both = ea.clone() * eb.clone();
        let e2 = eb.exp();
        let e3 = e2.exp();
        let e4 = e3.exp();
        let e5 = e4.exp();
        ea.backward();
        let g = e5.backward();
        assert!(b.grad(&g).is_some());
    }`},
}

// memoryProgram is the memory tests as one crate's tests.
func memoryProgram() string {
	var b strings.Builder
	b.WriteString(memoryPrelude)
	for _, tc := range memoryTests {
		b.WriteString("\n#[test]\n")
		if tc.panics {
			b.WriteString("#[should_panic]\n")
		}
		b.WriteString("fn " + tc.burn + "() {" + tc.body + "\n}\n")
	}
	return b.String()
}

const (
	noStepMessage  = "Node should have a step registered, did you forget to call `Tensor::register_grad` on the tensor where you need gradients?"
	noStepLocation = "crates/burn-autodiff/src/runtime/server.rs:69"
)

// TestGraphMemoryTests runs the graphs of Burn's memory management tests
// as `cargo test` runs them: those Burn frees a node of before the second
// backward pass panic as Burn does, the others pass.
func TestGraphMemoryTests(t *testing.T) {
	res := runTests(t, memoryProgram())
	if len(res.Tests) != len(memoryTests) {
		t.Fatalf("%d tests ran, want %d:\n%s", len(res.Tests), len(memoryTests), statuses(res))
	}
	for _, tc := range memoryTests {
		tr := testNamed(t, res, tc.burn)
		if tr.Status != "ok" {
			t.Errorf("%s: %s, want ok\n%s", tc.burn, tr.Status, tr.Output)
			continue
		}
		switch {
		case tc.panics && tr.Panic == nil:
			t.Errorf("%s: did not panic", tc.burn)
		case tc.panics && (tr.Panic.Message != noStepMessage || tr.Panic.Location != noStepLocation):
			t.Errorf("%s: panicked with %q at %s, want Burn's missing-step panic", tc.burn, tr.Panic.Message, tr.Panic.Location)
		case !tc.panics && tr.Panic != nil:
			t.Errorf("%s: panicked with %q", tc.burn, tr.Panic.Message)
		}
	}
	checkPromises(t, res)
}

// runMemoryMain runs body as main after the prelude.
func runMemoryMain(t *testing.T, body string) engine.Result {
	t.Helper()
	return run(t, engine.Request{Snippet: memoryPrelude + "\nfn main() {" + body + "\n}\n"})
}

// TestGraphMemoryPanics runs the three graphs Burn panics on as programs:
// the second backward pass panics at its receiver with Burn's message and
// location.
func TestGraphMemoryPanics(t *testing.T) {
	for _, tc := range memoryTests {
		if !tc.panics {
			continue
		}
		t.Run(tc.burn, func(t *testing.T) {
			res := runMemoryMain(t, tc.body)
			p := res.Panic
			if res.Status != engine.StatusPanicked || p == nil {
				t.Fatalf("status %s, want panicked", res.Status)
			}
			if p.Message != noStepMessage || p.Location != noStepLocation {
				t.Errorf("panicked with %q at %s, want %q at %s", p.Message, p.Location, noStepMessage, noStepLocation)
			}
			if !strings.HasPrefix(p.Rendered, "thread 'main' panicked at "+noStepLocation+":\n") {
				t.Errorf("rendered %q", p.Rendered)
			}
			// The receiver of the last backward() call.
			lines := strings.Split(memoryPrelude+"\nfn main() {"+tc.body, "\n")
			last := lines[len(lines)-1]
			recv := strings.TrimSpace(last[strings.Index(last, "=")+1 : strings.Index(last, ".backward")])
			if p.Span.Start.Line != len(lines) || last[p.Span.Start.Column-1:p.Span.End.Column-1] != recv {
				t.Errorf("panic at %d:%d-%d, want `%s` on line %d", p.Span.Start.Line, p.Span.Start.Column, p.Span.End.Column, recv, len(lines))
			}
			checkPromises(t, res)
		})
	}
}

// TestGraphMemoryLiveHandles: a node a living handle refers to stays in
// the graph, wherever the handle is (a caller's frame, a binding a later
// `let` shadows, a value the engine cannot see into), so the backward
// passes that need it still run and get their gradients; a handle moved
// into an operation by a shadowing `let` is gone, as in Burn.
func TestGraphMemoryLiveHandles(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		panics bool
	}{
		{
			// The crossover graph with the shared node and the first
			// tree's leaves kept: the second pass runs. The shared node's
			// step went with the first pass, so its leaves get nothing
			// from the second (graph/traversal.rs:41-45).
			name: "kept handles get their gradients",
			src: memoryPrelude + `
fn main() {
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a.clone() * b.clone();
    let cd = c * d;
    let first = ab.clone() * cd;
    let e = leaf(&dev);
    let f = Tensor::<2>::from_data(TensorData::from([[2.0, 2.0], [2.0, 2.0]]), &dev).require_grad();
    let ef = e.clone() * f.clone();
    let crossing = ab.clone() * ef;
    let g1 = first.backward();
    a.grad(&g1).unwrap().to_data().assert_eq(&TensorData::from([[1.0, 8.0], [27.0, 64.0]]), false);
    let g2 = crossing.backward();
    e.grad(&g2).unwrap().to_data().assert_eq(&TensorData::from([[2.0, 8.0], [18.0, 32.0]]), false);
    f.grad(&g2).unwrap().to_data().assert_eq(&TensorData::from([[1.0, 8.0], [27.0, 64.0]]), false);
    assert!(a.grad(&g2).is_none());
}
`,
		},
		{
			name: "a handle in the caller's frame",
			src: memoryPrelude + `
fn through(x: Tensor<2>) {
    let y = x * 2.0;
    let _g = y.backward();
}

fn main() {
    let dev = Device::default().autodiff();
    let (a, b, c) = (leaf(&dev), leaf(&dev), leaf(&dev));
    let ab = a.clone() * b.clone();
    let side = ab.clone() * c;
    through(ab.clone());
    let g = side.backward();
    assert!(a.grad(&g).is_none());
}
`,
		},
		{
			name: "a shadowed binding lives to the end of its scope",
			src: memoryPrelude + `
fn main() {
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let p = a.clone() * b.clone();
    let side = p.clone() * c;
    let p = p.clone().exp();
    let top = p * d;
    let _g = top.backward();
    let _g = side.backward();
}
`,
		},
		{
			name: "a shadowing let that moves the binding frees its node",
			src: memoryPrelude + `
fn main() {
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let p = a.clone() * b.clone();
    let side = p.clone() * c;
    let p = p.exp();
    let top = p * d;
    let _g = top.backward();
    let _g = side.backward();
}
`,
			panics: true,
		},
		{
			// The first pass consumed x's step and took x out of the
			// locator (runtime/server.rs:102-104): a's graph is a new one,
			// without x, so the second pass finds a's parent missing and
			// frees a and what was computed from it.
			name: "an op on a node an earlier pass consumed starts a graph without it",
			src: memoryPrelude + `
fn main() {
    let dev = Device::default().autodiff();
    let x = leaf(&dev);
    let y = x.clone() * 2.0;
    let _g = y.backward();
    let a = x.clone() * 3.0;
    let b = a.clone() * 4.0;
    let c = a.clone() * 5.0;
    let g = b.backward();
    assert!(x.grad(&g).is_some());
    let _g = c.backward();
}
`,
			panics: true,
		},
		{
			name: "a handle inside a map",
			src: memoryPrelude + `
use std::collections::HashMap;

fn main() {
    let dev = Device::default().autodiff();
    let (a, b, c, d) = (leaf(&dev), leaf(&dev), leaf(&dev), leaf(&dev));
    let p = a.clone() * b.clone();
    let mut held = HashMap::new();
    held.insert("p", p.clone());
    let side = p.clone() * c;
    let top = p * d;
    let _g = top.backward();
    let _g = side.backward();
    assert_eq!(held.len(), 1);
}
`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, engine.Request{Snippet: tc.src})
			if tc.panics {
				if res.Panic == nil || res.Panic.Message != noStepMessage || res.Panic.Location != noStepLocation {
					t.Fatalf("status %s, panic %+v, want Burn's missing-step panic", res.Status, res.Panic)
				}
			} else if res.Status != engine.StatusOK {
				t.Fatalf("status %s, panic %+v\n%s", res.Status, res.Panic, Summary(res))
			}
			if !tc.panics && !res.Complete {
				t.Errorf("incomplete:\n%s", Summary(res))
			}
			checkPromises(t, res)
		})
	}
}

// TestGraphMemoryStoppedPassValues: a pass that stops at a step an
// earlier pass consumed gives a leaf above it only the gradient of the
// steps it ran (graph/traversal.rs:41-45). The engine's values would count
// the stopped path too, so they are unknown there, and an assertion on
// them is reported unchecked rather than passed or failed on a guess; a
// leaf no stopped step leads to keeps its values.
func TestGraphMemoryStoppedPassValues(t *testing.T) {
	res := run(t, engine.Request{Snippet: memoryPrelude + `
fn main() {
    let dev = Device::default().autodiff();
    let (l, x) = (leaf(&dev), leaf(&dev));
    let d = l.clone() * x.clone();
    let e = d.clone() * 2.0;
    let _g = d.backward();
    let m = leaf(&dev);
    let r = e.clone() * l.clone() + m.clone();
    let g = r.backward();
    l.grad(&g).unwrap().to_data().assert_eq(&TensorData::from([[2.0, 8.0], [18.0, 32.0]]), false);
    m.grad(&g).unwrap().to_data().assert_eq(&TensorData::from([[1.0, 1.0], [1.0, 1.0]]), false);
}
`})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s, panic %+v\n%s", res.Status, res.Panic, Summary(res))
	}
	var unchecked []int
	for _, d := range res.Diagnostics {
		if d.Code == engine.CodeUnchecked {
			unchecked = append(unchecked, d.Span.Start.Line)
		}
	}
	lines := strings.Split(memoryPrelude, "\n")
	want := len(lines) + 10 // the assertion on l's gradient
	if len(unchecked) != 1 || unchecked[0] != want {
		t.Errorf("unchecked assertions on lines %v, want only %d\n%s", unchecked, want, Summary(res))
	}
}

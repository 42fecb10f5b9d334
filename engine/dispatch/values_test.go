package dispatch

import (
	"runtime"
	"strings"
	"testing"
)

// display is `{}` of a value that has Display.
func display(t *testing.T, v Value) string {
	t.Helper()
	s, ok := Display(v)
	if !ok {
		t.Fatalf("%s has no Display", v.TypeName())
	}
	return s
}

// The book's autodiff example (spec.md section 11, snippet 4) on a wgpu
// autodiff device. By hand: loss = sum(w^3) over the 15 elements of w = 1,
// so loss = 15 and d loss / d w = 3 w^2 = 3 everywhere. A gradient comes
// back as a plain float on the inner device, which is the device line its
// Display prints; w itself reports the autodiff device.
func TestBookAutodiffValues(t *testing.T) {
	w := world(t, "wgpu")
	ad := mustCall(t, w, method(device(t, w, "wgpu", enum("Default", "default")), "autodiff")).(*Device)
	x := mustCall(t, w, method(ones(t, w, ad, "", 3, 5), "require_grad")).(*Tensor)
	cubed := mustCall(t, w, method(x, "powf_scalar", f(3))).(*Tensor)
	loss := mustCall(t, w, method(cubed, "sum")).(*Tensor)
	wantLoss := "Tensor {\n  data:\n[15.0],\n  shape:  [1],\n" +
		"  device:  Device<Autodiff { device: Wgpu(DefaultDevice), checkpointing: Disabled }>,\n" +
		"  kind:  \"Float\",\n  dtype:  \"f32\",\n}"
	if got := display(t, loss); got != wantLoss {
		t.Errorf("println!(\"{}\", loss) =\n%s\nwant\n%s", got, wantLoss)
	}
	grads := mustCall(t, w, method(loss, "backward")).(*Gradients)
	peeked := mustCall(t, w, method(x, "grad", ref(grads))).(*Enum)
	if peeked.Variant != "Some" {
		t.Fatalf("w.grad(&grads) = %s", Debug(peeked))
	}
	want := "Tensor {\n  data:\n" +
		"[[3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0],\n" +
		" [3.0, 3.0, 3.0, 3.0, 3.0]],\n" +
		"  shape:  [3, 5],\n" +
		"  device:  Device<Wgpu(DefaultDevice)>,\n" +
		"  kind:  \"Float\",\n  dtype:  \"f32\",\n}"
	if got := display(t, peeked.Fields[0]); got != want {
		t.Errorf("println!(\"{}\", peeked.unwrap()) =\n%s\nwant\n%s", got, want)
	}
	taken := mustCall(t, w, method(x, "grad_remove", &Ref{V: grads, Mut: true})).(*Enum)
	if taken.Variant != "Some" || display(t, taken.Fields[0]) != want {
		t.Errorf("grad_remove = %s", Debug(taken))
	}
	if again := mustCall(t, w, method(x, "grad", ref(grads))).(*Enum); again.Variant != "None" {
		t.Errorf("after grad_remove, grad = %s", Debug(again))
	}
}

// Gradients of a two-leaf composition, derived by hand: for
// y = sum(a * b + a), dy/da = b + 1 and dy/db = a.
func TestGradientsOfTwoLeaves(t *testing.T) {
	w := world(t, "flex")
	ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
	leaf := func(vals ...Value) *Tensor {
		v := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(vals...), ref(ad)))
		return mustCall(t, w, method(v, "require_grad")).(*Tensor)
	}
	a, b := leaf(f(1), f(2), f(3)), leaf(f(4), f(5), f(6))
	prod := mustCall(t, w, method(a, "mul", b))
	sum := mustCall(t, w, method(prod, "add", a))
	y := mustCall(t, w, method(sum, "sum")).(*Tensor)
	grads := mustCall(t, w, method(y, "backward")).(*Gradients)
	check := func(x *Tensor, want string) {
		t.Helper()
		g := mustCall(t, w, method(x, "grad", ref(grads))).(*Enum)
		if g.Variant != "Some" {
			t.Fatalf("no gradient")
		}
		if got := g.Fields[0].(*Tensor).vals().Preview(8); got != want {
			t.Errorf("gradient %s, want %s", got, want)
		}
	}
	check(a, "[5.0, 6.0, 7.0]")
	check(b, "[1.0, 2.0, 3.0]")

	// grad_replace on a clone of the container leaves the original alone.
	copied := mustCall(t, w, method(grads, "clone")).(*Gradients)
	zeros := mustCall(t, w, fnG("Tensor::zeros", []string{"1"}, dims(3), ref(device(t, w, "flex")))).(*Tensor)
	mustCall(t, w, method(a, "grad_replace", &Ref{V: copied, Mut: true}, zeros))
	replaced := mustCall(t, w, method(a, "grad", ref(copied))).(*Enum)
	if got := replaced.Fields[0].(*Tensor).vals().Preview(8); got != "[0.0, 0.0, 0.0]" {
		t.Errorf("replaced gradient %s", got)
	}
	check(a, "[5.0, 6.0, 7.0]")
}

// A 10^12-element tensor runs with shapes only: the metadata model goes on
// (trace, shapes), Display elides the data, the output ends with the note
// once, and memory stays where it was.
func TestHugeTensorKeepsShapesOnly(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := world(t, "flex")
	d := device(t, w, "flex")
	huge := ones(t, w, d, "", 1_000_000, 1_000_000)
	doubled := mustCall(t, w, method(huge, "mul_scalar", f(2))).(*Tensor)
	total := mustCall(t, w, method(doubled, "sum")).(*Tensor)
	small := ones(t, w, d, "", 2)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Errorf("the heap grew by %d bytes for a shape-only tensor", grown)
	}
	if huge.vals() != nil || doubled.vals() != nil || total.vals() != nil {
		t.Error("a tensor past the budget carries values")
	}
	if small.vals() == nil {
		t.Error("a small tensor after a huge one lost its values")
	}
	if got := display(t, total); !strings.Contains(got, "data:\n[..],\n  shape:  [1],") {
		t.Errorf("Display of a shape-only tensor:\n%s", got)
	}
	note := w.Epilogue()
	if note != "note: values of tensors beyond the playground's budget of 1,000,000 elements per run were not computed; those tensors carry shapes only\n" {
		t.Errorf("Epilogue = %q", note)
	}
	if w.Epilogue() != note {
		t.Error("the epilogue changed on a second read")
	}
	if fresh := world(t, "flex"); fresh.Epilogue() != "" {
		t.Errorf("a run within the budget has an epilogue: %q", fresh.Epilogue())
	}
}

// Trace notes end with a preview of the values an operation produced,
// after any note of the model's own.
func TestTracePreview(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(0.5), f(-1.5)), ref(d))).(*Tensor)
	mustCall(t, w, method(x, "require_grad"))
	mustCall(t, w, method(x, "abs"))
	tr := w.Trace()
	if len(tr) != 3 {
		t.Fatalf("%d trace entries", len(tr))
	}
	if tr[0].Note != "values: [0.5, -1.5]" {
		t.Errorf("creation note %q", tr[0].Note)
	}
	if tr[1].Note != "no-op: the tensor is not on an autodiff device; values: [0.5, -1.5]" {
		t.Errorf("require_grad note %q", tr[1].Note)
	}
	if tr[2].Note != "values: [0.5, 1.5]" {
		t.Errorf("abs note %q", tr[2].Note)
	}
}

// `{:.N}` prints a tensor's floats with N digits; `{:?}` is Tensor's
// derived Debug.
func TestTensorFormats(t *testing.T) {
	w := world(t, "flex")
	x := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(1), f(2.0/3)), ref(device(t, w, "flex"))))
	got, ok := DisplayPrecision(x, 2)
	if !ok || !strings.Contains(got, "data:\n[1.00, 0.67],") {
		t.Errorf("{:.2} =\n%s", got)
	}
	if s, _ := DisplayPrecision(Float{V: 2.0 / 3}, 3); s != "0.667" {
		t.Errorf("{:.3} of a float = %q", s)
	}
	if s := Debug(x); s != "Tensor { primitive: BridgeTensor { kind: Float }, _kind: PhantomData<burn_tensor::bridge::kind::Float> }" {
		t.Errorf("{:?} = %q", s)
	}
	b := mustCall(t, w, method(x, "greater_elem", f(0.5)))
	if s := display(t, b); !strings.Contains(s, "[true, true]") || !strings.Contains(s, `dtype:  "bool"`) {
		t.Errorf("bool tensor:\n%s", s)
	}
}

// The same seed gives the same values; another seed, others.
func TestSeedRestartsTheGenerator(t *testing.T) {
	draw := func(seed int64) string {
		w := world(t, "flex")
		d := device(t, w, "flex")
		if seed >= 0 {
			mustCall(t, w, method(d, "seed", i(seed)))
		}
		uniform := enum("Distribution", "Uniform", f(-1), f(1))
		r := mustCall(t, w, fnG("Tensor::random", []string{"1"}, dims(4), uniform, ref(d))).(*Tensor)
		return r.vals().Preview(8)
	}
	if draw(7) != draw(7) {
		t.Error("one seed, two draws")
	}
	if draw(7) == draw(8) {
		t.Error("two seeds, one draw")
	}
	if draw(-1) != draw(0) {
		t.Error("the default seed is not 0")
	}
}

// TensorData read from a tensor: ==, to_vec, into_scalar and the two
// assertions, which fail with burn-std's messages at compare.rs.
func TestTensorDataValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(1), f(2), f(3)), ref(d)))
	data := mustCall(t, w, method(x, "into_data")).(*TensorData)
	same := mustCall(t, w, method(mustCall(t, w, method(x, "clone")), "into_data"))
	if eq := mustCall(t, w, method(data, "eq", same)); eq != Bool(true) {
		t.Errorf("data == itself: %v", eq)
	}
	literal := mustCall(t, w, fn("TensorData::from", arr(f(1), f(2), f(3))))
	if eq := mustCall(t, w, method(data, "eq", literal)); eq != Bool(false) {
		t.Errorf("f32 data == f64 literal data: %v (the derived PartialEq compares dtypes)", eq)
	}
	if display(t, data) != "[1.0, 2.0, 3.0]" {
		t.Errorf("{} of TensorData = %q", display(t, data))
	}

	vec := mustCall(t, w, Call{Recv: data, Method: "to_vec", Generics: [][]string{{"f32"}}}).(*Enum)
	if vec.Variant != "Ok" || Debug(vec.Fields[0]) != "[1.0, 2.0, 3.0]" {
		t.Errorf("to_vec::<f32>() = %s", Debug(vec))
	}
	wrong := mustCall(t, w, Call{Recv: data, Method: "to_vec", Generics: [][]string{{"i64"}}}).(*Enum)
	if wrong.Variant != "Err" || Debug(wrong.Fields[0]) != "DTypeMismatch { expected: I64, actual: F32 }" {
		t.Errorf("to_vec::<i64>() = %s", Debug(wrong))
	}
	if s, _ := Display(wrong.Fields[0]); s != "Expected data type I64, but got F32" {
		t.Errorf("{} of the DataError = %q", s)
	}
	sum := mustCall(t, w, method(x, "sum"))
	if v := mustCall(t, w, Call{Recv: sum, Method: "into_scalar", Expect: "f32"}); Debug(v) != "6.0" {
		t.Errorf("into_scalar = %s", Debug(v))
	}

	p := mustPanic(t, w, method(data, "assert_eq", ref(literal), Bool(true)))
	if p.ID != "std-data-dtype-differ" || p.Location != "crates/burn-std/src/data/compare.rs:220" || !p.TrackCaller ||
		p.Message != "assertion `left == right` failed: Data types differ (F32 != F64)\n  left: F32\n right: F64" {
		t.Errorf("strict assert_eq: %s at %s: %q", p.ID, p.Location, p.Message)
	}
	mustCall(t, w, method(data, "assert_eq", ref(literal), Bool(false)))
	other := mustCall(t, w, fn("TensorData::from", arr(f(1), f(2), f(4))))
	p = mustPanic(t, w, method(data, "assert_eq", ref(other), Bool(false)))
	if p.ID != "std-data-not-eq" || p.Location != "crates/burn-std/src/data/compare.rs:292" ||
		p.Message != "Tensors are not eq:\n  => Position 2: 3 != 4" {
		t.Errorf("assert_eq: %s at %s: %q", p.ID, p.Location, p.Message)
	}
	near := mustCall(t, w, fn("TensorData::from", arr(f(1), f(2), f(3.001))))
	tol := mustCall(t, w, fn("Tolerance::default"))
	mustCall(t, w, Call{Recv: data, Method: "assert_approx_eq", Args: []Value{ref(near), tol}, Generics: [][]string{{"f32"}}})
	strict := mustCall(t, w, fn("Tolerance::absolute", f(1e-6)))
	p = mustPanic(t, w, Call{Recv: data, Method: "assert_approx_eq", Args: []Value{ref(near), strict}, Generics: [][]string{{"f32"}}})
	if p.ID != "std-data-not-approx-eq" || p.Location != "crates/burn-std/src/data/compare.rs:357" ||
		!strings.HasPrefix(p.Message, "Tensors are not approx eq:\n  => Position 2: 3 != 3.001\n") {
		t.Errorf("assert_approx_eq: %s at %s: %q", p.ID, p.Location, p.Message)
	}
	loose := mustCall(t, w, method(strict, "set_single_precision_absolute", f(0.01)))
	mustCall(t, w, Call{Recv: data, Method: "assert_approx_eq", Args: []Value{ref(near), loose}, Generics: [][]string{{"f32"}}})
}

// Each kind of call reaches the right kernel with its arguments resolved
// as Burn resolves them (negative dims, ranges, update ops), checked on
// values worked out by hand.
func TestOpsComputeValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	floats := func(rank string, vals Value) *Tensor {
		return mustCall(t, w, fnG("Tensor::from_floats", []string{rank}, vals, ref(d))).(*Tensor)
	}
	ints := func(rank string, vals Value) *Tensor {
		return mustCall(t, w, fnG("Tensor::from_ints", []string{rank, "Int"}, vals, ref(d))).(*Tensor)
	}
	m := floats("2", arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6))))
	row := floats("2", arr(arr(f(10), f(20), f(30))))
	rng := func(lo, hi int64) *Range { return &Range{Lo: &lo, Hi: &hi} }
	cases := []struct {
		name string
		call Call
		want string
	}{
		{"broadcast add", method(m, "add", row), "[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]"},
		{"scalar on the left", Call{Recv: f(1), Method: "sub", Args: []Value{m}}, "[[0.0, -1.0, -2.0], [-3.0, -4.0, -5.0]]"},
		{"matmul", method(m, "matmul", mustCall(t, w, method(m, "transpose"))), "[[14.0, 32.0], [32.0, 77.0]]"},
		{"sum_dim of a negative dim", method(m, "sum_dim", i(-1)), "[[6.0], [15.0]]"},
		{"argmax", method(m, "argmax", i(0)), "[[1, 1, 1]]"},
		{"cumsum", method(m, "cumsum", i(1)), "[[1.0, 3.0, 6.0], [4.0, 9.0, 15.0]]"},
		{"slice", method(m, "slice", arr(rng(0, 2), rng(1, 3))), "[[2.0, 3.0], [5.0, 6.0]]"},
		{"narrow", method(m, "narrow", i(1), i(2), i(1)), "[[3.0], [6.0]]"},
		{"swap_dims", method(m, "swap_dims", i(0), i(-1)), "[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]"},
		{"reshape with -1", method(m, "reshape", arr(i(-1), i(2))), "[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]"},
		{"flip", method(m, "flip", arr(i(-1))), "[[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]]"},
		{"gather", method(m, "gather", i(1), ints("2", arr(arr(i(2), i(0)), arr(i(1), i(1))))), "[[3.0, 1.0], [5.0, 5.0]]"},
		{"select", method(m, "select", i(1), ints("1", arr(i(2), i(0)))), "[[3.0, 1.0], [6.0, 4.0]]"},
		{"mask_where", method(m, "mask_where", mustCall(t, w, method(m, "greater_elem", f(3))), mustCall(t, w, method(m, "neg"))),
			"[[1.0, 2.0, 3.0], [-4.0, -5.0, -6.0]]"},
		{"scatter add", method(mustCall(t, w, method(m, "zeros_like")), "scatter", i(1), ints("2", arr(arr(i(0), i(0), i(1)), arr(i(2), i(2), i(2)))), m,
			enum("IndexingUpdateOp", "Add")), "[[3.0, 3.0, 0.0], [0.0, 0.0, 15.0]]"},
		{"clamp", method(m, "clamp", f(2), i(5)), "[[2.0, 2.0, 3.0], [4.0, 5.0, 5.0]]"},
		{"cat", fn("Tensor::cat", arr(m, row), i(0)), "[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [10.0, 20.0, 30.0]]"},
		{"stack", fnG("Tensor::stack", []string{"3"}, arr(row, row), i(0)), "[[[10.0, 20.0, 30.0]], [[10.0, 20.0, 30.0]]]"},
		{"softmax of equal values", fn("activation::softmax", floats("1", arr(f(2), f(2))), i(0)), "[0.5, 0.5]"},
		{"relu", fn("activation::relu", mustCall(t, w, method(m, "sub_scalar", f(3)))), "[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]"},
		{"one_hot", method(ints("1", arr(i(2), i(0))), "one_hot", i(3)), "[[0, 0, 1], [1, 0, 0]]"},
		{"float of int", method(ints("1", arr(i(1), i(-2))), "float"), "[1.0, -2.0]"},
		{"full_like", method(m, "full_like", f(0.5)), "[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]"},
		{"slice_assign", method(m, "slice_assign", arr(rng(0, 1), rng(0, 3)), row), "[[10.0, 20.0, 30.0], [4.0, 5.0, 6.0]]"},
		{"select_assign", method(m, "select_assign", i(0), ints("1", arr(i(1))), row, enum("IndexingUpdateOp", "Add")),
			"[[1.0, 2.0, 3.0], [14.0, 25.0, 36.0]]"},
	}
	for _, c := range cases {
		out, ok := mustCall(t, w, c.call).(*Tensor)
		if !ok || out.vals() == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if got := out.vals().Preview(64); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
	}
	parts := mustCall(t, w, method(m, "chunk", i(2), i(-1))).(*Array)
	if len(parts.Elems) != 2 || parts.Elems[1].(*Tensor).vals().Preview(8) != "[[3.0], [6.0]]" {
		t.Errorf("chunk's second part: %s", Debug(parts))
	}
}

// linear's values: x W + b, each Param drawn from U(-k, k) with
// k = 1/sqrt(d_input), as Burn's default initializer draws them.
func TestLinearValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	lin := mustCall(t, w, method(mustCall(t, w, fn("LinearConfig::new", i(4), i(2))), "init", ref(d))).(*Linear)
	for _, p := range []*Tensor{lin.weight, lin.bias} {
		for j := range p.vals().NumElements() {
			if v := p.vals().Float(j); v < -0.5 || v >= 0.5 {
				t.Errorf("a parameter of %v outside U(-0.5, 0.5)", v)
			}
		}
	}
	x := mustCall(t, w, fnG("Tensor::ones", []string{"1"}, dims(4), ref(d))).(*Tensor)
	y := mustCall(t, w, method(lin, "forward", x)).(*Tensor)
	for j := range 2 {
		want := lin.bias.vals().Float(j)
		for k := range 4 {
			want += lin.weight.vals().Float(k*2 + j)
		}
		if got := y.vals().Float(j); got-want > 1e-6 || want-got > 1e-6 {
			t.Errorf("output %d = %v, want %v", j, got, want)
		}
	}
}

// movedim, take, tril and triu, composed of several kernels.
func TestComposedIndexingValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	m := mustCall(t, w, fnG("Tensor::from_floats", []string{"2"}, arr(arr(f(1), f(2), f(3)), arr(f(4), f(5), f(6)), arr(f(7), f(8), f(9))), ref(d)))
	idx := mustCall(t, w, fnG("Tensor::from_ints", []string{"2", "Int"}, arr(arr(i(2)), arr(i(0))), ref(d)))
	cases := []struct {
		name string
		call Call
		want string
	}{
		{"movedim", method(m, "movedim", i(0), i(1)), "[[1.0, 4.0, 7.0], [2.0, 5.0, 8.0], [3.0, 6.0, 9.0]]"},
		{"take", method(m, "take", i(0), idx), "[[[7.0, 8.0, 9.0]], [[1.0, 2.0, 3.0]]]"},
		{"tril", method(m, "tril", i(0)), "[[1.0, 0.0, 0.0], [4.0, 5.0, 0.0], [7.0, 8.0, 9.0]]"},
		{"triu above the diagonal", method(m, "triu", i(1)), "[[0.0, 2.0, 3.0], [0.0, 0.0, 6.0], [0.0, 0.0, 0.0]]"},
	}
	for _, c := range cases {
		out := mustCall(t, w, c.call).(*Tensor)
		if out.vals() == nil {
			t.Errorf("%s: no values", c.name)
			continue
		}
		if got := out.vals().Preview(64); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
	}
}

// with_initializer decides how a Linear's Params are made.
func TestLinearInitializer(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	constant := &Enum{Type: "Initializer", Variant: "Constant", Named: map[string]Value{"value": f(0.5)}}
	cfg := mustCall(t, w, method(mustCall(t, w, fn("LinearConfig::new", i(2), i(3))), "with_initializer", constant))
	lin := mustCall(t, w, method(cfg, "init", ref(d))).(*Linear)
	x := mustCall(t, w, fnG("Tensor::ones", []string{"2"}, dims(1, 2), ref(d)))
	y := mustCall(t, w, method(lin, "forward", x)).(*Tensor)
	if got := y.vals().Preview(8); got != "[[1.5, 1.5, 1.5]]" {
		t.Errorf("ones x constant 0.5 weights + 0.5 bias = %s", got)
	}
	if op := w.Trace()[0].Op; op != "float_full" {
		t.Errorf("a constant Param is made by %s", op)
	}
}

// TestTensorDataNewChecksItsLength: TensorData::new panics as
// check_data_len does when the values do not fill the shape.
func TestTensorDataNewChecksItsLength(t *testing.T) {
	w := world(t)
	p := mustPanic(t, w, fn("TensorData::new", &Array{Elems: []Value{f(1), f(2), f(3)}, Vec: true}, arr(i(2), i(2))))
	if want := "assertion `left == right` failed: Shape Shape { dims: [2, 2] } is invalid for input of size 3\n  left: 4\n right: 3"; p.Message != want || p.ID != "std-data-len" {
		t.Errorf("panic %s %q", p.ID, p.Message)
	}
	mustCall(t, w, fn("TensorData::new", &Array{Elems: []Value{f(1), f(2), f(3), f(4)}, Vec: true}, arr(i(2), i(2))))
}

// TestPreluValues: prelu reshapes its weights to broadcast over dim 1
// (a reshape in the trace), then keeps x where x >= 0 and scales it by its
// channel's weight elsewhere.
func TestPreluValues(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := mustCall(t, w, fnG("Tensor::from_data", []string{"2"}, arr(arr(f(-1), f(2)), arr(f(-4), f(-2))), ref(d))).(*Tensor)
	alpha := mustCall(t, w, fnG("Tensor::from_data", []string{"1"}, arr(f(0.5), f(0.25)), ref(d))).(*Tensor)
	out := mustCall(t, w, fn("burn::tensor::activation::prelu", x, alpha)).(*Tensor)
	if got := out.vals().Preview(8); got != "[[-0.5, 2.0], [-2.0, -0.5]]" {
		t.Errorf("prelu values %s", got)
	}
	if got := lastOps(w, 2); got != "float_reshape prelu" {
		t.Errorf("trace %q", got)
	}
}

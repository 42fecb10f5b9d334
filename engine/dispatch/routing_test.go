package dispatch

import (
	"errors"
	"strings"
	"testing"
)

// operandOn names a tensor for the routing tables: a backend device,
// tracked or not.
type operandOn struct {
	dev     string // "flex" or "cuda"
	tracked bool   // created on the autodiff wrapper of dev
	kind    string // "" Float, "Int", "Bool"
}

func (o operandOn) make(t *testing.T, w *World) *Tensor {
	t.Helper()
	var d *Device
	if o.dev == "cuda" {
		d = device(t, w, "cuda", i(0))
	} else {
		d = device(t, w, "flex")
	}
	if o.tracked {
		d = mustCall(t, w, method(d, "autodiff")).(*Device)
	}
	return ones(t, w, d, o.kind, 2)
}

// runRoute calls the op and returns the panic id, "" when it ran.
func runRoute(t *testing.T, w *World, c Call) (string, Value) {
	t.Helper()
	v, err := w.Call(c)
	if err == nil {
		return "", v
	}
	var p *Panic
	if !errors.As(err, &p) {
		t.Fatalf("%s: %v", describe(c), err)
	}
	return p.ID, nil
}

// binary_float! for two floats (spec §4.3), with powf: no burn-tensor
// device check runs first, so every arm of the macro is visible.
func TestBinaryFloatArms(t *testing.T) {
	cases := []struct {
		lhs, rhs operandOn
		want     string // panic id, or "" and then the result's tracking
		tracked  bool
	}{
		{operandOn{"flex", true, ""}, operandOn{"flex", true, ""}, "", true},
		{operandOn{"flex", true, ""}, operandOn{"cuda", true, ""}, "disp-binary-ad-backend", false},
		{operandOn{"flex", false, ""}, operandOn{"flex", false, ""}, "", false},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, ""}, "disp-binary-float-backend", false},
		{operandOn{"flex", false, ""}, operandOn{"flex", true, ""}, "disp-binary-float-backend", false},
		{operandOn{"flex", false, ""}, operandOn{"cuda", false, ""}, "disp-binary-float-backend", false},
	}
	for _, c := range cases {
		w := world(t, "flex", "cuda")
		id, v := runRoute(t, w, method(c.lhs.make(t, w), "powf", c.rhs.make(t, w)))
		if id != c.want {
			t.Errorf("%+v powf %+v: panic %q, want %q", c.lhs, c.rhs, id, c.want)
			continue
		}
		if id == "" && v.(*Tensor).Tracked() != c.tracked {
			t.Errorf("%+v powf %+v: tracked = %v, want %v", c.lhs, c.rhs, v.(*Tensor).Tracked(), c.tracked)
		}
	}
}

// The element-wise ops run burn-tensor's device check first: it catches
// two backends, but not autodiff against plain on the same hardware.
func TestDeviceCheckRunsBeforeDispatch(t *testing.T) {
	cases := []struct {
		lhs, rhs operandOn
		want     string
	}{
		{operandOn{"flex", false, ""}, operandOn{"cuda", false, ""}, "bt-check-device"},
		{operandOn{"flex", true, ""}, operandOn{"cuda", true, ""}, "bt-check-device"},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, ""}, "disp-binary-float-backend"},
		{operandOn{"flex", false, "Int"}, operandOn{"cuda", false, "Int"}, "bt-check-device"},
	}
	for _, method := range []string{"add", "sub", "mul", "div", "equal", "not_equal", "greater", "greater_equal", "lower", "lower_equal", "matmul"} {
		for _, c := range cases {
			w := world(t, "flex", "cuda")
			id, _ := runRoute(t, w, Call{Recv: c.lhs.make(t, w), Method: method, Args: []Value{c.rhs.make(t, w)}})
			if id != c.want {
				t.Errorf("%+v %s %+v: panic %q, want %q", c.lhs, method, c.rhs, id, c.want)
			}
		}
	}
}

// binary_op! for int and bool pairs: only the same backend.
func TestBinaryOpArms(t *testing.T) {
	cases := []struct {
		lhs, rhs operandOn
		method   string
		want     string
	}{
		{operandOn{"flex", false, "Int"}, operandOn{"flex", false, "Int"}, "powi", ""},
		{operandOn{"flex", false, "Int"}, operandOn{"cuda", false, "Int"}, "powi", "disp-binary-op-backend"},
		{operandOn{"flex", false, "Bool"}, operandOn{"cuda", false, "Bool"}, "bool_or", "disp-binary-op-backend"},
		// An int made on an autodiff device is a plain handle: same backend is fine.
		{operandOn{"flex", true, "Int"}, operandOn{"flex", false, "Int"}, "powi", ""},
	}
	for _, c := range cases {
		w := world(t, "flex", "cuda")
		id, _ := runRoute(t, w, method(c.lhs.make(t, w), c.method, c.rhs.make(t, w)))
		if id != c.want {
			t.Errorf("%+v %s %+v: panic %q, want %q", c.lhs, c.method, c.rhs, id, c.want)
		}
	}
}

// binary_float! with a float and an int or bool operand.
func TestFloatAnyArms(t *testing.T) {
	cases := []struct {
		float, other operandOn
		want         string
		tracked      bool
	}{
		{operandOn{"flex", true, ""}, operandOn{"flex", false, "Bool"}, "", true},
		{operandOn{"flex", true, ""}, operandOn{"cuda", false, "Bool"}, "disp-binary-float-any-inner", false},
		{operandOn{"flex", false, ""}, operandOn{"flex", false, "Bool"}, "", false},
		{operandOn{"flex", false, ""}, operandOn{"cuda", false, "Bool"}, "disp-binary-float-any-backend", false},
	}
	for _, c := range cases {
		w := world(t, "flex", "cuda")
		id, v := runRoute(t, w, method(c.float.make(t, w), "mask_fill", c.other.make(t, w), f(0)))
		if id != c.want {
			t.Errorf("%+v mask_fill %+v: panic %q, want %q", c.float, c.other, id, c.want)
			continue
		}
		if id == "" && v.(*Tensor).Tracked() != c.tracked {
			t.Errorf("tracked = %v, want %v", v.(*Tensor).Tracked(), c.tracked)
		}
	}
}

// multi_op!: the first input decides; the other inputs must agree.
func TestMultiOpArms(t *testing.T) {
	cases := []struct {
		tensor, mask, value operandOn
		want                string
		input               int // the argument the panic points at
	}{
		{operandOn{"flex", false, ""}, operandOn{"flex", false, "Bool"}, operandOn{"flex", false, ""}, "", 0},
		{operandOn{"flex", false, ""}, operandOn{"cuda", false, "Bool"}, operandOn{"flex", false, ""}, "disp-multi-input-wrong", 1},
		{operandOn{"flex", false, ""}, operandOn{"flex", false, "Bool"}, operandOn{"flex", true, ""}, "disp-multi-input-wrong", 2},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, "Bool"}, operandOn{"flex", true, ""}, "", 0},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, "Bool"}, operandOn{"cuda", true, ""}, "disp-multi-ad-input-wrong", 2},
		{operandOn{"flex", true, ""}, operandOn{"cuda", false, "Bool"}, operandOn{"flex", true, ""}, "disp-multi-ad-input-other", 1},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, "Bool"}, operandOn{"flex", false, ""}, "disp-bt-autodiff", 2},
	}
	for _, c := range cases {
		w := world(t, "flex", "cuda")
		_, err := w.Call(method(c.tensor.make(t, w), "mask_where", c.mask.make(t, w), c.value.make(t, w)))
		var p *Panic
		errors.As(err, &p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("mask_where(%+v, %+v, %+v): %v", c.tensor, c.mask, c.value, err)
		case c.want != "" && (p == nil || p.ID != c.want):
			t.Errorf("mask_where(%+v, %+v, %+v): %v, want %q", c.tensor, c.mask, c.value, err, c.want)
		case p != nil && p.Input != c.input:
			t.Errorf("mask_where(%+v, %+v, %+v): %s points at input %d, want %d", c.tensor, c.mask, c.value, p.ID, p.Input, c.input)
		}
	}
	// A function's inputs count from 1; conv2d's optional bias is the third.
	w := world(t, "flex", "cuda")
	x, weight, opts := convInputs(t, w, device(t, w, "flex"))
	bias := ones(t, w, device(t, w, "cuda", i(0)), "", 4)
	if p := mustPanic(t, w, fn("conv2d", x, weight, enum("Option", "Some", bias), opts)); p.Input != 3 {
		t.Errorf("conv2d with a bias elsewhere points at input %d, want 3 (bias)", p.Input)
	}
}

// vec_op!: the first element decides.
func TestVecOpArms(t *testing.T) {
	cases := []struct {
		first, second operandOn
		want          string
	}{
		{operandOn{"flex", false, ""}, operandOn{"flex", false, ""}, ""},
		{operandOn{"flex", false, ""}, operandOn{"cuda", false, ""}, "disp-vec-wrong-backend"},
		{operandOn{"flex", false, ""}, operandOn{"flex", true, ""}, "disp-vec-wrong-backend"},
		{operandOn{"flex", true, ""}, operandOn{"flex", true, ""}, ""},
		{operandOn{"flex", true, ""}, operandOn{"cuda", true, ""}, "disp-vec-ad-wrong-backend"},
		{operandOn{"flex", true, ""}, operandOn{"flex", false, ""}, "disp-vec-ad-plain"},
		{operandOn{"flex", false, "Int"}, operandOn{"cuda", false, "Int"}, "disp-vec-wrong-backend"},
	}
	for _, c := range cases {
		w := world(t, "flex", "cuda")
		tensors := &Array{Elems: []Value{c.first.make(t, w), c.second.make(t, w)}, Vec: true}
		id, v := runRoute(t, w, fn("Tensor::cat", tensors, i(0)))
		if id != c.want {
			t.Errorf("cat([%+v, %+v]): panic %q, want %q", c.first, c.second, id, c.want)
		}
		if id == "" {
			if got := v.(*Tensor).Shape(); len(got) != 1 || got[0] != 4 {
				t.Errorf("cat shape = %v, want [4]", got)
			}
		}
	}
}

// An op on an autodiff device runs on Autodiff<V>; int outputs of a float
// op stay plain handles but keep reporting the autodiff device.
func TestUnaryRouting(t *testing.T) {
	w := world(t, "flex")
	ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
	x := ones(t, w, ad, "", 2, 3)
	idx := mustCall(t, w, method(x, "argmax", i(1))).(*Tensor)
	if idx.Tracked() || idx.KindName() != "Int" || !idx.Device().IsAutodiff() {
		t.Errorf("argmax on an autodiff device: tracked=%v kind=%s device=%s", idx.Tracked(), idx.KindName(), idx.Device().Debug())
	}
	if got := idx.Shape(); got[0] != 2 || got[1] != 1 {
		t.Errorf("argmax shape = %v, want [2 1]", got)
	}
	// int_into_float with a strategy joins the graph (macros.rs:522-559).
	back := mustCall(t, w, method(idx, "float")).(*Tensor)
	if !back.Tracked() || back.node.computed || back.node.step {
		t.Errorf("int -> float on an autodiff device must be a fresh tracked leaf, got %+v", back.node)
	}
	last := w.Trace()[len(w.Trace())-1]
	if last.Op != "int_into_float" || !last.Autodiff {
		t.Errorf("trace = %+v, want int_into_float on autodiff", last)
	}
}

// The spec's snippet 9: an int tensor on an autodiff device keeps
// autodiff; its one-hot cast to float joins the graph; the gradient comes
// back on the plain device.
func TestIntOnAutodiffDeviceFlow(t *testing.T) {
	w := world(t)
	ad := mustCall(t, w, method(mustCall(t, w, fn("Device::default")), "autodiff")).(*Device)
	labels := mustCall(t, w, fnG("Tensor::from_data", []string{"1", "Int"}, arr(i(2), i(0), i(1)), ref(ad))).(*Tensor)
	if !labels.Device().IsAutodiff() {
		t.Fatalf("labels must report an autodiff device")
	}
	oneHot := mustCall(t, w, Call{Recv: labels, Method: "one_hot", Args: []Value{i(3)}, Generics: [][]string{{"2"}}}).(*Tensor)
	mask := mustCall(t, w, method(oneHot, "float")).(*Tensor)
	if !mask.Device().IsAutodiff() || !mask.Tracked() {
		t.Fatalf("mask: device %s tracked %v", mask.Device().Debug(), mask.Tracked())
	}
	scores := mustCall(t, w, method(ones(t, w, ad, "", 3, 3), "require_grad")).(*Tensor)
	picked := mustCall(t, w, method(mustCall(t, w, method(scores, "mul", mask)), "sum"))
	grads := mustCall(t, w, method(picked, "backward"))
	g := mustCall(t, w, method(scores, "grad", ref(grads))).(*Enum)
	if g.Variant != "Some" {
		t.Fatalf("scores.grad = %s", Debug(g))
	}
	grad := g.Fields[0].(*Tensor)
	if grad.Device().IsAutodiff() || grad.Tracked() {
		t.Errorf("gradient must come back on the plain device, got %s", grad.Device().Debug())
	}
}

// max_pair and min_pair are lower then mask_where (orderable.rs:708-711,
// 936-939): the element-wise check of lower runs first, min_pair's with
// the operands swapped, and the trace shows both dispatch ops.
func TestMaxMinPairCompose(t *testing.T) {
	for _, c := range []struct {
		method, lhsDevice string
	}{
		{"max_pair", "Device<Cuda(Cuda(0))>"},
		{"min_pair", "Device<Flex(Cpu)>"},
	} {
		w := world(t, "flex", "cuda")
		a := ones(t, w, device(t, w, "cuda", i(0)), "", 2, 3)
		b := ones(t, w, device(t, w, "flex"), "", 2, 3)
		p := mustPanic(t, w, method(a, c.method, b))
		want := "=== Tensor Operation Error ===\n  Operation: 'Lower'\n  Reason:\n    1. The provided tensors are not on the same device. Lhs tensor device " + c.lhsDevice
		if p.ID != "bt-check-device" || !strings.HasPrefix(p.Message, want) {
			t.Errorf("%s across backends: %s %q, want bt-check-device starting %q", c.method, p.ID, p.Message, want)
		}
		if !strings.HasPrefix(p.Location, "crates/burn-tensor/src/tensor/api/") {
			t.Errorf("%s: location %q, want lower's check! site", c.method, p.Location)
		}

		ad := mustCall(t, w, method(device(t, w, "flex"), "autodiff")).(*Device)
		x := mustCall(t, w, method(ones(t, w, ad, "", 2, 3), "require_grad")).(*Tensor)
		out := mustCall(t, w, method(x, c.method, ones(t, w, ad, "", 2, 3))).(*Tensor)
		if !out.Tracked() || out.Rank() != 2 {
			t.Errorf("%s on the tape: tracked=%v rank=%d", c.method, out.Tracked(), out.Rank())
		}
		tr := w.Trace()
		if got := tr[len(tr)-2].Op + " " + tr[len(tr)-1].Op; got != "float_lower float_mask_where" {
			t.Errorf("%s trace = %s, want float_lower float_mask_where", c.method, got)
		}
		ints := ones(t, w, ad, "Int", 4)
		mustCall(t, w, method(ints, c.method, ones(t, w, ad, "Int", 4)))
		if got := w.Trace()[len(w.Trace())-1].Op; got != "int_mask_where" {
			t.Errorf("%s on ints ends with %s, want int_mask_where", c.method, got)
		}
	}
}

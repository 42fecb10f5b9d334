package dispatch

import (
	"slices"
	"strings"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	x := ones(t, w, d, "", 2, 3)
	cases := []struct {
		name    string
		call    Call
		code    string
		feature string
		message string
	}{
		{"unknown tensor method", method(x, "foo"), "unknown-method", "",
			"no method named `foo` found for struct `Tensor` in the current scope"},
		{"unknown device method", method(d, "bar"), "unknown-method", "",
			"no method named `bar` found for struct `Device` in the current scope"},
		{"cuda without the feature", fn("Device::cuda", i(0)), "feature-not-enabled", "cuda",
			"no function or associated item named `cuda` found for struct `Device` in the current scope"},
		// The quirk: Device::default() is Flex in a default build, but
		// Device::flex() needs burn-tensor's flex feature.
		{"flex in a default build", fn("Device::flex"), "feature-not-enabled", "flex",
			"no function or associated item named `flex` found for struct `Device` in the current scope"},
		{"libtorch without tch", fn("Device::libtorch"), "feature-not-enabled", "tch", ""},
		{"remote_websocket without the feature", fn("Device::remote_websocket", Str("ws://h:1"), i(0)), "feature-not-enabled", "remote-websocket", ""},
		{"unknown associated function", fn("Device::gpu"), "unknown-function", "",
			"no function or associated item named `gpu` found for struct `Device` in the current scope"},
		{"wrong argument count", method(x, "sum_dim"), "wrong-arguments", "",
			"this method takes 1 argument but 0 arguments were supplied"},
		{"wrong argument count of a function", fn("Device::cuda"), "feature-not-enabled", "cuda", ""},
		{"wrong argument type", method(x, "to_device", i(3)), "wrong-arguments", "",
			"mismatched types: expected `&Device`, found `i32`"},
		{"a float-only method on an int tensor", method(ones(t, w, d, "Int", 2), "sqrt"), "unknown-method", "",
			"the method `sqrt` exists for struct `Tensor<1, Int>`, but its trait bounds were not satisfied"},
		{"comparison operator on tensors", method(x, "eq", x), "unknown-method", "",
			"binary operation `==` cannot be applied to type `Tensor<2>`"},
		{"not modelled", method(x, "into_primitive"), "unsupported-api", "",
			"`Tensor::into_primitive` is part of Burn's API but the playground does not model it"},
		{"a module function is not a method", method(x, "conv2d"), "unknown-method", "",
			"no method named `conv2d` found for struct `Tensor` in the current scope"},
	}
	for _, c := range cases {
		ue := mustReject(t, w, c.call)
		if ue.Code != c.code || ue.Feature != c.feature || (c.message != "" && ue.Message != c.message) {
			t.Errorf("%s: got %+v", c.name, ue)
		}
		if c.feature != "" {
			if len(ue.Fixes) == 0 || ue.Fixes[0].AddFeature != c.feature {
				t.Errorf("%s: want a fix adding %q, got %+v", c.name, c.feature, ue.Fixes)
			}
		}
	}
	// The feature gate needs the feature in burn-tensor, not only in
	// burn-dispatch, where cfg(default_backend) already compiles Flex in.
	if !w.compiled(Flex) || w.apiFeature("flex") {
		t.Errorf("a default build compiles the Flex variant but not Device::flex()")
	}
	// Autodiff methods are gated by the autodiff feature.
	nw := NewWorld(Config{Features: features(t, false, "std")})
	nd := mustCall(t, nw, fn("Device::default"))
	if ue := mustReject(t, nw, method(nd, "autodiff")); ue.Feature != "autodiff" {
		t.Errorf("autodiff without the feature: %+v", ue)
	}
	if ue := mustReject(t, nw, method(ones(t, nw, nd.(*Device), "", 2), "backward")); ue.Feature != "autodiff" {
		t.Errorf("backward without the feature: %+v", ue)
	}
}

// Shapes and trace op names of the table ops.
func TestTensorOps(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	x := ones(t, w, d, "", 2, 3, 4)
	cases := []struct {
		call  Call
		shape []int64
		op    string
		kind  string
	}{
		{method(x, "sum"), []int64{1}, "float_sum", "Float"},
		{method(x, "sum_dim", i(-1)), []int64{2, 3, 1}, "float_sum_dim", "Float"},
		{method(x, "argmax", i(1)), []int64{2, 1, 4}, "float_argmax", "Int"},
		{method(x, "transpose"), []int64{2, 4, 3}, "float_transpose", "Float"},
		{method(x, "swap_dims", i(0), i(2)), []int64{4, 3, 2}, "float_swap_dims", "Float"},
		{method(x, "permute", dims(2, 0, 1)), []int64{4, 2, 3}, "float_permute", "Float"},
		{method(x, "reshape", arr(i(-1), i(4))), []int64{6, 4}, "float_reshape", "Float"},
		{Call{Recv: x, Method: "flatten", Args: []Value{i(0), i(1)}, Generics: [][]string{{"2"}}}, []int64{6, 4}, "float_reshape", "Float"},
		{Call{Recv: x, Method: "unsqueeze_dim", Args: []Value{i(1)}, Generics: [][]string{{"4"}}}, []int64{2, 1, 3, 4}, "float_reshape", "Float"},
		{method(x, "slice", arr(&Range{Lo: ptr(0), Hi: ptr(1)}, &Range{Lo: ptr(1)})), []int64{1, 2, 4}, "float_slice", "Float"},
		{method(x, "narrow", i(2), i(1), i(2)), []int64{2, 3, 2}, "float_slice", "Float"},
		{method(x, "greater_elem", f(0.5)), []int64{2, 3, 4}, "float_greater_elem", "Bool"},
		{method(x, "add", f(1)), []int64{2, 3, 4}, "float_add_scalar", "Float"},
		{method(x, "mul", ones(t, w, d, "", 1, 3, 1)), []int64{2, 3, 4}, "float_mul", "Float"},
		{method(x, "matmul", ones(t, w, d, "", 2, 4, 5)), []int64{2, 3, 5}, "float_matmul", "Float"},
		{method(x, "square"), []int64{2, 3, 4}, "float_powi_scalar", "Float"},
		{method(x, "int"), []int64{2, 3, 4}, "float_into_int", "Int"},
		{method(x, "repeat_dim", i(0), i(3)), []int64{6, 3, 4}, "float_repeat_dim", "Float"},
		{method(x, "neg"), []int64{2, 3, 4}, "float_neg", "Float"},
		{Call{Recv: f(2), Method: "mul", Args: []Value{x}}, []int64{2, 3, 4}, "float_mul_scalar", "Float"},
		{Call{Recv: f(2), Method: "sub", Args: []Value{x}}, []int64{2, 3, 4}, "float_add_scalar", "Float"},
		{fn("burn::tensor::activation::softmax", x, i(-1)), []int64{2, 3, 4}, "softmax", "Float"},
		{fn("relu", x), []int64{2, 3, 4}, "relu", "Float"},
		{fn("Tensor::stack", &Array{Elems: []Value{x, x}, Vec: true}, i(0)), []int64{2, 2, 3, 4}, "float_cat", "Float"},
	}
	for _, c := range cases {
		v := mustCall(t, w, c.call).(*Tensor)
		if !slices.Equal(v.Shape(), c.shape) || v.KindName() != c.kind {
			t.Errorf("%s: shape %v kind %s, want %v %s", describe(c.call), v.Shape(), v.KindName(), c.shape, c.kind)
		}
		if last := w.Trace()[len(w.Trace())-1]; last.Op != c.op || !slices.Equal(last.Shape, c.shape) {
			t.Errorf("%s: trace %+v, want op %s", describe(c.call), last, c.op)
		}
	}
}

func ptr(v int64) *int64 { return &v }

func TestShapeChecksPanic(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	x := ones(t, w, d, "", 2, 3)
	cases := []struct {
		call Call
		id   string
	}{
		{method(x, "sum_dim", i(2)), "bt-check-dim-index"},
		{method(x, "reshape", dims(4, 2)), "bt-check-reshape"},
		{method(x, "narrow", i(1), i(2), i(2)), "bt-check-narrow-end"},
		{Call{Recv: x, Method: "unsqueeze", Generics: [][]string{{"1"}}}, "bt-check-unsqueeze-smaller"},
		{fn("Tensor::cat", &Array{Elems: []Value{x, ones(t, w, d, "", 2, 4)}, Vec: true}, i(0)), "bt-check-cat-shapes"},
		{fnG("Tensor::cat", []string{"1"}, &Array{Vec: true}, i(0)), "bt-check-cat-empty"},
		{method(x, "permute", dims(0, 0)), "bt-check-permute-unique"},
	}
	for _, c := range cases {
		p := mustPanic(t, w, c.call)
		if p.ID != c.id {
			t.Errorf("%s: %s, want %s (%q)", describe(c.call), p.ID, c.id, p.Message)
		}
		checkAgainstTable(t, p)
	}
	p := mustPanic(t, w, method(x, "sum_dim", i(2)))
	if want := "=== Tensor Operation Error ===\n  Operation: 'Sum Dim'\n  Reason:\n    1. BoundsError: dimension 2 out of bounds: 0..2 \n"; p.Message != want {
		t.Errorf("sum_dim(2) message %q", p.Message)
	}
}

func TestCreation(t *testing.T) {
	w := world(t, "ndarray", "flex")
	flex := device(t, w, "flex")
	nd := device(t, w, "ndarray")
	cases := []struct {
		call  Call
		shape []int64
		dtype DType
		kind  string
	}{
		{fn("Tensor::from_floats", arr(arr(f(1), f(2)), arr(f(3), f(4))), ref(flex)), []int64{2, 2}, F32, "Float"},
		{fn("Tensor::from_ints", arr(i(1), i(2), i(3)), ref(nd)), []int64{3}, I64, "Int"},
		{fnG("Tensor::zeros", []string{"2", "Int"}, dims(2, 2), ref(flex)), []int64{2, 2}, I32, "Int"},
		{fnG("Tensor::ones", []string{"1", "Bool"}, dims(5), Tuple{ref(flex), enum("DType", "F32")}), []int64{5}, "Bool(Native)", "Bool"},
		{fnG("Tensor::full", []string{"1"}, dims(5), f(2), Tuple{ref(flex), enum("DType", "F16")}), []int64{5}, F16, "Float"},
		{fnG("Tensor::random", []string{"2"}, dims(2, 3), enum("Distribution", "Default"), ref(flex)), []int64{2, 3}, F32, "Float"},
		{fnG("Tensor::arange", []string{"1", "Int"}, &Range{Lo: ptr(2), Hi: ptr(9)}, ref(flex)), []int64{7}, I32, "Int"},
		{fn("Tensor::from_data", mustCall(t, w, fn("TensorData::new", &Array{Elems: []Value{f(1), f(2), f(3), f(4), f(5), f(6)}, Vec: true}, dims(2, 3))), ref(flex)), []int64{2, 3}, F32, "Float"},
		{Call{Path: []string{"Tensor", "zeros"}, Expect: "Tensor<3, Int>", Args: []Value{dims(1, 2, 3), ref(flex)}}, []int64{1, 2, 3}, I32, "Int"},
	}
	for _, c := range cases {
		v := mustCall(t, w, c.call).(*Tensor)
		if !slices.Equal(v.Shape(), c.shape) || v.DType() != c.dtype || v.KindName() != c.kind {
			t.Errorf("%s: %v %s %s, want %v %s %s", describe(c.call), v.Shape(), v.DType(), v.KindName(), c.shape, c.dtype, c.kind)
		}
	}
	// Creation on an autodiff device: a float is a leaf of the graph, an
	// int a plain handle carrying the strategy.
	ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
	fl := ones(t, w, ad, "", 2)
	in := ones(t, w, ad, "Int", 2)
	if !fl.Tracked() || in.Tracked() || !in.Device().IsAutodiff() || !fl.Device().IsAutodiff() {
		t.Errorf("creation on autodiff: float tracked %v, int tracked %v", fl.Tracked(), in.Tracked())
	}
	if ev := w.Trace()[len(w.Trace())-1]; ev.Op != "int_ones" || !ev.Autodiff || ev.Device != "Flex(Cpu)" {
		t.Errorf("trace = %+v", ev)
	}
	// Huge symbolic shapes are fine.
	big := mustCall(t, w, fnG("Tensor::zeros", []string{"3"}, dims(100000, 100000, 100), ref(flex))).(*Tensor)
	if big.Shape()[0] != 100000 {
		t.Errorf("big shape %v", big.Shape())
	}
	ue := mustReject(t, w, fnG("Tensor::zeros", []string{"3"}, dims(1<<31, 1<<31, 1<<31), ref(flex)))
	if ue.Code != "playground-limit" {
		t.Errorf("overflowing shape: %+v", ue)
	}
}

func TestAutodiffFlow(t *testing.T) {
	// The spec's snippet 4.
	w := world(t, "wgpu")
	ad := mustCall(t, w, method(device(t, w, "wgpu", &Enum{Type: "Default", Variant: "default"}), "autodiff")).(*Device)
	wt := mustCall(t, w, method(ones(t, w, ad, "", 3, 5), "require_grad")).(*Tensor)
	loss := mustCall(t, w, method(mustCall(t, w, method(wt, "powf_scalar", f(3))), "sum"))
	grads := mustCall(t, w, method(loss, "backward"))
	peeked := mustCall(t, w, method(wt, "grad", ref(grads))).(*Enum)
	taken := mustCall(t, w, method(wt, "grad_remove", &Ref{V: grads, Mut: true})).(*Enum)
	again := mustCall(t, w, method(wt, "grad", ref(grads))).(*Enum)
	if peeked.Variant != "Some" || taken.Variant != "Some" || again.Variant != "None" {
		t.Errorf("grad %s, grad_remove %s, then grad %s", Debug(peeked), Debug(taken), Debug(again))
	}
	// The backward pass consumed the graph: a second backward has no step.
	if p := mustPanic(t, w, method(loss, "backward")); p.ID != "ad-backward-no-step" {
		t.Errorf("second backward: %s", p.ID)
	}
	// An untracked result has a step of its own and backward runs, with no
	// gradients for anything.
	untracked := mustCall(t, w, method(ones(t, w, ad, "", 2), "sum"))
	g := mustCall(t, w, method(untracked, "backward")).(*Gradients)
	if len(g.grads) != 0 {
		t.Errorf("gradients of an untracked graph: %v", g.grads)
	}
	// detach makes a fresh leaf that keeps require_grad.
	det := mustCall(t, w, method(wt, "detach")).(*Tensor)
	if det.node.requirement != reqGrad || det.node.id == wt.node.id || len(det.node.parents) != 0 {
		t.Errorf("detach of a parameter: %+v", det.node)
	}
	computed := mustCall(t, w, method(mustCall(t, w, method(wt, "exp")), "detach")).(*Tensor)
	if computed.node.requirement != reqNone || mustCall(t, w, method(computed, "is_require_grad")) != Bool(false) {
		t.Errorf("detach of a computed tensor: %+v", computed.node)
	}
	// no_grad on a tracked tensor is inner(); on a plain one it is itself.
	ng := mustCall(t, w, method(wt, "no_grad")).(*Tensor)
	if ng.Tracked() || ng.Device().IsAutodiff() {
		t.Errorf("no_grad kept the tape")
	}
	if mustCall(t, w, method(ng, "no_grad")) != Value(ng) {
		t.Errorf("no_grad on a plain tensor must return it")
	}
	// from_inner lifts it back as a new leaf on the Disabled strategy.
	back := mustCall(t, w, fn("Tensor::from_inner", ng)).(*Tensor)
	if !back.Tracked() || back.Device().Debug() != "Autodiff { device: Wgpu(DefaultDevice), checkpointing: Disabled }" {
		t.Errorf("from_inner: %s", back.Device().Debug())
	}
	// Gradients are discovered through ops and only for leaves that asked.
	a := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
	b := ones(t, w, ad, "", 2)
	c := mustCall(t, w, method(mustCall(t, w, method(a, "mul", b)), "sum"))
	g = mustCall(t, w, method(c, "backward")).(*Gradients)
	if got := mustCall(t, w, method(b, "grad", ref(g))).(*Enum); got.Variant != "None" {
		t.Errorf("b did not require grad, got %s", Debug(got))
	}
	if got := mustCall(t, w, method(a, "grad", ref(g))).(*Enum); got.Variant != "Some" {
		t.Errorf("a required grad, got %s", Debug(got))
	}
}

func TestLinearModule(t *testing.T) {
	w := world(t, "flex", "cuda")
	flex := device(t, w, "flex")
	cfg := mustCall(t, w, fn("burn::nn::LinearConfig::new", i(4), i(2)))
	lin := mustCall(t, w, method(cfg, "init", ref(flex)))
	x := ones(t, w, flex, "", 8, 4)
	y := mustCall(t, w, method(lin, "forward", x)).(*Tensor)
	if !slices.Equal(y.Shape(), []int64{8, 2}) {
		t.Errorf("forward shape %v", y.Shape())
	}
	var ops []string
	for _, ev := range w.Trace()[len(w.Trace())-3:] {
		ops = append(ops, ev.Op)
	}
	if !slices.Equal(ops, []string{"float_matmul", "float_reshape", "float_add"}) {
		t.Errorf("linear lowers to %v", ops)
	}
	// The module on Cuda and the input on Flex: burn's linear goes straight
	// to Dispatch's float_matmul, so binary_float! reports it.
	cuda := device(t, w, "cuda", i(0))
	moved := mustCall(t, w, method(lin, "to_device", ref(cuda)))
	p := mustPanic(t, w, method(moved, "forward", x))
	if p.ID != "disp-binary-float-backend" {
		t.Errorf("linear across backends: %s", p.ID)
	}
	devices := mustCall(t, w, method(moved, "devices")).(*Array)
	if len(devices.Elems) != 1 || devices.Elems[0].(*Device).Debug() != "Cuda(Cuda(0))" {
		t.Errorf("devices = %s", Debug(devices))
	}
	// A module trained on an autodiff device cannot move to a plain one.
	ad := mustCall(t, w, method(flex, "autodiff"))
	trained := mustCall(t, w, method(mustCall(t, w, method(cfg, "with_bias", Bool(false))), "init", ref(ad)))
	if p := mustPanic(t, w, method(trained, "to_device", ref(cuda))); p.ID != "disp-float-todev-ad-mix" {
		t.Errorf("tracked module to a plain device: %s", p.ID)
	}
}

func TestIndexingAndModuleOps(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	x := ones(t, w, d, "", 4, 5)
	idx2 := ones(t, w, d, "Int", 3, 1)
	cases := []struct {
		call  Call
		shape []int64
		op    string
	}{
		{method(x, "gather_nd", idx2), []int64{3, 5}, "float_gather_nd"},
		{method(x, "scatter_nd", idx2, ones(t, w, d, "", 3, 5), enum("IndexingUpdateOp", "Add")), []int64{4, 5}, "float_scatter_nd"},
		{method(x, "select_assign", i(0), ones(t, w, d, "Int", 2), ones(t, w, d, "", 2, 5), enum("IndexingUpdateOp", "Add")), []int64{4, 5}, "float_select_assign"},
		{method(ones(t, w, d, "", 4, 3), "cross", ones(t, w, d, "", 4, 3), i(1)), []int64{4, 3}, "float_cross"},
		{method(x, "movedim", i(0), i(1)), []int64{5, 4}, "float_permute"},
		{Call{Recv: x, Method: "unsqueeze_dims", Args: []Value{ref(dims(0, 3))}, Generics: [][]string{{"4"}}}, []int64{1, 4, 5, 1}, "float_reshape"},
		{Call{Recv: ones(t, w, d, "", 1, 4, 1), Method: "squeeze_dims", Args: []Value{ref(dims(0))}, Generics: [][]string{{"2"}}}, []int64{4, 1}, "float_reshape"},
		{Call{Recv: x, Method: "unfold", Args: []Value{i(1), i(2), i(1)}, Generics: [][]string{{"3"}}}, []int64{4, 4, 2}, "float_unfold"},
		{Call{Recv: x, Method: "take", Args: []Value{i(0), ones(t, w, d, "Int", 2, 3)}, Generics: [][]string{{"2", "3"}}}, []int64{2, 3, 5}, "float_select"},
		{method(x, "tril", i(0)), []int64{4, 5}, "float_mask_fill"},
		{method(x, "slice_assign", arr(&Range{Lo: ptr(0), Hi: ptr(2)}), ones(t, w, d, "", 2, 5)), []int64{4, 5}, "float_slice_assign"},
		{method(x, "mask_select", ones(t, w, d, "Bool", 4, 5)), []int64{20}, "float_mask_select"},
		{fn("burn::tensor::activation::prelu", ones(t, w, d, "", 2, 5, 3), ones(t, w, d, "", 5)), []int64{2, 5, 3}, "prelu"},
		{fn("burn::tensor::module::conv2d", ones(t, w, d, "", 2, 3, 8, 8), ones(t, w, d, "", 4, 3, 3, 3), enum("Option", "None"),
			mustCall(t, w, fn("ConvOptions::new", dims(2, 2), dims(1, 1), dims(1, 1), i(1)))), []int64{2, 4, 4, 4}, "conv2d"},
		{fn("conv_transpose2d", ones(t, w, d, "", 1, 16, 7, 7), ones(t, w, d, "", 16, 8, 3, 3), enum("Option", "None"),
			mustCall(t, w, fn("ConvTransposeOptions::new", dims(2, 2), dims(1, 1), dims(1, 1), dims(1, 1), i(1)))), []int64{1, 8, 14, 14}, "conv_transpose2d"},
	}
	for _, c := range cases {
		v := mustCall(t, w, c.call).(*Tensor)
		if !slices.Equal(v.Shape(), c.shape) {
			t.Errorf("%s: shape %v, want %v", describe(c.call), v.Shape(), c.shape)
		}
		if last := w.Trace()[len(w.Trace())-1]; last.Op != c.op {
			t.Errorf("%s: trace op %s, want %s", describe(c.call), last.Op, c.op)
		}
	}
	parts := mustCall(t, w, method(ones(t, w, d, "", 7, 2), "split", i(3), i(0))).(*Array)
	var sizes []int64
	for _, p := range parts.Elems {
		sizes = append(sizes, p.(*Tensor).Shape()[0])
	}
	if !slices.Equal(sizes, []int64{3, 3, 1}) {
		t.Errorf("split sizes %v", sizes)
	}
	chunks := mustCall(t, w, method(ones(t, w, d, "", 7, 2), "chunk", i(2), i(0))).(*Array)
	if len(chunks.Elems) != 2 || chunks.Elems[1].(*Tensor).Shape()[0] != 3 {
		t.Errorf("chunk = %s", Debug(chunks))
	}
	// Bool scatter with Add is an OR.
	m := ones(t, w, d, "Bool", 2, 3)
	mustCall(t, w, method(m, "scatter", i(1), ones(t, w, d, "Int", 2, 3), m, enum("IndexingUpdateOp", "Add")))
	if op := w.Trace()[len(w.Trace())-1].Op; op != "bool_scatter_or" {
		t.Errorf("bool scatter op %s", op)
	}
}

func TestConfigure(t *testing.T) {
	w := world(t, "flex")
	flex := device(t, w, "flex")
	ok := mustCall(t, w, method(flex, "configure", enum("FloatDType", "F16"))).(*Enum)
	if ok.Variant != "Ok" {
		t.Fatalf("first configure = %s", Debug(ok))
	}
	// The autodiff device shares the inner device's settings.
	ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
	if x := ones(t, w, ad, "", 2); x.DType() != F16 {
		t.Errorf("float dtype after configure = %s", x.DType())
	}
	again := mustCall(t, w, method(flex, "configure", enum("FloatDType", "F32"))).(*Enum)
	if Debug(again) != `Err(AlreadyInitialized { device: "Flex(Cpu)" })` {
		t.Errorf("second configure = %s", Debug(again))
	}
	if row := again.Fields[0].(*Enum).ErrorRow; row != "bt-configure-already-init" {
		t.Errorf("the error stands for row %q", row)
	}
	if s, _ := Display(again.Fields[0]); !strings.HasPrefix(s, "Device Flex(Cpu) settings have already been initialized and cannot be changed.\n") {
		t.Errorf("Display = %q", s)
	}
	// A tensor op locks the defaults too.
	w2 := world(t, "flex")
	d2 := device(t, w2, "flex")
	ones(t, w2, d2, "Int", 2)
	if got := mustCall(t, w2, method(d2, "configure", Tuple{enum("FloatDType", "BF16"), enum("IntDType", "I64")})).(*Enum); got.Variant != "Err" {
		t.Errorf("configure after an op = %s", Debug(got))
	}
	// An unsupported dtype is refused first.
	w3 := world(t, "wgpu")
	gpu := device(t, w3, "wgpu", enum("DeviceKind", "DefaultDevice"))
	got := mustCall(t, w3, method(gpu, "configure", enum("FloatDType", "F64"))).(*Enum)
	if Debug(got) != `Err(UnsupportedDType { device: "Wgpu(DefaultDevice)", dtype: F64 })` || got.Fields[0].(*Enum).ErrorRow != "bt-configure-unsupported-dtype" {
		t.Errorf("configure F64 on wgpu = %s", Debug(got))
	}
}

// TestDeviceConfig: DeviceConfig's default, new and builders, its Debug,
// and configure with one, which sets what it names and leaves the rest to
// the device's defaults (device.rs:757-772).
func TestDeviceConfig(t *testing.T) {
	w := world(t, "flex")
	cfg := mustCall(t, w, fn("DeviceConfig::default"))
	cfg = mustCall(t, w, method(cfg, "float_dtype", enum("DType", "F64")))
	if got := Debug(cfg); got != "DeviceConfig { float_dtype: Some(F64), int_dtype: None, bool_dtype: None }" {
		t.Errorf("Debug = %s", got)
	}
	flex := device(t, w, "flex")
	if ok := mustCall(t, w, method(flex, "configure", cfg)).(*Enum); ok.Variant != "Ok" {
		t.Fatalf("configure = %s", Debug(ok))
	}
	if x := ones(t, w, flex, "", 2); x.DType() != F64 {
		t.Errorf("float dtype after configure = %s", x.DType())
	}
	if x := ones(t, w, flex, "Int", 2); x.DType() != I32 {
		t.Errorf("int dtype after configure = %s, want the default", x.DType())
	}
	if _, err := w.Call(method(cfg, "float_dtype", Int{V: 1})); err == nil {
		t.Errorf("float_dtype(1) is not a dtype")
	}
	full := mustCall(t, w, Call{Path: []string{"DeviceConfig", "new"}, Args: []Value{enum("Option", "None"), enum("Option", "None"), enum("Option", "None")}})
	if got := Debug(full); got != "DeviceConfig { float_dtype: None, int_dtype: None, bool_dtype: None }" {
		t.Errorf("new(None, None, None) = %s", got)
	}
}

func TestLinalgAndSignal(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	x := ones(t, w, d, "", 5, 3, 3)
	linalg := func(name string, generics []string, args ...Value) Call {
		return Call{Path: []string{"burn", "tensor", "linalg", name}, Generics: [][]string{nil, nil, nil, generics}, Args: args}
	}
	det := mustCall(t, w, linalg("det", []string{"3", "2", "1"}, x)).(*Tensor)
	if !slices.Equal(det.Shape(), []int64{5}) {
		t.Errorf("det shape %v", det.Shape())
	}
	diag := mustCall(t, w, linalg("diag", []string{"3", "2"}, ones(t, w, d, "", 2, 3, 4))).(*Tensor)
	if !slices.Equal(diag.Shape(), []int64{2, 3}) {
		t.Errorf("diag shape %v", diag.Shape())
	}
	qr := mustCall(t, w, linalg("qr", nil, ones(t, w, d, "", 4, 3), Bool(true))).(Tuple)
	if !slices.Equal(qr[0].(*Tensor).Shape(), []int64{4, 3}) || !slices.Equal(qr[1].(*Tensor).Shape(), []int64{3, 3}) {
		t.Errorf("qr shapes %s", Debug(qr))
	}
	if p := mustPanic(t, w, linalg("det", []string{"3", "3", "1"}, x)); p.ID != "bt-check-det-d1" {
		t.Errorf("det::<3, 3, 1>: %s", p.ID)
	}
	spec := mustCall(t, w, Call{Path: []string{"burn", "tensor", "signal", "rfft"}, Args: []Value{ones(t, w, d, "", 2, 8), i(1), enum("Option", "None")}}).(Tuple)
	if !slices.Equal(spec[1].(*Tensor).Shape(), []int64{2, 5}) {
		t.Errorf("rfft shapes %s", Debug(spec))
	}
	if p := mustPanic(t, w, Call{Path: []string{"signal", "rfft"}, Args: []Value{ones(t, w, d, "", 6), i(0), enum("Option", "None")}}); p.ID != "bt-check-pow2" {
		t.Errorf("rfft of 6: %s", p.ID)
	}
}

func TestQuantized(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	scheme := mustCall(t, w, fn("burn::tensor::quantization::QuantScheme::default"))
	q := mustCall(t, w, method(ones(t, w, d, "", 2, 3, 3), "quantize_dynamic", ref(scheme))).(*Tensor)
	if q.KindName() != "QFloat" || q.TypeName() != "Tensor<3>" {
		t.Fatalf("quantized: %s %s", q.KindName(), q.TypeName())
	}
	r := mustCall(t, w, method(q, "reshape", dims(6, 3))).(*Tensor)
	if r.KindName() != "QFloat" || w.Trace()[len(w.Trace())-1].Op != "q_reshape" {
		t.Errorf("reshape of a quantized tensor: %s %s", r.KindName(), w.Trace()[len(w.Trace())-1].Op)
	}
	linalgDet := Call{Path: []string{"linalg", "det"}, Generics: [][]string{nil, {"3", "2", "1"}}, Args: []Value{q}}
	if p := mustPanic(t, w, linalgDet); p.ID != "bt-check-det-dtype" {
		t.Errorf("det of a quantized tensor: %s", p.ID)
	}
	deq := mustCall(t, w, method(q, "dequantize")).(*Tensor)
	linalgDet.Args = []Value{deq}
	mustCall(t, w, linalgDet)
	// On an autodiff device, dequantize joins the graph as a fresh leaf.
	ad := mustCall(t, w, method(d, "autodiff")).(*Device)
	qa := mustCall(t, w, method(ones(t, w, ad, "", 2), "quantize_dynamic", ref(scheme))).(*Tensor)
	if qa.Tracked() || !qa.Device().IsAutodiff() {
		t.Errorf("a quantized tensor is a plain handle that keeps the strategy")
	}
	if back := mustCall(t, w, method(qa, "dequantize")).(*Tensor); !back.Tracked() {
		t.Errorf("dequantize on an autodiff device must be tracked")
	}
}

// Device::settings reads the registry and locks the defaults on first read.
func TestSettings(t *testing.T) {
	w := world(t, "flex")
	flex := device(t, w, "flex")
	s := mustCall(t, w, method(flex, "settings"))
	if got := Debug(s); got != "DeviceSettings { float_dtype: F32, int_dtype: I32, bool_dtype: Native, quantization: QuantConfig { scheme: QuantScheme { value: Q8F, store: Native, mode: Symmetric, tensor: None, block: None }, propagation: Inhibit } }" {
		t.Errorf("settings = %s", got)
	}
	if got := mustCall(t, w, method(flex, "configure", enum("FloatDType", "F16"))).(*Enum); got.Variant != "Err" {
		t.Errorf("configure after settings() = %s, want AlreadyInitialized", Debug(got))
	}
	w2 := world(t, "flex")
	flex2 := device(t, w2, "flex")
	mustCall(t, w2, method(flex2, "configure", enum("FloatDType", "BF16")))
	if got := mustCall(t, w2, method(flex2, "settings")).(*Enum).Named["float_dtype"].(*Enum).Variant; got != "BF16" {
		t.Errorf("settings after configure: float %s", got)
	}
}

// configure asks the device whether it supports each dtype; a capture
// device answers only inside its scope.
func TestConfigureCapture(t *testing.T) {
	w := world(t, "capture")
	outside := device(t, w, "capture")
	if p := mustPanic(t, w, method(outside, "configure", enum("FloatDType", "F16"))); p.ID != "capture-outside-scope" {
		t.Errorf("configure outside a scope: %s", p.ID)
	}
	inside := scopedCapture(t, w)
	if got := mustCall(t, w, method(inside, "configure", enum("FloatDType", "F64"))).(*Enum); got.Variant != "Ok" {
		t.Errorf("configure F64 on a capture device = %s", Debug(got))
	}
}

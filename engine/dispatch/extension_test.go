package dispatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const extLocation = "src/main.rs:4:1"

// extWorld is a build with the extension feature and the backends the
// routing tables use.
func extWorld(t *testing.T) *World {
	return world(t, "extension", "ndarray", "flex", "cuda", "autodiff")
}

// on makes a tensor for the tables: "ndarray", "flex" or "cuda"; "+ad"
// for the autodiff device; kind "" (Float), "Int" or "Bool".
func on(t *testing.T, w *World, dev, kind string) *DispatchTensor {
	t.Helper()
	name, ad := strings.CutSuffix(dev, "+ad")
	var d *Device
	if name == "cuda" {
		d = device(t, w, "cuda", i(0))
	} else {
		d = device(t, w, name)
	}
	if ad {
		d = mustCall(t, w, method(d, "autodiff")).(*Device)
	}
	var tensor *Tensor
	if kind == "Bool" {
		tensor = mustCall(t, w, fnG("Tensor::empty", []string{"1", "Bool"}, dims(2), ref(d))).(*Tensor)
	} else {
		tensor = ones(t, w, d, kind, 2)
	}
	return mustExt(t, w, method(tensor, "into_dispatch")).(*DispatchTensor)
}

// extOp declares `fn OP(params) -> FloatTensor<Self>` on a trait listing
// selectors; "Autodiff" and "Sel:off" (a cfg that does not hold) are
// understood.
func extOp(selectors string, params ...ExtParam) *ExtensionOp {
	op := &ExtensionOp{Trait: "Ext", Name: "op", Params: params, Output: ExtOutput{Shape: OutTensor, Kind: ParamFloat}, Location: extLocation}
	for _, s := range strings.Split(selectors, ",") {
		s = strings.TrimSpace(s)
		name, off := strings.CutSuffix(s, ":off")
		if name == AutodiffSelector {
			op.Autodiff, op.AutodiffOff = true, off
			continue
		}
		b, ok := SelectorBackend(name)
		if !ok {
			panic("test selector " + name)
		}
		op.Selectors = append(op.Selectors, ExtSelector{Name: name, Backend: b, Off: off})
	}
	return op
}

func float(name string) ExtParam       { return ExtParam{Name: name, Kind: ParamFloat} }
func intParam(name string) ExtParam    { return ExtParam{Name: name, Kind: ParamInt} }
func boolParam(name string) ExtParam   { return ExtParam{Name: name, Kind: ParamBool} }
func borrowed(p ExtParam) ExtParam     { p.Borrowed = true; return p }
func scalarParam(name string) ExtParam { return ExtParam{Name: name, Kind: ParamOther} }

// operand is `enum Operand<B> { Empty, Full(FloatTensor<B>), Rows { weights: FloatTensor<B>, ids: IntTensor<B> } }`.
var operandType = &ExtType{Name: "Operand", Enum: true, Variants: []ExtVariant{
	{Name: "Empty"},
	{Name: "Full", Fields: []ExtField{{Name: "0", Kind: ParamFloat}}},
	{Name: "Rows", Named: true, Fields: []ExtField{{Name: "weights", Kind: ParamFloat}, {Name: "ids", Kind: ParamInt}}},
}}

func operandParam(name string) ExtParam {
	return ExtParam{Name: name, Kind: ParamExtension, Type: operandType}
}

// mustExt runs a call of the extension API and fails the test on any error.
func mustExt(t *testing.T, w *World, c Call) Value {
	t.Helper()
	v, handled, err := w.ExtensionAPI(c)
	if !handled || err != nil {
		t.Fatalf("%s: handled %v, error %v", describe(c), handled, err)
	}
	return v
}

func callExt(t *testing.T, w *World, op *ExtensionOp, args ...Value) (Value, *Panic) {
	t.Helper()
	v, err := callOp(w, op, args)
	if err == nil {
		return v, nil
	}
	var p *Panic
	if !errors.As(err, &p) {
		t.Fatalf("%s: want a panic or a value, got %v", op.Name, err)
	}
	return nil, p
}

// callOp calls an op the way the interpreter does, through ExtensionAPI
// with the op as the receiver.
func callOp(w *World, op *ExtensionOp, args []Value) (Value, error) {
	v, handled, err := w.ExtensionAPI(Call{Recv: op, Method: op.Name, Args: args})
	if !handled {
		panic("an extension op must be handled")
	}
	return v, err
}

// TestExtensionRoutingPanics walks every runtime message of the generated
// routing (extensions.md §3.1) and of the accessors it reaches (§3.2),
// including the scenarios W1-W5 of §4.1.
func TestExtensionRoutingPanics(t *testing.T) {
	cases := []struct {
		name      string
		selectors string
		params    []ExtParam
		args      []string // "dev kind" per bare tensor param, "3.0" for a scalar
		wantID    string
		wantMsg   string
		wantInput int
	}{
		{"W1 two plain floats on two backends", "NdArray, Flex", []ExtParam{float("lhs"), float("rhs")},
			[]string{"ndarray", "flex"}, ExtensionInputWrongBackend, "input tensor `rhs` is on the wrong backend", 2},
		{"W2 tracked rhs, Autodiff not listed", "Flex", []ExtParam{float("lhs"), float("rhs")},
			[]string{"flex", "flex+ad"}, ExtensionInputWrongBackend, "input tensor `rhs` is on the wrong backend", 2},
		{"W2 swapped: tracked routing tensor without Autodiff", "Flex", []ExtParam{float("lhs"), float("rhs")},
			[]string{"flex+ad", "flex"}, "ext-backend-not-supported", "not implemented: Backend not supported for custom op `op`", -1},
		{"W2 with Autodiff listed", "Flex, Autodiff", []ExtParam{float("lhs"), float("rhs")},
			[]string{"flex", "flex+ad"}, "ext-post-autodiff-182", "autodiff float input reached concrete dispatch", 2},
		{"W3 both tracked on two backends", "NdArray, Flex, Autodiff", []ExtParam{float("lhs"), float("rhs")},
			[]string{"ndarray+ad", "flex+ad"}, ExtensionInputWrongBackend, "input tensor `rhs` is on the wrong backend", 2},
		{"W3 borrowed", "NdArray, Flex, Autodiff", []ExtParam{float("lhs"), borrowed(float("rhs"))},
			[]string{"ndarray+ad", "&flex+ad"}, ExtensionInputWrongBackend, "input tensor `rhs` is on the wrong backend", 2},
		{"W4 tracked routing, plain float on another backend", "NdArray, Flex, Autodiff", []ExtParam{float("lhs"), float("rhs")},
			[]string{"ndarray+ad", "flex"}, ExtensionInputWrongBackend, "input tensor `rhs` is on the wrong backend", 2},
		{"W5 int declared before the routing float", "NdArray, Flex", []ExtParam{intParam("indices"), float("values")},
			[]string{"flex Int", "ndarray"}, ExtensionInputWrongBackend, "input tensor `indices` is on the wrong backend", 1},
		{"W5 tracked float as int, Autodiff not listed", "Flex", []ExtParam{intParam("indices"), float("values")},
			[]string{"flex+ad", "flex"}, ExtensionInputWrongBackend, "input tensor `indices` is on the wrong backend", 1},
		{"tracked float as int, Autodiff listed", "Flex, Autodiff", []ExtParam{intParam("indices"), float("values")},
			[]string{"flex+ad", "flex"}, "ext-post-only-183", "only float tensors may use an autodiff primitive", 1},
		{"routing backend not listed", "NdArray", []ExtParam{float("x")},
			[]string{"flex"}, "ext-backend-not-supported", "not implemented: Backend not supported for custom op `op`", -1},
		{"routing backend compiled out by its cfg", "NdArray, Flex:off", []ExtParam{float("x")},
			[]string{"flex"}, "ext-backend-not-supported", "not implemented: Backend not supported for custom op `op`", -1},
		{"tracked routing tensor, Autodiff cfg off", "Flex, Autodiff:off", []ExtParam{float("x")},
			[]string{"flex+ad"}, "ext-backend-not-supported", "not implemented: Backend not supported for custom op `op`", -1},
		{"int on an autodiff device, Autodiff not listed", "Flex", []ExtParam{intParam("ids")},
			[]string{"flex+ad Int"}, "ext-post-autodiff-190", "not implemented: Autodiff not supported for custom op `op`", -1},
		{"int on an autodiff device, Autodiff cfg off", "Flex, Autodiff:off", []ExtParam{intParam("ids")},
			[]string{"flex+ad Int"}, "ext-post-autodiff-190", "not implemented: Autodiff not supported for custom op `op`", -1},
		{"int where a float is declared", "Flex", []ExtParam{float("x")},
			[]string{"flex Int"}, "disp-bt-float-got-int-41", "Should be float, got int", 1},
		{"int where a borrowed float is declared", "Flex", []ExtParam{borrowed(float("x"))},
			[]string{"&flex Int"}, "disp-bt-float-got-int-52", "Should be float, got int", 1},
		{"bool where a float is declared", "Flex", []ExtParam{float("x")},
			[]string{"flex Bool"}, "disp-bt-float-got-bool-42", "Should be float, got bool", 1},
		{"float where an int is declared", "Flex", []ExtParam{float("x"), intParam("ids")},
			[]string{"flex", "flex"}, "disp-bt-int-got-float-64", "Should be int, got float", 2},
		{"bool where an int is declared", "Flex", []ExtParam{float("x"), intParam("ids")},
			[]string{"flex", "flex Bool"}, "disp-bt-int-got-bool-65", "Should be int, got bool", 2},
		{"float where a bool is declared", "Flex", []ExtParam{float("x"), boolParam("mask")},
			[]string{"flex", "flex"}, "disp-bt-bool-got-float-76", "Should be bool, got float", 2},
		{"int where a bool is declared", "Flex", []ExtParam{float("x"), boolParam("mask")},
			[]string{"flex", "flex Int"}, "disp-bt-bool-got-int-77", "Should be bool, got int", 2},
		{"float where a quantized tensor is declared", "Flex", []ExtParam{float("x"), {Name: "q", Kind: ParamQuantized}},
			[]string{"flex", "flex"}, "disp-bt-quantized", "internal error: entered unreachable code", 2},
		{"plain int lifted on the autodiff route", "Flex, Autodiff", []ExtParam{float("x"), float("y")},
			[]string{"flex+ad", "flex Int"}, "disp-bt-float-got-int-41", "Should be float, got int", 2},
		{"the first failing input is reported, in declaration order", "NdArray, Flex", []ExtParam{float("a"), scalarParam("k"), float("b"), float("c")},
			[]string{"ndarray", "3.0", "cuda", "flex"}, ExtensionInputWrongBackend, "input tensor `b` is on the wrong backend", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := extWorld(t)
			var args []Value
			for _, a := range c.args {
				if a == "3.0" {
					args = append(args, f(3))
					continue
				}
				dev, kind, _ := strings.Cut(a, " ")
				dev, borrow := strings.CutPrefix(dev, "&")
				var v Value = on(t, w, dev, kind)
				if borrow {
					v = ref(v)
				}
				args = append(args, v)
			}
			_, p := callExt(t, w, extOp(c.selectors, c.params...), args...)
			if p == nil {
				t.Fatalf("ran; want %s", c.wantID)
			}
			if p.ID != c.wantID || p.Message != c.wantMsg || p.Input != c.wantInput {
				t.Errorf("got %s %q input %d, want %s %q input %d", p.ID, p.Message, p.Input, c.wantID, c.wantMsg, c.wantInput)
			}
			generated := !strings.HasPrefix(p.ID, "disp-bt-")
			if generated && p.Location != extLocation {
				t.Errorf("location %q: the generated code panics at the attribute, %q", p.Location, extLocation)
			}
			if !generated && !strings.HasPrefix(p.Location, "crates/burn-dispatch/src/tensor.rs:") {
				t.Errorf("location %q, want a line of burn-dispatch's tensor.rs", p.Location)
			}
		})
	}
}

// TestExtensionTypeRouting covers `#[extension_type]` inputs: the
// candidate walk (§2.2), R4 (§2.6) and R7 (§2.9), with scenario F3.
func TestExtensionTypeRouting(t *testing.T) {
	w := extWorld(t)
	empty := enum("Operand", "Empty")

	// R7: the operand alone, on a variant without tensors.
	pick := extOp("NdArray", operandParam("choice"))
	if _, p := callExt(t, w, pick, empty); p == nil || p.ID != "ext-no-tensor-input" ||
		p.Message != "backend extension op received no tensor input to select a backend from (e.g. an enum input on a tensor-less variant with no other tensor input)" {
		t.Fatalf("pick(Operand::Empty): %v", p)
	}

	// F3: a bare float routes when the operand declared after it is empty.
	mixPick := extOp("NdArray", float("x"), operandParam("choice"))
	x := on(t, w, "ndarray", "")
	v, p := callExt(t, w, mixPick, x, empty)
	if p != nil {
		t.Fatalf("mix_pick(x, Operand::Empty): %v", p)
	}
	if out := v.(*DispatchTensor).t; out.on.backend != NdArray || out.tracked {
		t.Errorf("mix_pick output on %v tracked %v", out.on.backend, out.tracked)
	}

	// The operand's float routes before a bare float declared after it.
	full := enum("Operand", "Full", on(t, w, "flex", ""))
	pickThen := extOp("NdArray, Flex", operandParam("choice"), float("x"))
	if _, p := callExt(t, w, pickThen, full, on(t, w, "ndarray", "")); p == nil || p.ID != ExtensionInputWrongBackend ||
		p.Message != "input tensor `x` is on the wrong backend" || p.Input != 2 {
		t.Errorf("operand on Flex routes first, x on NdArray: %v", p)
	}

	// R4: a field on another backend than the routing tensor.
	if _, p := callExt(t, w, mixPick, x, enum("Operand", "Full", on(t, w, "flex", ""))); p == nil ||
		p.ID != "ext-post-backend-189" || p.Message != "backend extension input is on the wrong backend" || p.Input != 2 {
		t.Errorf("field on Flex: %v", p)
	}
	// R4: a tracked field on a concrete route, whatever the listing.
	adMix := extOp("NdArray, Autodiff", float("x"), operandParam("choice"))
	if _, p := callExt(t, w, adMix, on(t, w, "ndarray", ""), enum("Operand", "Full", on(t, w, "ndarray+ad", ""))); p == nil || p.ID != "ext-post-backend-189" {
		t.Errorf("tracked field on the concrete route: %v", p)
	}
	// On the autodiff route, a plain field of the selected backend is lifted.
	if _, p := callExt(t, w, adMix, on(t, w, "ndarray+ad", ""), enum("Operand", "Full", on(t, w, "ndarray", ""))); p != nil {
		t.Errorf("plain field on the autodiff route: %v", p)
	}
	// A named variant's int field holding a float fails in the derived impl.
	rows := &Enum{Type: "Operand", Variant: "Rows", Named: map[string]Value{"weights": on(t, w, "ndarray", ""), "ids": on(t, w, "ndarray", "")}}
	if _, p := callExt(t, w, pick, rows); p == nil || p.ID != "disp-bt-int-got-float-64" || p.Input != 1 {
		t.Errorf("Rows with a float ids: %v", p)
	}
	// routing_tensor falls back to an int field when the variant has no float.
	intOnly := &ExtType{Name: "Ids", Variants: []ExtVariant{{Name: "Ids", Fields: []ExtField{{Name: "0", Kind: ParamInt}}}}}
	ids := extOp("Flex", ExtParam{Name: "ids", Kind: ParamExtension, Type: intOnly})
	if _, p := callExt(t, w, ids, enum("Ids", "Ids", on(t, w, "ndarray", "Int"))); p == nil || p.ID != "ext-backend-not-supported" {
		t.Errorf("int-only operand on an unlisted backend: %v", p)
	}
}

// TestExtensionRunsFine covers scenarios F1 and F2 of §4.2 and the output
// wrapping of each route (§2.8).
func TestExtensionRunsFine(t *testing.T) {
	w := extWorld(t)
	double := extOp("NdArray, Flex, Autodiff", float("v"))
	for _, dev := range []string{"ndarray+ad", "flex+ad"} {
		v, p := callExt(t, w, double, on(t, w, dev, ""))
		if p != nil {
			t.Fatalf("F1 double on %s: %v", dev, p)
		}
		out := v.(*DispatchTensor).t
		if !out.tracked || out.ckp == nil || out.node == nil || !out.node.computed {
			t.Errorf("F1 on %s: output tracked %v ckp %v: want a tracked op output", dev, out.tracked, out.ckp)
		}
		if want, _ := strings.CutSuffix(dev, "+ad"); lowerASCII(out.on.backend.String()) != want {
			t.Errorf("F1 on %s: output on %v", dev, out.on.backend)
		}
	}
	ev := w.Trace()[len(w.Trace())-1]
	if ev.Op != "op" || ev.Backend != "Flex" || !ev.Autodiff || !strings.Contains(ev.Note, "Autodiff<Flex, NoCheckpointing>") {
		t.Errorf("trace of F1: %+v", ev)
	}

	// F2: a plain constant next to a tracked float on the same backend.
	mul := extOp("Flex, Autodiff", float("lhs"), float("rhs"))
	v, p := callExt(t, w, mul, on(t, w, "flex+ad", ""), on(t, w, "flex", ""))
	if p != nil {
		t.Fatalf("F2: %v", p)
	}
	if out := v.(*DispatchTensor).t; !out.tracked {
		t.Error("F2: the output of the autodiff route is tracked")
	}

	// An int-only op on an autodiff device with Autodiff listed runs
	// concrete; its float output joins the graph as a leaf, its context
	// copied from the routing tensor.
	count := extOp("Flex, Autodiff", intParam("ids"))
	v, p = callExt(t, w, count, on(t, w, "flex+ad", "Int"))
	if p != nil {
		t.Fatalf("int op on an autodiff device: %v", p)
	}
	if out := v.(*DispatchTensor).t; !out.tracked || out.node.computed || out.ckp == nil {
		t.Errorf("ConcreteEnabled float output: tracked %v", out.tracked)
	}

	// A plain call stays plain, and an int output copies its input's dtype.
	gather := extOp("Flex", float("x"), intParam("ids"))
	gather.Output = ExtOutput{Shape: OutTuple, Elems: []ExtOutput{{Shape: OutTensor, Kind: ParamFloat}, {Shape: OutTensor, Kind: ParamInt}}}
	v, p = callExt(t, w, gather, on(t, w, "flex", ""), on(t, w, "flex", "Int"))
	if p != nil {
		t.Fatalf("gather: %v", p)
	}
	pair := v.(Tuple)
	fl, in := pair[0].(*DispatchTensor).t, pair[1].(*DispatchTensor).t
	if fl.tracked || fl.ckp != nil || fl.kind != KindFloat || in.kind != KindInt || in.dtype != I32 {
		t.Errorf("plain outputs: %v %v %v", fl.tracked, in.kind, in.dtype)
	}

	// Devices are never compared: two CUDA devices of the same backend pass.
	cuda1 := device(t, w, "cuda", i(1))
	one := mustExt(t, w, method(ones(t, w, cuda1, "", 2), "into_dispatch"))
	add := extOp("Cuda", float("lhs"), float("rhs"))
	if _, p := callExt(t, w, add, on(t, w, "cuda", ""), one); p != nil {
		t.Errorf("Cuda(0) and Cuda(1): %v", p)
	}
}

func TestExtensionWithoutTensorInput(t *testing.T) {
	w := extWorld(t)
	load := extOp("Flex", scalarParam("index"))
	if _, p := callExt(t, w, load, i(3)); p != nil {
		t.Errorf("no-input op on its one selector: %v", p)
	}
	off := extOp("Flex:off", scalarParam("index"))
	if _, p := callExt(t, w, off, i(3)); p == nil || p.ID != "ext-no-input-cfg-off" ||
		p.Message != "not implemented: Backend not supported for custom op `op`" {
		t.Errorf("no-input op with its selector compiled out: %v", p)
	}
	_, err := callOp(w, extOp("Flex, NdArray", scalarParam("index")), []Value{i(3)})
	var ue *UsageError
	if !errors.As(err, &ue) || ue.Code != CodeNoInputSelectors || ue.Message != MsgNoInputSelectors {
		t.Errorf("no-input op on two selectors: %v", err)
	}
}

// TestExtensionArgumentTypes are the calls rustc rejects.
func TestExtensionArgumentTypes(t *testing.T) {
	w := extWorld(t)
	plain := ones(t, w, device(t, w, "flex"), "", 2)
	dt := mustExt(t, w, method(plain, "into_dispatch"))
	op := extOp("Flex", float("x"), borrowed(float("y")))
	cases := []struct {
		args []Value
		arg  int
		msg  string
	}{
		{[]Value{plain, ref(dt)}, 1, "mismatched types: expected `DispatchTensor`, found `Tensor<1>`"},
		{[]Value{dt, dt}, 2, "mismatched types: expected `&DispatchTensor`, found `DispatchTensor`"},
		{[]Value{ref(dt), ref(dt)}, 1, "mismatched types: expected `DispatchTensor`, found `&DispatchTensor`"},
		{[]Value{dt}, -1, "this function takes 2 arguments but 1 argument was supplied"},
	}
	for _, c := range cases {
		_, err := callOp(w, op, c.args)
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Arg != c.arg || ue.Message != c.msg {
			t.Errorf("want %q at %d, got %v", c.msg, c.arg, err)
		}
	}
	if v, err := callOp(w, op, []Value{Unknown{}, ref(dt)}); err != nil || v != (Unknown{}) {
		t.Errorf("an unknown argument gives an unknown result, got %v %v", v, err)
	}
}

// TestDispatchConversions: into_dispatch needs the extension feature;
// from_dispatch checks the dtype against K and nothing else.
func TestDispatchConversions(t *testing.T) {
	w := extWorld(t)
	flex := device(t, w, "flex")
	ints := mustExt(t, w, method(ones(t, w, flex, "Int", 2, 3), "into_dispatch"))

	back := mustExt(t, w, fnG("Tensor::from_dispatch", []string{"2", "Int"}, ints)).(*Tensor)
	if back.kind != KindInt || len(back.shape) != 2 {
		t.Errorf("round trip: %v %v", back.kind, back.shape)
	}
	for _, want := range []string{"Float", "Bool"} {
		c := fnG("Tensor::from_dispatch", []string{"2", want}, ints)
		if want == "Float" {
			c = fnG("Tensor::from_dispatch", []string{"2"}, ints)
		}
		_, handled, err := w.ExtensionAPI(c)
		var p *Panic
		if !handled || !errors.As(err, &p) || p.ID != "bt-ext-from-dispatch-kind" ||
			p.Message != "Expected kind "+want+", got dtype I32" || p.Location != "crates/burn-tensor/src/tensor/api/extension.rs:62" {
			t.Errorf("from_dispatch::<%s> of an int: %v", want, err)
		}
	}
	declared := Call{Path: []string{"Tensor", "from_dispatch"}, Expect: "Tensor<2, Bool>", Args: []Value{ints}}
	if _, _, err := w.ExtensionAPI(declared); err == nil || !strings.Contains(err.Error(), "Expected kind Bool") {
		t.Errorf("K from the declared type: %v", err)
	}

	// from_bridge checks the bridge's kind as well as its dtype.
	floats := mustExt(t, w, method(ones(t, w, flex, "", 3), "into_bridge"))
	if _, _, err := w.ExtensionAPI(fnG("Tensor::from_bridge", []string{"1", "Int"}, floats)); err == nil ||
		err.Error() != "Expected kind Int, got dtype F32" {
		t.Errorf("from_bridge::<Int> of a float: %v", err)
	}
	if v := mustExt(t, w, fnG("Tensor::from_bridge", []string{"1"}, floats)); v.(*Tensor).kind != KindFloat {
		t.Errorf("from_bridge::<Float> of a float: %v", v)
	}

	without := world(t, "ndarray")
	nd := ones(t, without, device(t, without, "ndarray"), "", 2)
	_, _, err := without.ExtensionAPI(method(nd, "into_dispatch"))
	var ue *UsageError
	if !errors.As(err, &ue) || ue.Feature != "extension" {
		t.Errorf("into_dispatch without the extension feature: %v", err)
	}
	if _, handled, _ := w.ExtensionAPI(method(nd, "clone")); handled {
		t.Error("Tensor::clone is not an extension call")
	}
}

func TestSelectorsAndFixes(t *testing.T) {
	for name, want := range map[string]bool{"Wgpu": true, "Cuda": true, "NdArray": true, "Remote": true, "Cube": false, "Fusion": false, "Capture": false, "Autodiff": false} {
		if _, ok := SelectorBackend(name); ok != want {
			t.Errorf("selector %s accepted %v", name, ok)
		}
	}
	w := extWorld(t)
	for name, want := range map[string]string{"ndarray": "Device::ndarray()", "flex": "Device::flex()"} {
		if got, ok := DeviceConstructor(device(t, w, name)); !ok || got != want {
			t.Errorf("constructor of %s: %q", name, got)
		}
	}
	if got, _ := DeviceConstructor(device(t, w, "cuda", i(1))); got != "Device::cuda(1)" {
		t.Errorf("constructor of cuda(1): %q", got)
	}

	op := extOp("NdArray, Flex, Autodiff", float("lhs"), float("rhs"))
	at, ad, ok := w.ExtensionRoute(op, []Value{on(t, w, "ndarray+ad", ""), on(t, w, "flex", "")})
	if !ok || at.backend != NdArray || !ad {
		t.Errorf("route of W4: %v %v %v", at, ad, ok)
	}
	before := len(w.Trace())
	if _, _, ok := w.ExtensionRoute(extOp("NdArray", float("x")), []Value{on(t, w, "flex", "")}); ok || len(w.Trace()) != before+1 {
		t.Errorf("an unrouted call has no route and records nothing but its argument: ok %v", ok)
	}
}

// TestPrimitives: try_into_primitive's errors, with Burn's texts, and the
// round trip through from_primitive.
func TestPrimitives(t *testing.T) {
	w := extWorld(t)
	flex := device(t, w, "flex")
	tracked := mustCall(t, w, method(flex, "autodiff")).(*Device)
	plain := ones(t, w, flex, "", 2)
	onAD := ones(t, w, tracked, "", 2)
	try := func(x *Tensor, backend string) *Enum {
		c := method(x, "try_into_primitive")
		c.Generics = [][]string{{backend}}
		return mustExt(t, w, c).(*Enum)
	}
	cases := []struct {
		x       *Tensor
		backend string
		err     string
		row     string // the panic-table row an unwrap of the error reproduces
	}{
		{plain, "Cuda", `BackendMismatch("Expected Cuda tensor, got variant: Flex")`, "disp-conv-expected-backend"},
		{onAD, "Flex", `BackendMismatch("Expected Flex tensor, got variant: Autodiff")`, "disp-conv-expected-backend"},
		{plain, "Autodiff<Flex>", `BackendMismatch("Expected Autodiff tensor, got backend: Flex")`, "disp-conv-ad-expected"},
		{onAD, "Autodiff<NdArray>", `BackendMismatch("Expected Autodiff NdArray tensor, got Autodiff variant: Flex")`, "disp-conv-ad-backend"},
	}
	for _, c := range cases {
		r := try(c.x, c.backend)
		if r.Variant != "Err" {
			t.Errorf("%s of %v: %v", c.backend, c.x.TypeName(), r.Variant)
			continue
		}
		e := r.Fields[0].(*Enum)
		if got := fmt.Sprintf("%s(%q)", e.Variant, string(e.Fields[0].(Str))); got != c.err {
			t.Errorf("%s: got %s, want %s", c.backend, got, c.err)
		}
		if e.ErrorRow != c.row {
			t.Errorf("%s: row %q, want %q", c.backend, e.ErrorRow, c.row)
		}
	}
	ok := try(onAD, "Autodiff<Flex>")
	if ok.Variant != "Ok" {
		t.Fatalf("Autodiff<Flex> of a tracked Flex float: %v", ok.Variant)
	}
	back := mustExt(t, w, Call{Path: []string{"Tensor", "from_primitive"}, Generics: [][]string{{"1"}, {"Autodiff<Flex>"}}, Args: ok.Fields}).(*Tensor)
	if !back.tracked || back.ckp == nil {
		t.Errorf("from_primitive::<Autodiff<Flex>> gives a tracked tensor")
	}
	_, _, err := w.ExtensionAPI(Call{Path: []string{"Tensor", "from_primitive"}, Generics: [][]string{{"1"}, {"Flex"}}, Args: ok.Fields})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Message, "mismatched types") {
		t.Errorf("from_primitive::<Flex> of an Autodiff<Flex> primitive: %v", err)
	}
}

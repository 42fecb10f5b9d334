package dispatch

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// Tensor::from(x) is Tensor::from_data(x.into(), &Default::default())
// (burn-tensor/src/tensor/api/base.rs:84-92): the same values, dtype,
// device and trace as the from_data call it stands for.
func TestTensorFrom(t *testing.T) {
	w := world(t, "flex")
	def := &Enum{Type: "Default", Variant: "default"}
	data := mustCall(t, w, fn("TensorData::from", arr(f(1.5), f(-2))))
	cases := []struct {
		name     string
		generics []string
		arg      Value
		shape    []int64
		dtype    DType
		kind     string
		op       string
		display  string
	}{
		{"float array", []string{"2"}, arr(arr(f(0), f(-1), f(2)), arr(f(3), f(4), f(-5))), []int64{2, 3}, F32, "Float", "float_from_data", "[[0.0, -1.0, 2.0],\n [3.0, 4.0, -5.0]]"},
		{"int array", []string{"1", "Int"}, arr(i(1), i(2)), []int64{2}, I32, "Int", "int_from_data", "[1, 2]"},
		{"bool array", []string{"1", "Bool"}, arr(Bool(true), Bool(false)), []int64{2}, "Bool(Native)", "Bool", "bool_from_data", "[true, false]"},
		{"TensorData", []string{"1"}, data, []int64{2}, F32, "Float", "float_from_data", "[1.5, -2.0]"},
	}
	for _, c := range cases {
		got := mustCall(t, w, fnG("Tensor::from", c.generics, c.arg)).(*Tensor)
		ev := w.Trace()[len(w.Trace())-1]
		want := mustCall(t, w, fnG("Tensor::from_data", c.generics, c.arg, ref(def))).(*Tensor)
		wantEv := w.Trace()[len(w.Trace())-1]
		if !slices.Equal(got.Shape(), c.shape) || got.DType() != c.dtype || got.KindName() != c.kind {
			t.Errorf("%s: %v %s %s, want %v %s %s", c.name, got.Shape(), got.DType(), got.KindName(), c.shape, c.dtype, c.kind)
		}
		if ev.Op != c.op || ev.Op != wantEv.Op || ev.Device != wantEv.Device || ev.Backend != wantEv.Backend || ev.Autodiff != wantEv.Autodiff {
			t.Errorf("%s: trace %+v, want op %s as from_data's %+v", c.name, ev, c.op, wantEv)
		}
		if s, ws := display(t, got), display(t, want); s != ws || !strings.Contains(s, c.display) {
			t.Errorf("%s: Display\n%s\nwant the data %q, as from_data's\n%s", c.name, s, c.display, ws)
		}
	}
	// The device is Device::default(), whatever the build makes it.
	x := mustCall(t, w, fnG("Tensor::from", []string{"1"}, arr(f(1)))).(*Tensor)
	if d := mustCall(t, w, fn("Device::default")).(*Device); Debug(x.Device()) != Debug(d) {
		t.Errorf("Tensor::from on %s, want Device::default() %s", Debug(x.Device()), Debug(d))
	}
	if ue := mustReject(t, w, fnG("Tensor::from", []string{"1"}, arr(f(1)), ref(def))); ue.Message != "this function takes 1 argument but 2 arguments were supplied" {
		t.Errorf("Tensor::from with two arguments: %+v", ue)
	}
	if ue := mustReject(t, w, fnG("Tensor::from", []string{"1"}, f(1))); ue.Code != "wrong-arguments" {
		t.Errorf("Tensor::from of a float: %+v", ue)
	}
}

// Element::dtype(), ElementConversion::from_elem and elem on primitives
// (burn-std/src/element/base.rs, cast.rs), and DType's queries
// (burn-std/src/tensor/dtype.rs).
func TestElementTraits(t *testing.T) {
	w := world(t, "flex")
	elem := func(recv Value, target string) Call {
		return Call{Recv: recv, Method: "elem", Generics: [][]string{{target}}}
	}
	cases := []struct {
		name string
		call Call
		want string
	}{
		{"f32::dtype", fn("f32::dtype"), "F32"},
		{"i64::dtype", fn("i64::dtype"), "I64"},
		{"bool::dtype", fn("bool::dtype"), "Bool(Native)"},
		{"bf16::dtype", fn("bf16::dtype"), "BF16"},
		{"f32::from_elem of an int", fn("f32::from_elem", i(3)), "3.0"},
		{"i32::from_elem truncates", fn("i32::from_elem", f(-2.9)), "-2"},
		{"f64 to f32 rounds", elem(Float{V: 0.1, Suffix: "f64"}, "f32"), "0.1"},
		{"f32 to i64 truncates", elem(Float{V: 3.7, Suffix: "f32"}, "i64"), "3"},
		{"int to f32", elem(i(5), "f32"), "5.0"},
		{"int to bool", elem(i(2), "bool"), "true"},
		{"bool to u8", elem(Bool(true), "u8"), "1"},
		{"target from the declared type", Call{Recv: i(7), Method: "elem", Expect: "f64"}, "7.0"},
		{"no target: the literal keeps its value", method(i(7), "elem"), "7"},
		{"DType::name", method(enum("DType", "F16"), "name"), `"f16"`},
		{"DType::name of a bool", method(enum("DType", "Bool", enum("BoolStore", "U8")), "name"), `"bool(u8)"`},
		{"DType::is_float", method(enum("DType", "BF16"), "is_float"), "true"},
		{"DType::is_int of an unsigned", method(enum("DType", "U32"), "is_int"), "false"},
		{"DType::is_uint", method(enum("DType", "U32"), "is_uint"), "true"},
		{"DType::is_bool", method(enum("DType", "Bool", enum("BoolStore", "Native")), "is_bool"), "true"},
	}
	for _, c := range cases {
		if got := Debug(mustCall(t, w, c.call)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	// The f32 the conversion gives is the f32 value, not the f64 one; an
	// f16 rounds to 10 mantissa bits.
	if v := mustCall(t, w, elem(Float{V: 0.1, Suffix: "f64"}, "f32")).(Float); v.V != float64(float32(0.1)) || v.Suffix != "f32" {
		t.Errorf("0.1f64.elem::<f32>() = %#v", v)
	}
	if v := mustCall(t, w, elem(f(0.1), "f16")).(Float); v.V != 0.0999755859375 || v.Suffix != "f16" {
		t.Errorf("0.1.elem::<f16>() = %#v", v)
	}
	errs := []struct {
		name, code, msg string
		call            Call
	}{
		{"dtype takes no argument", "wrong-arguments", "this function takes 0 arguments but 1 argument was supplied", fn("f32::dtype", i(1))},
		{"elem takes no argument", "wrong-arguments", "this method takes 0 arguments but 1 argument was supplied", Call{Recv: i(1), Method: "elem", Args: []Value{i(2)}}},
		{"usize is no Element", "wrong-arguments", "the trait bound `usize: Element` is not satisfied", elem(i(1), "usize")},
		{"unknown function of a primitive", "unknown-function", "no function or associated item named `dtypes` found for `f32` in the current scope", fn("f32::dtypes")},
	}
	for _, c := range errs {
		if ue := mustReject(t, w, c.call); ue.Code != c.code || ue.Message != c.msg {
			t.Errorf("%s: %+v", c.name, ue)
		}
	}
	// A value the target cannot hold panics at ToElement's site for the
	// source and target kinds (cast.rs).
	panics := []struct {
		name, id, loc, msg string
		call               Call
	}{
		{"i32 to u8", "std-elem-int-to-uint", "crates/burn-std/src/element/cast.rs:166", `Element cannot be represented in the target type: "i32"(300) => "u8"`, elem(Int{V: 300, Suffix: "i32"}, "u8")},
		{"an unsuffixed int is an i32", "std-elem-int-to-int", "crates/burn-std/src/element/cast.rs:146", `Element cannot be represented in the target type: "i32"(200) => "i8"`, elem(i(200), "i8")},
		{"u32 to i8", "std-elem-uint-to-int", "crates/burn-std/src/element/cast.rs:230", `Element cannot be represented in the target type: "u32"(300) => "i8"`, elem(Int{V: 300, Suffix: "u32"}, "i8")},
		{"u64 to u8", "std-elem-uint-to-uint", "crates/burn-std/src/element/cast.rs:250", `Element cannot be represented in the target type: "u64"(256) => "u8"`, elem(Int{V: 256, Suffix: "u64"}, "u8")},
		{"negative float to unsigned", "std-elem-float-to-uint", "crates/burn-std/src/element/cast.rs:376", "Float cannot be represented in the target unsigned int type", elem(Float{V: -1, Suffix: "f32"}, "u32")},
		{"NaN to int", "std-elem-float-to-int", "crates/burn-std/src/element/cast.rs:349", "Float cannot be represented in the target signed int type", elem(f(math.NaN()), "i32")},
		{"f64 past i32::MAX", "std-elem-float-to-int", "crates/burn-std/src/element/cast.rs:349", "Float cannot be represented in the target signed int type", fn("i32::from_elem", f(2147483648))},
	}
	for _, c := range panics {
		p := mustPanic(t, w, c.call)
		if p.ID != c.id || p.Location != c.loc || p.Message != c.msg {
			t.Errorf("%s: %+v", c.name, p)
		}
		checkAgainstTable(t, p)
	}
	// In range at the edges: -0.9 truncates to 0 for an unsigned target,
	// i32::MAX + 0.5 truncates to i32::MAX.
	for _, c := range []struct {
		call Call
		want string
	}{{elem(f(-0.9), "u8"), "0"}, {fn("i32::from_elem", f(2147483647.5)), "2147483647"}, {elem(Int{V: 255, Suffix: "i64"}, "u8"), "255"}} {
		if got := Debug(mustCall(t, w, c.call)); got != c.want {
			t.Errorf("%s: %s, want %s", describe(c.call), got, c.want)
		}
	}
	for _, m := range []string{"elem"} {
		if !HasElementMethod(f(1), m) || HasElementMethod(Str("x"), m) {
			t.Errorf("HasElementMethod(%s)", m)
		}
	}
	if !HasElementMethod(enum("DType", "F32"), "name") || HasElementMethod(enum("Distribution", "Default"), "name") {
		t.Error("HasElementMethod of enums")
	}
}

// Tensor::cast through burn-tensor's Cast impls (tensor/api/cast.rs): the
// argument's type decides the output kind, a cast to the current dtype is
// the tensor itself.
func TestTensorCast(t *testing.T) {
	w := world(t, "flex")
	d := device(t, w, "flex")
	fl := mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(1.5), f(-2.7)), ref(d))).(*Tensor)
	in := mustCall(t, w, fnG("Tensor::from_ints", []string{"1"}, arr(i(3), i(-4)), ref(d))).(*Tensor)
	bo := mustCall(t, w, fnG("Tensor::from_bool", []string{"1"}, arr(Bool(true), Bool(false)), ref(d))).(*Tensor)
	cases := []struct {
		name  string
		recv  *Tensor
		arg   Value
		dtype DType
		kind  string
		op    string // "" when the cast returns the tensor itself
		data  string
	}{
		{"float to f16", fl, enum("FloatDType", "F16"), F16, "Float", "float_cast", "[1.5 -2.69921875]"},
		{"float through DType", fl, enum("DType", "F64"), F64, "Float", "float_cast", "[1.5 -2.700000047683716]"},
		{"float to its own dtype", fl, enum("FloatDType", "F32"), F32, "Float", "", "[1.5 -2.700000047683716]"},
		{"float to int truncates", fl, enum("IntDType", "I64"), I64, "Int", "float_into_int", "[1 -2]"},
		{"int to i64", in, enum("IntDType", "I64"), I64, "Int", "int_cast", "[3 -4]"},
		{"int through DType, its own dtype", in, enum("DType", "I32"), I32, "Int", "", "[3 -4]"},
		{"int to float", in, enum("FloatDType", "F32"), F32, "Float", "int_into_float", "[3 -4]"},
		{"bool to u8", bo, enum("IntDType", "U8"), U8, "Int", "bool_into_int", "[1 0]"},
		{"bool to float", bo, enum("FloatDType", "F32"), F32, "Float", "bool_into_float", "[1 0]"},
	}
	for _, c := range cases {
		before := len(w.Trace())
		out := mustCall(t, w, method(c.recv, "cast", c.arg)).(*Tensor)
		if out.DType() != c.dtype || out.KindName() != c.kind || !slices.Equal(out.Shape(), c.recv.Shape()) {
			t.Errorf("%s: %s %s %v, want %s %s", c.name, out.DType(), out.KindName(), out.Shape(), c.dtype, c.kind)
		}
		tr := w.Trace()[before:]
		switch {
		case c.op == "" && (len(tr) != 0 || out != c.recv):
			t.Errorf("%s: a cast to the current dtype dispatched %+v", c.name, tr)
		case c.op != "" && (len(tr) != 1 || tr[0].Op != c.op || tr[0].Kind != c.kind):
			t.Errorf("%s: trace %+v, want one %s", c.name, tr, c.op)
		}
		var got string
		if data := out.vals().IntoData(); out.kind == KindFloat {
			got = fmt.Sprint(data.F)
		} else {
			got = fmt.Sprint(data.I)
		}
		if got != c.data {
			t.Errorf("%s: values %s, want %s", c.name, got, c.data)
		}
	}
	p := mustPanic(t, w, method(fl, "cast", enum("DType", "I32")))
	if p.ID != "std-float-dtype" || p.Message != "Expected float data type, got I32" || p.Location != "crates/burn-std/src/tensor/dtype.rs:215" {
		t.Errorf("float cast to DType::I32: %+v", p)
	}
	p = mustPanic(t, w, method(in, "cast", enum("DType", "F32")))
	if p.ID != "std-int-dtype" || p.Message != "Expected int data type, got F32" {
		t.Errorf("int cast to DType::F32: %+v", p)
	}
	rejects := []struct {
		name string
		call Call
		msg  string
	}{
		{"bool through DType", method(bo, "cast", enum("DType", "I32")), "the trait bound `DType: Cast<1, Bool>` is not satisfied"},
		{"a bool store", method(fl, "cast", enum("BoolStore", "Native")), "the trait bound `BoolStore: Cast<1, Float>` is not satisfied"},
		{"a number", method(fl, "cast", i(3)), "the trait bound `i32: Cast<1, Float>` is not satisfied"},
		{"no argument", method(fl, "cast"), "this method takes 1 argument but 0 arguments were supplied"},
	}
	for _, c := range rejects {
		if ue := mustReject(t, w, c.call); ue.Message != c.msg {
			t.Errorf("%s: %+v", c.name, ue)
		}
	}
}

// `(&Default::default(), dtype)` creation options: the tuple impl takes a
// &Device, so the default is the default device (options.rs:93-98).
func TestCreationOptionsDefaultDevice(t *testing.T) {
	w := world(t, "flex")
	def := &Enum{Type: "Default", Variant: "default"}
	want := Debug(mustCall(t, w, fn("Device::default")))
	for _, name := range []string{"zeros", "ones", "empty"} {
		x := mustCall(t, w, fnG("Tensor::"+name, []string{"2"}, dims(2, 3), Tuple{ref(def), enum("DType", "F16")})).(*Tensor)
		if x.DType() != F16 || Debug(x.Device()) != want || w.Trace()[len(w.Trace())-1].Op != "float_"+name {
			t.Errorf("%s with (&Default::default(), F16): %s on %s", name, x.DType(), Debug(x.Device()))
		}
	}
	x := mustCall(t, w, fnG("Tensor::full", []string{"1"}, dims(2), f(2.5), Tuple{ref(def), enum("DType", "F64")})).(*Tensor)
	if x.DType() != F64 || !strings.Contains(display(t, x), "[2.5, 2.5]") {
		t.Errorf("full with (&Default::default(), F64):\n%s", display(t, x))
	}
	if ue := mustReject(t, w, fnG("Tensor::zeros", []string{"1"}, dims(2), Tuple{i(1), enum("DType", "F16")})); ue.Code != "wrong-arguments" || !strings.HasPrefix(ue.Message, "mismatched types: expected `(&Device, DType)`") {
		t.Errorf("a tuple without a device: %+v", ue)
	}
}

// The From impls between DType, FloatDType, IntDType and BoolDType
// (burn-std/src/tensor/dtype.rs:207-316), as T::from(x) and x.into().
func TestDTypeConversions(t *testing.T) {
	w := world(t, "flex")
	into := func(v Value, target string) Call { return Call{Recv: v, Method: "into", Expect: target} }
	cases := []struct {
		name string
		call Call
		want string
	}{
		{"FloatDType::from(DType::F16)", fn("FloatDType::from", enum("DType", "F16")), "F16"},
		{"DType into FloatDType", into(enum("DType", "BF16"), "FloatDType"), "BF16"},
		{"DType into IntDType", into(enum("DType", "U16"), "IntDType"), "U16"},
		{"IntDType into DType", into(enum("IntDType", "I8"), "DType"), "I8"},
		{"DType::from(FloatDType::F64)", fn("DType::from", enum("FloatDType", "F64")), "F64"},
		{"DType::from(BoolStore::U8)", fn("DType::from", enum("BoolStore", "U8")), "Bool(U8)"},
		{"BoolDType from a bool DType", into(enum("DType", "Bool", enum("BoolStore", "U32")), "BoolDType"), "U32"},
		{"BoolDType from the compat U8", into(enum("DType", "U8"), "BoolDType"), "U8"},
	}
	for _, c := range cases {
		v := mustCall(t, w, c.call)
		if got := Debug(v); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if e := mustCall(t, w, into(enum("DType", "F32"), "FloatDType")).(*Enum); e.Type != "FloatDType" {
		t.Errorf("DType into FloatDType is a %s", e.Type)
	}
	p := mustPanic(t, w, fn("FloatDType::from", enum("DType", "I32")))
	if p.ID != "std-float-dtype" || p.Message != "Expected float data type, got I32" || p.Input != 1 {
		t.Errorf("FloatDType::from(DType::I32): %+v", p)
	}
	p = mustPanic(t, w, into(enum("DType", "F32"), "IntDType"))
	if p.ID != "std-int-dtype" || p.Message != "Expected int data type, got F32" {
		t.Errorf("DType::F32.into() as IntDType: %+v", p)
	}
	rejects := []struct {
		name string
		call Call
		msg  string
	}{
		{"into with no target", into(enum("DType", "F32"), ""), "type annotations needed"},
		{"between two kinds", into(enum("FloatDType", "F32"), "IntDType"), "the trait bound `IntDType: From<FloatDType>` is not satisfied"},
	}
	for _, c := range rejects {
		if ue := mustReject(t, w, c.call); ue.Message != c.msg {
			t.Errorf("%s: %+v", c.name, ue)
		}
	}
}

// TensorData::zeros, ones and full (burn-std data/tensor/base.rs:269-304)
// and iter::<E>() (data/tensor/conversion.rs:104).
func TestTensorDataElements(t *testing.T) {
	w := world(t, "flex")
	dataFn := func(name string, generics []string, args ...Value) Call {
		c := fn("TensorData::"+name, args...)
		c.Generics = [][]string{nil, generics}
		return c
	}
	cases := []struct {
		name  string
		call  Call
		dtype DType
		vec   string
	}{
		{"zeros::<f32, _>", dataFn("zeros", []string{"f32", "_"}, dims(2, 2)), F32, "[0.0, 0.0, 0.0, 0.0]"},
		{"ones::<i64, _>", dataFn("ones", []string{"i64", "_"}, dims(3)), I64, "[1, 1, 1]"},
		{"ones::<bool, _>", dataFn("ones", []string{"bool", "_"}, dims(1)), "Bool(Native)", "[true]"},
		{"full of an i32", dataFn("full", nil, dims(2), Int{V: 7, Suffix: "i32"}), I32, "[7, 7]"},
		{"full of an unsuffixed float", dataFn("full", nil, dims(2), f(0.5)), F64, "[0.5, 0.5]"},
		{"full::<f32, _>", dataFn("full", []string{"f32", "_"}, dims(1), f(0.1)), F32, "[0.1]"},
		// vec![1.elem(); 2] leaves E to TensorData::new::<E, _>'s turbofish.
		{"new::<f32, _> of elem() results", dataFn("new", []string{"f32", "_"}, &Array{Elems: []Value{mustCall(t, w, method(i(1), "elem")), mustCall(t, w, method(i(1), "elem"))}, Vec: true}, dims(2)), F32, "[1.0, 1.0]"},
		{"new without a turbofish", dataFn("new", nil, &Array{Elems: []Value{i(1), i(2)}, Vec: true}, dims(2)), I32, "[1, 2]"},
	}
	for _, c := range cases {
		d := mustCall(t, w, c.call).(*TensorData)
		vec := mustCall(t, w, method(d, "to_vec")).(*Enum)
		if d.dtype != c.dtype || Debug(vec.Fields[0]) != c.vec {
			t.Errorf("%s: %s %s, want %s %s", c.name, d.dtype, Debug(vec), c.dtype, c.vec)
		}
	}
	if v := mustCall(t, w, dataFn("zeros", nil, dims(2))); !isUnknownValue(v) {
		t.Errorf("zeros with no element type: %s", Debug(v))
	}
	if ue := mustReject(t, w, dataFn("full", []string{"f32", "_"}, dims(1), Int{V: 1, Suffix: "i64"})); ue.Code != "wrong-arguments" {
		t.Errorf("full::<f32> of an i64: %+v", ue)
	}
	data := mustCall(t, w, fn("TensorData::from", arr(Float{V: 1.5, Suffix: "f32"}, Float{V: -2.5, Suffix: "f32"})))
	iter := func(elem string) Call { return Call{Recv: data, Method: "iter", Generics: [][]string{{elem}}} }
	for elem, want := range map[string]string{"f32": "[1.5, -2.5]", "f64": "[1.5, -2.5]", "i64": "[1, -2]", "bool": "[true, true]"} {
		if got := Debug(mustCall(t, w, iter(elem))); got != want {
			t.Errorf("iter::<%s>() = %s, want %s", elem, got, want)
		}
	}
	if p := mustPanic(t, w, iter("u8")); p.ID != "std-elem-float-to-uint" {
		t.Errorf("iter::<u8>() of a negative float: %+v", p)
	}
	if v := mustCall(t, w, method(data, "iter")); !isUnknownValue(v) {
		t.Errorf("iter() with no element type: %s", Debug(v))
	}
}

func isUnknownValue(v Value) bool {
	_, ok := v.(Unknown)
	return ok
}

package dispatch

import (
	"fmt"
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Burn's element traits on Rust's primitives (crates/burn-std/src/element/):
// Element::dtype() (base.rs:30, each make_element! impl at base.rs:196-330),
// ElementConversion::from_elem and elem (base.rs:53-56, base.rs:155-162),
// whose conversions are ToElement's (cast.rs), and the methods of DType,
// FloatDType and IntDType a program calls (crates/burn-std/src/tensor/dtype.rs).

// elementTypes are the primitives make_element! implements Element for,
// with the dtype each one's Element::dtype() returns.
var elementTypes = map[string]DType{
	"f64": F64, "f32": F32, "i64": I64, "u64": U64, "i32": I32, "u32": U32,
	"i16": I16, "u16": U16, "i8": I8, "u8": U8, "f16": F16, "bf16": BF16,
	"flex32": "Flex32", "bool": "Bool(Native)",
}

// IsElementType reports a primitive with Burn's Element impl.
func IsElementType(name string) bool {
	_, ok := elementTypes[name]
	return ok
}

// HasElementMethod reports the methods of Burn's element traits and of
// DType that the model answers on a plain value: `x.elem()` on a number or
// a bool, DType's name and is_* queries.
func HasElementMethod(v Value, method string) bool {
	switch x := Deref(v).(type) {
	case Int, Float, Bool:
		return method == "elem"
	case *Enum:
		return (x.Type == "DType" && dtypeMethods[method]) || (method == "into" && dtypeKinds[x.Type]) ||
			(method == "into_vec_i8" && x.Variant == "QuantizedBytes") ||
			(x.Type == "DeviceConfig" && deviceConfigMethods[method])
	}
	return false
}

var dtypeMethods = map[string]bool{"name": true, "is_float": true, "is_int": true, "is_uint": true, "is_bool": true, "size": true}

// elementFunction is an associated function of Element or
// ElementConversion called through a primitive: `f32::dtype()`,
// `FloatElem::dtype()`, `f32::from_elem(x)`.
func (w *World) elementFunction(typ, name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "dtype":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return dtypeEnum(elementTypes[typ]), nil, nil
	case "from_elem":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		v, ue, p := toElement(a.get(0), typ)
		if ue != nil {
			ue.Arg = 1
		}
		if p != nil {
			p = p.on(1)
		}
		return v, ue, p
	}
	return nil, errUnknownFunction("`"+typ+"`", name), nil
}

// elementMethod is `x.elem::<E>()` (E::from_elem(x), base.rs:160-162) on
// a number or a bool; E is the turbofish, else the type the program
// declares for the result. With neither, rustc infers E from a later use
// the playground does not see, and the result keeps its value as an
// unsuffixed literal that the use types.
func elementMethod(recv Value, c Call) (Value, *UsageError, *Panic, bool) {
	if c.Method != "elem" {
		return nil, nil, nil, false
	}
	if len(c.Args) != 0 {
		return nil, errArgCount(true, 0, len(c.Args)), nil, true
	}
	target := strings.TrimSpace(c.Expect)
	if len(c.Generics) > 0 && len(c.Generics[0]) == 1 {
		target = strings.TrimSpace(c.Generics[0][0])
		switch target {
		case "usize", "isize", "i128", "u128":
			// make_element! implements Element for none of them.
			return nil, &UsageError{Code: "wrong-arguments", Arg: -1,
				Message: "the trait bound `" + target + ": Element` is not satisfied"}, nil, true
		}
	}
	if _, ok := elementTypes[target]; !ok {
		switch x := Deref(recv).(type) {
		case Int:
			return Int{V: x.V}, nil, nil, true
		case Float:
			return Float{V: x.V}, nil, nil, true
		}
		return Deref(recv), nil, nil, true
	}
	v, ue, p := toElement(recv, target)
	if p != nil {
		p = p.on(0)
	}
	return v, ue, p, true
}

// toElement converts a number or a bool to the element type target as
// ToElement does (cast.rs): floats to floats may round or saturate, floats
// to ints truncate toward zero, ints to floats round; a value the target
// cannot represent panics.
func toElement(v Value, target string) (Value, *UsageError, *Panic) {
	dt := elementTypes[target]
	var (
		f       float64
		isFloat bool
		n       int64
		src     string
	)
	switch x := Deref(v).(type) {
	case Float:
		f, isFloat, src = x.V, true, x.Suffix
		if src == "" {
			src = "f64"
		}
	case Int:
		n, f, src = x.V, float64(x.V), x.Suffix
		if src == "" {
			src = "i32"
		}
	case Bool:
		if x {
			n, f = 1, 1
		}
		src = "bool"
	default:
		return nil, errArgType(-1, "impl ToElement", v), nil
	}
	switch {
	case dt.IsBool():
		// to_bool: `*self != 0` (cast.rs:207-209, 291-293, 371-373).
		return Bool(f != 0), nil, nil
	case dt.IsFloat():
		// `*self as f32` (cast.rs:199-205, 305-314); f16 and bf16 round
		// to nearest.
		d := &tensor.Data{DType: tensor.F64, Shape: []int{1}, F: []float64{f}}
		to, _ := valueDType(dt)
		return Float{V: d.Cast(to).F[0], Suffix: target}, nil, nil
	}
	lo, hi := intRange(dt)
	unsignedTarget := strings.HasPrefix(string(dt), "U")
	if isFloat {
		// Float to int truncates toward zero and panics outside
		// (MIN-1, MAX+1), NaN and the infinities included (cast.rs:324-377).
		t := math.Trunc(f)
		if math.IsNaN(f) || t < lo || t >= hi {
			if unsignedTarget {
				return nil, nil, newPanic("std-elem-float-to-uint", at(locStdCast, 376), "Float cannot be represented in the target unsigned int type")
			}
			return nil, nil, newPanic("std-elem-float-to-int", at(locStdCast, 349), "Float cannot be represented in the target signed int type")
		}
		return Int{V: int64(t), Suffix: target}, nil, nil
	}
	if float64(n) < lo || float64(n) >= hi {
		// impl_to_element_{int,uint}_to_{int,uint} (cast.rs:136-172, 221-257).
		id, line := "std-elem-int-to-int", 146
		switch unsignedSource := src[0] == 'u' || src == "bool"; {
		case !unsignedSource && unsignedTarget:
			id, line = "std-elem-int-to-uint", 166
		case unsignedSource && !unsignedTarget:
			id, line = "std-elem-uint-to-int", 230
		case unsignedSource:
			id, line = "std-elem-uint-to-uint", 250
		}
		return nil, nil, newPanic(id, at(locStdCast, line), fmt.Sprintf("Element cannot be represented in the target type: %q(%d) => %q", src, n, target))
	}
	return Int{V: n, Suffix: target}, nil, nil
}

const locStdCast = "crates/burn-std/src/element/cast.rs"

// intRange is [MIN, MAX+1) of an int dtype, as floats (powers of two, exact).
func intRange(dt DType) (float64, float64) {
	bits := map[DType]int{I64: 64, I32: 32, I16: 16, I8: 8, U64: 64, U32: 32, U16: 16, U8: 8}[dt]
	if strings.HasPrefix(string(dt), "U") {
		return 0, math.Ldexp(1, bits)
	}
	return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
}

// dtypeMethod is a method of DType (crates/burn-std/src/tensor/dtype.rs:78-134),
// or `.into()` between DType, FloatDType, IntDType and BoolDType.
func dtypeMethod(e *Enum, c Call) (Value, *UsageError, *Panic, bool) {
	if c.Method == "into" && dtypeKinds[e.Type] {
		if len(c.Args) != 0 {
			return nil, errArgCount(true, 0, len(c.Args)), nil, true
		}
		v, ue, p := dtypeConvert(e, strings.TrimSpace(c.Expect))
		return v, ue, p, true
	}
	if e.Type != "DType" {
		return nil, nil, nil, false
	}
	d, ue := dtypeValue(e)
	if ue != nil {
		return nil, nil, nil, false
	}
	a := argList{c: c, method: true}
	var v Value
	switch c.Method {
	case "name":
		// DType::name (dtype.rs:113-135).
		td, ok := valueDType(d)
		if !ok {
			if isQFloat(d) {
				v = Str("qfloat")
				break
			}
			return nil, nil, nil, false
		}
		v = Str(td.Name())
	case "is_float":
		v = Bool(d.IsFloat())
	case "is_int":
		v = Bool(d.IsInt() && !strings.HasPrefix(string(d), "U"))
	case "is_uint":
		v = Bool(strings.HasPrefix(string(d), "U"))
	case "is_bool":
		v = Bool(d.IsBool())
	case "size":
		// DType::size (dtype.rs:36-73).
		n, ok := dtypeSize(d)
		if !ok {
			return nil, nil, nil, false
		}
		v = Int{V: n, Suffix: "usize"}
	default:
		return nil, nil, nil, false
	}
	if ue := a.want(0); ue != nil {
		return nil, ue, nil, true
	}
	return v, nil, nil, true
}

// dtypeKinds are the dtype enums the From impls of dtype.rs convert between.
var dtypeKinds = map[string]bool{"DType": true, "FloatDType": true, "IntDType": true, "BoolDType": true, "BoolStore": true}

// dtypeConvert is `T::from(v)` / `v.into()` for the dtype enums
// (crates/burn-std/src/tensor/dtype.rs): FloatDType and IntDType from a
// DType of their kind, else the panics at dtype.rs:215 and :256; a DType
// from any of them. BoolDType is BoolStore (dtype.rs:286).
func dtypeConvert(v Value, target string) (Value, *UsageError, *Panic) {
	e, ok := Deref(v).(*Enum)
	if !ok || !dtypeKinds[e.Type] {
		return nil, errArgType(1, "DType", v), nil
	}
	target = strings.TrimPrefix(target, "burn::tensor::")
	if target == "BoolDType" {
		target = "BoolStore"
	}
	if target == "" {
		return nil, &UsageError{Code: "type-mismatch", Arg: -1, Message: "type annotations needed"}, nil
	}
	src := e.Type
	if src == "BoolDType" {
		src = "BoolStore"
	}
	var d DType
	if src == "BoolStore" {
		d = DType("Bool(" + e.Variant + ")")
	} else {
		var ue *UsageError
		if d, ue = dtypeValue(e); ue != nil {
			return nil, ue, nil
		}
	}
	if src == target {
		return e, nil, nil
	}
	switch {
	case target == "DType":
		return dtypeEnum(d), nil, nil
	case src != "DType":
		// No From between two dtype kinds.
		return nil, &UsageError{Code: "wrong-arguments", Arg: -1,
			Message: "the trait bound `" + target + ": From<" + src + ">` is not satisfied"}, nil
	case target == "FloatDType":
		if !d.IsFloat() {
			return nil, nil, panicFloatDTypeConversion(d)
		}
		return &Enum{Type: "FloatDType", Variant: string(d)}, nil, nil
	case target == "IntDType":
		if !d.IsInt() {
			return nil, nil, panicIntDTypeConversion(d)
		}
		return &Enum{Type: "IntDType", Variant: string(d)}, nil, nil
	case target == "BoolStore":
		// From<DType> for BoolDType (dtype.rs:293-307): a Bool(store), or
		// U8 and U32 for the compat BoolElem.
		switch {
		case d.IsBool():
			return &Enum{Type: "BoolStore", Variant: strings.TrimSuffix(strings.TrimPrefix(string(d), "Bool("), ")")}, nil, nil
		case d == U8 || d == U32:
			return &Enum{Type: "BoolStore", Variant: string(d)}, nil, nil
		}
		return nil, errUnsupported("BoolDType::from of a non-bool DType (a panic at dtype.rs:304)"), nil
	}
	return nil, &UsageError{Code: "wrong-arguments", Arg: -1,
		Message: "the trait bound `" + target + ": From<" + src + ">` is not satisfied"}, nil
}

// ---- TensorData built from, and read as, elements ----

// dataFilled is TensorData::zeros::<E, _>(shape), ones and full(shape, value)
// (crates/burn-std/src/data/tensor/base.rs:269-304): every element is
// 0.elem(), 1.elem() or the fill value, as E. E is the turbofish, else the
// fill value's own type; zeros and ones without one are unknown data.
func (w *World) dataFilled(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	want := 1
	if name == "full" {
		want = 2
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	shape, ue := shapeArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	elem := ""
	if n := len(c.Generics); n > 0 && len(c.Generics[n-1]) >= 1 {
		elem = strings.TrimSpace(c.Generics[n-1][0])
	}
	var fill Value = Int{V: 0}
	switch name {
	case "ones":
		fill = Int{V: 1}
	case "full":
		fill = a.get(1)
		if elem == "" || elem == "_" {
			switch x := fill.(type) {
			case Float:
				elem = x.Suffix
				if elem == "" {
					elem = "f64"
				}
			case Int:
				elem = x.Suffix
				if elem == "" {
					elem = "i32"
				}
			case Bool:
				elem = "bool"
			}
		}
	}
	dt, ok := elementTypes[elem]
	if !ok {
		return Unknown{}, nil, nil
	}
	if name == "full" {
		// full takes an E: the value is the element as it is.
		if !sameElement(fill, elem) {
			return nil, errArgType(2, elem, c.Args[1]), nil
		}
	}
	v, ue, p := toElement(fill, elem)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := &TensorData{shape: shape, dtype: dt}
	vd, ok := valueDType(dt)
	n, fits := numElements(shape)
	if !ok || !fits || n > maxDataLiteral {
		return out, nil, nil
	}
	d := &tensor.Data{DType: tensor.F64, Shape: intDims(shape)}
	switch x := v.(type) {
	case Float:
		d.F = make([]float64, n)
		for i := range d.F {
			d.F[i] = x.V
		}
	case Int:
		d.DType = tensor.I64
		d.I = make([]int64, n)
		for i := range d.I {
			d.I[i] = x.V
		}
	case Bool:
		d.DType = tensor.BoolNative
		d.B = make([]bool, n)
		for i := range d.B {
			d.B[i] = bool(x)
		}
	}
	out.values = d.Cast(vd)
	return out, nil, nil
}

// sameElement reports whether v can be the element type elem as written:
// an unsuffixed literal takes the type, a suffixed one must match.
func sameElement(v Value, elem string) bool {
	dt := elementTypes[elem]
	switch x := v.(type) {
	case Float:
		return dt.IsFloat() && (x.Suffix == "" || x.Suffix == elem)
	case Int:
		return (dt.IsInt() && (x.Suffix == "" || x.Suffix == elem)) || (dt.IsFloat() && x.Suffix == "")
	case Bool:
		return dt.IsBool()
	}
	return false
}

// dataIter is TensorData::iter::<E>() (crates/burn-std/src/data/tensor/conversion.rs:104-175):
// the elements in order, each converted with elem::<E>() when E is not the
// data's dtype. The interpreter iterates the array it returns; data
// without values, or an E the program leaves to inference, is unknown.
func dataIter(d *TensorData, c Call) (Value, *UsageError, *Panic) {
	if len(c.Args) != 0 {
		return nil, errArgCount(true, 0, len(c.Args)), nil
	}
	elem := ""
	if n := len(c.Generics); n > 0 && len(c.Generics[n-1]) == 1 {
		elem = strings.TrimSpace(c.Generics[n-1][0])
	}
	if _, ok := elementTypes[elem]; !ok || d.values == nil || d.q != nil {
		return Unknown{}, nil, nil
	}
	n := d.values.NumElements()
	elems := make([]Value, n)
	for i := range n {
		// The iterator converts lazily; the model converts up front, so a
		// value E cannot hold panics at the iter call, before any element
		// is read.
		v, ue, p := toElement(elementValue(d.values, i), elem)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		elems[i] = v
	}
	return &Array{Elems: elems}, nil, nil
}

// turbofishElement is the element type the first generic of a path call's
// last segment names (`TensorData::new::<FloatElem, _>`), if it is one.
func turbofishElement(c Call) (DType, bool) {
	n := len(c.Generics)
	if n == 0 || len(c.Generics[n-1]) == 0 {
		return "", false
	}
	dt, ok := elementTypes[strings.TrimSpace(c.Generics[n-1][0])]
	return dt, ok
}

package dispatch

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// TensorData's values: reading them out (to_vec, into_scalar), converting
// them, comparing two of them (==, assert_eq, assert_approx_eq) and the
// Tolerance the approximate comparison takes
// (crates/burn-std/src/data/compare.rs, data/tensor/base.rs).

const locDataCompare = "crates/burn-std/src/data/compare.rs"

// elementType is the Rust element type a generic method reads values as:
// its turbofish (`to_vec::<f32>()`), else the declared type (`let v:
// Vec<f32> = ..`, `let x: f32 = ..`); ok is false when the program names
// none.
func elementType(c Call) (DType, bool) {
	name := c.Expect
	if len(c.Generics) > 0 && len(c.Generics[len(c.Generics)-1]) == 1 {
		name = c.Generics[len(c.Generics)-1][0]
	}
	name = strings.TrimSpace(name)
	for _, wrapper := range []string{"Vec<", "&[", "["} {
		if inner, ok := strings.CutPrefix(name, wrapper); ok {
			name = strings.TrimSpace(strings.TrimRight(inner, ">]"))
		}
	}
	switch name {
	case "bool":
		return "Bool(Native)", true
	case "f32", "f64", "f16", "bf16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8":
		return DType(upperASCII(name)), true
	}
	return "", false
}

// elementValue is element i of d as the Rust scalar of its dtype.
func elementValue(d *tensor.Data, i int) Value {
	suffix := strings.ToLower(d.DType.String())
	switch {
	case d.DType.IsFloat():
		return Float{V: d.F[i], Suffix: suffix}
	case d.DType.IsInt():
		return Int{V: d.I[i], Suffix: suffix}
	}
	return Bool(d.B[i])
}

// scalarValue is into_scalar's result: the one element, read as E.
func scalarValue(t *Tensor, target DType) Value {
	dt, ok := valueDType(target)
	if !t.hasVals() || !ok || t.vals().NumElements() != 1 {
		return Unknown{}
	}
	return elementValue(t.vals().IntoData().Cast(dt), 0)
}

// dataValues is the TensorData of a read converted to target, nil when the
// tensor has no values.
func dataValues(t *Tensor, target DType) *tensor.Data {
	dt, ok := valueDType(target)
	if !t.hasVals() || !ok {
		return nil
	}
	d := t.vals().IntoData()
	if d.DType != dt {
		d = d.Cast(dt)
	}
	return d
}

// literalData is TensorData::from(array) or TensorData::new(values,
// shape) as dtype: the literals in row-major order, nil when they are not
// all number or bool literals or do not fill shape.
func literalData(v Value, shape []int64, dtype DType) *tensor.Data {
	dt, ok := valueDType(dtype)
	n, fits := numElements(shape)
	if !ok || !fits || n > maxDataLiteral {
		return nil
	}
	flat, ok := flatLiterals(v)
	if !ok || int64(flat.NumElements()) != n {
		return nil
	}
	flat.Shape = intDims(shape)
	return flat.Cast(dt)
}

// flatLiterals flattens nested arrays of number or bool literals, staged
// as f64 (when any is a float), i64 or bool values.
func flatLiterals(v Value) (*tensor.Data, bool) {
	var (
		floats []float64
		ints   []int64
		bools  []bool
		float  bool
	)
	var walk func(v Value) bool
	walk = func(v Value) bool {
		switch x := Deref(v).(type) {
		case *Array:
			for _, e := range x.Elems {
				if !walk(e) {
					return false
				}
			}
			return len(floats)+len(ints)+len(bools) <= maxDataLiteral
		case Float:
			float = true
			floats = append(floats, x.V)
		case Int:
			floats = append(floats, float64(x.V))
			ints = append(ints, x.V)
		case Bool:
			bools = append(bools, bool(x))
		default:
			return false
		}
		return true
	}
	if !walk(v) || (len(bools) > 0 && len(floats) > 0) {
		return nil, false
	}
	var (
		t   *tensor.Tensor
		err error
	)
	switch {
	case len(bools) > 0:
		t, err = tensor.FromBools(bools, []int{len(bools)}, tensor.BoolNative)
	case float:
		t, err = tensor.FromFloats(floats, []int{len(floats)}, tensor.F64)
	default:
		t, err = tensor.FromInts(ints, []int{len(ints)}, tensor.I64)
	}
	if err != nil {
		return nil, false
	}
	return t.IntoData(), true
}

// dataMethod is a TensorData method that reads or compares values; ok is
// false for the methods tensorDataMethod handles on its own.
func (w *World) dataMethod(d *TensorData, c Call) (v Value, ue *UsageError, p *Panic, ok bool) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "eq", "ne":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil, true
		}
		o, isData := a.get(0).(*TensorData)
		if !isData {
			return nil, errArgType(1, "TensorData", c.Args[0]), nil, true
		}
		if d.values == nil || o.values == nil {
			return Unknown{}, nil, nil, true
		}
		return Bool(d.values.Equal(o.values) == (c.Method == "eq")), nil, nil, true
	case "assert_within_range", "assert_within_range_inclusive":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil, true
		}
		if ir, isInt := a.get(0).(*Range); isInt {
			return withinIntRange(d, ir, c.Method == "assert_within_range_inclusive")
		}
		r, isRange := a.get(0).(*FloatRange)
		if !isRange || r.Inclusive != (c.Method == "assert_within_range_inclusive") {
			return nil, nil, nil, false
		}
		if d.values == nil {
			return unchecked(d, nil), nil, nil, true
		}
		return Unit{}, nil, assertWithinRange(d.values, r), true
	case "assert_eq":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil, true
		}
		o, isData := a.get(0).(*TensorData)
		if !isData {
			return nil, errArgType(1, "&TensorData", c.Args[0]), nil, true
		}
		strict, ue := a.boolean(1)
		if ue != nil {
			return nil, ue, nil, true
		}
		if d.values == nil || o.values == nil {
			return unchecked(d, o), nil, nil, true
		}
		return Unit{}, nil, assertPanic(d.values.AssertEq(o.values, strict)), true
	case "assert_approx_eq":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil, true
		}
		o, isData := a.get(0).(*TensorData)
		if !isData {
			return nil, errArgType(1, "&TensorData", c.Args[0]), nil, true
		}
		tol, ue := toleranceArg(a, 1)
		if ue != nil {
			return nil, ue, nil, true
		}
		elem, named := elementType(Call{Generics: c.Generics})
		if !named {
			elem = tol.elem
		}
		built, ok := tol.build(elem)
		if !ok {
			return nil, errArgType(-1, "Float", Str(elem)), nil, true
		}
		if d.values == nil || o.values == nil {
			return unchecked(d, o), nil, nil, true
		}
		return Unit{}, nil, assertPanic(d.values.AssertApproxEq(o.values, built)), true
	case "to_vec", "into_vec", "as_slice", "try_to_vec", "try_into_vec":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil, true
		}
		if d.values == nil {
			return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{Unknown{}}}, nil, nil, true
		}
		elem, named := elementType(c)
		if !named {
			elem = DType(d.values.DType.String())
		}
		dt, _ := valueDType(elem)
		vec, err := d.values.ToVec(dt)
		if err != nil {
			mismatch := err.(*tensor.DataError)
			return &Enum{Type: "Result", Variant: "Err", Fields: []Value{dataError(mismatch)}}, nil, nil, true
		}
		elems := make([]Value, vec.NumElements())
		for i := range elems {
			elems[i] = elementValue(vec, i)
		}
		return &Enum{Type: "Result", Variant: "Ok", Fields: []Value{&Array{Elems: elems, Vec: true}}}, nil, nil, true
	case "convert", "convert_dtype":
		target, named := elementType(c)
		if c.Method == "convert_dtype" {
			if ue := a.want(1); ue != nil {
				return nil, ue, nil, true
			}
			var ue *UsageError
			if target, ue = dtypeArg(a, 0); ue != nil {
				return nil, ue, nil, true
			}
		} else if !named {
			return d, nil, nil, true
		}
		out := &TensorData{shape: d.shape, dtype: target}
		if dt, ok := valueDType(target); ok && d.values != nil {
			out.values = d.values.Cast(dt)
		}
		return out, nil, nil, true
	}
	return nil, nil, nil, false
}

// assertPanic is the panic of a failed TensorData assertion, or nil for
// the empty message of one that held. The strict dtype check is an
// assert_eq! (compare.rs:220); the element comparisons panic with every
// difference listed (compare.rs:292, 357). assert_eq, assert_eq_elem and
// assert_approx_eq are #[track_caller], so Rust reports the program's
// call.
func assertPanic(msg string) *Panic {
	var p *Panic
	switch {
	case msg == "":
		return nil
	case strings.HasPrefix(msg, "assertion `left == right` failed: Data types differ"):
		p = newPanic("std-data-dtype-differ", at(locDataCompare, 220), msg)
	case strings.HasPrefix(msg, "Tensors are not approx eq:"):
		p = newPanic("std-data-not-approx-eq", at(locDataCompare, 357), msg)
	default:
		p = newPanic("std-data-not-eq", at(locDataCompare, 292), msg)
	}
	p.TrackCaller = true
	return p.on(0)
}

// dataError is burn_std::DataError::DTypeMismatch as a value: `{:?}` is
// what unwrapping it prints, `{}` its thiserror text.
func dataError(e *tensor.DataError) *Enum {
	return &Enum{Type: "DataError", Variant: "DTypeMismatch", Named: map[string]Value{
		"expected": dtypeEnum(DType(e.Expected.String())),
		"actual":   dtypeEnum(DType(e.Actual.String())),
	}}
}

// Tolerance is burn_std::Tolerance<F>. Its bounds depend on F (strict's
// absolute bound, the precision-specific setters), which Rust infers from
// where the tolerance is used, so the value keeps how it was built and
// assert_approx_eq builds it once F is known.
type Tolerance struct {
	preset string // default, balanced, strict, permissive, rel_abs, relative, absolute
	rel    float64
	abs    float64
	elem   DType // F when the program names it (`Tolerance::<f32>::..`), else F32
	steps  []toleranceStep
}

type toleranceStep struct {
	relative bool // set the relative bound, else the absolute one
	size     int  // only for an F of this many bytes; 0 for any
	value    float64
}

func (*Tolerance) TypeName() string { return "Tolerance" }

var toleranceSetters = map[string]toleranceStep{
	"set_relative": {relative: true}, "set_half_precision_relative": {relative: true, size: 2},
	"set_single_precision_relative": {relative: true, size: 4}, "set_double_precision_relative": {relative: true, size: 8},
	"set_absolute": {}, "set_half_precision_absolute": {size: 2},
	"set_single_precision_absolute": {size: 4}, "set_double_precision_absolute": {size: 8},
}

func (w *World) toleranceFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	tol := &Tolerance{preset: name, elem: F32}
	if len(c.Generics) > 0 && len(c.Generics[0]) == 1 {
		if dt, ok := elementType(Call{Generics: c.Generics[:1]}); ok {
			tol.elem = dt
		}
	}
	want := map[string]int{"default": 0, "balanced": 0, "strict": 0, "permissive": 0, "rel_abs": 2, "relative": 1, "absolute": 1}
	n, known := want[name]
	if !known {
		return nil, errUnknownFunction("struct `Tolerance`", name), nil
	}
	if ue := a.want(n); ue != nil {
		return nil, ue, nil
	}
	var ue *UsageError
	switch name {
	case "rel_abs":
		if tol.rel, ue = a.float(0); ue == nil {
			tol.abs, ue = a.float(1)
		}
	case "relative":
		tol.rel, ue = a.float(0)
	case "absolute":
		tol.abs, ue = a.float(0)
	}
	if ue != nil {
		return nil, ue, nil
	}
	return tol, nil, nil
}

func (w *World) toleranceMethod(tol *Tolerance, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if c.Method == "clone" {
		return tol, nil, nil
	}
	step, ok := toleranceSetters[c.Method]
	if !ok {
		return nil, errUnknownMethod("struct `Tolerance`", c.Method), nil
	}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	v, ue := a.float(0)
	if ue != nil {
		return nil, ue, nil
	}
	step.value = v
	out := *tol
	out.steps = append(append([]toleranceStep{}, tol.steps...), step)
	return &out, nil, nil
}

// toleranceArg reads a Tolerance argument; `Default::default()` is the
// balanced one.
func toleranceArg(a argList, i int) (*Tolerance, *UsageError) {
	v := a.get(i)
	if isDefaultMarker(v) {
		return &Tolerance{preset: "default", elem: F32}, nil
	}
	if tol, ok := v.(*Tolerance); ok {
		return tol, nil
	}
	return nil, errArgType(i+1, "Tolerance<F>", a.c.Args[i])
}

// build is the tolerance for F = elem.
func (tol *Tolerance) build(elem DType) (tensor.Tolerance, bool) {
	dt, ok := valueDType(elem)
	if !ok || !dt.IsFloat() || dt == tensor.Flex32 {
		return tensor.Tolerance{}, false
	}
	var out tensor.Tolerance
	switch tol.preset {
	case "strict":
		out = tensor.StrictTolerance(dt)
	case "permissive":
		out = tensor.PermissiveTolerance(dt)
	case "rel_abs", "relative", "absolute":
		out = tensor.RelAbsTolerance(dt, tol.rel, tol.abs)
	default:
		out = tensor.DefaultTolerance(dt)
	}
	for _, s := range tol.steps {
		if s.size != 0 && s.size != dt.Size() {
			continue
		}
		if s.relative {
			out = tensor.RelAbsTolerance(dt, s.value, out.Absolute)
		} else {
			out = tensor.RelAbsTolerance(dt, out.Relative, s.value)
		}
	}
	return out, true
}

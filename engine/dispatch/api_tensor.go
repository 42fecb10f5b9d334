package dispatch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

const tensorStruct = "struct `Tensor`"

// tensorType is the D and K a Tensor::<D, K> call names; rank -1 when the
// program leaves D to inference.
type tensorType struct {
	rank int
	kind Kind
}

// parseTensorType reads the generics of the Tensor path segment, else the
// declared type (`Tensor<2, Int>`).
func parseTensorType(generics [][]string, expect string) tensorType {
	tt := tensorType{rank: -1, kind: KindFloat}
	var args []string
	if len(generics) > 0 && len(generics[0]) > 0 {
		args = generics[0]
	} else if inner, ok := strings.CutPrefix(strings.TrimSpace(expect), "Tensor<"); ok {
		args = strings.Split(strings.TrimSuffix(inner, ">"), ",")
	}
	for i, a := range args {
		a = strings.TrimSpace(a)
		if i == 0 {
			if n, err := strconv.Atoi(a); err == nil {
				tt.rank = n
			}
			continue
		}
		switch a {
		case "Int":
			tt.kind = KindInt
		case "Bool":
			tt.kind = KindBool
		}
	}
	return tt
}

func (w *World) tensorFunction(name string, c Call) (Value, *UsageError, *Panic) {
	tt := parseTensorType(c.Generics, c.Expect)
	if extraTensorFunctions[name] {
		return w.extraTensorFunction(name, tt, c)
	}
	a := argList{c: c}
	switch name {
	case "ones", "zeros", "empty":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		shape, ue := shapeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		return w.create(name, tt, shape, a, 1)
	case "full":
		if ue := a.want(3); ue != nil {
			return nil, ue, nil
		}
		shape, ue := shapeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		return w.create(name, tt, shape, a, 2)
	case "random":
		if ue := a.want(3); ue != nil {
			return nil, ue, nil
		}
		shape, ue := shapeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		if e, ok := a.get(1).(*Enum); !ok || e.Type != "Distribution" {
			if !isDefaultMarker(a.get(1)) {
				return nil, errArgType(2, "Distribution", c.Args[1]), nil
			}
		}
		if tt.kind == KindBool {
			return nil, errUnknownFunction("struct `Tensor<_, Bool>`", name), nil
		}
		return w.create(name, tt, shape, a, 2)
	case "from_floats", "from_ints", "from_bool", "from_bools", "from_data":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		switch name {
		case "from_floats":
			tt.kind = KindFloat
		case "from_ints":
			tt.kind = KindInt
		case "from_bool", "from_bools":
			tt.kind = KindBool
		}
		shape, ue := dataShape(a.get(0))
		if ue != nil {
			ue.Arg = 1
			return nil, ue, nil
		}
		if td, ok := a.get(0).(*TensorData); ok && isQFloat(td.dtype) && tt.kind == KindFloat {
			return w.qFromData(td, tt, shape, a)
		}
		v, ue, p := w.create("from_data", tt, shape, a, 1)
		if t, ok := v.(*Tensor); ok {
			t.literal = literalValues(a.get(0))
		}
		return v, ue, p
	case "from":
		// impl<T: Into<TensorData>> From<T> for Tensor<D, K> is
		// Tensor::from_data(value.into(), &Default::default())
		// (crates/burn-tensor/src/tensor/api/base.rs:84-92).
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		sub := c
		sub.Args = []Value{c.Args[0], &Enum{Type: "Default", Variant: "default"}}
		return w.tensorFunction("from_data", sub)
	case "arange":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		r, ok := a.get(0).(*Range)
		if !ok || r.Lo == nil || r.Hi == nil {
			return nil, errArgType(1, "Range<i64>", c.Args[0]), nil
		}
		n := *r.Hi - *r.Lo
		if r.Inclusive {
			n++
		}
		tt.kind, tt.rank = KindInt, 1
		return w.create("arange", tt, []int64{max(n, 0)}, a, 1)
	case "cat", "stack":
		return w.catOrStack(name, tt, a)
	case "from_inner":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		t, ue := a.tensor(0)
		if ue != nil {
			return nil, ue, nil
		}
		return w.fromInner(t)
	case "from_primitive", "from_bridge", "from_dispatch", "cartesian_grid", "eye", "arange_step":
		return nil, errUnsupported("Tensor::" + name), nil
	}
	return nil, errUnknownFunction(tensorStruct, name), nil
}

// creationOptions reads `impl Into<TensorCreationOptions>`: `&device`,
// `(&device, dtype)` or Default::default().
func (w *World) creationOptions(a argList, i int) (*Device, DType, *UsageError, *Panic) {
	v := a.get(i)
	if tup, ok := v.(Tuple); ok && len(tup) == 2 {
		d, ok := Deref(tup[0]).(*Device)
		if !ok && isDefaultMarker(tup[0]) {
			// `(&Default::default(), dtype)`: From<(&Device, DType)> is the
			// one tuple impl (options.rs:93-98), so rustc infers a Device.
			var p *Panic
			if d, p = w.defaultDevice(); p != nil {
				return nil, "", nil, p
			}
			ok = true
		}
		if !ok {
			return nil, "", errArgType(i+1, "(&Device, DType)", a.c.Args[i]), nil
		}
		dt, ue := dtypeValue(tup[1])
		if ue != nil {
			ue.Arg = i + 1
			return nil, "", ue, nil
		}
		return d, dt, nil, nil
	}
	d, ue, p := w.deviceArg(a, i)
	return d, "", ue, p
}

// dtypeArg reads a DType (or FloatDType/IntDType) argument.
func dtypeArg(a argList, i int) (DType, *UsageError) {
	dt, ue := dtypeValue(a.c.Args[i])
	if ue != nil {
		ue.Arg = i + 1
	}
	return dt, ue
}

func dtypeValue(v Value) (DType, *UsageError) {
	if e, ok := Deref(v).(*Enum); ok {
		switch e.Type {
		case "DType", "FloatDType", "IntDType":
			if d, ok := dtypeVariants[e.Variant]; ok {
				return d, nil
			}
		case "BoolDType", "BoolStore":
			return DType("Bool(" + e.Variant + ")"), nil
		}
		if e.Type == "DType" && e.Variant == "Bool" && len(e.Fields) == 1 {
			if store, ok := Deref(e.Fields[0]).(*Enum); ok {
				return DType("Bool(" + store.Variant + ")"), nil
			}
		}
		if e.Type == "DType" && e.Variant == "QFloat" && len(e.Fields) == 1 {
			if s, ok := Deref(e.Fields[0]).(*QuantScheme); ok {
				return qfloatDType(s.S), nil
			}
		}
	}
	return "", errArgType(-1, "DType", v)
}

// create is a creation op (creation_op!, macros.rs:418-483): the device
// alone decides. On an autodiff device a float is an untracked leaf of the
// graph and other kinds are plain handles carrying the device's strategy.
func (w *World) create(name string, tt tensorType, shape []int64, a argList, optIndex int) (Value, *UsageError, *Panic) {
	d, requested, ue, p := w.creationOptions(a, optIndex)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if tt.rank < 0 {
		tt.rank = len(shape)
	}
	switch name {
	case "empty", "zeros", "ones", "full", "from_data":
		if p := checkFailed(burncheck.TensorCreate("Tensor::"+name, tt.rank, shape)); p != nil {
			return nil, nil, p
		}
	}
	defaults := w.defaultsFor(d.Inner())
	dtype := requested
	switch tt.kind {
	case KindFloat:
		if dtype == "" {
			dtype = defaults.float
		} else if !dtype.IsFloat() {
			if name == "from_data" {
				return nil, nil, panicFloatFromDataDType(dtype).on(optIndex + 1)
			}
			return nil, nil, panicFloatDTypeConversion(dtype).on(optIndex + 1)
		}
	case KindInt:
		if dtype == "" {
			dtype = defaults.int
		} else if !dtype.IsInt() && name != "from_data" {
			return nil, nil, panicIntDTypeConversion(dtype).on(optIndex + 1)
		}
	case KindBool:
		// resolve_dtype ignores a requested bool store
		// (crates/burn-tensor/src/tensor/api/options.rs).
		dtype = defaults.bool
	}
	if p := w.prepare(d); p != nil {
		return nil, nil, p.on(optIndex + 1)
	}
	out := w.newTensor(tt.kind, shape, dtype, d.Inner())
	if s := out.on.session; s != nil {
		// BackendRouter records creation as an operation; from_data also
		// gives the session the tensor's value (burn-router ops/tensor.rs:20-31).
		s.ops++
		if name == "from_data" {
			s.values[out.handle] = true
		}
	}
	if d.autodiff {
		out.ckp = strategyPtr(d.strategy)
		if tt.kind == KindFloat {
			out.tracked = true
			out.node = w.newLeaf()
		}
	}
	switch n, _ := tensor.ShapeElements(out.shape); {
	case n >= lazyElements && (name == "random" || name == "zeros" || name == "ones" || name == "full" || name == "empty"):
		w.computeLater(out, func() (*tensor.Lazy, error) { return w.creationLater(name, out, a, optIndex, d) })
	default:
		w.compute(out, nil, func() (*tensor.Tensor, error) { return w.creationValues(name, out, a, optIndex, d) })
	}
	op := tt.kind.opPrefix() + "_" + name
	w.record(TraceEvent{Op: op, Backend: d.backend.String(), Device: d.Inner().Debug(), Autodiff: d.autodiff,
		Kind: tt.kind.String(), Shape: out.Shape(), out: out})
	return out, nil, nil
}

// shapeArg reads `impl Into<Shape>`: an array of sizes or a Shape.
func shapeArg(a argList, i int) ([]int64, *UsageError) {
	switch v := a.get(i).(type) {
	case *ShapeValue:
		if _, ok := numElements(v.dims); !ok {
			return nil, &UsageError{Code: "playground-limit", Arg: i + 1,
				Message: "the shape has more elements than a 64-bit size can count"}
		}
		return append([]int64{}, v.dims...), nil
	case *Array:
		dims := make([]int64, len(v.Elems))
		for j, e := range v.Elems {
			n, ok := Deref(e).(Int)
			if !ok || n.V < 0 {
				return nil, errArgType(i+1, "[usize; D]", a.c.Args[i])
			}
			dims[j] = n.V
		}
		if _, ok := numElements(dims); !ok {
			return nil, &UsageError{Code: "playground-limit", Arg: i + 1,
				Message: "the shape has more elements than a 64-bit size can count"}
		}
		return dims, nil
	}
	return nil, errArgType(i+1, "[usize; D]", a.c.Args[i])
}

// dataShape is the shape of the TensorData a value converts into: nested
// arrays of numbers or bools, or a TensorData.
func dataShape(v Value) ([]int64, *UsageError) {
	v = Deref(v)
	if td, ok := v.(*TensorData); ok {
		return append([]int64{}, td.shape...), nil
	}
	var shape []int64
	for {
		arr, ok := v.(*Array)
		if !ok {
			break
		}
		shape = append(shape, int64(len(arr.Elems)))
		if len(arr.Elems) == 0 {
			break
		}
		v = Deref(arr.Elems[0])
	}
	if len(shape) == 0 {
		return nil, errArgType(-1, "TensorData", v)
	}
	return shape, nil
}

// tensorMethod handles a method call on a tensor.
func (w *World) tensorMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	method := c.Method
	// Operators with a scalar operand lower to the _scalar methods
	// (numeric.rs:893-1050).
	if len(c.Args) == 1 {
		if _, scalar := a.get(0).(Int); scalar || isFloatValue(a.get(0)) {
			switch method {
			case "add", "sub", "mul", "div":
				method += "_scalar"
			case "rem":
				method = "remainder_scalar"
			}
		}
	}
	if method == "rem" {
		method = "remainder"
	}
	switch method {
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		c := *t
		return &c, nil, nil
	case "dims":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		elems := make([]Value, len(t.shape))
		for i, d := range t.shape {
			elems[i] = Int{V: d, Suffix: "usize"}
		}
		return &Array{Elems: elems}, nil, nil
	case "shape":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &ShapeValue{dims: t.Shape()}, nil, nil
	case "rank":
		return Int{V: int64(len(t.shape)), Suffix: "usize"}, nil, nil
	case "device":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return t.Device(), nil, nil
	case "dtype":
		return dtypeEnum(t.dtype), nil, nil
	case "to_device":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		d, ue, p := w.deviceArg(a, 0)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		out, p := w.toDevice(t, d)
		if p != nil {
			if p.ID == "disp-float-todev-ad-mix" {
				p.Fixes = []FixHint{{Title: "Take the tensor off the tape with .inner() before moving it", Arg: -1, NewText: "{0}.inner().to_device({1})"}}
			}
			return nil, nil, p.on(1)
		}
		return out, nil, nil
	case "try_into_vec_as", "try_to_vec_as":
		return w.tryVecAs(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	case "into_data", "to_data", "into_scalar", "into_data_as", "to_data_as", "into_data_dtype", "to_data_dtype":
		// The synchronous into_scalar runs no check (only into_scalar_async
		// does); its element count is checked on the data.
		return w.read(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	case "zeros_like", "ones_like", "empty_like", "full_like":
		want := 0
		if method == "full_like" {
			want = 1
		}
		if ue := a.want(want); ue != nil {
			return nil, ue, nil
		}
		// K::zeros(self.shape(), &self.device(), self.dtype()): the device
		// the tensor reports, autodiff included.
		d := t.Device()
		// The argument before the options is full_like's fill value.
		var fill Value = d
		if method == "full_like" {
			fill = c.Args[0]
		}
		sub := Call{Args: []Value{fill, Tuple{d, dtypeEnum(t.dtype)}}}
		out, ue, p := w.create(strings.TrimSuffix(method, "_like"), tensorType{rank: t.Rank(), kind: t.kind}, t.shape, argList{c: sub}, 1)
		return out, ue, p
	case "require_grad", "set_require_grad", "is_require_grad", "detach":
		return w.gradTracking(t, method, a)
	case "backward", "grad", "grad_remove", "grad_replace", "inner", "no_grad", "with_gradient_checkpointing_strategy":
		return w.autodiffMethod(t, method, a)
	case "cast":
		return w.castTensor(t, a)
	case "one_hot":
		return w.oneHot(t, a)
	case "max_pair", "min_pair":
		return w.maxOrMinPair(t, c)
	case "set_distributed", "is_distributed":
		return w.distributedMethod(t, method, a)
	case "eq", "ne", "lt", "le", "gt", "ge":
		return nil, &UsageError{Code: "unknown-method", Arg: -1,
			Message: fmt.Sprintf("binary operation `%s` cannot be applied to type `%s`", operatorText[method], t.TypeName()),
			Help:    []string{"compare tensors element-wise with equal, greater, lower, ...; compare devices with `==`"}}, nil
	}
	if burnOpMethods[method] {
		return w.burnOpMethod(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	}
	if extraTensorMethods[method] {
		return w.extraTensorMethod(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	}
	if moreTensorMethods[method] {
		return w.moreTensorMethod(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	}
	if method == "quantize" {
		return w.quantizeMethod(t, Call{Recv: c.Recv, Method: method, Args: c.Args, Generics: c.Generics, Expect: c.Expect})
	}
	row, ok := opTable[method]
	if !ok {
		switch method {
		case "dequantize", "sort", "argsort", "cov", "var", "median", "iter_dim", "roll",
			"into_primitive", "try_into_primitive":
			return nil, errUnsupported("Tensor::" + method), nil
		}
		return nil, errUnknownMethod(tensorStruct, method), nil
	}
	if !row.has(t.kind) {
		return nil, &UsageError{Code: "unknown-method", Arg: -1,
			Message: fmt.Sprintf("the method `%s` exists for struct `%s`, but its trait bounds were not satisfied", method, t.TypeName())}, nil
	}
	return w.runRow(row, t, a)
}

var operatorText = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}

func isFloatValue(v Value) bool {
	_, ok := v.(Float)
	return ok
}

func dtypeEnum(d DType) *Enum {
	if d.IsBool() {
		store := strings.TrimSuffix(strings.TrimPrefix(string(d), "Bool("), ")")
		return &Enum{Type: "DType", Variant: "Bool", Fields: []Value{&Enum{Type: "BoolStore", Variant: store}}}
	}
	if s, ok := schemeOf(d); ok {
		return &Enum{Type: "DType", Variant: "QFloat", Fields: []Value{&QuantScheme{S: s}}}
	}
	return &Enum{Type: "DType", Variant: string(d)}
}

// scalarOperator is `scalar op tensor` (numeric.rs:909-1050): the scalar
// impls exist for f32, f64, i32, i64, u32 and u64, and lower to the
// tensor's scalar ops.
func (w *World) scalarOperator(s Value, c Call) (Value, *UsageError, *Panic) {
	if len(c.Args) != 1 {
		return nil, errUnknownMethod("`"+s.TypeName()+"`", c.Method), nil
	}
	t, ok := Deref(c.Args[0]).(*Tensor)
	if !ok {
		return nil, errUnknownMethod("`"+s.TypeName()+"`", c.Method), nil
	}
	scalar := Call{Method: "", Args: []Value{s}}
	run := func(method string, recv *Tensor) (Value, *UsageError, *Panic) {
		scalar.Recv, scalar.Method = recv, method
		return w.tensorMethod(recv, scalar)
	}
	switch c.Method {
	case "add", "mul":
		return run(c.Method+"_scalar", t)
	case "sub":
		neg, ue, p := w.tensorMethod(t, Call{Recv: t, Method: "neg"})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return run("add_scalar", neg.(*Tensor))
	case "div":
		if t.kind != KindFloat {
			break
		}
		recip, ue, p := w.tensorMethod(t, Call{Recv: t, Method: "recip"})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return run("mul_scalar", recip.(*Tensor))
	}
	return nil, &UsageError{Code: "unknown-method", Arg: -1,
		Message: fmt.Sprintf("cannot apply `%s` to `%s` and `%s`", c.Method, s.TypeName(), t.TypeName())}, nil
}

package dispatch

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dispatch-playground/playground/engine/burncheck"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Quantization through the dispatch layer. A quantized tensor
// (KindQFloat) has the dtype QFloat(<its scheme>) and, while the run's
// budget lasts, its Flex values: the i8 values, the scales (t.q) and the
// dequantized f32 values every float op on it reads (t.values).
//
// Which ops stay quantized is Dispatch's: it overrides only q_reshape,
// q_expand, q_swap_dims, q_permute, q_flip, q_select, q_slice and q_matmul
// (crates/burn-dispatch/src/ops/qtensor.rs), which reach the backend's own
// q_ ops; Flex's move the i8 values and keep the scales of a per-tensor
// scheme and requantize a block one (burn-flex ops/qtensor.rs:253-394).
// Every other q_ op is burn-backend's default at the Dispatch level
// (crates/burn-backend/src/backend/ops/qtensor.rs): Dispatch::dequantize,
// the float op, then quantize_dynamic with the input's scheme
// (dequant_op_quant!) or, under the default QuantPropagation::Inhibit, a
// float result (dequant_op_flow!). The tensor API's ops that have no q_ op
// dequantize first (BridgeTensor::into_float, bridge/kind.rs:343-352).

const (
	locFloatAPI      = "crates/burn-tensor/src/tensor/api/float.rs"
	locBackendScheme = "crates/burn-backend/src/quantization/scheme.rs"
)

// QuantScheme is cubecl-common's QuantScheme, a Copy value.
type QuantScheme struct{ S tensor.QuantScheme }

func (*QuantScheme) TypeName() string { return "QuantScheme" }

// schemes maps a QFloat dtype back to its scheme.
var schemes sync.Map

// qfloatDType is DType::QFloat(scheme), held as its Debug.
func qfloatDType(s tensor.QuantScheme) DType {
	d := DType("QFloat(" + s.String() + ")")
	schemes.Store(d, s)
	return d
}

// schemeOf is the scheme of a QFloat dtype.
func schemeOf(d DType) (tensor.QuantScheme, bool) {
	if d == qfloatDefault {
		return tensor.DefaultQuantScheme(), true
	}
	s, ok := schemes.Load(d)
	if !ok {
		return tensor.QuantScheme{}, false
	}
	return s.(tensor.QuantScheme), true
}

// deviceScheme is the scheme of a device's QuantConfig: Flex and NdArray
// store values Native (burn-flex backend.rs:47-57, burn-ndarray
// backend.rs:23-34); the others keep QuantScheme::default().
func deviceScheme(d *Device) tensor.QuantScheme {
	s := tensor.DefaultQuantScheme()
	switch d.Inner().backend {
	case Flex, NdArray:
		s = s.WithStore(tensor.QuantStore{})
	}
	return s
}

// quantConfig is the device's QuantConfig (crates/burn-std/src/tensor/quantization.rs:28-37).
// The model configures no quantization, so propagation is the default Inhibit.
func quantConfig(d *Device) *Enum {
	return &Enum{Type: "QuantConfig", Variant: "QuantConfig", Named: map[string]Value{
		"scheme":      &QuantScheme{S: deviceScheme(d)},
		"propagation": &Enum{Type: "QuantPropagation", Variant: "Inhibit"},
	}}
}

// computesQuantized reports the backends whose quantization arithmetic the
// model computes: Flex's.
func computesQuantized(d *Device) bool { return d.Inner().backend == Flex }

func (w *World) quantSchemeFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if name != "default" || len(c.Args) != 0 {
		return nil, errUnknownFunction("struct `QuantScheme`", name), nil
	}
	return &QuantScheme{S: tensor.DefaultQuantScheme()}, nil, nil
}

func (w *World) quantSchemeMethod(s *QuantScheme, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	one := func() *UsageError { return a.want(1) }
	switch c.Method {
	case "clone":
		return &QuantScheme{S: s.S}, a.want(0), nil
	case "with_value":
		if ue := one(); ue != nil {
			return nil, ue, nil
		}
		v, ok := quantValueOf(a.get(0))
		if !ok {
			return nil, errArgType(1, "QuantValue", c.Args[0]), nil
		}
		return &QuantScheme{S: s.S.WithValue(v)}, nil, nil
	case "with_store":
		if ue := one(); ue != nil {
			return nil, ue, nil
		}
		st, ok := quantStoreOf(a.get(0))
		if !ok {
			return nil, errArgType(1, "QuantStore", c.Args[0]), nil
		}
		return &QuantScheme{S: s.S.WithStore(st)}, nil, nil
	case "with_mode":
		if ue := one(); ue != nil {
			return nil, ue, nil
		}
		e, ok := a.get(0).(*Enum)
		if !ok || e.Type != "QuantMode" || (e.Variant != "Symmetric" && e.Variant != "Lookup") {
			return nil, errArgType(1, "QuantMode", c.Args[0]), nil
		}
		m := tensor.Symmetric
		if e.Variant == "Lookup" {
			m = tensor.Lookup
		}
		return &QuantScheme{S: s.S.WithMode(m)}, nil, nil
	case "per_tensor":
		if ue := one(); ue != nil {
			return nil, ue, nil
		}
		d, ok := scaleDtypeOf(a.get(0))
		if !ok {
			return nil, errArgType(1, "ScaleDtype", c.Args[0]), nil
		}
		return &QuantScheme{S: s.S.PerTensor(d)}, nil, nil
	case "per_block":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		block, ok := blockArg(a.get(0))
		if !ok {
			return nil, errArgType(1, "impl AsRef<[u8]>", c.Args[0]), nil
		}
		d, ok := scaleDtypeOf(a.get(1))
		if !ok {
			return nil, errArgType(2, "ScaleDtype", c.Args[1]), nil
		}
		out, err := s.S.PerBlock(block, d)
		if err != nil {
			// BlockSize::canonicalize's debug_assert! (cubecl-common scheme.rs:534-537).
			return nil, nil, newPanic("cubecl-block-size-cap", "crates/cubecl-common/src/quant/scheme.rs:534", err.Error())
		}
		return &QuantScheme{S: out}, nil, nil
	case "scale_dtype":
		return &Enum{Type: "ScaleDtype", Variant: s.S.ScaleDtype().String()}, a.want(0), nil
	case "tensor_scale":
		d, ok := s.S.TensorScale()
		return optionOf(ok, &Enum{Type: "ScaleDtype", Variant: d.String()}), a.want(0), nil
	case "num_levels":
		return Int{V: int64(s.S.NumLevels()), Suffix: "usize"}, a.want(0), nil
	case "eq", "ne":
		if ue := one(); ue != nil {
			return nil, ue, nil
		}
		o, ok := a.get(0).(*QuantScheme)
		if !ok {
			return nil, errArgType(1, "QuantScheme", c.Args[0]), nil
		}
		return Bool(s.S.Equal(o.S) == (c.Method == "eq")), nil, nil
	}
	return nil, errUnknownMethod("struct `QuantScheme`", c.Method), nil
}

func optionOf(some bool, v Value) *Enum {
	if !some {
		return &Enum{Type: "Option", Variant: "None"}
	}
	return &Enum{Type: "Option", Variant: "Some", Fields: []Value{v}}
}

// QuantSchemeField is a public field of QuantScheme: value, store, mode.
func quantSchemeField(s *QuantScheme, name string) (Value, bool) {
	switch name {
	case "value":
		return &Enum{Type: "QuantValue", Variant: s.S.Value.String()}, true
	case "mode":
		return &Enum{Type: "QuantMode", Variant: s.S.Mode.String()}, true
	case "store":
		st := s.S.Store
		switch st.Kind {
		case tensor.StorePackedU32:
			return &Enum{Type: "QuantStore", Variant: "PackedU32", Fields: []Value{Int{V: int64(st.Dim), Suffix: "usize"}}}, true
		case tensor.StorePackedNative:
			return &Enum{Type: "QuantStore", Variant: "PackedNative", Fields: []Value{Int{V: int64(st.Dim), Suffix: "usize"}}}, true
		}
		return &Enum{Type: "QuantStore", Variant: "Native"}, true
	}
	return nil, false
}

func quantValueOf(v Value) (tensor.QuantValue, bool) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "QuantValue" || len(e.Fields) != 0 {
		return 0, false
	}
	return tensor.ParseQuantValue(e.Variant)
}

func scaleDtypeOf(v Value) (tensor.ScaleDtype, bool) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "ScaleDtype" || len(e.Fields) != 0 {
		return 0, false
	}
	return tensor.ParseScaleDtype(e.Variant)
}

func quantStoreOf(v Value) (tensor.QuantStore, bool) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "QuantStore" {
		return tensor.QuantStore{}, false
	}
	switch {
	case e.Variant == "Native" && len(e.Fields) == 0:
		return tensor.QuantStore{}, true
	case (e.Variant == "PackedU32" || e.Variant == "PackedNative") && len(e.Fields) == 1:
		n, ok := Deref(e.Fields[0]).(Int)
		if !ok || n.V < 0 {
			return tensor.QuantStore{}, false
		}
		k := tensor.StorePackedU32
		if e.Variant == "PackedNative" {
			k = tensor.StorePackedNative
		}
		return tensor.QuantStore{Kind: k, Dim: int(n.V)}, true
	}
	return tensor.QuantStore{}, false
}

// blockArg reads per_block's `impl AsRef<[u8]>`: an array of u8 literals.
func blockArg(v Value) ([]uint8, bool) {
	arr, ok := Deref(v).(*Array)
	if !ok {
		return nil, false
	}
	out := make([]uint8, len(arr.Elems))
	for i, e := range arr.Elems {
		n, ok := Deref(e).(Int)
		if !ok || n.V < 0 || n.V > 255 {
			return nil, false
		}
		out[i] = uint8(n.V)
	}
	return out, true
}

// schemeArg reads a `&QuantScheme` argument.
func schemeArg(a argList, i int) (tensor.QuantScheme, *UsageError) {
	if s, ok := a.get(i).(*QuantScheme); ok {
		return s.S, nil
	}
	return tensor.QuantScheme{}, errArgType(i+1, "&QuantScheme", a.c.Args[i])
}

// storedScheme is the scheme a backend's quantized tensor reports: Flex
// keeps its values as i8, so `with_store(QuantStore::Native)`
// (qtensor.rs:141, 200).
func storedScheme(d *Device, s tensor.QuantScheme) tensor.QuantScheme {
	switch d.Inner().backend {
	case Flex, NdArray:
		return s.WithStore(tensor.QuantStore{})
	}
	return s
}

// setQuantized gives a quantized tensor its values: q, and the
// dequantized f32 values the float ops read (Flex's dequantize to F32,
// the float dtype of every device the model quantizes on).
func (w *World) setQuantized(out *Tensor, q *tensor.QTensor) {
	if q == nil || !w.budget.TakeShape(out.shape) {
		return
	}
	out.q = q
	out.val = q.DequantizeTensor(tensor.F32)
}

// blockDivisibility is reduce_blocks' assertion, which quantize_dynamic
// reaches through compute_range (scheme.rs:27-30).
func blockDivisibility(t *Tensor, s tensor.QuantScheme) *Panic {
	if !s.HasBlock {
		return nil
	}
	if err := tensor.CheckBlocks(intDims(t.shape), s); err != nil {
		return newPanic("backend-quant-block-divisible", at(locBackendScheme, 27), err.Error()).on(0)
	}
	return nil
}

// quantizeDynamic is Tensor::quantize_dynamic (float.rs:419-421):
// Dispatch's default quantize_dynamic, compute_range with MinMax, then
// compute_q_params, then quantize (burn-backend ops/qtensor.rs:144-149).
func (w *World) quantizeDynamic(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if t.kind != KindFloat {
		return nil, errTraitBounds(a.c.Method, t), nil
	}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	s, ue := schemeArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	if p := blockDivisibility(t, s); p != nil {
		return nil, nil, p
	}
	out, p := w.unaryOp(t, "quantize", KindQFloat, nil, qfloatDType(storedScheme(t.on, s)))
	if p != nil {
		return nil, nil, p
	}
	if t.hasVals() && computesQuantized(t.on) {
		if f, ok := tensor.F32Values(t.vals()); ok {
			if q, err := dispatchQuantize(f, t.vals().Shape, s); err == nil {
				w.setQuantized(out, q)
			}
		}
	}
	return out, nil, nil
}

// dequantizeTo is Dispatch::dequantize (qtensor.rs:32-34) to dtype: a
// unary op whose float result carries the dequantized values.
func (w *World) dequantizeTo(t *Tensor, dtype DType) (*Tensor, *Panic) {
	out, p := w.unaryOp(t, "dequantize", KindFloat, nil, dtype)
	if p != nil {
		return nil, p
	}
	if t.hasVals() {
		if dt, ok := valueDType(dtype); ok && w.budget.TakeShape(out.shape) {
			out.val = tensor.Cast(t.vals().Detach(), dt)
		}
	}
	return out, nil
}

// dequantizeMethod is Tensor::dequantize (float.rs:430-432): a float
// tensor is returned as it is (dequantize_impl's into_float).
func (w *World) dequantizeMethod(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(0); ue != nil {
		return nil, ue, nil
	}
	switch t.kind {
	case KindFloat:
		return t, nil, nil
	case KindQFloat:
		out, p := w.dequantizeTo(t, w.defaultsFor(t.on).float)
		if p != nil {
			return nil, nil, p
		}
		return out, nil, nil
	}
	return nil, errTraitBounds(a.c.Method, t), nil
}

// qKeepMethods are the tensor methods that reach a q_ op Dispatch
// overrides and so the backend's own, which keeps the tensor quantized.
var qKeepMethods = map[string]bool{
	"reshape": true, "flatten": true, "unsqueeze": true, "unsqueeze_dim": true, "squeeze": true, "squeeze_dim": true,
	"transpose": true, "t": true, "swap_dims": true, "permute": true, "flip": true, "slice": true, "narrow": true,
	"select": true,
}

// qRequantMethods are the methods whose q_ op is dequant_op_quant!:
// dequantize, the float op, quantize_dynamic with the input's scheme.
var qRequantMethods = map[string]bool{
	"gather": true, "repeat_dim": true, "abs": true, "sort": true, "topk": true,
	"max": true, "min": true, "max_dim": true, "min_dim": true, "max_abs": true, "max_abs_dim": true,
}

// qFlowMethods are the methods whose q_ op is dequant_op_flow!: a float
// result under QuantPropagation::Inhibit.
var qFlowMethods = map[string]bool{
	"add": true, "add_scalar": true, "sub": true, "sub_scalar": true, "mul": true, "mul_scalar": true,
	"div": true, "div_scalar": true, "neg": true, "sum": true, "sum_dim": true, "prod": true, "prod_dim": true,
	"mean": true, "mean_dim": true, "cumsum": true, "cumprod": true, "cummin": true, "cummax": true,
	"clamp": true, "clamp_min": true, "clamp_max": true, "powi": true, "powi_scalar": true, "powf": true,
	"powf_scalar": true,
}

// qPrelude dequantizes the quantized operands of a table op that does not
// keep them quantized, as burn-backend's default q_ ops and into_float do.
// It returns the receiver and operands to run the float op on, and the
// scheme to requantize the result with (requant false for a float result).
func (w *World) qPrelude(row opRow, t *Tensor, args *opArgs) (*Tensor, tensor.QuantScheme, bool, *Panic) {
	if row.method == "matmul" || (t.kind == KindQFloat && qKeepMethods[row.method]) {
		return t, tensor.QuantScheme{}, false, nil
	}
	var scheme tensor.QuantScheme
	requant := false
	if t.kind == KindQFloat {
		scheme, _ = schemeOf(t.dtype)
		requant = qRequantMethods[row.method]
	}
	target := w.defaultsFor(t.on).float
	if t.kind == KindFloat {
		target = t.dtype
	}
	for i, o := range args.tensors {
		if o != nil && o.kind == KindFloat && t.kind == KindQFloat {
			// q_bin_ops! dequantizes to the float operand's dtype.
			target = o.dtype
		}
		_ = i
	}
	if t.kind == KindQFloat {
		d, p := w.dequantizeTo(t, target)
		if p != nil {
			return nil, scheme, false, p
		}
		t = d
	}
	for i, o := range args.tensors {
		if o != nil && o.kind == KindQFloat {
			d, p := w.dequantizeTo(o, target)
			if p != nil {
				return nil, scheme, false, p
			}
			args.tensors[i] = d
		}
	}
	return t, scheme, requant, nil
}

// requantize is quantize_dynamic of an op's float result with scheme,
// recorded as Dispatch's quantize.
func (w *World) requantize(out *Tensor, s tensor.QuantScheme) (*Tensor, *Panic) {
	if p := blockDivisibility(out, s); p != nil {
		return nil, p
	}
	q, p := w.unaryOp(out, "quantize", KindQFloat, nil, qfloatDType(storedScheme(out.on, s)))
	if p != nil {
		return nil, p
	}
	if out.hasVals() && computesQuantized(out.on) {
		if f, ok := tensor.F32Values(out.vals()); ok {
			if qt, err := dispatchQuantize(f, out.vals().Shape, s); err == nil {
				w.setQuantized(q, qt)
			}
		}
	}
	return q, nil
}

// dispatchQuantize is Dispatch's quantize_dynamic on values: compute_range
// with MinMax, compute_q_params, then Flex's quantize.
func dispatchQuantize(f []float32, shape []int, s tensor.QuantScheme) (*tensor.QTensor, error) {
	lo, hi, _, err := tensor.ComputeRange(f, shape, s, tensor.MinMax)
	if err != nil {
		return nil, err
	}
	scales, g, hasG, err := tensor.ComputeQParams(s, lo, hi)
	if err != nil {
		return nil, err
	}
	var global *float32
	if hasG {
		global = &g
	}
	return tensor.Quantize(f, shape, s, scales, global)
}

// keepQuantized gives the result of a layout op on a quantized tensor its
// values, as Flex computes them: a per-tensor scheme moves the i8 values
// and keeps the scales, which quantizing the moved values with those
// scales reproduces exactly; a block scheme is requantized with the
// scheme following the move (block_safe_layout_op, qtensor.rs:376-394).
func (w *World) keepQuantized(row opRow, in *Tensor, args opArgs, a argList, out *Tensor) {
	if in.q == nil || !in.hasVals() || out.kind != KindQFloat || !computesQuantized(in.on) {
		return
	}
	s := in.q.Scheme
	switch row.method {
	case "swap_dims", "transpose", "t":
		d0, d1 := in.Rank()-2, in.Rank()-1
		if row.method == "swap_dims" && len(args.dims) == 2 {
			d0, d1 = normDim(args.dims[0], in.Rank()), normDim(args.dims[1], in.Rank())
		}
		if d0 >= 0 && d1 >= 0 {
			s = s.SwapBlockDims(in.Rank(), d0, d1)
		}
	case "permute":
		axes := make([]int, 0, in.Rank())
		for _, d := range args.array {
			axes = append(axes, normDim(d, in.Rank()))
		}
		if len(axes) == in.Rank() {
			s = s.PermuteBlockDims(in.Rank(), axes)
		}
	}
	out.dtype = qfloatDType(s)
	fin, fout := *in, *out
	fin.kind, fin.dtype = KindFloat, F32
	fout.kind, fout.dtype = KindFloat, F32
	fout.setVals(nil)
	w.compute(&fout, append([]*Tensor{&fin}, args.tensors...), func() (*tensor.Tensor, error) {
		return w.rowValues(row, &fin, args, a, &fout)
	})
	if !fout.hasVals() {
		return
	}
	f, ok := tensor.F32Values(fout.vals())
	if !ok {
		return
	}
	var q *tensor.QTensor
	var err error
	if !s.HasBlock {
		var g *float32
		if in.q.HasGlobal {
			g = &in.q.Global
		}
		q, err = tensor.Quantize(f, fout.vals().Shape, s, in.q.Scales, g)
	} else {
		q, err = tensor.QuantizeDynamic(f, fout.vals().Shape, s)
	}
	if err == nil {
		out.q, out.val = q, q.DequantizeTensor(tensor.F32)
	}
}

// quantizedResult finishes a table op on quantized operands: a
// dequant_op_quant! result is requantized with the input's scheme.
func (w *World) quantizedResult(out *Tensor, s tensor.QuantScheme, requant bool) (Value, *UsageError, *Panic) {
	if !requant || out.kind != KindFloat {
		return out, nil, nil
	}
	q, p := w.requantize(out, s)
	if p != nil {
		return nil, nil, p
	}
	return q, nil, nil
}

// quantizedData is q_into_data: Flex's TensorData::quantized of its i8
// values, scheme and scales (burn-flex ops/qtensor.rs:258-271). values
// holds the i8 values, which is what TensorData's iter reads.
func quantizedData(t *Tensor) *TensorData {
	d := &TensorData{shape: t.Shape(), dtype: t.dtype}
	if t.q != nil {
		q, err := tensor.NewQuantizedData(t.q.Q, t.q.Shape, t.q.Scheme, t.q.Scales, globalOf(t.q))
		if err == nil {
			d.q, d.values = q, q.ValuesData()
		}
	}
	return d
}

func globalOf(q *tensor.QTensor) *float32 {
	if !q.HasGlobal {
		return nil
	}
	g := q.Global
	return &g
}

// tensorDataQuantized is TensorData::quantized(values, shape, scheme,
// qparams, global) (crates/burn-std/src/data/tensor/base.rs:144-161).
func (w *World) tensorDataQuantized(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(5); ue != nil {
		return nil, ue, nil
	}
	arr, ok := a.get(0).(*Array)
	if !ok {
		return nil, errArgType(1, "Vec<E>", c.Args[0]), nil
	}
	shape, ue := shapeArg(a, 1)
	if ue != nil {
		return nil, ue, nil
	}
	s, ue := schemeArg(a, 2)
	if ue != nil {
		return nil, ue, nil
	}
	sarr, ok := Deref(a.get(3)).(*Array)
	if !ok {
		return nil, errArgType(4, "&[f32]", c.Args[3]), nil
	}
	var global *float32
	switch g := a.get(4).(type) {
	case *Enum:
		if g.Type == "Option" && g.Variant == "Some" && len(g.Fields) == 1 {
			f, ok := floatOf(g.Fields[0])
			if !ok {
				return nil, errArgType(5, "Option<f32>", c.Args[4]), nil
			}
			v := float32(f)
			global = &v
		} else if g.Type != "Option" || g.Variant != "None" {
			return nil, errArgType(5, "Option<f32>", c.Args[4]), nil
		}
	default:
		return nil, errArgType(5, "Option<f32>", c.Args[4]), nil
	}
	values := make([]int8, len(arr.Elems))
	known := true
	// Unsuffixed integers with no i8 among them are what rustc makes them
	// for a generic E: i32, which QuantizedBytes::new refuses too.
	typed := false
	for _, e := range arr.Elems {
		if n, ok := Deref(e).(Int); ok && n.Suffix != "" {
			typed = true
		}
	}
	if !typed && len(arr.Elems) > 0 {
		if _, isInt := Deref(arr.Elems[0]).(Int); isInt {
			return nil, nil, newPanic("std-quantized-type", "crates/burn-std/src/tensor/quantization.rs:235", "Invalid quantized type").on(1)
		}
	}
	for i, e := range arr.Elems {
		n, ok := Deref(e).(Int)
		switch {
		case !ok:
			known = false
		case n.Suffix != "" && n.Suffix != "i8":
			// QuantizedBytes::new compares TypeIds (quantization.rs:234-236).
			return nil, nil, newPanic("std-quantized-type", "crates/burn-std/src/tensor/quantization.rs:235", "Invalid quantized type").on(1)
		default:
			values[i] = int8(n.V)
		}
	}
	scales := make([]float32, len(sarr.Elems))
	for i, e := range sarr.Elems {
		f, ok := floatOf(e)
		if !ok {
			known = false
		}
		scales[i] = float32(f)
	}
	d := &TensorData{shape: shape, dtype: qfloatDType(s)}
	if !known {
		return d, nil, nil
	}
	n, _ := numElements(shape)
	if n != int64(len(values)) {
		return nil, nil, dataLenPanic(shape, n, len(values)).on(1)
	}
	q, err := tensor.NewQuantizedData(values, intDims(shape), s, scales, global)
	if err != nil {
		// QuantizedBytes::new's checks of the per-tensor scale (quantization.rs:252-264).
		id, line := "std-quantized-global-f32", 254
		switch msg := err.Error(); {
		case strings.HasSuffix(msg, "requires a per-tensor scale"):
			id, line = "std-quantized-global-missing", 262
		case strings.HasSuffix(msg, "does not take a per-tensor scale"):
			id, line = "std-quantized-global-extra", 263
		case strings.HasPrefix(msg, "range end index"):
			id, line = "std-quantized-no-scale", 243
		}
		return nil, nil, newPanic(id, at("crates/burn-std/src/tensor/quantization.rs", line), err.Error()).on(1)
	}
	d.q, d.values = q, q.ValuesData()
	return d, nil, nil
}

func floatOf(v Value) (float64, bool) {
	switch x := Deref(v).(type) {
	case Float:
		return x.V, true
	case Int:
		return float64(x.V), true
	}
	return 0, false
}

// qFromData is Tensor::from_data of quantized data: BridgeTensor's
// from_data takes q_from_data whatever the dtype asked
// (bridge/ops/float.rs:275-287); Flex reads the values and scales back
// and keeps them Native (burn-flex ops/qtensor.rs:43-65).
func (w *World) qFromData(td *TensorData, tt tensorType, shape []int64, a argList) (Value, *UsageError, *Panic) {
	d, _, ue, p := w.creationOptions(a, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if tt.rank < 0 {
		tt.rank = len(shape)
	}
	if p := checkFailed(burncheck.TensorCreate("Tensor::from_data", tt.rank, shape)); p != nil {
		return nil, nil, p
	}
	if p := w.prepare(d); p != nil {
		return nil, nil, p.on(2)
	}
	s, _ := schemeOf(td.dtype)
	out := w.newTensor(KindQFloat, shape, qfloatDType(storedScheme(d.Inner(), s)), d.Inner())
	if d.autodiff {
		out.ckp = strategyPtr(d.strategy)
	}
	if td.q != nil && computesQuantized(d.Inner()) {
		q := *td.q
		q.Scheme = storedScheme(d.Inner(), q.Scheme)
		w.setQuantized(out, &q)
	}
	w.record(TraceEvent{Op: "q_from_data", Backend: d.backend.String(), Device: d.Inner().Debug(), Autodiff: d.autodiff,
		Kind: KindQFloat.String(), Shape: out.Shape(), out: out})
	return out, nil, nil
}

// qDataMethod is a method of TensorData where quantized data changes what
// it does; ok is false for the others.
func (w *World) qDataMethod(d *TensorData, c Call) (v Value, ue *UsageError, p *Panic, ok bool) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "into_bytes":
		if d.q == nil || len(c.Args) != 0 {
			return nil, nil, nil, false
		}
		return &QuantBytes{q: d.q}, nil, nil, true
	case "assert_eq":
		if len(c.Args) != 2 {
			return nil, nil, nil, false
		}
		o, isData := a.get(0).(*TensorData)
		strict, isBool := a.get(1).(Bool)
		if !isData || !isBool {
			return nil, nil, nil, false
		}
		if !isQFloat(d.dtype) && !isQFloat(o.dtype) {
			return nil, nil, nil, false
		}
		if strict && d.dtype != o.dtype {
			msg := fmt.Sprintf("assertion `left == right` failed: Data types differ (%s != %s)\n  left: %s\n right: %s", d.dtype, o.dtype, d.dtype, o.dtype)
			return nil, nil, assertPanic(msg), true
		}
		if !isQFloat(d.dtype) {
			// assert_eq_elem::<E> over the other's i8 values.
			if d.values == nil || o.values == nil {
				return unchecked(d, o), nil, nil, true
			}
			return Unit{}, nil, assertPanic(d.values.AssertEq(o.values.Cast(d.values.DType), false)), true
		}
		s, _ := schemeOf(d.dtype)
		so, isQ := schemeOf(o.dtype)
		if !isQFloat(o.dtype) || !isQ {
			p := newPanic("std-data-quantized-differs", at(locDataCompare, 248), "Quantized data differs from other not quantized data")
			p.TrackCaller = true
			return nil, nil, p.on(0), true
		}
		if !s.SameLevels(so) {
			p := newPanic("std-data-schemes-differ", at(locDataCompare, 258), fmt.Sprintf("Quantization schemes differ (%s != %s)", s, so))
			p.TrackCaller = true
			return nil, nil, p.on(0), true
		}
		if d.values == nil || o.values == nil {
			return unchecked(d, o), nil, nil, true
		}
		return Unit{}, nil, assertPanic(d.values.AssertEq(o.values, false)), true
	}
	return nil, nil, nil, false
}

func isQFloat(d DType) bool { return len(d) > 7 && d[:7] == "QFloat(" }

// computeQuantized gives a quantized result of a layout op its values:
// the float op on the dequantized values, then the i8 values under the
// input's scales for a per-tensor scheme (Flex moves the i8 values and
// keeps the scales), requantized for a block one.
func (w *World) computeQuantized(out *Tensor, inputs []*Tensor, f func() (*tensor.Tensor, error)) {
	var src *Tensor
	for _, in := range inputs {
		if in.kind == KindQFloat && in.q != nil {
			src = in
			break
		}
	}
	s, ok := schemeOf(out.dtype)
	if !ok || !computesQuantized(out.on) {
		return
	}
	v, err := f()
	if err != nil || v == nil || !sameDims(v.Shape, out.shape) {
		return
	}
	vals, ok := tensor.F32Values(v)
	if !ok {
		return
	}
	var q *tensor.QTensor
	switch {
	case src == nil:
		// A quantized result of float operands is quantize_dynamic's.
		q, err = dispatchQuantize(vals, v.Shape, s)
	case s.HasBlock:
		q, err = tensor.QuantizeDynamic(vals, v.Shape, s)
	default:
		q, err = tensor.Quantize(vals, v.Shape, s, src.q.Scales, globalOf(src.q))
	}
	if err == nil {
		w.setQuantized(out, q)
	}
}

// qCat is q_cat's default (burn-backend ops/qtensor.rs:921-935): every
// tensor dequantized, float_cat, then quantize_dynamic with the first
// tensor's scheme.
func (w *World) qCat(tensors []*Tensor, d int, shape []int64) (Value, *UsageError, *Panic) {
	s, _ := schemeOf(tensors[0].dtype)
	dtype := w.defaultsFor(tensors[0].on).float
	floats := make([]*Tensor, len(tensors))
	for i, t := range tensors {
		f, p := w.dequantizeTo(t, dtype)
		if p != nil {
			return nil, nil, p
		}
		floats[i] = f
	}
	pl, p := routeVec(floats)
	if p != nil {
		return nil, nil, w.failOp("float_cat", floats[0], p.on(1))
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	out := w.output(pl, KindFloat, shape, dtype)
	w.compute(out, floats, func() (*tensor.Tensor, error) {
		values := make([]*tensor.Tensor, len(floats))
		for i, t := range floats {
			values[i] = t.vals()
		}
		return tensor.Cat(values, d)
	})
	w.recordOp("float_cat", pl, out)
	q, p := w.requantize(out, s)
	if p != nil {
		return nil, nil, p
	}
	return q, nil, nil
}

// qIntoFloatMethods are the methods of moreTensorMethod whose bridge op
// takes every operand through into_float (bridge/ops/float.rs): they run
// on the dequantized tensors and return a float.
var qIntoFloatMethods = map[string]bool{
	"cross": true, "gather_nd": true, "scatter_nd": true, "select_assign": true, "unfold": true,
	"tril": true, "triu": true, "slice_assign": true,
}

// qMorePrelude dequantizes the quantized receiver and tensor arguments
// of those methods.
func (w *World) qMorePrelude(t *Tensor, c Call) (*Tensor, Call, *Panic) {
	if !qIntoFloatMethods[c.Method] {
		return t, c, nil
	}
	dtype := w.defaultsFor(t.on).float
	if t.kind == KindQFloat {
		d, p := w.dequantizeTo(t, dtype)
		if p != nil {
			return nil, c, p
		}
		t = d
		c.Recv = d
	}
	args := append([]Value(nil), c.Args...)
	for i, v := range args {
		if o, ok := Deref(v).(*Tensor); ok && o.kind == KindQFloat {
			d, p := w.dequantizeTo(o, dtype)
			if p != nil {
				return nil, c, p
			}
			args[i] = d
		}
	}
	c.Args = args
	return t, c, nil
}

// quantStoreCall is QuantStore::PackedU32(dim) and PackedNative(dim).
func quantStoreCall(variant string, c Call) (Value, *UsageError, *Panic) {
	if variant != "PackedU32" && variant != "PackedNative" {
		return nil, &UsageError{Code: "unknown-function", Arg: -1,
			Message: "no variant or associated item named `" + variant + "` found for enum `QuantStore` in the current scope"}, nil
	}
	if len(c.Args) != 1 {
		return nil, errArgCount(false, 1, len(c.Args)), nil
	}
	if n, ok := Deref(c.Args[0]).(Int); !ok || n.V < 0 {
		return nil, errArgType(1, "usize", c.Args[0]), nil
	}
	return &Enum{Type: "QuantStore", Variant: variant, Fields: c.Args}, nil, nil
}

// namedStruct reads a struct literal of one of Burn's structs.
func namedStruct(v Value, name string) (*Enum, bool) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Variant != name || e.Named == nil {
		return nil, false
	}
	return e, true
}

// calibrationOf reads `&Calibration::MinMax` or `&Calibration::AbsMean`.
func calibrationOf(v Value) (tensor.Calibration, bool) {
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "Calibration" {
		return 0, false
	}
	switch e.Variant {
	case "MinMax":
		return tensor.MinMax, true
	case "AbsMean":
		return tensor.AbsMean, true
	}
	return 0, false
}

// floatTensorOf builds the values of a float result from f32s.
func floatTensorOf(vals []float32, shape []int, dt tensor.DType) *tensor.Tensor {
	f := make([]float64, len(vals))
	for i, v := range vals {
		f[i] = float64(v)
	}
	return tensor.FromData(&tensor.Data{DType: tensor.F32, Shape: shape, F: f}, dt)
}

// quantizationFunction is burn_tensor::quantization's compute_range and
// compute_q_params (crates/burn-tensor/src/tensor/quantization.rs:24-60).
func (w *World) quantizationFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "compute_range":
		if ue := a.want(3); ue != nil {
			return nil, ue, nil
		}
		s, ue := schemeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		t, ok := a.get(1).(*Tensor)
		if !ok {
			return nil, errArgType(2, "&Tensor<D>", c.Args[1]), nil
		}
		cal, ok := calibrationOf(a.get(2))
		if !ok {
			return nil, errArgType(3, "&Calibration", c.Args[2]), nil
		}
		switch t.kind {
		case KindQFloat:
			return nil, nil, newPanic("bt-quant-range-qfloat", "crates/burn-tensor/src/tensor/quantization.rs:34", unreachableMsg("")).on(2)
		case KindInt, KindBool:
			return nil, errArgType(2, fmt.Sprintf("&Tensor<%d>", t.Rank()), c.Args[1]), nil
		}
		if _, two := s.GlobalScaleDtype(); two && cal == tensor.AbsMean {
			return nil, nil, newPanic("backend-quant-absmean-two-level", at(locBackendScheme, 59), tensor.ErrAbsMeanTwoLevel.Error()).on(1)
		}
		if p := blockDivisibility(t, s); p != nil {
			return nil, nil, p.on(2)
		}
		shape := []int64{1}
		if s.HasBlock {
			shape = int64Dims(tensor.ParamsShape(intDims(t.shape), s))
		}
		ops := [2]string{"float_min", "float_max"}
		switch {
		case cal == tensor.AbsMean && s.HasBlock:
			ops = [2]string{"float_neg", "float_mean_dim"}
		case cal == tensor.AbsMean:
			ops = [2]string{"float_neg", "float_mean"}
		case s.HasBlock:
			ops = [2]string{"float_min_dim", "float_max_dim"}
		}
		lo, p := w.unaryOp(t, ops[0], KindFloat, shape, t.dtype)
		if p != nil {
			return nil, nil, p
		}
		hi, p := w.unaryOp(t, ops[1], KindFloat, shape, t.dtype)
		if p != nil {
			return nil, nil, p
		}
		if f, ok := tensor.F32Values(t.vals()); ok {
			if l, h, sh, err := tensor.ComputeRange(f, t.vals().Shape, s, cal); err == nil {
				dt, _ := valueDType(t.dtype)
				if w.budget.TakeShape(lo.shape) && w.budget.TakeShape(hi.shape) {
					lo.val, hi.val = floatTensorOf(l, sh, dt), floatTensorOf(h, sh, dt)
				}
			}
		}
		return &Enum{Type: "CalibrationRange", Variant: "CalibrationRange", Named: map[string]Value{"min": lo, "max": hi}}, nil, nil
	case "compute_q_params":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		s, ue := schemeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		r, ok := namedStruct(a.get(1), "CalibrationRange")
		if !ok {
			return nil, errArgType(2, "CalibrationRange", c.Args[1]), nil
		}
		lo, ok1 := Deref(r.Named["min"]).(*Tensor)
		hi, ok2 := Deref(r.Named["max"]).(*Tensor)
		if !ok1 || !ok2 || lo.kind != KindFloat || hi.kind != KindFloat {
			// quantization.rs:58: anything but two floats is unreachable.
			return nil, nil, newPanic("bt-quant-params-kind", "crates/burn-tensor/src/tensor/quantization.rs:58", unreachableMsg("")).on(2)
		}
		if bdt := s.ScaleDtype(); s.HasBlock && bdt.MaxRepresentable() > 65504 {
			if _, two := s.GlobalScaleDtype(); two {
				return nil, nil, newPanic("backend-quant-normalize-range", at(locBackendScheme, 115),
					fmt.Sprintf("block scales in %s reach f32's range, which a per-tensor scale cannot absorb", bdt)).on(1)
			}
		}
		pl, p := w.routeBinaryFloat(lo, hi)
		if p != nil {
			return nil, nil, w.failOp("float_mask_where", lo, p)
		}
		if p := w.prepare(pl.on); p != nil {
			return nil, nil, p
		}
		scales := w.output(pl, KindFloat, broadcastShape(lo.shape, hi.shape), lo.dtype)
		w.recordOp("float_div_scalar", pl, scales)
		var global Value = &Enum{Type: "Option", Variant: "None"}
		var g *Tensor
		_, two := s.GlobalScaleDtype()
		if two {
			g = w.output(pl, KindFloat, []int64{1}, F32)
			w.recordOp("float_clamp_min", pl, g)
			global = &Enum{Type: "Option", Variant: "Some", Fields: []Value{g}}
		}
		if fl, ok := tensor.F32Values(lo.vals()); ok {
			if fh, ok := tensor.F32Values(hi.vals()); ok && len(fl) == len(fh) && sameDims(lo.vals().Shape, hi.shape) {
				if sc, gv, _, err := tensor.ComputeQParams(s, fl, fh); err == nil && w.budget.TakeShape(scales.shape) {
					dt, _ := valueDType(lo.dtype)
					scales.val = floatTensorOf(sc, lo.vals().Shape, dt)
					if g != nil {
						g.val = floatTensorOf([]float32{gv}, []int{1}, tensor.F32)
					}
				}
			}
		}
		return &Enum{Type: "QuantizationParameters", Variant: "QuantizationParameters", Named: map[string]Value{"scales": scales, "global": global}}, nil, nil
	}
	return nil, &UsageError{Code: "unknown-function", Arg: -1,
		Message: "cannot find function `" + name + "` in this scope"}, nil
}

func int64Dims(d []int) []int64 {
	out := make([]int64, len(d))
	for i, x := range d {
		out[i] = int64(x)
	}
	return out
}

// quantizeMethod is Tensor::quantize(scheme, qparams) (float.rs:378-405):
// its assertions, then Dispatch::quantize, which routes the tensor and
// its scales as multi_op! does and gives Flex's quantize its validated
// scales.
func (w *World) quantizeMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if t.kind != KindFloat {
		return nil, errTraitBounds(c.Method, t), nil
	}
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	s, ue := schemeArg(a, 0)
	if ue != nil {
		return nil, ue, nil
	}
	qp, ok := namedStruct(a.get(1), "QuantizationParameters")
	if !ok {
		return nil, errArgType(2, "QuantizationParameters", c.Args[1]), nil
	}
	scales, ok := Deref(qp.Named["scales"]).(*Tensor)
	if !ok {
		return nil, errArgType(2, "QuantizationParameters", c.Args[1]), nil
	}
	var global *Tensor
	if opt, ok := Deref(qp.Named["global"]).(*Enum); ok && opt.Variant == "Some" && len(opt.Fields) == 1 {
		if global, ok = Deref(opt.Fields[0]).(*Tensor); !ok {
			return nil, errArgType(2, "QuantizationParameters", c.Args[1]), nil
		}
	}
	_, two := s.GlobalScaleDtype()
	if two != (global != nil) {
		gDebug := "None"
		if global != nil {
			gDebug = "Some(" + Debug(global) + ")"
		}
		return nil, nil, newPanic("bt-quantize-global-level", at(locFloatAPI, 379),
			fmt.Sprintf("assertion `left == right` failed: %s does not match a per-tensor scale of %s\n  left: %t\n right: %t", s, gDebug, two, global != nil)).on(2)
	}
	if global != nil {
		if len(global.shape) == 0 || global.shape[0] != 1 {
			return nil, nil, newPanic("bt-quantize-global-len", at(locFloatAPI, 386),
				fmt.Sprintf("assertion `left == right` failed: the per-tensor scale must have exactly one element, got %s\n  left: %d\n right: 1", dimsDebug(global.shape), firstDim(global.shape))).on(2)
		}
		if global.dtype != F32 {
			return nil, nil, newPanic("bt-quantize-global-dtype", at(locFloatAPI, 392),
				fmt.Sprintf("assertion `left == right` failed: the per-tensor scale must be an f32 tensor, got %s\n  left: %s\n right: F32", global.dtype, global.dtype)).on(2)
		}
	}
	inputs := []namedInput{{name: "tensor", t: t}, {name: "scales", t: scales, arg: 2}}
	if global != nil {
		inputs = append(inputs, namedInput{name: "global", t: global, arg: 2})
	}
	pl, p := routeMulti(inputs)
	if p != nil {
		return nil, nil, w.failOp("quantize", t, p)
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	pl.autodiff = false
	out := w.output(pl, KindQFloat, t.shape, qfloatDType(storedScheme(t.on, s)))
	w.recordOp("quantize", pl, out)
	if computesQuantized(t.on) {
		f, ok1 := tensor.F32Values(t.vals())
		sc, ok2 := tensor.F32Values(scales.vals())
		var g *float32
		ok3 := true
		if global != nil {
			gv, ok := tensor.F32Values(global.vals())
			ok3 = ok && len(gv) == 1
			if ok3 {
				g = &gv[0]
			}
		}
		if ok1 && ok2 && ok3 {
			if q, err := tensor.Quantize(f, t.vals().Shape, s, sc, g); err == nil {
				w.setQuantized(out, q)
			}
		}
	}
	return out, nil, nil
}

func firstDim(s []int64) int64 {
	if len(s) == 0 {
		return 0
	}
	return s[0]
}

// qWithIndices is q_sort_with_indices, q_max_dim_with_indices,
// q_min_dim_with_indices and q_topk_with_indices at the Dispatch level
// (burn-backend ops/qtensor.rs:1009-1024, 1086-1149, 1286-1299): the
// float op on the dequantized tensor, its values quantized again with
// the input's scheme.
func (w *World) qWithIndices(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	s, _ := schemeOf(t.dtype)
	d, p := w.dequantizeTo(t, w.defaultsFor(t.on).float)
	if p != nil {
		return nil, nil, p
	}
	v, ue, p := w.withIndices(d, method, a)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	tup, ok := v.(Tuple)
	if !ok || len(tup) != 2 {
		return v, nil, nil
	}
	vals, ok := tup[0].(*Tensor)
	if !ok {
		return v, nil, nil
	}
	q, p := w.requantize(vals, s)
	if p != nil {
		return nil, nil, p
	}
	return Tuple{q, tup[1]}, nil, nil
}

// QuantBytes is the Bytes of quantized TensorData (into_bytes).
type QuantBytes struct{ q *tensor.QTensor }

func (*QuantBytes) TypeName() string { return "Bytes" }

// quantizedBytesMethod is QuantizedBytes { bytes, scheme, shape }.into_vec_i8()
// (crates/burn-std/src/tensor/quantization.rs:285-305): the i8 values and
// DecodedScales { block, global } read back from the bytes.
func quantizedBytesMethod(e *Enum, c Call) (Value, bool) {
	if e.Variant != "QuantizedBytes" || e.Named == nil || c.Method != "into_vec_i8" || len(c.Args) != 0 {
		return nil, false
	}
	b, ok := Deref(e.Named["bytes"]).(*QuantBytes)
	if !ok || b.q == nil {
		return Unknown{}, true
	}
	q := b.q
	values := make([]Value, len(q.Q))
	for i, v := range q.Q {
		values[i] = Int{V: int64(v), Suffix: "i8"}
	}
	block := make([]Value, len(q.Scales))
	for i, s := range q.Scales {
		block[i] = Float{V: float64(s), Suffix: "f32"}
	}
	global := optionOf(q.HasGlobal, Float{V: float64(q.Global), Suffix: "f32"})
	scales := &Enum{Type: "DecodedScales", Variant: "DecodedScales", Named: map[string]Value{
		"block": &Array{Elems: block, Vec: true}, "global": global}}
	return Tuple{&Array{Elems: values, Vec: true}, scales}, true
}

// qGradTracking is the autodiff surface on a quantized tensor
// (crates/burn-tensor/src/tensor/api/float.rs:1134-1158): detach takes
// the tensor through into_float and float_detach, so its result is a
// float; q_set_require_grad and q_is_require_grad are burn-backend's
// defaults, the tensor itself and false (ops/qtensor.rs:192-207).
func (w *World) qGradTracking(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	switch method {
	case "detach":
		d, p := w.dequantizeTo(t, w.defaultsFor(t.on).float)
		if p != nil {
			return nil, nil, p
		}
		return w.gradTracking(d, method, a)
	case "is_require_grad":
		return Bool(false), nil, nil
	case "set_require_grad":
		if _, ue := a.boolean(0); ue != nil {
			return nil, ue, nil
		}
	}
	return t, nil, nil
}

package dispatch

import (
	"fmt"
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// Tensor methods burn-tensor composes from other tensor methods: each is
// modelled by calling those methods in Burn's order, so the trace, the
// routing, the panics, the values and the gradients are theirs.

const locPad = "crates/burn-tensor/src/tensor/api/pad.rs"

// burnOpMethods are the methods handled here.
var burnOpMethods = map[string]bool{"pad": true, "fmod": true, "fmod_scalar": true,
	"sort_with_indices": true, "sort_descending_with_indices": true, "max_dim_with_indices": true, "min_dim_with_indices": true,
	"topk_with_indices": true, "slice_fill": true, "slice_dim": true, "repeat": true,
	"categorical": true, "one_hot_fill": true, "iter_dim": true, "roll": true, "roll_dim": true, "dot": true,
	"max_abs_dim": true, "max_abs": true, "argtopk": true}

func (w *World) burnOpMethod(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	if statsMethods[c.Method] {
		return w.statsMethod(t, c.Method, a)
	}
	switch c.Method {
	case "pad":
		return w.pad(t, a)
	case "sort_with_indices", "sort_descending_with_indices", "max_dim_with_indices", "min_dim_with_indices", "topk_with_indices":
		return w.withIndices(t, c.Method, a)
	case "categorical":
		return w.categorical(t, a)
	case "iter_dim":
		return w.iterDim(t, a)
	case "roll", "roll_dim":
		return w.roll(t, c.Method, a)
	case "max_abs_dim", "max_abs":
		return w.maxAbs(t, c.Method, a)
	case "argtopk":
		return w.argtopk(t, a)
	case "dot":
		// numeric.rs:869-871, on Tensor<1, K>: mul, then sum.
		if t.Rank() != 1 || t.kind == KindBool {
			return nil, errUnknownMethod("struct `"+t.TypeName()+"`", "dot"), nil
		}
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		o, ue := sameTensorArg(a, 0, t)
		if ue != nil {
			return nil, ue, nil
		}
		prod, ue, p := w.step(t, "mul", o)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.tensorMethod(prod, Call{Recv: prod, Method: "sum"})
	case "one_hot_fill":
		return w.oneHotFill(t, a)
	case "slice_fill":
		return w.sliceFill(t, a)
	case "slice_dim":
		return w.sliceDim(t, a)
	case "repeat":
		return w.repeat(t, a)
	case "fmod", "fmod_scalar":
		if t.kind != KindFloat {
			return nil, errTraitBounds(c.Method, t), nil
		}
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		if c.Method == "fmod_scalar" {
			s, ue := a.float(0)
			if ue != nil {
				return nil, ue, nil
			}
			return w.fmodScalar(t, float64(float32(s)))
		}
		o, ue := sameTensorArg(a, 0, t)
		if ue != nil {
			return nil, ue, nil
		}
		return w.fmod(t, o)
	}
	return nil, errUnknownMethod(tensorStruct, c.Method), nil
}

// step runs one tensor method of a composition on t.
func (w *World) step(t *Tensor, method string, args ...Value) (*Tensor, *UsageError, *Panic) {
	v, ue, p := w.tensorMethod(t, Call{Recv: t, Method: method, Args: args})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out, ok := v.(*Tensor)
	if !ok {
		return nil, &UsageError{Code: "unsupported-api", Arg: -1, Message: "`" + method + "` returned no tensor"}, nil
	}
	return out, nil, nil
}

// filled is Tensor::full(shape, value, (&device, dtype)) on t's device and
// dtype (zeros when value is nil).
func (w *World) filled(t *Tensor, shape []int64, value Value) (*Tensor, *UsageError, *Panic) {
	opts := Tuple{t.Device(), dtypeEnum(t.dtype)}
	tt := tensorType{rank: t.Rank(), kind: t.kind}
	var v Value
	var ue *UsageError
	var p *Panic
	if value == nil {
		v, ue, p = w.create("zeros", tt, shape, argList{c: Call{Args: []Value{opts}}}, 0)
	} else {
		v, ue, p = w.create("full", tt, shape, argList{c: Call{Args: []Value{value, opts}}}, 1)
	}
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return v.(*Tensor), nil, nil
}

func usizeRange(lo, hi int64) *Range {
	return &Range{Lo: &lo, Hi: &hi, Suffix: "usize"}
}

// dimRanges are build_slice_ranges (pad.rs:76-95): the whole of every dim
// but dim, which gets start..start+n.
func dimRanges(shape []int64, dim int, start, n int64) *Array {
	out := &Array{}
	for i, s := range shape {
		if i == dim {
			out.Elems = append(out.Elems, usizeRange(start, start+n))
		} else {
			out.Elems = append(out.Elems, usizeRange(0, s))
		}
	}
	return out
}

// padMode is burn-std's PadMode (crates/burn-std/src/ops.rs:335-371):
// Constant(f32), Reflect or Edge; a number converts into Constant, and
// the default is Constant(0.0).
type padMode struct {
	kind  string
	value float64
}

func padModeOf(v Value) (padMode, bool) {
	switch x := Deref(v).(type) {
	case Int:
		return padMode{kind: "Constant", value: float64(float32(x.V))}, true
	case Float:
		return padMode{kind: "Constant", value: float64(float32(x.V))}, true
	case *Enum:
		switch {
		case x.Type == "Default":
			return padMode{kind: "Constant"}, true
		case x.Type != "PadMode":
			return padMode{}, false
		case x.Variant == "Constant" && len(x.Fields) == 1:
			m, ok := padModeOf(x.Fields[0])
			return m, ok && m.kind == "Constant"
		case (x.Variant == "Reflect" || x.Variant == "Edge") && len(x.Fields) == 0:
			return padMode{kind: x.Variant}, true
		}
	}
	return padMode{}, false
}

// padModeFunction is PadMode::Constant(v) and PadMode::default().
func padModeFunction(name string, c Call) (Value, *UsageError, *Panic) {
	switch {
	case name == "default" && len(c.Args) == 0:
		return &Enum{Type: "PadMode", Variant: "Constant", Fields: []Value{Float{V: 0}}}, nil, nil
	case name == "Constant":
		if len(c.Args) != 1 {
			return nil, errArgCount(false, 1, len(c.Args)), nil
		}
		if _, ok := padModeOf(c.Args[0]); !ok {
			return nil, errArgType(1, "f32", c.Args[0]), nil
		}
		return &Enum{Type: "PadMode", Variant: "Constant", Fields: c.Args}, nil, nil
	}
	return nil, errUnknownFunction("enum `PadMode`", name), nil
}

// padPairs reads IntoPadding (pad.rs:8-74): (left, right, top, bottom) for
// the last two dims, or pairs for the last N dims, an array, a slice or a
// Vec of them. More pairs than dims is the assert of into_padding.
func padPairs(v Value, rank int, arg Value) ([][2]int64, *UsageError, *Panic) {
	pairs := make([][2]int64, rank)
	pairOf := func(e Value) ([2]int64, bool) {
		tup, ok := Deref(e).(Tuple)
		if !ok || len(tup) != 2 {
			return [2]int64{}, false
		}
		var out [2]int64
		for i, x := range tup {
			n, ok := Deref(x).(Int)
			if !ok || n.V < 0 {
				return [2]int64{}, false
			}
			out[i] = n.V
		}
		return out, true
	}
	switch x := Deref(v).(type) {
	case Tuple:
		if len(x) != 4 || rank < 2 {
			break
		}
		var n [4]int64
		for i, e := range x {
			k, ok := Deref(e).(Int)
			if !ok || k.V < 0 {
				return nil, errArgType(1, "(usize, usize, usize, usize)", arg), nil
			}
			n[i] = k.V
		}
		pairs[rank-2] = [2]int64{n[2], n[3]}
		pairs[rank-1] = [2]int64{n[0], n[1]}
		return pairs, nil, nil
	case *Array:
		line := 18 // [(usize, usize); N]
		if x.Vec {
			line = 65
		} else if _, borrowed := v.(*Ref); borrowed {
			line = 48 // &[(usize, usize)]
		}
		if len(x.Elems) > rank {
			return nil, nil, newPanic("bt-pad-pairs", at(locPad, line),
				fmt.Sprintf("Padding has %d pairs but tensor only has %d dimensions", len(x.Elems), rank)).on(1)
		}
		offset := rank - len(x.Elems)
		for i, e := range x.Elems {
			p, ok := pairOf(e)
			if !ok {
				return nil, errArgType(1, "impl IntoPadding<D>", arg), nil
			}
			pairs[offset+i] = p
		}
		return pairs, nil, nil
	}
	return nil, errArgType(1, "impl IntoPadding<D>", arg), nil
}

// pad is Tensor::pad(padding, mode) (pad.rs:151-158): Constant fills a
// full tensor and slice_assigns the input into it; Reflect and Edge work
// dim by dim, slice_assigning the input and then the flipped or repeated
// borders into zeros.
func (w *World) pad(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errTraitBounds("pad", t), nil
	}
	pairs, ue, p := padPairs(a.c.Args[0], t.Rank(), a.c.Args[0])
	if ue != nil || p != nil {
		return nil, ue, p
	}
	mode, ok := padModeOf(a.get(1))
	if !ok {
		return nil, errArgType(2, "impl Into<PadMode>", a.c.Args[1]), nil
	}
	switch mode.kind {
	case "Constant":
		// pad_constant (pad.rs:160-190).
		shape := t.Shape()
		ranges := &Array{}
		for i, pr := range pairs {
			shape[i] += pr[0] + pr[1]
			ranges.Elems = append(ranges.Elems, usizeRange(pr[0], shape[i]-pr[1]))
		}
		var fill Value = Float{V: mode.value}
		if t.kind == KindInt {
			fill = Int{V: int64(math.Trunc(mode.value))}
			if math.IsNaN(mode.value) || math.IsInf(mode.value, 0) {
				fill = Float{V: mode.value}
			}
		}
		full, ue, p := w.filled(t, shape, fill)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.tensorMethod(full, Call{Recv: full, Method: "slice_assign", Args: []Value{ranges, t}})
	case "Reflect":
		// pad_reflect (pad.rs:192-225).
		for i, pr := range pairs {
			if (pr[0] > 0 || pr[1] > 0) && !(pr[0] < t.shape[i] && pr[1] < t.shape[i]) {
				return nil, nil, newPanic("bt-pad-reflect-size", at(locPad, 209),
					fmt.Sprintf("Reflect padding (%d, %d) must be less than dimension %d size (%d)", pr[0], pr[1], i, t.shape[i])).on(2)
			}
		}
	case "Edge":
		// pad_edge (pad.rs:280-300).
		for i, pr := range pairs {
			if (pr[0] > 0 || pr[1] > 0) && t.shape[i] <= 0 {
				return nil, nil, newPanic("bt-pad-edge-empty", at(locPad, 287),
					fmt.Sprintf("Cannot apply edge padding to zero-sized dimension %d", i)).on(2)
			}
		}
	}
	result := t
	for i, pr := range pairs {
		if pr[0] == 0 && pr[1] == 0 {
			continue
		}
		var ue *UsageError
		var p *Panic
		result, ue, p = w.padDim(result, i, pr[0], pr[1], mode.kind == "Reflect")
		if ue != nil || p != nil {
			return nil, ue, p
		}
	}
	return result, nil, nil
}

// padDim is pad_reflect_dim and pad_edge_dim (pad.rs:227-278, 302-345).
func (w *World) padDim(t *Tensor, dim int, before, after int64, reflect bool) (*Tensor, *UsageError, *Panic) {
	size := t.shape[dim]
	shape := t.Shape()
	shape[dim] += before + after
	out, ue, p := w.filled(t, shape, nil)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if out, ue, p = w.step(out, "slice_assign", dimRanges(shape, dim, before, size), t); ue != nil || p != nil {
		return nil, ue, p
	}
	// border is the reflected rows start..start+n, flipped, or the edge
	// row at start repeated n times.
	border := func(start, n int64) (*Tensor, *UsageError, *Panic) {
		if !reflect {
			one, ue, p := w.step(t, "narrow", Int{V: int64(dim)}, Int{V: start}, Int{V: 1})
			if ue != nil || p != nil {
				return nil, ue, p
			}
			return w.step(one, "repeat_dim", Int{V: int64(dim)}, Int{V: n})
		}
		part, ue, p := w.step(t, "narrow", Int{V: int64(dim)}, Int{V: start}, Int{V: n})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.step(part, "flip", &Array{Elems: []Value{Int{V: int64(dim)}}})
	}
	if before > 0 {
		start := int64(ifElse(reflect, 1, 0))
		part, ue, p := border(start, before)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		if out, ue, p = w.step(out, "slice_assign", dimRanges(shape, dim, 0, before), part); ue != nil || p != nil {
			return nil, ue, p
		}
	}
	if after > 0 {
		start := size - 1
		if reflect {
			start = size - after - 1
		}
		part, ue, p := border(start, after)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		if out, ue, p = w.step(out, "slice_assign", dimRanges(shape, dim, before+size, after), part); ue != nil || p != nil {
			return nil, ue, p
		}
	}
	return out, nil, nil
}

func ifElse[T any](cond bool, yes, no T) T {
	if cond {
		return yes
	}
	return no
}

// fmod is Tensor::fmod (crates/burn-tensor/src/tensor/api/fmod.rs:36-55):
// self - other * trunc(self / other), with the product of a zero quotient
// and an infinite divisor made zero.
func (w *World) fmod(t, o *Tensor) (Value, *UsageError, *Panic) {
	quotient, ue, p := w.step(t, "div", o)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	truncated, ue, p := w.step(quotient, "trunc")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	product, ue, p := w.step(o, "mul", truncated)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	zeroQuotient, ue, p := w.step(truncated, "equal_scalar", Float{V: 0})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	inf, ue, p := w.step(o, "is_inf")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	zeroTimesInf, ue, p := w.step(zeroQuotient, "bool_and", inf)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	zero, ue, p := w.step(t, "mul_scalar", Float{V: 0})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	corrected, ue, p := w.step(product, "mask_where", zeroTimesInf, zero)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(t, Call{Recv: t, Method: "sub", Args: []Value{corrected}})
}

// fmodScalar is Tensor::fmod_scalar (fmod.rs:85-101): an infinite scalar
// returns the tensor itself, after the division and trunc ran.
func (w *World) fmodScalar(t *Tensor, s float64) (Value, *UsageError, *Panic) {
	quotient, ue, p := w.step(t, "div_scalar", Float{V: s})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	truncated, ue, p := w.step(quotient, "trunc")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	product, ue, p := w.step(truncated, "mul_scalar", Float{V: s})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	if math.IsInf(s, 0) {
		return t, nil, nil
	}
	return w.tensorMethod(t, Call{Recv: t, Method: "sub", Args: []Value{product}})
}

const locFlexReduce = "crates/burn-flex/src/ops/reduce.rs"

// flexEmptyReduce is the assert burn-flex's reductions run before folding
// (crates/burn-flex/src/ops/reduce.rs): max and min of no element, and
// max_dim, min_dim, argmax, argmin and the *_with_indices forms over an
// axis of size 0, have no value. On an autodiff device a tracked float
// max_dim or min_dim runs the _with_indices kernel (burn-autodiff
// ops/tensor.rs:3685-3760), and max or min reach it through burn-backend's
// default float_max, a reshape and max_dim(0) (burn-backend ops/
// tensor.rs:1592-1597).
func flexEmptyReduce(method string, t *Tensor, dims []int64, pl placement) *Panic {
	if pl.on.backend != Flex || t.kind == KindBool {
		return nil
	}
	graded := t.kind == KindFloat && t.tracked && t.node != nil && t.node.requirement != reqNone
	viaAutodiff := t.kind == KindFloat && pl.autodiff
	name := strings.TrimSuffix(method, "_with_indices")
	dim := 0
	switch method {
	case "max", "min":
		if n, _ := numElements(t.shape); n > 0 {
			return nil
		}
		if !viaAutodiff {
			line := ifElse(method == "max", 432, 467)
			return newPanic("flex-reduce-empty", at(locFlexReduce, line), method+": cannot reduce an empty tensor").on(0)
		}
		name = method + "_dim"
	case "max_dim", "min_dim", "argmax", "argmin", "max_dim_with_indices", "min_dim_with_indices":
		dim = normDim(dims[0], t.Rank())
		if t.shape[dim] > 0 {
			return nil
		}
	default:
		return nil
	}
	if (name == "max_dim" || name == "min_dim") && (graded || strings.HasSuffix(method, "_with_indices")) {
		name += "_with_indices"
	}
	line := map[string]int{"argmax": 729, "argmin": 785, "max_dim": 1572, "min_dim": 1618,
		"max_dim_with_indices": 1665, "min_dim_with_indices": 1716}[name]
	return newPanic("flex-reduce-empty-dim", at(locFlexReduce, line), fmt.Sprintf("%s: dimension %d has size 0", name, dim)).on(0)
}

// withIndices is sort_with_indices, sort_descending_with_indices
// (orderable.rs:104-138), max_dim_with_indices and min_dim_with_indices
// (orderable.rs:655-664, 902-911): one backend op that returns the values
// and their Int indices along dim, the indices in the device's int dtype.
func (w *World) withIndices(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	topk := method == "topk_with_indices"
	if ue := a.want(ifElse(topk, 2, 1)); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errTraitBounds(method, t), nil
	}
	var k int64
	if topk {
		var ue *UsageError
		if k, ue = a.int(0); ue != nil || k < 0 {
			return nil, errArgType(1, "usize", a.c.Args[0]), nil
		}
	}
	d, ue := a.int(ifElse(topk, 1, 0))
	if ue != nil {
		return nil, ue, nil
	}
	// orderable.rs:252-259: the dim, then topk's check.
	dim, f := burncheck.TensorDim("Tensor::"+method, d, t.Rank())
	if f == nil && topk {
		f = burncheck.TensorTopk("Tensor::"+method, t.shape, k, d)
	}
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	if t.kind == KindQFloat {
		return w.qWithIndices(t, method, a)
	}
	op := t.kind.opPrefix() + "_" + method
	if strings.HasPrefix(method, "sort_descending") {
		op = t.kind.opPrefix() + "_sort_with_indices"
	}
	kind := t.kind
	if kind == KindQFloat {
		kind = KindFloat
	}
	shape := t.Shape()
	switch {
	case topk:
		shape[dim] = k
	case !strings.HasPrefix(method, "sort"):
		shape[dim] = 1
	}
	pl := routeUnary(t, kind)
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	if p := flexEmptyReduce(method, t, []int64{int64(dim)}, pl); p != nil {
		return nil, nil, w.failOp(op, t, p)
	}
	values := w.output(pl, kind, shape, t.dtype)
	idxDType := w.defaultsFor(t.on).int
	indices := w.output(pl, KindInt, shape, idxDType)
	w.recordOp(op, pl, values)
	idxDT, ok := valueDType(idxDType)
	if ok && t.hasVals() {
		var v, i *tensor.Tensor
		var err error
		switch {
		case topk:
			// burn-backend's default: sort descending, keep the first k
			// (crates/burn-backend/src/backend/ops/tensor.rs:1553-1570).
			if v, i, _, err = tensor.SortWithIndices(t.vals(), dim, true, idxDT); err == nil {
				v, err = tensor.Narrow(v, dim, 0, int(k))
			}
			if err == nil && i != nil {
				i, err = tensor.Narrow(i, dim, 0, int(k))
			}
		case strings.HasPrefix(method, "sort"):
			v, i, _, err = tensor.SortWithIndices(t.vals(), dim, method == "sort_descending_with_indices", idxDT)
		default:
			reduce := strings.TrimSuffix(method, "_with_indices")
			arg := map[string]string{"max_dim": "argmax", "min_dim": "argmin"}[reduce]
			if v, err = tensor.ReduceDim(reduce, t.vals(), dim, idxDT); err == nil {
				i, err = tensor.ReduceDim(arg, t.vals(), dim, idxDT)
			}
		}
		if err == nil {
			w.compute(values, []*Tensor{t}, func() (*tensor.Tensor, error) { return v, nil })
			if i != nil {
				w.compute(indices, []*Tensor{t}, func() (*tensor.Tensor, error) { return i, nil })
			}
		}
	}
	return Tuple{values, indices}, nil, nil
}

// sliceFill is Tensor::slice_fill(slices, value) (base.rs:1471-1484): the
// slice check, then a one-element tensor of the value on the tensor's
// device and dtype, expanded to the slice's shape and slice_assigned.
func (w *World) sliceFill(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	slices, ue := parseSlices(a.get(0))
	if ue != nil {
		ue.Arg = 1
		return nil, ue, nil
	}
	value := a.get(1)
	if _, ok := scalarOf(value); !ok {
		return nil, errArgType(2, "Element", a.c.Args[1]), nil
	}
	clamped, f := burncheck.TensorSlice(t.shape, slices)
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	shape := t.Shape()
	for i, s := range clamped {
		shape[i] = sliceSize(s, t.shape[i])
	}
	one, ue, p := w.create("from_data", tensorType{rank: 1, kind: t.kind}, []int64{1},
		argList{c: Call{Args: []Value{&Array{Elems: []Value{value}}, Tuple{t.Device(), dtypeEnum(t.dtype)}}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	expanded, ue, p := w.step(one.(*Tensor), "expand", &ShapeValue{dims: shape})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(t, Call{Recv: t, Method: "slice_assign", Args: []Value{a.get(0), expanded}})
}

// sliceDim is Tensor::slice_dim(dim, slice) (base.rs:1539-1551): slice
// with the full range on every other dim.
func (w *World) sliceDim(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	d, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	switch a.get(1).(type) {
	case *Range, Int, *SteppedSlice:
	default:
		return nil, errArgType(2, "impl Into<Slice>", a.c.Args[1]), nil
	}
	dim, f := burncheck.TensorDim("Tensor::slice_dim", d, t.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	slices := &Array{}
	for i := range t.Rank() {
		if i == dim {
			slices.Elems = append(slices.Elems, a.get(1))
		} else {
			slices.Elems = append(slices.Elems, &Range{})
		}
	}
	return w.tensorMethod(t, Call{Recv: t, Method: "slice", Args: []Value{slices}})
}

// repeat is Tensor::repeat(sizes) (base.rs:2333-2350): an empty tensor of
// the repeated shape when a size is 0, else repeat_dim for every size
// above 1.
func (w *World) repeat(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	arr, ok := a.get(0).(*Array)
	if !ok {
		return nil, errArgType(1, "&[usize]", a.c.Args[0]), nil
	}
	sizes := make([]int64, len(arr.Elems))
	zero := false
	for i, e := range arr.Elems {
		n, ok := Deref(e).(Int)
		if !ok || n.V < 0 {
			return nil, errArgType(1, "&[usize]", a.c.Args[0]), nil
		}
		sizes[i], zero = n.V, zero || n.V == 0
	}
	if zero && len(sizes) > t.Rank() {
		// Shape::repeat's error for a dim past the rank, unwrapped: its
		// text is not modelled.
		return nil, errUnsupported("Tensor::repeat with more sizes than dims"), nil
	}
	if zero {
		shape := t.Shape()
		for i, n := range sizes {
			shape[i] *= n
		}
		return w.create("empty", tensorType{rank: t.Rank(), kind: t.kind}, shape, argList{c: Call{Args: []Value{t.Device()}}}, 0)
	}
	out := t
	for i, n := range sizes {
		if n > 1 {
			var ue *UsageError
			var p *Panic
			if out, ue, p = w.step(out, "repeat_dim", Int{V: int64(i)}, Int{V: n}); ue != nil || p != nil {
				return nil, ue, p
			}
		}
	}
	return out, nil, nil
}

// categorical is Tensor::categorical(num_samples) (crates/burn-tensor/src/
// tensor/api/float.rs:773-815): inverse-CDF sampling composed from
// tensor ops, the uniform draws from Tensor::random on the tensor's device
// (the playground's generator, so the samples are the playground's own,
// as every random tensor's are).
func (w *World) categorical(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	if t.kind != KindFloat {
		return nil, errTraitBounds("categorical", t), nil
	}
	samples, ue := a.int(0)
	if ue != nil || samples < 0 {
		return nil, errArgType(1, "usize", a.c.Args[0]), nil
	}
	if samples == 0 {
		return nil, nil, newPanic("bt-categorical-samples", at("crates/burn-tensor/src/tensor/api/float.rs", 774), "categorical: num_samples must be >= 1").on(1)
	}
	rank := t.Rank()
	cats := t.shape[rank-1]
	if cats == 0 {
		return nil, errUnsupported("Tensor::categorical of zero categories"), nil
	}
	n, _ := numElements(t.shape)
	batch := max(n/cats, 1)
	flat, ue, p := w.step(t, "reshape", dims64([]int64{batch, cats}))
	if ue != nil || p != nil {
		return nil, ue, p
	}
	sum, ue, p := w.step(flat, "sum_dim", Int{V: 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	probs, ue, p := w.step(flat, "div", sum)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	cumsum, ue, p := w.step(probs, "cumsum", Int{V: 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	dist := &Enum{Type: "Distribution", Variant: "Uniform", Fields: []Value{Float{V: 0}, Float{V: 1}}}
	shape := []int64{batch, samples}
	uv, ue, p := w.create("random", tensorType{rank: 2, kind: KindFloat}, shape,
		argList{c: Call{Args: []Value{dims64(shape), dist, Tuple{t.Device(), dtypeEnum(t.dtype)}}}}, 2)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	c3, ue, p := w.stepG(cumsum, "unsqueeze_dim", []string{"3"}, Int{V: 2})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	u3, ue, p := w.stepG(uv.(*Tensor), "unsqueeze_dim", []string{"3"}, Int{V: 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	mask, ue, p := w.step(c3, "lower", u3)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	ints, ue, p := w.step(mask, "int")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	counts, ue, p := w.step(ints, "sum_dim", Int{V: 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	idx, ue, p := w.stepG(counts, "squeeze_dim", []string{"2"}, Int{V: 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	clamped, ue, p := w.step(idx, "clamp", Int{V: 0}, Int{V: cats - 1})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := t.Shape()
	out[rank-1] = samples
	return w.tensorMethod(clamped, Call{Recv: clamped, Method: "reshape", Args: []Value{dims64(out)}})
}

// oneHotFill is Tensor::one_hot_fill::<D2>(num_classes, on_value,
// off_value, axis) (orderable.rs:311-350): the rank and axis checks, then
// full(off_value) of the kind's default dtype on the tensor's device with
// on_value - off_value scattered in at each element's class.
func (w *World) oneHotFill(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(4); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errTraitBounds("one_hot_fill", t), nil
	}
	classes, ue := a.int(0)
	if ue != nil || classes < 0 {
		return nil, errArgType(1, "usize", a.c.Args[0]), nil
	}
	on, ue := a.float(1)
	if ue != nil {
		return nil, errArgType(2, "f32", a.c.Args[1]), nil
	}
	off, ue := a.float(2)
	if ue != nil {
		return nil, errArgType(3, "f32", a.c.Args[2]), nil
	}
	axisArg, ue := a.int(3)
	if ue != nil {
		return nil, ue, nil
	}
	rank := t.Rank()
	rank2 := genericRank(a.c.Generics)
	if rank2 < 0 {
		if tt := parseTensorType(nil, a.c.Expect); tt.rank >= 0 {
			rank2 = tt.rank
		} else {
			rank2 = rank + 1
		}
	}
	if p := checkFailed(burncheck.TensorOneHotFill(rank, rank2, axisArg)); p != nil {
		return nil, nil, p
	}
	axis := normDim(axisArg, rank+1)
	shape := append(append(append([]int64{}, t.shape[:axis]...), classes), t.shape[axis:]...)
	// on_value and off_value are f32 (orderable.rs:313-314).
	on, off = float64(float32(on)), float64(float32(off))
	var offV Value = Float{V: off}
	if t.kind == KindInt {
		offV = Int{V: int64(off)}
	}
	v, ue, p := w.create("full", tensorType{rank: len(shape), kind: t.kind}, shape, argList{c: Call{Args: []Value{offV, t.Device()}}}, 1)
	if ue != nil || p != nil {
		return nil, ue, p
	}
	out := v.(*Tensor)
	if out.hasVals() {
		out.setVals(nil)
		if dt, ok := valueDType(out.dtype); ok && t.hasVals() {
			out.val, _ = tensor.OneHotFill(t.vals(), int(classes), on, off, axis, dt)
		}
	}
	w.trace[len(w.trace)-1].Note = "one_hot_fill: full(off_value) on the tensor's device, then on_value - off_value scattered in at each class"
	return out, nil, nil
}

// iterDim is Tensor::iter_dim(dim) (base.rs:2569-2572, DimIter at
// 3103-3165): the dim's check, then one slice per index along dim. DimIter
// slices as it is pulled; the model slices every index up front and the
// interpreter iterates over the parts (front to back, or from the back).
func (w *World) iterDim(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	d, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("Tensor::iter_dim", d, t.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	parts := &Array{Vec: true}
	for k := range t.shape[dim] {
		ranges := dimRanges(t.shape, dim, k, 1)
		part, ue, p := w.step(t, "slice", ranges)
		if ue != nil || p != nil {
			return nil, ue, p
		}
		parts.Elems = append(parts.Elems, part)
	}
	return parts, nil, nil
}

// roll_dim(shift, dim) and roll(shifts, dims) (base.rs:1045-1222): the dim
// checks, each shift wrapped into the dim's size and summed per dim, then
// for every dim with a non-zero shift a cat of slice_dim(shift..) and
// slice_dim(..shift); an empty dim or tensor is returned as is.
func (w *World) roll(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	rank := t.Rank()
	accumulated := make([]int64, rank)
	if method == "roll_dim" {
		shift, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		d, ue := a.int(1)
		if ue != nil {
			return nil, ue, nil
		}
		dim, f := burncheck.TensorDim("Tensor::roll_dim", d, rank)
		if p := checkFailed(f); p != nil {
			return nil, nil, p
		}
		accumulated[dim] = shift
	} else {
		shifts, ue := intsArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		dims, ue := intsArg(a, 1)
		if ue != nil {
			return nil, ue, nil
		}
		if len(dims) != len(shifts) {
			return nil, nil, assertEqPanic("bt-roll-align", at(locTensorBase, 1120), len(dims), len(shifts),
				fmt.Sprintf("Dimensions and shifts must align; found dims=%s, shifts=%s", prettyInts(dims), prettyInts(shifts)))
		}
		for i, d := range dims {
			dim, f := burncheck.TensorDim("Tensor::roll", d, rank)
			if p := checkFailed(f); p != nil {
				return nil, nil, p
			}
			accumulated[dim] += shifts[i]
		}
	}
	if n, _ := numElements(t.shape); n == 0 {
		return t, nil, nil
	}
	out := t
	for dim, shift := range accumulated {
		size := t.shape[dim]
		if size == 0 {
			continue
		}
		// wrap_index: the shift taken modulo the size, non-negative.
		s := ((shift % size) + size) % size
		if s == 0 {
			continue
		}
		d := Int{V: int64(dim)}
		head, ue, p := w.step(out, "slice_dim", d, &Range{Lo: &s})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		tail, ue, p := w.step(out, "slice_dim", d, &Range{Hi: &s})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		v, ue, p := w.tensorFunction("cat", Call{Path: []string{"Tensor", "cat"}, Args: []Value{&Array{Elems: []Value{head, tail}, Vec: true}, d}})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		out = v.(*Tensor)
	}
	return out, nil, nil
}

// prettyInts is {:#?} of a slice of integers.
func prettyInts(xs []int64) string {
	if len(xs) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for _, x := range xs {
		fmt.Fprintf(&b, "    %d,\n", x)
	}
	b.WriteString("]")
	return b.String()
}

// maxAbs is max_abs_dim(dim) and max_abs() (orderable.rs:681-742):
// burn-backend's defaults, max_dim of abs and max_abs_dim(0) of the
// flattened tensor (crates/burn-backend/src/backend/ops/tensor.rs:
// 1702-1721), which burn-autodiff keeps, so the gradient is theirs.
// burn-flex runs one kernel with the same values.
func (w *World) maxAbs(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	if t.kind == KindBool {
		return nil, errTraitBounds(method, t), nil
	}
	if method == "max_abs" {
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		abs, ue, p := w.step(t, "abs")
		if ue != nil || p != nil {
			return nil, ue, p
		}
		return w.tensorMethod(abs, Call{Recv: abs, Method: "max"})
	}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	d, ue := a.int(0)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("Tensor::max_abs_dim", d, t.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	abs, ue, p := w.step(t, "abs")
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(abs, Call{Recv: abs, Method: "max_dim", Args: []Value{Int{V: int64(dim)}}})
}

// argtopk is Tensor::argtopk(k, dim) (orderable.rs:605-609): the dim, the
// assert that the dim is longer than k, then burn-backend's default:
// argsort descending and the first k (ops/tensor.rs:1499-1513).
func (w *World) argtopk(t *Tensor, a argList) (Value, *UsageError, *Panic) {
	if ue := a.want(2); ue != nil {
		return nil, ue, nil
	}
	if t.kind == KindBool {
		return nil, errTraitBounds("argtopk", t), nil
	}
	k, ue := a.int(0)
	if ue != nil || k < 0 {
		return nil, errArgType(1, "usize", a.c.Args[0]), nil
	}
	d, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("Tensor::argtopk", d, t.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	if !(t.shape[dim] > k) {
		return nil, nil, newPanic("bt-argtopk-k", "crates/burn-tensor/src/tensor/api/orderable.rs:607",
			"assertion failed: self.shape()[dim] > k").on(1)
	}
	order, ue, p := w.step(t, "argsort_descending", Int{V: int64(dim)})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	return w.tensorMethod(order, Call{Recv: order, Method: "narrow", Args: []Value{Int{V: int64(dim)}, Int{V: 0}, Int{V: k}}})
}

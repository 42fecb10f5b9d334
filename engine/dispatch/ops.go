package dispatch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// opArgs are the parsed arguments of a table op.
type opArgs struct {
	tensors []*Tensor // T, I, V and M arguments, in order
	inputs  []int     // the call input each of tensors came from (Panic.Input)
	dims    []int64   // D arguments as written (may be negative)
	sizes   []int64   // N arguments
	array   []int64   // the A argument
	slices  []burncheck.Slice
	// shapeArg is true when the A argument is a Shape rather than an array.
	shapeArg bool
	update   string // the IndexingUpdateOp variant
}

// parseArgs checks the arguments against the row's types; rustc's errors
// for wrong counts and types.
func parseArgs(row opRow, t *Tensor, a argList) (opArgs, *UsageError) {
	var out opArgs
	if ue := a.want(len(row.args)); ue != nil {
		return out, ue
	}
	for i, code := range row.args {
		v := a.get(i)
		switch code {
		case "T", "I", "V", "M":
			o, ok := v.(*Tensor)
			want := map[string]string{
				"T": t.TypeName(),
				"I": fmt.Sprintf("Tensor<%d, Int>", t.Rank()),
				"V": "Tensor<1, Int>",
				"M": fmt.Sprintf("Tensor<%d, Bool>", t.Rank()),
			}[code]
			if !ok || o.TypeName() != want && !(code == "T" && o.kind == KindQFloat) {
				return out, errArgType(i+1, want, a.c.Args[i])
			}
			out.tensors = append(out.tensors, o)
			out.inputs = append(out.inputs, i+1)
		case "S":
			switch v.(type) {
			case Int, Float, Bool: // bool is an Element too (burn-std element/base.rs)
			default:
				return out, errArgType(i+1, "ElementConversion", a.c.Args[i])
			}
		case "D":
			n, ok := v.(Int)
			if !ok {
				return out, errArgType(i+1, "impl AsIndex", a.c.Args[i])
			}
			out.dims = append(out.dims, n.V)
		case "N":
			n, ok := v.(Int)
			if !ok || n.V < 0 {
				return out, errArgType(i+1, "usize", a.c.Args[i])
			}
			out.sizes = append(out.sizes, n.V)
		case "A":
			arr, ok := v.(*Array)
			if s, isShape := v.(*ShapeValue); isShape {
				out.array, out.shapeArg = append([]int64{}, s.dims...), true
				continue
			}
			if !ok {
				return out, errArgType(i+1, "[i64; D2]", a.c.Args[i])
			}
			for _, e := range arr.Elems {
				n, ok := Deref(e).(Int)
				if !ok {
					return out, errArgType(i+1, "[i64; D2]", a.c.Args[i])
				}
				out.array = append(out.array, n.V)
			}
		case "R":
			slices, ue := parseSlices(v)
			if ue != nil {
				ue.Arg = i + 1
				return out, ue
			}
			out.slices = slices
		case "U":
			e, ok := v.(*Enum)
			if !ok || e.Type != "IndexingUpdateOp" || !indexingUpdateOps[e.Variant] {
				return out, errArgType(i+1, "IndexingUpdateOp", a.c.Args[i])
			}
			out.update = e.Variant
		}
	}
	return out, nil
}

// indexingUpdateOps are burn-std's IndexingUpdateOp variants (ops.rs:392-403).
var indexingUpdateOps = map[string]bool{"Assign": true, "Add": true, "Mul": true, "Min": true, "Max": true}

// parseSlices reads slice's argument: an array of ranges or indices, one
// per leading dim (burn-std's SliceArg conversions).
func parseSlices(v Value) ([]burncheck.Slice, *UsageError) {
	var elems []Value
	switch x := v.(type) {
	case *Array:
		elems = x.Elems
	case *Range, Int, *SteppedSlice:
		elems = []Value{x}
	default:
		return nil, errArgType(-1, "[Range<usize>; D]", v)
	}
	out := make([]burncheck.Slice, len(elems))
	for i, e := range elems {
		e = Deref(e)
		step := int64(1)
		if st, ok := e.(*SteppedSlice); ok {
			e, step = Deref(st.Of), st.Step
		}
		switch r := e.(type) {
		case *Range:
			s := burncheck.FullSlice()
			if r.Lo != nil {
				s.Start = *r.Lo
			}
			switch {
			case r.Hi != nil && r.Inclusive:
				s = burncheck.InclusiveSlice(s.Start, *r.Hi)
			case r.Hi != nil:
				s.End, s.HasEnd = *r.Hi, true
			}
			out[i] = s
		case Int:
			out[i] = burncheck.IndexSlice(r.V)
		default:
			return nil, errArgType(-1, "[Range<usize>; D]", v)
		}
		out[i].Step = step
	}
	return out, nil
}

// runRow executes a table op on t.
func (w *World) runRow(row opRow, t *Tensor, a argList) (Value, *UsageError, *Panic) {
	args, ue := parseArgs(row, t, a)
	if ue != nil {
		return nil, ue, nil
	}
	shape, p := w.outputShape(row, t, args, a.c)
	if p != nil {
		// burn-tensor's check refuses the call before it dispatches; the
		// trace shows where, as the op it would have run.
		w.recordFailed(row.ops[t.kind], t, "panic, in burn-tensor's check before dispatch")
		return nil, nil, p
	}
	t, qscheme, requant, p := w.qPrelude(row, t, &args)
	if p != nil {
		return nil, nil, p
	}
	outKind := t.kind
	if t.kind == KindQFloat && !qKeepMethods[row.method] {
		// Only the layout ops Dispatch overrides keep a tensor quantized
		// (qPrelude dequantized the others); q_matmul's result is float.
		outKind = KindFloat
	}
	switch row.out {
	case "Float":
		outKind = KindFloat
	case "Int":
		outKind = KindInt
	case "Bool":
		outKind = KindBool
	}
	defaults := w.defaultsFor(t.on)
	dtype := t.dtype
	switch {
	case outKind == t.kind:
	case outKind == KindBool:
		dtype = defaults.bool
	case outKind == KindInt:
		dtype = defaults.int
	case outKind == KindFloat:
		dtype = defaults.float
	}
	op := row.ops[t.kind]
	if p := intMeanOfNothing(row, t, args); p != nil {
		return nil, nil, p
	}
	if row.method == "scatter" && t.kind == KindBool {
		// Bool scatter is an OR, which only the Add update means
		// (crates/burn-tensor/src/bridge/ops/bool.rs:140-154).
		if args.update != "Add" {
			return nil, nil, newPanic("bt-bridge-bool-scatter", at(locBridgeBool, 153), unimplementedMsg("")).on(4)
		}
		op = "bool_scatter_or"
	}
	var pl placement
	switch row.route {
	case "unary":
		if row.method == "topk" && t.tracked {
			return nil, nil, w.failOp(op, t, panicAutodiffTopk().on(0))
		}
		pl = routeUnary(t, outKind)
	case "binary":
		o := args.tensors[0]
		switch {
		case row.method == "matmul" && (t.kind == KindQFloat) != (o.kind == KindQFloat):
			// q_matmul of a float and a quantized operand is binary_float!:
			// the float decides (burn-dispatch ops/qtensor.rs:132-200).
			op = "q_matmul"
			if t.kind == KindFloat {
				pl, p = w.routeFloatAny(t, o)
			} else {
				pl, p = w.routeFloatAny(o, t)
			}
		case t.kind == KindFloat:
			pl, p = w.routeBinaryFloat(t, o)
		default:
			pl, p = w.routeBinaryOp(t, o)
		}
	case "any":
		o := args.tensors[0]
		if t.kind == KindFloat {
			pl, p = w.routeFloatAny(t, o)
		} else {
			pl, p = w.routeBinaryOp(t, o)
		}
	case "multi":
		inputs := []namedInput{{name: row.names[0], t: t}}
		for i, o := range args.tensors {
			inputs = append(inputs, namedInput{name: row.names[i+1], t: o, arg: args.inputs[i]})
		}
		pl, p = routeMulti(inputs)
	}
	if p != nil {
		if (row.route == "binary" || row.route == "any") && len(p.Fixes) == 0 && len(args.inputs) > 0 && sameBackendPanic[p.ID] {
			o := args.tensors[0]
			switch {
			case !t.tracked && !o.tracked:
				// Two plain tensors on two backends.
				p.Fixes = moveFixes(args.inputs[0])
			case t.tracked != o.tracked && t.on.Inner().backend == o.on.Inner().backend:
				// A tracked float beside a plain one of its backend: a
				// move does not give the plain one autodiff (device
				// equality ignores it), from_inner does.
				plain := 0
				if t.tracked {
					plain = args.inputs[0]
				}
				p.Fixes = []FixHint{fromInnerFix(plain)}
			}
		}
		return nil, nil, w.failOp(op, t, p)
	}
	if row.method == "scatter" && pl.autodiff && args.update != "Add" && args.update != "Assign" {
		return nil, nil, w.failOp(op, t, panicAutodiffScatterUpdate(args.update).on(4))
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	if p := flexEmptyReduce(row.method, t, args.dims, pl); p != nil {
		return nil, nil, w.failOp(op, t, p)
	}
	detach := row.method == "detach"
	pl.leaf = pl.leaf || detach
	out := w.output(pl, outKind, shape, dtype)
	if detach && out.tracked && t.node.requirement == reqGrad {
		// Autodiff's float_detach makes a fresh leaf but keeps
		// require_grad (burn-autodiff ops/tensor.rs:2040-2056).
		out.node.requirement, out.node.step = reqGrad, true
	}
	switch {
	case detach && t.hasVals():
		if out.tracked && out.node.requirement == reqGrad {
			out.derive(t, func(v *tensor.Tensor) *tensor.Tensor { return requireGrad(v.Detach()) })
		} else {
			out.derive(t, (*tensor.Tensor).Detach)
		}
	case !detach && len(args.tensors) == 0 && keepsOrder[row.method]:
		w.reshapeValues(out, t)
	case !detach:
		w.compute(out, append([]*Tensor{t}, args.tensors...), func() (*tensor.Tensor, error) {
			return w.rowValues(row, t, args, a, out)
		})
	}
	w.recordOp(op, pl, out)
	if t.kind == KindQFloat {
		w.keepQuantized(row, t, args, a, out)
	}
	return w.quantizedResult(out, qscheme, requant)
}

// intMeanOfNothing is the Int bridge's mean and mean_dim, which refuse an
// empty tensor or axis: a float mean of nothing is NaN, an integer has no
// such value (crates/burn-tensor/src/bridge/ops/int.rs:289-304).
func intMeanOfNothing(row opRow, t *Tensor, args opArgs) *Panic {
	if t.kind != KindInt {
		return nil
	}
	switch row.method {
	case "mean":
		if n, _ := numElements(t.shape); n == 0 {
			return newPanic("bt-bridge-int-mean-empty", at(locBridgeInt, 292), "Cannot compute mean of an empty int tensor").on(0)
		}
	case "mean_dim":
		if t.shape[normDim(args.dims[0], t.Rank())] == 0 {
			return newPanic("bt-bridge-int-mean-dim-empty", at(locBridgeInt, 299), "Cannot compute mean of an empty axis for an int tensor").on(0)
		}
	}
	return nil
}

// unaryOp runs a one-input op that is not in the table (into_data).
func (w *World) unaryOp(t *Tensor, op string, outKind Kind, shape []int64, dtype DType) (*Tensor, *Panic) {
	pl := routeUnary(t, outKind)
	if p := w.prepare(pl.on); p != nil {
		return nil, p
	}
	if shape == nil {
		shape = t.shape
	}
	out := w.output(pl, outKind, shape, dtype)
	w.recordOp(op, pl, out)
	return out, nil
}

func (w *World) recordOp(op string, pl placement, out *Tensor) {
	w.record(TraceEvent{Op: op, Backend: pl.on.backend.String(), Device: pl.on.Debug(), Autodiff: pl.autodiff,
		Kind: out.kind.String(), Shape: out.Shape(), out: out})
}

// failOp records the op that panicked and returns its panic.
func (w *World) failOp(op string, t *Tensor, p *Panic) *Panic {
	w.recordFailed(op, t, "panic")
	return p
}

// recordFailed traces op on t as the operation that panicked; note starts
// with "panic", which the page and the CLI mark.
func (w *World) recordFailed(op string, t *Tensor, note string) {
	w.record(TraceEvent{Op: op, Backend: t.on.backend.String(), Device: t.on.Debug(), Autodiff: t.tracked,
		Kind: t.kind.String(), Shape: t.Shape(), Note: note})
}

// outputShape runs the validation burn-tensor does for the method
// (package burncheck) and computes the output shape.
func (w *World) outputShape(row opRow, t *Tensor, args opArgs, c Call) ([]int64, *Panic) {
	rank := t.Rank()
	shape := t.Shape()
	name := "Tensor::" + row.method
	d2 := genericRank(c.Generics)
	if d2 < 0 {
		if tt := parseTensorType(nil, c.Expect); tt.rank >= 0 {
			d2 = tt.rank
		}
	}
	var f *burncheck.Failure
	dim := func(i int) int {
		var d int
		if f == nil {
			d, f = burncheck.TensorDim(name, args.dims[i], rank)
		}
		return d
	}
	switch row.shape {
	case "same":
		if len(args.dims) > 0 {
			dim(0)
		}
		if row.method == "flip" {
			f = burncheck.TensorFlip(rank, args.array)
		}
		if row.method == "mask_where" && len(args.tensors) == 2 {
			// burn-flex broadcasts the tensor, the mask and the value to
			// one shape (crates/burn-flex/src/ops/mask.rs:161-205).
			shape = broadcastAll(shape, args.tensors[0].shape, args.tensors[1].shape)
		}
	case "broadcast":
		o := args.tensors[0]
		if row.ew {
			f = burncheck.TensorElementwise(name, operand(t), operand(o))
		}
		shape = broadcastShape(t.shape, o.shape)
	case "matmul":
		o := args.tensors[0]
		f = burncheck.TensorMatmul(operand(t), operand(o))
		shape = matmulShape(t.shape, o.shape)
	case "reduce":
		shape = []int64{1}
	case "reduce_dim":
		if d := dim(0); f == nil {
			shape[d] = 1
		}
	case "topk":
		f = burncheck.TensorTopk(name, t.shape, args.sizes[0], args.dims[0])
		if f == nil {
			d := normDim(args.dims[0], rank)
			shape[d] = args.sizes[0]
		}
	case "transpose":
		if rank >= 2 {
			shape[rank-1], shape[rank-2] = shape[rank-2], shape[rank-1]
		}
	case "swap":
		var a, b int
		if a, b, f = burncheck.TensorSwapDims(rank, args.dims[0], args.dims[1]); f == nil {
			shape[a], shape[b] = shape[b], shape[a]
		}
	case "permute":
		if len(args.array) != rank {
			// [Dim; D]: rustc rejects another length before Burn runs.
			return shape, nil
		}
		var axes []int
		if axes, f = burncheck.TensorPermute(args.array); f == nil {
			for i, ax := range axes {
				shape[i] = t.shape[ax]
			}
		}
	case "reshape":
		shape, f = burncheck.Reshape(t.shape, args.array)
	case "flatten":
		start, end := normDim(args.dims[0], rank), normDim(args.dims[1], rank)
		if d2 < 0 {
			d2 = rank - (end - start)
		}
		if f = burncheck.TensorFlatten(rank, d2, args.dims[0], args.dims[1]); f == nil {
			n := int64(1)
			for _, s := range t.shape[start : end+1] {
				n *= s
			}
			shape = append(append(append([]int64{}, t.shape[:start]...), n), t.shape[end+1:]...)
		}
	case "unsqueeze":
		if d2 < 0 {
			d2 = rank + 1
		}
		if f = burncheck.TensorUnsqueeze(rank, d2); f == nil {
			shape = make([]int64, d2-rank, d2)
			for i := range shape {
				shape[i] = 1
			}
			shape = append(shape, t.shape...)
		}
	case "unsqueeze_dim":
		if d2 < 0 {
			d2 = rank + 1
		}
		if f = burncheck.TensorUnsqueezeDim(rank, d2, args.dims[0]); f == nil {
			at := normDim(args.dims[0], rank+1)
			shape = append(append(append([]int64{}, t.shape[:at]...), 1), t.shape[at:]...)
		}
	case "squeeze":
		var kept []int64
		for _, s := range t.shape {
			if s != 1 {
				kept = append(kept, s)
			}
		}
		if d2 < 0 {
			d2 = len(kept)
		}
		if f = burncheck.TensorSqueeze(t.shape, d2); f == nil {
			shape = kept
		}
	case "squeeze_dim":
		if d2 < 0 {
			d2 = rank - 1
		}
		if f = burncheck.TensorSqueezeDim(t.shape, d2, args.dims[0]); f == nil {
			d := normDim(args.dims[0], rank)
			shape = append(append([]int64{}, t.shape[:d]...), t.shape[d+1:]...)
		}
	case "expand":
		shape, f = burncheck.TensorExpand(t.shape, args.array, args.shapeArg)
	case "repeat_dim":
		if d := dim(0); f == nil {
			shape[d] *= args.sizes[0]
		}
	case "slice":
		var slices []burncheck.Slice
		if slices, f = burncheck.TensorSlice(t.shape, args.slices); f == nil {
			for i, s := range slices {
				shape[i] = sliceSize(s, t.shape[i])
			}
		}
	case "narrow":
		if f = burncheck.TensorNarrow(t.shape, args.dims[0], args.sizes[0], args.sizes[1]); f == nil {
			shape[normDim(args.dims[0], rank)] = args.sizes[1]
		}
	case "select":
		if d := dim(0); f == nil {
			shape[d] = args.tensors[0].shape[0]
		}
	case "gather":
		if f = burncheck.TensorGather(t.shape, args.dims[0], args.tensors[0].shape); f == nil {
			shape = args.tensors[0].Shape()
		}
	case "scatter":
		f = burncheck.TensorScatter(t.shape, args.dims[0], args.tensors[0].shape, args.tensors[1].shape)
	}
	if p := checkFailed(f); p != nil {
		if len(args.inputs) > 0 {
			withMoveFixes(p, args.inputs[0])
			if p.ID == "bt-check-matmul-inner" && transposeFits(t.shape, args.tensors[0].shape) {
				// Weights written [out, in], as PyTorch exports them.
				n := strconv.Itoa(args.inputs[0])
				p.Fixes = []FixHint{{Title: "Transpose `{" + n + "}`", Arg: args.inputs[0], NewText: "{(" + n + ")}.transpose()", Tensors: []int{args.inputs[0]}}}
			}
		}
		return nil, p
	}
	return shape, nil
}

// transposeFits reports whether rhs with its last two dims swapped has
// lhs's last dim as its inner one.
func transposeFits(lhs, rhs []int64) bool {
	n := len(rhs)
	return n >= 2 && len(lhs) == n && lhs[n-1] == rhs[n-1]
}

// withMoveFixes gives burn-tensor's "not on the same device" panic of a
// binary op the moves that resolve it; other is the call input of the
// second tensor.
func withMoveFixes(p *Panic, other int) {
	if p.ID == "bt-check-device" {
		p.Fixes = moveFixes(other)
	}
}

// moveFixes are the edits that put the two tensors of a binary op on one
// device: the other tensor (call input other) moved to the receiver's
// device, or the receiver to the other's. Either is what Burn's message
// asks for; the first keeps the receiver where the program made it.
func moveFixes(other int) []FixHint {
	o := strconv.Itoa(other)
	return []FixHint{
		{Title: "Move `{" + o + "}` to the device of `{0}`", Arg: other, NewText: "{(" + o + ")}.to_device(&{(0)}.device())", Tensors: []int{0, other}},
		{Title: "Move `{0}` to the device of `{" + o + "}`", Arg: 0, NewText: "{(0)}.to_device(&{(" + o + ")}.device())", Tensors: []int{0, other}},
	}
}

// moveToFix moves call input i to the device of call input to.
func moveToFix(i, to int) FixHint {
	a, b := strconv.Itoa(i), strconv.Itoa(to)
	return FixHint{Title: "Move `{" + a + "}` to the device of `{" + b + "}`", Arg: i, NewText: "{(" + a + ")}.to_device(&{(" + b + ")}.device())", Tensors: []int{to, i}}
}

// fromInnerFix wraps the plain tensor of call input i in
// Tensor::from_inner, which makes it an autodiff tensor of the same
// backend, off the graph (burn-tensor's from_inner).
func fromInnerFix(i int) FixHint {
	n := strconv.Itoa(i)
	return FixHint{Title: "Make `{" + n + "}` an autodiff tensor", Arg: i, NewText: "Tensor::from_inner({" + n + "})", Tensors: []int{i}}
}

// sliceSize is Slice::output_size over the range Burn clamped to the dim.
func sliceSize(s burncheck.Slice, size int64) int64 {
	resolve := func(i int64) int64 {
		if i < 0 {
			return max(size+i, 0)
		}
		return min(i, size)
	}
	start, end := resolve(s.Start), size
	if s.HasEnd {
		end = resolve(s.End)
	}
	if start >= end {
		return 0
	}
	step := s.Step
	if step < 0 {
		step = -step
	}
	if step <= 1 {
		return end - start
	}
	return (end - start + step - 1) / step
}

func normDim(d int64, rank int) int {
	if d < 0 {
		d += int64(rank)
	}
	return int(d)
}

// genericRank is the const generic of a method turbofish (`flatten::<2>`),
// or -1.
func genericRank(generics [][]string) int {
	if len(generics) == 0 || len(generics[0]) == 0 {
		return -1
	}
	var n int
	if _, err := fmt.Sscanf(strings.TrimSpace(generics[0][0]), "%d", &n); err != nil {
		return -1
	}
	return n
}

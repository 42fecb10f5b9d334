package dispatch

import (
	"fmt"
	"strings"
)

// opArgs are the parsed arguments of a table op.
type opArgs struct {
	tensors []*Tensor // T, I, V and M arguments, in order
	dims    []int64   // D arguments as written (may be negative)
	sizes   []int64   // N arguments
	array   []int64   // the A argument
	ranges  [][2]int64
	nranges int
	hasArr  bool
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
		case "S":
			switch v.(type) {
			case Int, Float:
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
				out.array, out.hasArr = append([]int64{}, s.dims...), true
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
			out.hasArr = true
		case "R":
			ranges, ue := parseRanges(v, t)
			if ue != nil {
				ue.Arg = i + 1
				return out, ue
			}
			out.ranges, out.nranges = ranges, len(ranges)
		case "U":
			if e, ok := v.(*Enum); !ok || e.Type != "IndexingUpdateOp" {
				return out, errArgType(i+1, "IndexingUpdateOp", a.c.Args[i])
			}
		}
	}
	return out, nil
}

// parseRanges reads slice's argument: an array of ranges or indices, one
// per leading dim; open bounds take the whole dim and negative bounds count
// from the end.
func parseRanges(v Value, t *Tensor) ([][2]int64, *UsageError) {
	var elems []Value
	switch x := v.(type) {
	case *Array:
		elems = x.Elems
	case *Range, Int:
		elems = []Value{x}
	default:
		return nil, errArgType(-1, "[Range<usize>; D]", v)
	}
	out := make([][2]int64, len(elems))
	for i, e := range elems {
		size := int64(0)
		if i < len(t.shape) {
			size = t.shape[i]
		}
		wrap := func(b int64) int64 {
			if b < 0 {
				return b + size
			}
			return b
		}
		switch r := Deref(e).(type) {
		case *Range:
			lo, hi := int64(0), size
			if r.Lo != nil {
				lo = wrap(*r.Lo)
			}
			if r.Hi != nil {
				hi = wrap(*r.Hi)
				if r.Inclusive {
					hi++
				}
			}
			out[i] = [2]int64{lo, hi}
		case Int:
			out[i] = [2]int64{wrap(r.V), wrap(r.V) + 1}
		default:
			return nil, errArgType(-1, "[Range<usize>; D]", v)
		}
	}
	return out, nil
}

// resolveDim wraps a possibly negative dim the way AsIndex does
// (cubecl-zspace indexing/wrap.rs); out of range is burn-tensor's
// unwrap_dim_index failure for the operation.
func resolveDim(row opRow, dim int64, rank int) (int, *Panic) {
	r := int64(rank)
	if dim < 0 {
		dim += r
	}
	if dim < 0 || dim >= r {
		orig := dim
		if orig < 0 {
			orig -= r
		}
		c := &tensorCheck{op: dimOpNames[row.method]}
		if c.op == "" {
			c.op = row.method
		}
		c.messages = []string{fmt.Sprintf("BoundsError: dimension %d out of bounds: 0..%d ", orig, rank)}
		c.ids = []string{"bt-check-dim-index"}
		return 0, newPanic("bt-check-dim-index", "crates/burn-tensor/src/tensor/api/"+row.source, c.format())
	}
	return int(dim), nil
}

// dimOpNames are the operation names burn-tensor passes to unwrap_dim_index.
var dimOpNames = map[string]string{
	"sum_dim": "Sum Dim", "mean_dim": "Mean Dim", "prod_dim": "Prod Dim", "max_dim": "Max Dim", "min_dim": "Min Dim",
	"argmax": "Argmax", "argmin": "Argmin", "any_dim": "Any Dim", "all_dim": "All Dim", "cumsum": "Cumsum",
	"swap_dims": "Swap Dims", "flatten": "Flatten", "unsqueeze_dim": "Unsqueeze", "squeeze_dim": "Squeeze",
	"repeat_dim": "Repeat Dim", "narrow": "Narrow", "select": "Select", "gather": "Gather", "scatter": "Scatter",
	"topk": "Topk", "cat": "Cat", "stack": "Stack",
}

// runRow executes a table op on t.
func (w *World) runRow(row opRow, t *Tensor, a argList) (Value, *UsageError, *Panic) {
	args, ue := parseArgs(row, t, a)
	if ue != nil {
		return nil, ue, nil
	}
	shape, p := w.outputShape(row, t, args, a.c.Generics)
	if p != nil {
		return nil, nil, p
	}
	outKind := t.kind
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
	var pl placement
	switch row.route {
	case "unary":
		if row.method == "topk" && t.tracked {
			return nil, nil, w.failOp(op, t, panicAutodiffTopk().on(0))
		}
		pl = routeUnary(t, outKind)
	case "binary":
		o := args.tensors[0]
		if t.kind == KindFloat {
			pl, p = w.routeBinaryFloat(t, o)
		} else {
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
			inputs = append(inputs, namedInput{name: row.names[i+1], t: o})
		}
		pl, p = routeMulti(inputs)
	}
	if p != nil {
		return nil, nil, w.failOp(op, t, p)
	}
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	// Autodiff's float_detach wraps the primitive in a fresh leaf.
	pl.leaf = row.method == "detach"
	out := w.output(pl, outKind, shape, dtype)
	w.recordOp(op, pl, out)
	return out, nil, nil
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
		Kind: out.kind.String(), Shape: out.Shape()})
}

// failOp records the op that panicked and returns its panic.
func (w *World) failOp(op string, t *Tensor, p *Panic) *Panic {
	w.record(TraceEvent{Op: op, Backend: t.on.backend.String(), Device: t.on.Debug(), Autodiff: t.tracked,
		Kind: t.kind.String(), Shape: t.Shape(), Note: "panic"})
	return p
}

// outputShape computes the op's output shape, running the burn-tensor
// checks of the op first.
func (w *World) outputShape(row opRow, t *Tensor, args opArgs, generics [][]string) ([]int64, *Panic) {
	rank := t.Rank()
	dims := make([]int, len(args.dims))
	if row.method != "unsqueeze_dim" && row.method != "flatten" {
		for i, d := range args.dims {
			r, p := resolveDim(row, d, rank)
			if p != nil {
				return nil, p.on(i + 1)
			}
			dims[i] = r
		}
	}
	shape := append([]int64{}, t.shape...)
	d2 := genericRank(generics)
	switch row.shape {
	case "same":
	case "broadcast":
		o := args.tensors[0]
		c := &tensorCheck{op: row.check}
		if row.ew {
			c.device(t.Device(), o.Device())
			shape = c.broadcast(t.shape, o.shape)
		} else {
			shape = (&tensorCheck{}).broadcast(t.shape, o.shape)
		}
		if p := c.panic(); p != nil {
			return nil, p.on(-1)
		}
	case "matmul":
		c := &tensorCheck{op: "Matmul"}
		shape = c.matmul(t, args.tensors[0])
		if p := c.panic(); p != nil {
			return nil, p.on(-1)
		}
	case "reduce":
		shape = []int64{1}
	case "reduce_dim":
		shape[dims[0]] = 1
	case "topk":
		shape[dims[0]] = min(args.sizes[0], shape[dims[0]])
	case "transpose":
		if rank >= 2 {
			shape[rank-1], shape[rank-2] = shape[rank-2], shape[rank-1]
		}
	case "swap":
		shape[dims[0]], shape[dims[1]] = shape[dims[1]], shape[dims[0]]
	case "permute":
		if len(args.array) != rank {
			return nil, nil
		}
		for i, ax := range args.array {
			if ax < 0 {
				ax += int64(rank)
			}
			if ax >= 0 && ax < int64(rank) {
				shape[i] = t.shape[ax]
			}
		}
	case "reshape":
		return reshape(t, args.array)
	case "flatten":
		start, end := normDim(args.dims[0], rank), normDim(args.dims[1], rank)
		if start < 0 || end >= rank || start > end {
			return nil, nil
		}
		n := int64(1)
		for _, s := range t.shape[start : end+1] {
			n *= s
		}
		shape = append(append(append([]int64{}, t.shape[:start]...), n), t.shape[end+1:]...)
	case "unsqueeze":
		if d2 < 0 {
			d2 = rank + 1
		}
		shape = make([]int64, 0, d2)
		for i := 0; i < d2-rank; i++ {
			shape = append(shape, 1)
		}
		shape = append(shape, t.shape...)
	case "unsqueeze_dim":
		at := normDim(args.dims[0], rank+1)
		if at < 0 {
			at = 0
		}
		at = min(at, rank)
		shape = append(append(append([]int64{}, t.shape[:at]...), 1), t.shape[at:]...)
	case "squeeze":
		shape = shape[:0]
		for _, s := range t.shape {
			if s != 1 {
				shape = append(shape, s)
			}
		}
	case "squeeze_dim":
		shape = append(append([]int64{}, t.shape[:dims[0]]...), t.shape[dims[0]+1:]...)
	case "expand":
		if len(args.array) < rank {
			return shape, nil
		}
		shape = append([]int64{}, args.array...)
		off := len(shape) - rank
		for i := range shape {
			if shape[i] < 0 && i >= off {
				shape[i] = t.shape[i-off]
			}
		}
	case "repeat_dim":
		shape[dims[0]] *= args.sizes[0]
	case "slice":
		for i := 0; i < args.nranges && i < rank; i++ {
			lo, hi := args.ranges[i][0], min(args.ranges[i][1], t.shape[i])
			shape[i] = max(hi-lo, 0)
		}
	case "narrow":
		shape[dims[0]] = args.sizes[1]
	case "select":
		shape[dims[0]] = args.tensors[0].shape[0]
	case "gather":
		shape = args.tensors[0].Shape()
	}
	return shape, nil
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

// reshape is Shape::reshape (cubecl-zspace shape.rs:399-467): 0 keeps the
// dim, one -1 is inferred; its MetadataError::Invalid reasons become the
// Reshape check failure raised in unwrap_shape_reshape (check.rs:1492-1503).
func reshape(t *Tensor, spec []int64) ([]int64, *Panic) {
	fail := func(reason string) ([]int64, *Panic) {
		c := &tensorCheck{op: "Reshape", ids: []string{"bt-check-reshape"}, messages: []string{reason + " "}}
		return nil, newPanic("bt-check-reshape", "crates/burn-tensor/src/tensor/api/check.rs:1498", c.format())
	}
	total, _ := numElements(t.shape)
	out := make([]int64, len(spec))
	infer := -1
	size := int64(1)
	for i, s := range spec {
		switch {
		case s > 0:
		case s == 0 && i < len(t.shape):
			s = t.shape[i]
		case s == -1 && infer < 0:
			infer, s = i, 1
		case s == -1:
			return fail("Repeated -1 in reshape")
		default:
			return fail("The given shape cannot contain negative dimensions (other than -1).")
		}
		out[i] = s
		size *= s
	}
	if infer < 0 {
		if size != total {
			return fail(fmt.Sprintf("The given shape doesn't have the same number of elements as the current shape. Current shape: %s, target shape: %s.", dimsDebug(t.shape), dimsDebug(out)))
		}
		return out, nil
	}
	if size == 0 || total%size != 0 {
		return fail(fmt.Sprintf("Cannot infer a valid target shape. Current shape: %s, target dimensions: %s.", dimsDebug(t.shape), dimsDebug(spec)))
	}
	out[infer] = total / size
	return out, nil
}

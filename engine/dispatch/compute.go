package dispatch

import (
	"math"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// Values ride beside the metadata model: package tensor computes them,
// and this file decides when. The metadata stays the source of truth for
// routing, tracking and panics; a tensor whose values could not be
// computed (an input without values, the run's budget spent, an op
// package tensor has no kernel for) simply carries its shape.

// compute gives out the values f computes, when every input has values
// and the run's budget takes out's shape. Any error of f, or a result
// whose shape is not out's, leaves out a shape only.
func (w *World) compute(out *Tensor, inputs []*Tensor, f func() (*tensor.Tensor, error)) {
	if w.unneeded > 0 {
		return
	}
	for _, in := range inputs {
		if in == nil || !in.hasVals() {
			return
		}
	}
	if out.kind == KindQFloat {
		w.computeQuantized(out, inputs, f)
		return
	}
	dt, ok := valueDType(out.dtype)
	if !ok || !w.budget.TakeShape(out.shape) {
		return
	}
	v, err := f()
	if err != nil || v == nil || !sameDims(v.Shape, out.shape) {
		return
	}
	if dt != v.DType {
		v = tensor.Cast(v, dt)
	}
	out.val = v
}

// lazyElements is the size from which a creation op's values are left for
// later: below it, making them costs less than the closures that would
// defer them.
const lazyElements = 4096

// computeLater is compute for the values of a creation op that can be
// made when first read (tensor.Lazy): the budget is taken now, as compute
// takes it, before f, so that which tensors have values, and the draws
// of the generators, are the same either way.
func (w *World) computeLater(out *Tensor, f func() (*tensor.Lazy, error)) {
	if w.unneeded > 0 || out.kind == KindQFloat {
		return
	}
	dt, ok := valueDType(out.dtype)
	if !ok || !w.budget.TakeShape(out.shape) {
		return
	}
	l, err := f()
	if err != nil || l == nil || l.DType() != dt || !sameDims(l.Shape(), out.shape) {
		return
	}
	out.val, out.lazy = nil, l
}

// computed gives the tensor an op returned the values f computes for it,
// passing the op's result through.
func (w *World) computed(v Value, ue *UsageError, p *Panic, inputs []*Tensor, f func(out *Tensor) (*tensor.Tensor, error)) (Value, *UsageError, *Panic) {
	if out, ok := v.(*Tensor); ok && ue == nil && p == nil {
		w.compute(out, inputs, func() (*tensor.Tensor, error) { return f(out) })
	}
	return v, ue, p
}

// keepsOrder are the table's ops whose result is their input's elements
// in the same order, in another shape (rowValues reshapes them).
var keepsOrder = map[string]bool{"reshape": true, "flatten": true, "unsqueeze": true, "unsqueeze_dim": true, "squeeze": true, "squeeze_dim": true}

// reshapeValues gives out, a reshape of in, in's values in out's shape;
// values left for later stay so (a batch drawn at random and reshaped
// before a convolution past the work budget is never made).
func (w *World) reshapeValues(out, in *Tensor) {
	if in.val == nil && in.lazy != nil && out.kind != KindQFloat {
		if dt, ok := valueDType(out.dtype); ok && dt == in.lazy.DType() {
			w.computeLater(out, func() (*tensor.Lazy, error) { return in.lazy.Reshaped(intDims(out.shape)), nil })
			return
		}
	}
	w.compute(out, []*Tensor{in}, func() (*tensor.Tensor, error) { return tensor.Reshape(in.vals(), intDims(out.shape)) })
}

// valueDType is the tensor package's dtype for a dispatch dtype; a
// quantized dtype has none, so a quantized tensor never carries values.
func valueDType(d DType) (tensor.DType, bool) { return tensor.ParseDType(string(d)) }

func sameDims(a []int, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if int64(a[i]) != b[i] {
			return false
		}
	}
	return true
}

// intDims converts dims the budget has already accepted, so they fit an
// int.
func intDims(shape []int64) []int {
	out := make([]int, len(shape))
	for i, d := range shape {
		out[i] = int(d)
	}
	return out
}

// scalarOf is a Rust number as burn_std::Scalar; ok is false for any
// other value.
func scalarOf(v Value) (tensor.Scalar, bool) {
	switch x := Deref(v).(type) {
	case Int:
		return tensor.IntScalar(x.V), true
	case Float:
		return tensor.FloatScalar(x.V), true
	case Bool:
		if x {
			return tensor.IntScalar(1), true
		}
		return tensor.IntScalar(0), true
	}
	return tensor.Scalar{}, false
}

// rng is the generator of d's backend: each Burn backend keeps its own,
// seeded by `device.seed(n)`.
func (w *World) rng(d *Device) *tensor.RNG {
	b := d.Inner().backend
	r, ok := w.rngs[b]
	if !ok {
		r = tensor.NewRNG(tensor.DefaultSeed)
		w.setRNG(b, r)
	}
	return r
}

// seed is Device::seed: the backend's generator starts over from n.
func (w *World) seed(d *Device, n int64) { w.setRNG(d.Inner().backend, tensor.NewRNG(uint64(n))) }

func (w *World) setRNG(b Backend, r *tensor.RNG) {
	if w.rngs == nil {
		w.rngs = map[Backend]*tensor.RNG{}
	}
	w.rngs[b] = r
}

// creationValues computes a creation op's values from its call: the fill
// value, the distribution, the literal data or the range sit at the
// argument before the creation options (optIndex).
func (w *World) creationValues(name string, out *Tensor, a argList, optIndex int, d *Device) (*tensor.Tensor, error) {
	dt, shape, src, ok := creationSource(out, a, optIndex)
	if !ok {
		return nil, tensor.ErrKind
	}
	switch name {
	case "zeros":
		return tensor.Zeros(shape, dt), nil
	case "ones":
		return tensor.Ones(shape, dt), nil
	case "empty":
		return tensor.Empty(shape, dt), nil
	case "full":
		s, ok := scalarOf(src)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.Full(shape, dt, s), nil
	case "random":
		dist, ok := distributionOf(src)
		if !ok {
			return nil, tensor.ErrDistribution
		}
		return tensor.Random(shape, dt, dist, w.rng(d))
	case "from_data":
		data, ok := dataOf(src)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.FromData(data, dt), nil
	case "arange":
		r, ok := src.(*Range)
		if !ok || r.Lo == nil || r.Hi == nil {
			return nil, tensor.ErrKind
		}
		end := *r.Hi
		if r.Inclusive {
			end++
		}
		return tensor.Arange(*r.Lo, end, 1, dt)
	}
	return nil, tensor.ErrUnknownOp
}

// creationSource is what a creation op's values are made from: out's
// dtype and dims, and the argument before the creation options (the fill
// value, the distribution, the literal data or the range; Unit when there
// is none). ok is false for a dtype that carries no values.
func creationSource(out *Tensor, a argList, optIndex int) (dt tensor.DType, shape []int, src Value, ok bool) {
	if dt, ok = valueDType(out.dtype); !ok {
		return dt, nil, nil, false
	}
	src = Unit{}
	if optIndex > 0 && optIndex-1 < a.n() {
		src = a.get(optIndex - 1)
	}
	return dt, intDims(out.shape), src, true
}

// creationLater is creationValues left for later, for the ops whose
// elements depend on their index only: random and the fills. The
// generator moves on at once, past the draws random takes.
func (w *World) creationLater(name string, out *Tensor, a argList, optIndex int, d *Device) (*tensor.Lazy, error) {
	dt, shape, src, ok := creationSource(out, a, optIndex)
	if !ok {
		return nil, tensor.ErrKind
	}
	switch name {
	case "zeros", "empty":
		return tensor.FullLater(shape, dt, tensor.IntScalar(0)), nil
	case "ones":
		return tensor.FullLater(shape, dt, tensor.IntScalar(1)), nil
	case "full":
		s, ok := scalarOf(src)
		if !ok {
			return nil, tensor.ErrKind
		}
		return tensor.FullLater(shape, dt, s), nil
	case "random":
		dist, ok := distributionOf(src)
		if !ok {
			return nil, tensor.ErrDistribution
		}
		return tensor.RandomLater(shape, dt, dist, w.rng(d))
	}
	return nil, nil
}

// distributionOf reads a burn_std::Distribution argument.
func distributionOf(v Value) (tensor.Distribution, bool) {
	if isDefaultMarker(v) {
		return tensor.Distribution{Kind: tensor.DistDefault}, true
	}
	e, ok := Deref(v).(*Enum)
	if !ok || e.Type != "Distribution" {
		return tensor.Distribution{}, false
	}
	params := make([]float64, len(e.Fields))
	for i, f := range e.Fields {
		s, ok := scalarOf(f)
		if !ok {
			return tensor.Distribution{}, false
		}
		params[i] = s.F
		if s.IsInt {
			params[i] = float64(s.I)
		}
	}
	switch {
	case e.Variant == "Default":
		return tensor.Distribution{Kind: tensor.DistDefault}, true
	case e.Variant == "Uniform" && len(params) == 2:
		return tensor.Uniform(params[0], params[1]), true
	case e.Variant == "Normal" && len(params) == 2:
		return tensor.Normal(params[0], params[1]), true
	case e.Variant == "Bernoulli" && len(params) == 1:
		return tensor.Bernoulli(params[0]), true
	}
	return tensor.Distribution{}, false
}

// dataOf is the TensorData a value converts into: a TensorData with
// values, or nested arrays of literals (staged as f64, i64 or bool; the
// tensor's creation converts them to its dtype).
func dataOf(v Value) (*tensor.Data, bool) {
	v = Deref(v)
	if td, ok := v.(*TensorData); ok {
		return td.values, td.values != nil
	}
	shape, ue := dataShape(v)
	if ue != nil {
		return nil, false
	}
	n, ok := numElements(shape)
	if !ok || n > maxDataLiteral {
		return nil, false
	}
	flat, ok := flatLiterals(v)
	if !ok || int64(flat.NumElements()) != n {
		return nil, false
	}
	flat.Shape = intDims(shape)
	return flat, true
}

// maxDataLiteral bounds the elements a literal may spell out; the
// interpreter's step limit stops a program long before it.
const maxDataLiteral = tensor.DefaultBudget

// rowValues computes the values of a table op (ops.tsv) from its parsed
// arguments; out is the output the metadata model built.
func (w *World) rowValues(row opRow, t *Tensor, args opArgs, a argList, out *Tensor) (*tensor.Tensor, error) {
	tv := t.vals()
	outDT, ok := valueDType(out.dtype)
	if !ok {
		return nil, tensor.ErrKind
	}
	var scalars []tensor.Scalar
	for i, code := range row.args {
		if code == "S" {
			s, ok := scalarOf(a.get(i))
			if !ok {
				return nil, tensor.ErrKind
			}
			scalars = append(scalars, s)
		}
	}
	var other *tensor.Tensor
	if len(args.tensors) > 0 {
		other = args.tensors[0].vals()
	}
	rank := t.Rank()
	dim := func(i int) int { return normDim(args.dims[i], rank) }
	m := row.method
	switch m {
	case "add", "sub", "mul", "div", "remainder", "powf", "powi", "atan2", "hypot", "bool_and", "bool_or", "bool_xor":
		return tensor.Binary(m, tv, other)
	case "equal", "not_equal", "greater", "greater_equal", "lower", "lower_equal":
		return tensor.Compare(m, tv, other, outDT)
	case "matmul":
		work, ok := tensor.MatmulWork(t.shape, args.tensors[0].shape)
		if !ok || !w.budget.TakeWork(work) {
			return nil, tensor.ErrBudget
		}
		return tensor.Matmul(tv, other)
	case "add_scalar", "sub_scalar", "mul_scalar", "div_scalar", "remainder_scalar", "powf_scalar", "powi_scalar",
		"clamp_min", "clamp_max":
		return tensor.WithScalar(m, tv, scalars[0])
	case "clamp":
		return tensor.Clamp(tv, scalars[0], scalars[1])
	case "not", "bool_not":
		return tensor.Not(tv)
	case "equal_elem", "not_equal_elem", "greater_elem", "greater_equal_elem", "lower_elem", "lower_equal_elem",
		"equal_scalar", "not_equal_scalar", "greater_scalar", "greater_equal_scalar", "lower_scalar", "lower_equal_scalar":
		return tensor.CompareScalar(m, tv, scalars[0], outDT)
	case "is_nan", "is_inf":
		return tensor.Predicate(m, tv, outDT)
	case "bool", "int", "float":
		return tensor.Cast(tv, outDT), nil
	case "sum", "mean", "prod", "max", "min", "any", "all":
		return tensor.Reduce(m, tv, outDT)
	case "sum_dim", "mean_dim", "prod_dim", "max_dim", "min_dim", "argmax", "argmin", "any_dim", "all_dim":
		return tensor.ReduceDim(m, tv, dim(0), outDT)
	case "cumsum", "cumprod", "cummin", "cummax":
		return tensor.Cumulative(m, tv, dim(0))
	case "topk":
		return tensor.TopK(tv, int(args.sizes[0]), dim(0))
	case "sort", "sort_descending", "argsort", "argsort_descending":
		idxDT := outDT
		if !strings.HasPrefix(m, "argsort") {
			idxDT = tensor.I64
		}
		values, indices, _, err := tensor.SortWithIndices(tv, dim(0), strings.HasSuffix(m, "_descending"), idxDT)
		switch {
		case err != nil:
			return nil, err
		case !strings.HasPrefix(m, "argsort"):
			return values, nil
		case indices == nil:
			return nil, tensor.ErrTiedOrder
		}
		return indices, nil
	case "reshape", "flatten", "unsqueeze", "unsqueeze_dim", "squeeze", "squeeze_dim":
		return tensor.Reshape(tv, intDims(out.shape))
	case "transpose", "t":
		return tensor.Transpose(tv)
	case "swap_dims":
		return tensor.SwapDims(tv, dim(0), dim(1))
	case "permute":
		axes, f := burncheck.TensorPermute(args.array)
		if f != nil {
			return nil, tensor.ErrShape
		}
		return tensor.Permute(tv, axes)
	case "flip":
		axes := make([]int, len(args.array))
		for i, ax := range args.array {
			axes[i] = normDim(ax, rank)
		}
		return tensor.Flip(tv, axes)
	case "expand":
		return tensor.Expand(tv, intDims(out.shape))
	case "repeat_dim":
		return tensor.RepeatDim(tv, dim(0), int(args.sizes[0]))
	case "slice":
		ranges, ok := valueRanges(t.shape, args.slices)
		if !ok {
			return nil, tensor.ErrShape
		}
		return tensor.Slice(tv, ranges)
	case "narrow":
		return tensor.Narrow(tv, dim(0), int(args.sizes[0]), int(args.sizes[1]))
	case "select":
		return tensor.Select(tv, dim(0), other)
	case "gather":
		return tensor.Gather(tv, dim(0), other)
	case "mask_fill":
		return tensor.MaskFill(tv, other, scalars[0])
	case "mask_where":
		return tensor.MaskWhere(tv, other, args.tensors[1].vals())
	case "scatter":
		update, ok := valueUpdate(args.update)
		if !ok {
			return nil, tensor.ErrUnknownOp
		}
		return tensor.Scatter(tv, dim(0), other, args.tensors[1].vals(), update)
	}
	if v, err, ok := extraRowValues(m, tv, other, scalars, args.dims, rank, outDT); ok {
		return v, err
	}
	if _, unary := unaryValueOps[m]; unary {
		return tensor.Unary(m, tv)
	}
	return nil, tensor.ErrUnknownOp
}

// unaryValueOps are the element-wise table ops package tensor computes
// with Unary.
var unaryValueOps = map[string]struct{}{
	"neg": {}, "abs": {}, "sign": {}, "square": {}, "sqrt": {}, "exp": {}, "log": {}, "log1p": {},
	"sin": {}, "cos": {}, "tan": {}, "tanh": {}, "sinh": {}, "cosh": {}, "erf": {}, "recip": {},
	"round": {}, "floor": {}, "ceil": {}, "trunc": {},
}

// valueUpdate is the update op package tensor computes for an
// IndexingUpdateOp: the two every backend supports.
func valueUpdate(variant string) (string, bool) {
	switch variant {
	case "Add":
		return "add", true
	case "Assign":
		return "assign", true
	}
	return "", false
}

// valueRanges are the ranges Burn's slice resolves against shape, one per
// dim, in the form package tensor takes.
func valueRanges(shape []int64, slices []burncheck.Slice) ([]tensor.Range, bool) {
	clamped, f := burncheck.TensorSlice(shape, slices)
	if f != nil || len(clamped) != len(shape) {
		return nil, false
	}
	out := make([]tensor.Range, len(clamped))
	for i, s := range clamped {
		start, end := int(s.Start), int(s.End)
		if end < start {
			end = start
		}
		if s.Step > math.MaxInt32 || s.Step < -math.MaxInt32 {
			return nil, false
		}
		out[i] = tensor.Range{Start: start, End: end, Step: int(s.Step)}
	}
	return out, true
}

// movedAxes is movedim's permutation: output dim dst[i] is input dim
// src[i], and the other input dims fill the other places in order.
func movedAxes(rank int, src, dst []int64) []int {
	axes := make([]int, rank)
	used := make([]bool, rank)
	placed := make([]bool, rank)
	for i := range src {
		s, d := normDim(src[i], rank), normDim(dst[i], rank)
		axes[d], used[s], placed[d] = s, true, true
	}
	next := 0
	for i := range axes {
		if placed[i] {
			continue
		}
		for used[next] {
			next++
		}
		axes[i], used[next] = next, true
	}
	return axes
}

// triangleMask is the mask tril and triu fill with zeros
// (crates/burn-tensor/src/tensor/api/bool.rs:290-320), over the whole
// shape: for row i and column j of the last two dims, tril zeroes
// j - i > diagonal and triu zeroes j - i < diagonal.
func triangleMask(shape []int, diagonal int64, lower bool) (*tensor.Tensor, error) {
	rank := len(shape)
	rows, cols := shape[rank-2], shape[rank-1]
	n := 1
	for _, d := range shape {
		n *= d
	}
	mask := make([]bool, n)
	for k := range mask {
		if rows == 0 || cols == 0 {
			break
		}
		i, j := int64(k/cols%rows), int64(k%cols)
		if lower {
			mask[k] = j-i > diagonal
		} else {
			mask[k] = j-i < diagonal
		}
	}
	return tensor.FromBools(mask, shape, tensor.BoolNative)
}

// floatValues are a tensor's values as float64s for the checks
// burn-tensor runs on data (one_hot's class range); nil when the tensor
// carries its shape only.
func (t *Tensor) floatValues() []float64 {
	if !t.hasVals() {
		return nil
	}
	d := &t.vals().Data
	out := make([]float64, d.NumElements())
	for i := range out {
		out[i] = d.Float(i)
	}
	return out
}

// Epilogue is what the playground appends to a run's output when the run
// is over: the note that some tensors carried shapes only, once.
func (w *World) Epilogue() string {
	if !w.budget.Elided() {
		return ""
	}
	return "note: " + w.budget.ElidedNote() + "\n"
}

// WithoutValues runs f, whose tensors get no values: a model of Burn's
// code calls it for a tensor nothing can observe but through an operation
// whose other input has no values (Dropout's mask of an input past the
// budget), so that the budget and the time are not spent on it. The trace
// and the shapes are as always. The generator does not advance, which
// changes no value the program can see: the tensors drawn later are still
// the same for the same program.
func (w *World) WithoutValues(f func() (Value, error)) (Value, error) {
	w.unneeded++
	defer func() { w.unneeded-- }()
	return f()
}

// HasValues reports whether the engine knows t's values.
func (t *Tensor) HasValues() bool { return t.hasVals() || t.q != nil }

package tensor

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Quantization as Burn models it at 2c06be35: the scheme is cubecl-common's
// QuantScheme (cubecl 48348968 crates/cubecl-common/src/quant/scheme.rs),
// the arithmetic is the Flex backend's (crates/burn-flex/src/ops/qtensor.rs)
// and the calibration burn-backend's (crates/burn-backend/src/quantization/scheme.rs).
// Every computation is done in f32, as those functions do, so a quantized
// value and its scale are the bits Burn stores.

// QuantValue is cubecl-common's QuantValue (scheme.rs:357-376).
type QuantValue uint8

const (
	Q8F QuantValue = iota
	E5M2
	E4M3
	Q4F
	E2M1
	Q2F
	Q8S
	Q4S
	Q2S
)

var quantValueNames = [...]string{"Q8F", "E5M2", "E4M3", "Q4F", "E2M1", "Q2F", "Q8S", "Q4S", "Q2S"}

func (v QuantValue) String() string { return quantValueNames[v] }

// ParseQuantValue reads a QuantValue variant name.
func ParseQuantValue(name string) (QuantValue, bool) {
	for i, n := range quantValueNames {
		if n == name {
			return QuantValue(i), true
		}
	}
	return 0, false
}

// Range is QuantValue::range (scheme.rs:398-410).
func (v QuantValue) Range() (a, b float32) {
	switch v {
	case Q8F:
		return -128, 127
	case Q4F:
		return -8, 7
	case Q2F:
		return -2, 1
	case Q8S:
		return -127, 127
	case Q4S:
		return -7, 7
	case Q2S:
		return -1, 1
	case E4M3:
		return -448, 448
	case E5M2:
		return -57344, 57344
	}
	return -6, 6 // E2M1
}

// SizeBits is QuantValue::size_bits (scheme.rs:380-386).
func (v QuantValue) SizeBits() int {
	switch v {
	case Q4F, Q4S, E2M1:
		return 4
	case Q2F, Q2S:
		return 2
	}
	return 8
}

// IsInteger reports the values Flex stores as i8 and TensorData iterates
// as i8: the integer ones (data/tensor/conversion.rs:174-201).
func (v QuantValue) IsInteger() bool { return v != E4M3 && v != E5M2 && v != E2M1 }

// ScaleDtype is cubecl-common's ScaleDtype (scheme.rs:475-487).
type ScaleDtype uint8

const (
	ScaleF32 ScaleDtype = iota
	ScaleF16
	ScaleBF16
	ScaleUE8M0
	ScaleUE4M3
)

var scaleDtypeNames = [...]string{"F32", "F16", "BF16", "UE8M0", "UE4M3"}

func (d ScaleDtype) String() string { return scaleDtypeNames[d] }

// ScaleDtypeNames are ScaleDtype's variants, in cubecl's order.
func ScaleDtypeNames() []string { return scaleDtypeNames[:] }

// ParseScaleDtype reads a ScaleDtype variant name.
func ParseScaleDtype(name string) (ScaleDtype, bool) {
	for i, n := range scaleDtypeNames {
		if n == name {
			return ScaleDtype(i), true
		}
	}
	return 0, false
}

// MaxRepresentable is ScaleDtype::max_representable (scheme.rs:210-220).
func (d ScaleDtype) MaxRepresentable() float32 {
	switch d {
	case ScaleF16:
		return 65504
	case ScaleBF16:
		return math.Float32frombits(0x7F7F0000)
	case ScaleUE8M0:
		return math.Float32frombits(0x7F000000)
	case ScaleUE4M3:
		return 448
	}
	return math.MaxFloat32
}

// Size is scale_size, the bytes of one stored scale
// (crates/burn-std/src/tensor/quantization.rs:410-416).
func (d ScaleDtype) Size() int {
	switch d {
	case ScaleF32:
		return 4
	case ScaleF16, ScaleBF16:
		return 2
	}
	return 1
}

// RoundUp is ScaleDtype::round_up (scheme.rs:238-270): the smallest value
// of the dtype not below scale; ok is false for UE8M0, which has no rule.
func (d ScaleDtype) RoundUp(scale float32) (float32, bool) {
	switch d {
	case ScaleF32:
		return scale, true
	case ScaleUE8M0:
		return 0, false
	}
	if scale != scale {
		return scale, true
	}
	if max := d.MaxRepresentable(); scale >= max {
		return max, true
	}
	var mantissa uint
	var minNormal, spacing float32
	switch d {
	case ScaleF16:
		mantissa, minNormal, spacing = 11, float32(math.Ldexp(1, -14)), float32(math.Ldexp(1, -24))
	case ScaleBF16:
		mantissa = 8
	case ScaleUE4M3:
		mantissa, minNormal, spacing = 4, 0.015625, 0.001953125
	}
	if spacing != 0 && scale < minNormal {
		return float32(math.Ceil(float64(scale/spacing))) * spacing, true
	}
	step := uint32(1) << (24 - mantissa)
	return math.Float32frombits((math.Float32bits(scale) + step - 1) &^ (step - 1)), true
}

// QuantStore is cubecl-common's QuantStore (scheme.rs:443-454): Native, or
// a packing on dimension Dim counted from the innermost.
type QuantStore struct {
	Kind StoreKind
	Dim  int
}

// StoreKind is QuantStore's variant.
type StoreKind uint8

const (
	StoreNative StoreKind = iota
	StorePackedNative
	StorePackedU32
)

func (s QuantStore) String() string {
	switch s.Kind {
	case StorePackedNative:
		return fmt.Sprintf("PackedNative(%d)", s.Dim)
	case StorePackedU32:
		return fmt.Sprintf("PackedU32(%d)", s.Dim)
	}
	return "Native"
}

// QuantMode is cubecl-common's QuantMode (scheme.rs:457-468).
type QuantMode uint8

const (
	Symmetric QuantMode = iota
	Lookup
)

func (m QuantMode) String() string {
	if m == Lookup {
		return "Lookup"
	}
	return "Symmetric"
}

// QuantScheme is cubecl-common's QuantScheme (scheme.rs:31-45): a value
// type, as the Rust one is Copy; the builders return a new scheme.
type QuantScheme struct {
	Value QuantValue
	Store QuantStore
	Mode  QuantMode
	// The per-tensor level, when set.
	HasTensor   bool
	TensorDtype ScaleDtype
	// The per-block level, when set: Block is canonical (no leading 1s).
	HasBlock   bool
	Block      []uint8
	BlockDtype ScaleDtype
}

// DefaultQuantScheme is QuantScheme::default() (scheme.rs:47-57).
func DefaultQuantScheme() QuantScheme {
	return QuantScheme{Value: Q8F, Store: QuantStore{Kind: StorePackedU32}, Mode: Symmetric}
}

// WithValue is QuantScheme::with_value.
func (s QuantScheme) WithValue(v QuantValue) QuantScheme { s.Value = v; return s }

// WithStore is QuantScheme::with_store.
func (s QuantScheme) WithStore(st QuantStore) QuantScheme { s.Store = st; return s }

// WithMode is QuantScheme::with_mode.
func (s QuantScheme) WithMode(m QuantMode) QuantScheme { s.Mode = m; return s }

// PerTensor is QuantScheme::per_tensor.
func (s QuantScheme) PerTensor(d ScaleDtype) QuantScheme {
	s.HasTensor, s.TensorDtype = true, d
	return s
}

// MaxBlockDims is BlockSize::MAX_DIMS.
const MaxBlockDims = 5

// ErrBlockCap is BlockSize::new's debug assertion (scheme.rs:540-543).
var ErrBlockCap = errors.New("Tried creating a block size larger than the cap")

// PerBlock is QuantScheme::per_block: the block canonicalized as
// BlockSize::new does, leading unit dimensions dropped (scheme.rs:531-551).
func (s QuantScheme) PerBlock(block []uint8, d ScaleDtype) (QuantScheme, error) {
	skip := 0
	for skip < len(block) && block[skip] == 1 {
		skip++
	}
	block = block[skip:]
	if len(block) > MaxBlockDims {
		return s, ErrBlockCap
	}
	s.HasBlock, s.Block, s.BlockDtype = true, append([]uint8(nil), block...), d
	return s, nil
}

// TensorScale is QuantScheme::tensor_scale (scheme.rs:98-104): a scheme
// with no level at all resolves to a per-tensor f32 scale.
func (s QuantScheme) TensorScale() (ScaleDtype, bool) {
	if !s.HasTensor && !s.HasBlock {
		return ScaleF32, true
	}
	return s.TensorDtype, s.HasTensor
}

// ScaleDtype is QuantScheme::scale_dtype, the innermost level's dtype.
func (s QuantScheme) ScaleDtype() ScaleDtype {
	switch {
	case s.HasBlock:
		return s.BlockDtype
	case s.HasTensor:
		return s.TensorDtype
	}
	return ScaleF32
}

// GlobalScaleDtype is global_scale_dtype
// (crates/burn-std/src/tensor/quantization.rs:134-136): the per-tensor
// scale of a two-level scheme.
func (s QuantScheme) GlobalScaleDtype() (ScaleDtype, bool) {
	if !s.HasBlock {
		return 0, false
	}
	return s.TensorScale()
}

// NumLevels is QuantScheme::num_levels.
func (s QuantScheme) NumLevels() int {
	n := 0
	if s.HasBlock {
		n++
	}
	if _, ok := s.TensorScale(); ok {
		n++
	}
	return n
}

// blockDims is BlockSize::to_dim_vec(rank): missing leading dims are 1.
func (s QuantScheme) blockDims(rank int) []int {
	out := make([]int, rank)
	for i := range out {
		out[i] = 1
	}
	n := min(rank, len(s.Block))
	for i := 0; i < n; i++ {
		out[rank-n+i] = int(s.Block[i])
	}
	return out
}

// PermuteBlockDims is QuantScheme::permute_block_dims: the block follows
// a permutation of the tensor's axes.
func (s QuantScheme) PermuteBlockDims(rank int, axes []int) QuantScheme {
	if !s.HasBlock {
		return s
	}
	dims := s.blockDims(rank)
	p := make([]uint8, len(axes))
	for i, a := range axes {
		p[i] = uint8(dims[a])
	}
	out, _ := s.PerBlock(p, s.BlockDtype)
	return out
}

// SwapBlockDims is QuantScheme::swap_block_dims.
func (s QuantScheme) SwapBlockDims(rank, d0, d1 int) QuantScheme {
	axes := make([]int, rank)
	for i := range axes {
		axes[i] = i
	}
	axes[d0], axes[d1] = axes[d1], axes[d0]
	return s.PermuteBlockDims(rank, axes)
}

// SameLevels reports what TensorData::assert_eq compares of two schemes:
// the value, the block size and the global scale (data/compare.rs:251-254).
func (s QuantScheme) SameLevels(o QuantScheme) bool {
	g1, ok1 := s.GlobalScaleDtype()
	g2, ok2 := o.GlobalScaleDtype()
	return s.Value == o.Value && s.HasBlock == o.HasBlock && string(s.Block) == string(o.Block) && ok1 == ok2 && g1 == g2
}

// Equal is the derived PartialEq.
func (s QuantScheme) Equal(o QuantScheme) bool {
	return s.Value == o.Value && s.Store == o.Store && s.Mode == o.Mode && s.HasTensor == o.HasTensor &&
		(!s.HasTensor || s.TensorDtype == o.TensorDtype) && s.HasBlock == o.HasBlock &&
		(!s.HasBlock || string(s.Block) == string(o.Block) && s.BlockDtype == o.BlockDtype)
}

// String is the derived Debug:
// `QuantScheme { value: Q8S, store: Native, mode: Symmetric, tensor: None, block: None }`.
func (s QuantScheme) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "QuantScheme { value: %s, store: %s, mode: %s, tensor: ", s.Value, s.Store, s.Mode)
	if s.HasTensor {
		fmt.Fprintf(&b, "Some(%s)", s.TensorDtype)
	} else {
		b.WriteString("None")
	}
	b.WriteString(", block: ")
	if s.HasBlock {
		dims := make([]string, len(s.Block))
		for i, d := range s.Block {
			dims[i] = fmt.Sprint(d)
		}
		fmt.Fprintf(&b, "Some(BlockScale { size: BlockSize([%s]), dtype: %s })", strings.Join(dims, ", "), s.BlockDtype)
	} else {
		b.WriteString("None")
	}
	b.WriteString(" }")
	return b.String()
}

// blockLayout is burn-std's BlockLayout (quantization.rs:149-189): which
// block each row-major element falls in.
type blockLayout struct {
	shape, block, blocks []int
}

func newBlockLayout(shape []int, s QuantScheme) blockLayout {
	block := s.blockDims(len(shape))
	blocks := make([]int, len(shape))
	for i, d := range shape {
		blocks[i] = (d + block[i] - 1) / block[i]
	}
	return blockLayout{shape: shape, block: block, blocks: blocks}
}

func (l blockLayout) numBlocks() int {
	n := 1
	for _, b := range l.blocks {
		n *= b
	}
	return n
}

func (l blockLayout) blockOf(index int) int {
	block, stride := 0, 1
	for d := len(l.shape) - 1; d >= 0; d-- {
		c := index % l.shape[d]
		index /= l.shape[d]
		block += c / l.block[d] * stride
		stride *= l.blocks[d]
	}
	return block
}

// ParamsShape is params_shape: the shape of the block scale grid, [1] for
// a per-tensor scheme (quantization.rs:141-146).
func ParamsShape(shape []int, s QuantScheme) []int {
	if !s.HasBlock {
		return []int{1}
	}
	return newBlockLayout(shape, s).blocks
}

// QTensor is a quantized tensor's values as the Flex backend keeps them
// (crates/burn-flex/src/qtensor.rs:12-23): i8 values in row-major order,
// the scheme (stored Native), one scale per block or one for the tensor,
// and the per-tensor scale of a two-level scheme.
type QTensor struct {
	Q         []int8
	Shape     []int
	Scheme    QuantScheme
	Scales    []float32
	Global    float32
	HasGlobal bool
}

// ErrQuantValue is a quantized value type Burn's CPU backends do not
// compute (the float8 and float4 ones).
var ErrQuantValue = errors.New("quantization value not modelled")

// validatedScale is Flex's validated_scale (qtensor.rs:405-412): the scale
// rounded up to its dtype, an exactly zero (or non-finite) one replaced by
// the smallest positive normal f32 rounded the same way.
func validatedScale(scale float32, d ScaleDtype) (float32, error) {
	s, ok := d.RoundUp(scale)
	if !ok {
		return 0, ErrUE8M0
	}
	if s > 0 && !math.IsInf(float64(s), 0) && s == s {
		return s, nil
	}
	s, _ = d.RoundUp(math.Float32frombits(0x00800000)) // f32::MIN_POSITIVE
	return s, nil
}

// ErrUE8M0 is scale_to_dtype's expect (quantization.rs:364-368).
var ErrUE8M0 = errors.New("UE8M0 scales are not yet supported")

// quantizeOne is `(x * inv_scale).round().clamp(a, b) as i8`, in f32.
func quantizeOne(x, inv, a, b float32) int8 {
	y := x * inv
	r := float32(math.Round(float64(y)))
	if r != r {
		return 0
	}
	if r < a {
		r = a
	}
	if r > b {
		r = b
	}
	switch {
	case r >= 127:
		return 127
	case r <= -128:
		return -128
	}
	return int8(r)
}

func checkQuantValues(values []float32, shape []int, s QuantScheme) error {
	if !s.Value.IsInteger() {
		return ErrQuantValue
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(values) {
		return errors.New("quantize: values do not fill the shape")
	}
	return nil
}

// QuantizeDynamic is Flex's quantize_dynamic (qtensor.rs:67-142): the
// scales from each block's (or the tensor's) largest magnitude, 2·α/(b−a).
func QuantizeDynamic(values []float32, shape []int, s QuantScheme) (*QTensor, error) {
	if err := checkQuantValues(values, shape, s); err != nil {
		return nil, err
	}
	a, b := s.Value.Range()
	rng := b - a
	shape = append([]int(nil), shape...)
	out := &QTensor{Shape: shape, Scheme: s.WithStore(QuantStore{}), Q: make([]int8, len(values))}
	if !s.HasBlock {
		alpha := float32(0)
		for _, x := range values {
			alpha = maxF32(alpha, absF32(x))
		}
		scale, err := validatedScale(2*alpha/rng, s.ScaleDtype())
		if err != nil {
			return nil, err
		}
		inv := 1 / scale
		for i, x := range values {
			out.Q[i] = quantizeOne(x, inv, a, b)
		}
		out.Scales = []float32{scale}
		return out, nil
	}
	layout := newBlockLayout(shape, s)
	peaks := make([]float32, layout.numBlocks())
	for i, x := range values {
		p := &peaks[layout.blockOf(i)]
		*p = maxF32(*p, absF32(x))
	}
	scales := make([]float32, len(peaks))
	multiplier := float32(1)
	if gdt, two := s.GlobalScaleDtype(); two {
		peak := float32(0)
		raw := make([]float32, len(peaks))
		for i, alpha := range peaks {
			raw[i] = 2 * alpha / rng
			peak = maxF32(peak, raw[i])
		}
		g, err := validatedScale(peak/s.ScaleDtype().MaxRepresentable(), gdt)
		if err != nil {
			return nil, err
		}
		for i := range raw {
			if scales[i], err = validatedScale(raw[i]/g, s.ScaleDtype()); err != nil {
				return nil, err
			}
		}
		out.Global, out.HasGlobal, multiplier = g, true, g
	} else {
		for i, alpha := range peaks {
			var err error
			if scales[i], err = validatedScale(2*alpha/rng, s.ScaleDtype()); err != nil {
				return nil, err
			}
		}
	}
	for i, x := range values {
		inv := 1 / (multiplier * scales[layout.blockOf(i)])
		out.Q[i] = quantizeOne(x, inv, a, b)
	}
	out.Scales = scales
	return out, nil
}

// Quantize is Flex's quantize with given parameters (qtensor.rs:144-201):
// each scale validated against the scheme's dtype first.
func Quantize(values []float32, shape []int, s QuantScheme, scales []float32, global *float32) (*QTensor, error) {
	if err := checkQuantValues(values, shape, s); err != nil {
		return nil, err
	}
	if len(scales) == 0 {
		return nil, errors.New("quantized tensor must have at least one scale factor")
	}
	out := &QTensor{Shape: append([]int(nil), shape...), Scheme: s.WithStore(QuantStore{}), Q: make([]int8, len(values))}
	out.Scales = make([]float32, len(scales))
	for i, sc := range scales {
		v, err := validatedScale(sc, s.ScaleDtype())
		if err != nil {
			return nil, err
		}
		out.Scales[i] = v
	}
	if global != nil {
		gdt, ok := s.GlobalScaleDtype()
		if !ok {
			return nil, errors.New("a per-tensor scale should come with a two-level scheme")
		}
		g, err := validatedScale(*global, gdt)
		if err != nil {
			return nil, err
		}
		out.Global, out.HasGlobal = g, true
	}
	a, b := s.Value.Range()
	if !s.HasBlock {
		inv := 1 / out.Scales[0]
		for i, x := range values {
			out.Q[i] = quantizeOne(x, inv, a, b)
		}
		return out, nil
	}
	layout := newBlockLayout(out.Shape, s)
	if len(out.Scales) < layout.numBlocks() {
		return nil, errors.New("quantize: fewer scales than blocks")
	}
	multiplier := float32(1)
	if out.HasGlobal {
		multiplier = out.Global
	}
	for i, x := range values {
		inv := 1 / (multiplier * out.Scales[layout.blockOf(i)])
		out.Q[i] = quantizeOne(x, inv, a, b)
	}
	return out, nil
}

// Dequantize is Flex's dequantize to f32 (qtensor.rs:203-227):
// scale · q, or global · block scale · q.
func (q *QTensor) Dequantize() []float32 {
	out := make([]float32, len(q.Q))
	if !q.Scheme.HasBlock {
		for i, x := range q.Q {
			out[i] = q.Scales[0] * float32(x)
		}
		return out
	}
	layout := newBlockLayout(q.Shape, q.Scheme)
	multiplier := float32(1)
	if q.HasGlobal {
		multiplier = q.Global
	}
	for i, x := range q.Q {
		out[i] = multiplier * q.Scales[layout.blockOf(i)] * float32(x)
	}
	return out
}

// DequantizeTensor is the dequantized values as a tensor of dtype dt.
func (q *QTensor) DequantizeTensor(dt DType) *Tensor {
	f := q.Dequantize()
	d := newData(dt, q.Shape)
	for i, v := range f {
		d.F[i] = dt.roundFloat(float64(v))
	}
	return &Tensor{Data: *d}
}

// F32Values reads a float tensor's values as f32, as Flex's
// float_storage_as_f32 does.
func F32Values(t *Tensor) ([]float32, bool) {
	if t == nil || !t.DType.IsFloat() {
		return nil, false
	}
	out := make([]float32, len(t.F))
	for i, v := range t.F {
		out[i] = float32(v)
	}
	return out, true
}

// ScaleToDtype is scale_to_dtype (quantization.rs:364-368).
func ScaleToDtype(scale float32, d ScaleDtype) (float32, error) {
	s, ok := d.RoundUp(scale)
	if !ok {
		return 0, ErrUE8M0
	}
	return s, nil
}

func absF32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// maxF32 is f32::max: a NaN operand is ignored.
func maxF32(a, b float32) float32 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case b > a:
		return b
	}
	return a
}

// Calibration is burn-std's Calibration (quantization.rs:53-61).
type Calibration uint8

const (
	MinMax Calibration = iota
	AbsMean
)

// ErrAbsMeanTwoLevel is compute_range's assertion for AbsMean
// (crates/burn-backend/src/quantization/scheme.rs:70-74).
var ErrAbsMeanTwoLevel = errors.New("AbsMean calibration has no two-level form: BitNet's gamma is a mean over the whole tensor or block, which a per-tensor scale cannot decompose")

// BlockDivisibilityError is reduce_blocks' assertion (scheme.rs:23-27).
type BlockDivisibilityError struct{ Shape, Block []int }

func (e *BlockDivisibilityError) Error() string {
	return fmt.Sprintf("Tensor Shape { dims: %s } must be evenly divisible by block size %s", intsDebug(e.Shape), intsDebug(e.Block))
}

func intsDebug(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ComputeRange is compute_range (scheme.rs:53-84): the per-tensor or
// per-block minimum and maximum (MinMax), or ±mean(|x|) (AbsMean), shaped
// as the scale grid ([1] per tensor). Means accumulate in float64 and
// round once, as this package's reductions do.
func ComputeRange(values []float32, shape []int, s QuantScheme, c Calibration) (lo, hi []float32, outShape []int, err error) {
	if c == AbsMean {
		if _, two := s.GlobalScaleDtype(); two {
			return nil, nil, nil, ErrAbsMeanTwoLevel
		}
	}
	if len(values) == 0 && !s.HasBlock && c == MinMax {
		return nil, nil, nil, errors.New("min of an empty tensor")
	}
	groups := make([]int, len(values))
	outShape = []int{1}
	n := 1
	if s.HasBlock {
		block := s.blockDims(len(shape))
		for i, d := range shape {
			if d%block[i] != 0 {
				return nil, nil, nil, &BlockDivisibilityError{Shape: shape, Block: block}
			}
		}
		layout := newBlockLayout(shape, s)
		for i := range values {
			groups[i] = layout.blockOf(i)
		}
		outShape, n = layout.blocks, layout.numBlocks()
	}
	lo, hi = make([]float32, n), make([]float32, n)
	switch c {
	case MinMax:
		seen := make([]bool, n)
		for i, x := range values {
			g := groups[i]
			if !seen[g] {
				lo[g], hi[g], seen[g] = x, x, true
				continue
			}
			if x < lo[g] || x != x {
				lo[g] = x
			}
			if x > hi[g] || x != x {
				hi[g] = x
			}
		}
	case AbsMean:
		sums, counts := make([]float64, n), make([]int, n)
		for i, x := range values {
			sums[groups[i]] += float64(absF32(x))
			counts[groups[i]]++
		}
		for g := range sums {
			m := float32(sums[g] / float64(counts[g]))
			lo[g], hi[g] = -m, m
		}
	}
	return lo, hi, outShape, nil
}

// ComputeQParams is compute_q_params (scheme.rs:87-119): each scale is
// 2·max(|min|, |max|)/(b−a); a two-level scheme then splits them into a
// per-tensor f32 scale (the largest over the block dtype's maximum, at
// least f32::MIN_POSITIVE) and block scales relative to it (normalize_scales,
// scheme.rs:124-152).
func ComputeQParams(s QuantScheme, lo, hi []float32) (scales []float32, global float32, hasGlobal bool, err error) {
	if len(lo) != len(hi) {
		return nil, 0, false, errors.New("compute_q_params: ranges of different lengths")
	}
	a, b := s.Value.Range()
	scales = make([]float32, len(lo))
	for i := range lo {
		mn, mx := absF32(lo[i]), absF32(hi[i])
		v := mn
		if mn < mx {
			v = mx
		}
		scales[i] = v * 2 / (b - a)
	}
	if _, two := s.GlobalScaleDtype(); !two {
		return scales, 0, false, nil
	}
	bdt := s.ScaleDtype()
	if bdt.MaxRepresentable() > 65504 {
		return nil, 0, false, fmt.Errorf("block scales in %s reach f32's range, which a per-tensor scale cannot absorb", bdt)
	}
	peak := float32(math.Inf(-1))
	for _, v := range scales {
		if v > peak || v != v {
			peak = v
		}
	}
	global = peak / bdt.MaxRepresentable()
	if minPos := math.Float32frombits(0x00800000); global < minPos {
		global = minPos
	}
	for i := range scales {
		scales[i] /= global
	}
	return scales, global, true, nil
}

// CheckBlocks is reduce_blocks' divisibility assertion alone, for a shape
// whose values are not at hand.
func CheckBlocks(shape []int, s QuantScheme) error {
	if !s.HasBlock {
		return nil
	}
	block := s.blockDims(len(shape))
	for i, d := range shape {
		if d%block[i] != 0 {
			return &BlockDivisibilityError{Shape: append([]int(nil), shape...), Block: block}
		}
	}
	return nil
}

// EncodeScale is a scale through encode_scales and decode_scales
// (quantization.rs:419-458): converted to the dtype to nearest, as
// half's from_f32 and e4m3's do, and back to f32.
func EncodeScale(s float32, d ScaleDtype) float32 {
	switch d {
	case ScaleF16:
		return float32(F16.roundFloat(float64(s)))
	case ScaleBF16:
		return float32(BF16.roundFloat(float64(s)))
	case ScaleUE4M3:
		r := roundBinary(float64(s), 3, -6, 8)
		if r > 448 || math.IsInf(r, 1) {
			r = 448
		}
		return float32(r)
	}
	return s
}

// NewQuantizedData is TensorData::quantized through QuantizedBytes::new
// (crates/burn-std/src/data/tensor/base.rs:144-161, quantization.rs:219-270):
// the scheme is kept as given, a per-tensor scheme keeps one scale, and the
// scales are encoded at the scheme's scale dtype.
func NewQuantizedData(values []int8, shape []int, s QuantScheme, scales []float32, global *float32) (*QTensor, error) {
	if n := numel(shape); n != len(values) {
		return nil, fmt.Errorf("%d quantized values do not fill a tensor of shape Shape { dims: %s }", len(values), intsDebug(shape))
	}
	if !s.HasBlock {
		// `&scales[..1]` for a per-tensor scheme; a block scheme takes the
		// scales as they are (quantization.rs:241-244).
		if len(scales) == 0 {
			return nil, errors.New("range end index 1 out of range for slice of length 0")
		}
		scales = scales[:1]
	}
	q := &QTensor{Q: append([]int8(nil), values...), Shape: append([]int(nil), shape...), Scheme: s}
	for _, sc := range scales {
		q.Scales = append(q.Scales, EncodeScale(sc, s.ScaleDtype()))
	}
	gdt, two := s.GlobalScaleDtype()
	switch {
	case two && global != nil:
		if gdt != ScaleF32 {
			return nil, fmt.Errorf("assertion `left == right` failed: a two-level scheme stores its per-tensor scale as f32, got %s\n  left: %s\n right: F32", s, gdt)
		}
		q.Global, q.HasGlobal = *global, true
	case two:
		return nil, fmt.Errorf("%s requires a per-tensor scale", s)
	case global != nil:
		return nil, fmt.Errorf("%s does not take a per-tensor scale", s)
	}
	return q, nil
}

// Bytes is the TensorData bytes of the quantized values, as
// QuantizedBytes::new lays them out: the i8 values, the block scales at
// their dtype aligned to 4 bytes, then a two-level scheme's f32 scale.
func (q *QTensor) Bytes() []byte {
	out := make([]byte, 0, len(q.Q)+4*len(q.Scales)+8)
	for _, v := range q.Q {
		out = append(out, byte(v))
	}
	align := func() {
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	align()
	for _, s := range q.Scales {
		out = appendScale(out, s, q.Scheme.ScaleDtype())
	}
	if q.HasGlobal {
		align()
		out = appendScale(out, q.Global, ScaleF32)
	}
	return out
}

func appendScale(out []byte, s float32, d ScaleDtype) []byte {
	switch d {
	case ScaleF16:
		h := f16Bits(float64(s))
		return append(out, byte(h), byte(h>>8))
	case ScaleBF16:
		b := math.Float32bits(s) >> 16
		return append(out, byte(b), byte(b>>8))
	case ScaleUE4M3:
		return append(out, e4m3Bits(s))
	}
	b := math.Float32bits(s)
	return append(out, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
}

// e4m3Bits is the e4m3fn bit pattern of a non-negative representable value.
func e4m3Bits(s float32) byte {
	x := float64(s)
	if x <= 0 || x != x {
		return 0
	}
	if x < math.Ldexp(1, -6) {
		return byte(math.Round(x / math.Ldexp(1, -9)))
	}
	frac, exp := math.Frexp(x)
	return byte(exp+6)<<3 | byte(math.Round((frac*2-1)*8))
}

// ValuesData is the quantized values as TensorData's iter reads them:
// i8 elements (data/tensor/conversion.rs:174-201).
func (q *QTensor) ValuesData() *Data {
	d := newData(I8, q.Shape)
	for i, v := range q.Q {
		d.I[i] = int64(v)
	}
	return d
}

// Display is TensorData's Display of quantized data: the i8 values and
// the scheme (crates/burn-std/src/data/tensor/base.rs:488-501).
func (q *QTensor) Display() string {
	parts := make([]string, len(q.Q))
	for i, v := range q.Q {
		parts[i] = strconv.Itoa(int(v))
	}
	return "[" + strings.Join(parts, ", ") + "] " + q.Scheme.String()
}

// DataDebug is the derived Debug of quantized TensorData.
func (q *QTensor) DataDebug() string {
	bytes := q.Bytes()
	parts := make([]string, 0, 4)
	for i, c := range bytes {
		if i == 3 {
			parts = append(parts, `"..."`)
			break
		}
		parts = append(parts, strconv.Itoa(int(c)))
	}
	return "TensorData { bytes: Bytes { data: [" + strings.Join(parts, ", ") + "], len: " +
		strconv.Itoa(len(bytes)) + " }, shape: Shape { dims: " + dimsDebug(q.Shape) + " }, dtype: QFloat(" + q.Scheme.String() + ") }"
}

package tensor

import (
	"strconv"
	"strings"
)

// PrintOptions are burn-tensor's PrintOptions (crates/burn-tensor/src/
// tensor/api/base.rs:3226-3263): a tensor of more than Threshold elements
// is summarised, showing EdgeItems at each end of every dim longer than
// twice that; Precision, when not negative, prints floats with that many
// fractional digits (`{:.N}`), else each float prints as its `{:?}`.
type PrintOptions struct {
	Threshold int
	EdgeItems int
	Precision int
}

// DefaultPrintOptions are PrintOptions::const_default: threshold 1000,
// edge items 3, no precision.
func DefaultPrintOptions() PrintOptions {
	return PrintOptions{Threshold: 1000, EdgeItems: 3, Precision: -1}
}

// WithPrecision is the options a `{:.N}` format spec gives: Display takes
// the formatter's precision over the print options' one.
func (o PrintOptions) WithPrecision(n int) PrintOptions {
	o.Precision = n
	return o
}

// Display is `{}` of a Tensor, display_fmt_impl line for line
// (crates/burn-tensor/src/tensor/api/base.rs:3594-3636): the data block,
// then shape, device, kind and dtype. device is the `{:?}` of the tensor's
// device, as tensor.device() reports it ("Device<Flex(Cpu)>"), which the
// caller knows and this package does not.
func (d *Data) Display(device string, opts PrintOptions) string {
	var b strings.Builder
	b.WriteString("Tensor {\n")
	b.WriteString("  data:\n")
	p := &printer{data: d, opts: opts, index: make([]int, len(d.Shape)), acc: &b}
	p.summarize = d.NumElements() > opts.Threshold
	if len(d.Shape) == 0 {
		b.WriteString(p.elem(0))
	} else {
		p.recursive(0)
	}
	b.WriteString(",\n")
	b.WriteString("  shape:  " + dimsDebug(d.Shape) + ",\n")
	b.WriteString("  device:  " + device + ",\n")
	b.WriteString("  kind:  " + debugStr(d.DType.Kind()) + ",\n")
	b.WriteString("  dtype:  " + debugStr(d.DType.Name()) + ",\n")
	b.WriteString("}")
	return b.String()
}

// printer walks the dims as display_fmt_recursive, display_fmt_outer and
// display_fmt_inner do, separators and all.
type printer struct {
	data      *Data
	opts      PrintOptions
	summarize bool
	index     []int
	acc       *strings.Builder
	oneLine   bool // a space instead of a newline and indent, for Preview
}

func (p *printer) recursive(depth int) {
	dims := p.data.Shape
	edge := p.opts.EdgeItems
	if depth == 0 {
		p.acc.WriteByte('[')
	}
	long := p.summarize && dims[depth] > 2*edge
	switch {
	case depth == len(dims)-1 && long:
		p.inner(depth, 0, edge)
		p.acc.WriteString(", ...")
		p.inner(depth, dims[depth]-edge, dims[depth])
	case depth == len(dims)-1:
		p.inner(depth, 0, dims[depth])
	case long:
		p.outer(depth, 0, edge)
		p.acc.WriteByte(',')
		p.newline(depth + 1)
		p.acc.WriteString("...")
		p.newline(depth + 1)
		p.outer(depth, dims[depth]-edge, dims[depth])
	default:
		p.outer(depth, 0, dims[depth])
	}
	if depth == 0 {
		p.acc.WriteByte(']')
	}
}

func (p *printer) outer(depth, start, end int) {
	for i := start; i < end; i++ {
		if i > start {
			p.acc.WriteByte(',')
			p.newline(depth + 1)
		}
		p.acc.WriteByte('[')
		p.index[depth] = i
		p.recursive(depth + 1)
		p.acc.WriteByte(']')
	}
}

// inner prints one run of the last dim. Burn separates on i > 0, not on
// i > start, which is what puts ", " after the "..." of a summarised row.
func (p *printer) inner(depth, start, end int) {
	for i := start; i < end; i++ {
		if i > 0 {
			p.acc.WriteString(", ")
		}
		p.index[depth] = i
		p.acc.WriteString(p.elem(p.flat()))
	}
}

func (p *printer) newline(indent int) {
	if p.oneLine {
		p.acc.WriteByte(' ')
		return
	}
	p.acc.WriteByte('\n')
	p.acc.WriteString(strings.Repeat(" ", indent))
}

func (p *printer) flat() int {
	pos := 0
	for d, n := range p.data.Shape {
		pos = pos*n + p.index[d]
	}
	return pos
}

// elem is DataIterFmt::next: floats as `{:.p}` or `{:?}`, ints as `{:?}`,
// bools of every store as true or false.
func (p *printer) elem(i int) string {
	d := p.data
	switch {
	case d.DType.IsFloat() && p.opts.Precision >= 0:
		return FixedFloat(d.F[i], floatBits(d.DType), p.opts.Precision)
	case d.DType.IsBool():
		return strconv.FormatBool(d.B[i])
	}
	return d.elemDebug(i)
}

// TensorDebug is `{:?}` of a Tensor: its derived Debug, which shows the
// bridge kind and the type parameter, not the values. kind is "Float",
// "Int", "Bool" or "QFloat" (a quantized float tensor is a Tensor<D, Float>).
func TensorDebug(kind string) string {
	param := kind
	if kind == "QFloat" {
		param = "Float"
	}
	return "Tensor { primitive: BridgeTensor { kind: " + kind + " }, _kind: PhantomData<burn_tensor::bridge::kind::" + param + "> }"
}

// DataDisplay is `{}` of a TensorData (crates/burn-std/src/data/tensor/
// base.rs:470-516): the `{:?}` of its element slice, flat. A Bool(U8) or
// Bool(U32) store prints its 0s and 1s.
func (d *Data) DataDisplay() string {
	n := d.NumElements()
	parts := make([]string, n)
	for i := range n {
		parts[i] = d.elemDebug(i)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// DataDebug is `{:?}` of a TensorData, its derived Debug: cubecl's Bytes
// Debug shows the first three bytes then "...", the shape its derived
// `Shape { dims: [..] }`.
func (d *Data) DataDebug() string {
	bytes := d.Bytes()
	shown := bytes
	if len(bytes) > 3 {
		shown = bytes[:3]
	}
	parts := make([]string, 0, 4)
	for _, c := range shown {
		parts = append(parts, strconv.Itoa(int(c)))
	}
	if len(bytes) > 3 {
		parts = append(parts, `"..."`)
	}
	return "TensorData { bytes: Bytes { data: [" + strings.Join(parts, ", ") + "], len: " +
		strconv.Itoa(len(bytes)) + " }, shape: Shape { dims: " + dimsDebug(d.Shape) + " }, dtype: " + d.DType.String() + " }"
}

// PreviewElements is how many elements a trace entry shows in full.
const PreviewElements = 8

// Preview is a one-line look at the values for a trace entry: the nested
// values when there are at most max elements (PreviewElements in the
// trace), else the first and last three, flat, with the count.
func (d *Data) Preview(max int) string {
	n := d.NumElements()
	if n <= max || n <= 6 {
		var b strings.Builder
		p := &printer{data: d, opts: DefaultPrintOptions(), index: make([]int, len(d.Shape)), acc: &b, oneLine: true}
		if len(d.Shape) == 0 {
			return p.elem(0)
		}
		p.recursive(0)
		return b.String()
	}
	return previewLarge(&Data{DType: d.DType, Shape: []int{6}, F: pick6(d.F, n), I: pick6(d.I, n), B: pick6(d.B, n)}, n)
}

// pick6 is the first three and the last three of a tensor's n elements.
func pick6[E any](s []E, n int) []E {
	if s == nil {
		return nil
	}
	return append(append([]E(nil), s[:3]...), s[n-3:n]...)
}

// previewLarge is the preview of a tensor of n elements, more than a
// preview shows, from its first three and last three (some's elements).
func previewLarge(some *Data, n int) string {
	p := &printer{data: some, opts: DefaultPrintOptions()}
	parts := make([]string, 0, 7)
	for i := range 3 {
		parts = append(parts, p.elem(i))
	}
	parts = append(parts, "...")
	for i := 3; i < 6; i++ {
		parts = append(parts, p.elem(i))
	}
	return "[" + strings.Join(parts, ", ") + "] (" + strconv.Itoa(n) + " values)"
}

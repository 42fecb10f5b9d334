package engine

// The values the fix search tries for a number, a float or a variant, and
// what it reads of a panic's message and of the check's hints.

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/engine/syntax"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// labelRank is the rank a hint's label gives (`Tensor<2> · ...`).
func labelRank(label string) (int, bool) {
	rest, ok := strings.CutPrefix(label, "Tensor<")
	if !ok {
		return 0, false
	}
	end := strings.IndexAny(rest, ",>")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// labelShape is the shape a hint's label gives (`... · [2, 3] · ...`).
func labelShape(label string) ([]int64, bool) {
	for _, part := range strings.Split(label, " · ") {
		if strings.HasPrefix(part, "[") && strings.HasSuffix(part, "]") {
			var shape []int64
			for _, f := range strings.Split(part[1:len(part)-1], ", ") {
				n, err := strconv.ParseInt(f, 10, 64)
				if err != nil {
					return nil, false
				}
				shape = append(shape, n)
			}
			return shape, true
		}
	}
	return nil, false
}

func elements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

func shapeText(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// mentioned are the words and numbers of a panic's message.
type mentioned struct {
	words   map[string]bool
	order   []string // the words with an underscore, in the message's order
	numbers []float64
	shapes  [][]int64 // `[3, 1]`
}

func mentions(message string) mentioned {
	m := mentioned{words: map[string]bool{}}
	for rest := message; ; {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], ']')
		if end < 0 {
			break
		}
		var shape []int64
		for _, f := range strings.Split(rest[open+1:open+end], ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || n < 0 {
				shape = nil
				break
			}
			shape = append(shape, n)
		}
		if len(shape) > 0 {
			m.shapes = append(m.shapes, shape)
		}
		rest = rest[open+end:]
	}
	for _, w := range strings.FieldsFunc(message, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		w = strings.Trim(w, ".")
		if strings.Contains(w, "_") && !m.words[w] {
			m.order = append(m.order, w)
		}
		m.words[w] = true
		if f, err := strconv.ParseFloat(w, 64); err == nil {
			m.numbers = append(m.numbers, f)
		}
	}
	return m
}

// has reports whether the message names a token's text: the same word, or
// the same number however it is written (`50.0` for "got 50").
func (m mentioned) has(text string) bool {
	if m.words[text] {
		return true
	}
	digits := strings.TrimRightFunc(strings.ReplaceAll(text, "_", ""), func(r rune) bool { return r >= 'a' && r <= 'z' })
	if f, err := strconv.ParseFloat(digits, 64); err == nil {
		return slices.Contains(m.numbers, f)
	}
	return false
}

// plainDeviceConstructors are Device's associated functions that take no
// argument (`Device::flex()`), from Burn's API table, and `default`.
var plainDeviceConstructors = sync.OnceValue(func() []string {
	out := []string{"default"}
	for _, it := range burnapi.Default().Items {
		if it.Kind == "assoc" && it.Path == "burn_tensor::Device" && it.Params == "" && it.Return == "Self" && !slices.Contains(out, it.Name) {
			out = append(out, it.Name)
		}
	}
	return out
})

// negated reports whether the token before toks[i] is a unary minus, and
// returns the range of the literal with it.
func negated(toks []syntax.Token, i int) (source.Range, bool) {
	r := toks[i].Range
	if i == 0 || toks[i-1].Text != "-" || toks[i-1].Kind != syntax.Punct {
		return r, false
	}
	if i >= 2 {
		prev := toks[i-2]
		binary := prev.Kind == syntax.Ident || prev.Kind == syntax.Int || prev.Kind == syntax.Float ||
			prev.Kind == syntax.Punct && (prev.Text == ")" || prev.Text == "]")
		if binary {
			return r, false
		}
	}
	return source.Range{Start: toks[i-1].Range.Start, End: r.End}, true
}

// intSite tries for an integer its neighbours, the next power of two, the
// program's other integers, the small numbers a size takes, its double and
// half, and last, for a 1, 0 (a first device's or element's index; as a
// size it would empty the tensor). A number the program writes without a minus gets no
// negative value: whether its type is signed is rustc's to say, and the
// engine's search does not guess it.
func intSite(toks []syntax.Token, i int, others []int64) site {
	t := toks[i]
	n, err := strconv.ParseInt(t.Value, 10, 64)
	if err != nil {
		return site{}
	}
	r, neg := negated(toks, i)
	if neg {
		n = -n
	}
	var vals []int64
	if neg {
		vals = append(vals, -n)
	}
	if n-1 != 0 {
		vals = append(vals, n-1)
	}
	vals = append(vals, n+1)
	if p := nextPowerOfTwo(n); p > 0 {
		vals = append(vals, p)
	}
	vals = append(vals, nearest(others, n)...)
	vals = append(vals, 1, 2, 2*n, n/2, 0)
	lo, hi := intRange(t.Suffix, n)
	var out []string
	for _, v := range vals {
		if v == n || v == 0 && n != 1 || v < 0 && !neg || v < lo || v > hi {
			continue
		}
		s := strconv.FormatInt(v, 10) + t.Suffix
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return site{r: r, values: out[:min(len(out), maxSiteValues)]}
}

// intRange are the values a literal of the suffix's type holds; rustc
// rejects one out of range (overflowing_literals). An unsuffixed literal
// is kept within i32, the type Rust falls back to, unless it is past it
// already.
func intRange(suffix string, n int64) (int64, int64) {
	switch suffix {
	case "i8":
		return math.MinInt8, math.MaxInt8
	case "u8":
		return 0, math.MaxUint8
	case "i16":
		return math.MinInt16, math.MaxInt16
	case "u16":
		return 0, math.MaxUint16
	case "i32":
		return math.MinInt32, math.MaxInt32
	case "u32":
		return 0, math.MaxUint32
	case "":
		if n < math.MinInt32 || n > math.MaxInt32 {
			return math.MinInt64, math.MaxInt64
		}
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// nextPowerOfTwo is the least power of two above n, for an n past 2 that
// is not one; 0 otherwise.
func nextPowerOfTwo(n int64) int64 {
	if n <= 2 || n > 1<<40 || n&(n-1) == 0 {
		return 0
	}
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
}

// nearest are up to four of the program's other values, in the order the
// program has them, without v.
func nearest[T comparable](others []T, v T) []T {
	var out []T
	for _, o := range others {
		if o != v && !slices.Contains(out, o) {
			out = append(out, o)
			if len(out) == 4 {
				break
			}
		}
	}
	return out
}

// floatSite tries for a float its absolute value, a percentage as a
// fraction, the values a rate or a factor takes, the program's other
// floats, and its double and half.
func floatSite(toks []syntax.Token, i int, others []float64) site {
	t := toks[i]
	f, err := strconv.ParseFloat(t.Value, 64)
	if err != nil || math.IsInf(f, 0) {
		return site{}
	}
	r, neg := negated(toks, i)
	if neg {
		f = -f
	}
	var vals []float64
	if neg {
		vals = append(vals, -f)
	}
	switch a := math.Abs(f); {
	case a >= 10:
		// A percentage where a fraction is wanted.
		vals = append(vals, a/100, 1, 0.5, 0.1, 2)
	case a > 1:
		vals = append(vals, 1, 0.5, 0.1, 2)
	default:
		vals = append(vals, 0.5, 0.1, 1, 2)
	}
	vals = append(vals, nearest(others, f)...)
	vals = append(vals, 2*f, f/2, 1e-5)
	var out []string
	for _, v := range vals {
		if v == f || v == 0 || math.IsInf(v, 0) {
			continue
		}
		s := rustFloatLiteral(v) + t.Suffix
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return site{r: r, values: out[:min(len(out), maxSiteValues)]}
}

// rustFloatLiteral writes v as a float literal: with a `.` (`1.0`, not
// `1`, which would be an integer).
func rustFloatLiteral(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// variantSite tries the other unit variants of a Burn enum named `Enum::`.
func variantSite(enum string, t syntax.Token) site {
	variants := unitVariants()[enum]
	if !slices.Contains(variants, t.Text) {
		return site{}
	}
	var out []string
	for _, v := range variants {
		if v != t.Text {
			out = append(out, v)
		}
	}
	return site{r: t.Range, values: out[:min(len(out), maxSiteValues)]}
}

// unitVariants are the variants without fields of Burn's enums, by the
// enum's name, in the order Burn declares them; and those of the enums of
// Burn's dependencies the engine models (cubecl's ScaleDtype).
var unitVariants = sync.OnceValue(func() map[string][]string {
	type variant struct {
		name string
		line int
	}
	byEnum := map[string][]variant{}
	for _, it := range burnapi.Default().Items {
		if it.Kind != "variant" || it.Params != "" {
			continue
		}
		enum := it.Path[strings.LastIndex(it.Path, ":")+1:]
		line, _ := strconv.Atoi(it.Source[strings.LastIndex(it.Source, ":")+1:])
		if !slices.ContainsFunc(byEnum[enum], func(v variant) bool { return v.name == it.Name }) {
			byEnum[enum] = append(byEnum[enum], variant{it.Name, line})
		}
	}
	out := map[string][]string{"ScaleDtype": tensor.ScaleDtypeNames()}
	for enum, vs := range byEnum {
		slices.SortStableFunc(vs, func(a, b variant) int { return a.line - b.line })
		for _, v := range vs {
			out[enum] = append(out[enum], v.name)
		}
	}
	return out
})

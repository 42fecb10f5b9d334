package dispatch

import (
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/burncheck"
	"github.com/dispatch-playground/playground/engine/tensor"
)

// burn::tensor::linalg and signal functions. The linalg ones are composed
// in burn-tensor from slices, element-wise ops and reshapes of their one
// input, so no routing can fail inside them: the model runs their checks,
// computes the output shapes and records one trace event each.

func (w *World) linalgFunction(name string, c Call) (Value, *UsageError, *Panic) {
	if linalgComposed[name] {
		return w.linalgComposedFunction(name, c)
	}
	a := argList{c: c}
	want := map[string]int{"det": 1, "diag": 1, "lu": 1, "qr": 2}[name]
	if want == 0 {
		return nil, errUnsupported("burn::tensor::linalg::" + name), nil
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	t, ue := a.tensor(0)
	if ue != nil {
		return nil, ue, nil
	}
	if name != "diag" && t.kind != KindFloat && t.kind != KindQFloat {
		return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
	}
	g := lastGenerics(c)
	rank := t.Rank()
	generic := func(i, def int) int {
		if i < len(g) {
			if n, err := strconv.Atoi(strings.TrimSpace(g[i])); err == nil {
				return n
			}
		}
		return def
	}
	quantized := t.kind == KindQFloat
	var f *burncheck.Failure
	var shapes [][]int64
	switch name {
	case "det":
		rank2 := generic(2, max(rank-2, 1))
		if f = burncheck.LinalgDet(t.shape, generic(1, rank-1), rank2, quantized); f == nil {
			shapes = [][]int64{padTo(t.shape[:rank-2], rank2)}
		}
	case "diag":
		outRank := generic(1, rank-1)
		if f = burncheck.LinalgDiag(rank, outRank); f == nil {
			shapes = [][]int64{append(append([]int64{}, t.shape[:rank-2]...), min(t.shape[rank-2], t.shape[rank-1]))}
		}
	case "lu":
		if f = burncheck.LinalgLu(t.shape, generic(1, rank-1), quantized); f == nil {
			// P is m x m; L is m x min(m, n) and U min(m, n) x n
			// (crates/burn-tensor/src/tensor/linalg/lu.rs:93-102).
			m, n := t.shape[rank-2], t.shape[rank-1]
			k := min(m, n)
			batch := t.shape[:rank-2]
			shape := func(r, c int64) []int64 { return append(append([]int64{}, batch...), r, c) }
			shapes = [][]int64{shape(m, m), shape(m, k), shape(k, n)}
		}
	case "qr":
		reduced, ue := a.boolean(1)
		if ue != nil {
			return nil, ue, nil
		}
		if f = burncheck.LinalgQr(t.shape, quantized); f == nil {
			m, n := t.shape[rank-2], t.shape[rank-1]
			k := m
			if reduced {
				k = min(m, n)
			}
			batch := t.shape[:rank-2]
			shapes = [][]int64{append(append([]int64{}, batch...), m, k), append(append([]int64{}, batch...), k, n)}
		}
	}
	if p := checkFailed(f); p != nil {
		return nil, nil, p
	}
	v, ue, p := w.composite(t, "linalg::"+name, shapes, "composed in burn-tensor from slices, element-wise ops and reshapes")
	switch name {
	case "det":
		return w.computed(v, ue, p, []*Tensor{t}, func(out *Tensor) (*tensor.Tensor, error) {
			return tensor.Det(t.vals(), intDims(out.shape))
		})
	case "lu":
		if ue == nil && p == nil {
			w.luValues(t, v.(Tuple))
		}
	}
	return v, ue, p
}

// rfft is signal::rfft(signal, dim, n): its checks, then Dispatch's rfft,
// which returns the real and imaginary halves of the spectrum.
func (w *World) rfft(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue, nil
	}
	t, ue := a.tensor(0)
	if ue != nil || t.kind != KindFloat {
		return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
	}
	dim, ue := a.int(1)
	if ue != nil {
		return nil, ue, nil
	}
	var n int64
	hasN := false
	if e, ok := a.get(2).(*Enum); ok && e.Type == "Option" && e.Variant == "Some" && len(e.Fields) == 1 {
		v, ok := Deref(e.Fields[0]).(Int)
		if !ok {
			return nil, errArgType(3, "Option<usize>", c.Args[2]), nil
		}
		n, hasN = v.V, true
	}
	if p := checkFailed(burncheck.SignalRfft(t.shape, dim, n, hasN)); p != nil {
		return nil, nil, p
	}
	d := normDim(dim, t.Rank())
	size := t.shape[d]
	if hasN {
		size = n
	}
	shape := t.Shape()
	shape[d] = size/2 + 1
	return w.composite(t, "rfft", [][]int64{shape, shape}, "the real and the imaginary half of the spectrum")
}

// composite records one event for an operation of one input and returns
// its outputs (a tuple when there are several), on the input's placement.
func (w *World) composite(t *Tensor, op string, shapes [][]int64, note string) (Value, *UsageError, *Panic) {
	pl := routeUnary(t, KindFloat)
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	outs := make(Tuple, len(shapes))
	for i, s := range shapes {
		outs[i] = w.output(pl, t.kind, s, t.dtype)
	}
	w.recordOp(op, pl, outs[0].(*Tensor))
	w.trace[len(w.trace)-1].Note = note
	if len(outs) == 1 {
		return outs[0], nil, nil
	}
	return outs, nil, nil
}

// lastGenerics are the generics of the called path's last segment.
func lastGenerics(c Call) []string {
	if len(c.Generics) == 0 || len(c.Generics) != len(c.Path) {
		return nil
	}
	return c.Generics[len(c.Generics)-1]
}

// padTo pads shape with leading 1s up to rank.
func padTo(shape []int64, rank int) []int64 {
	out := make([]int64, 0, max(rank, len(shape)))
	for i := len(shape); i < rank; i++ {
		out = append(out, 1)
	}
	return append(out, shape...)
}

package dispatch

import "github.com/dispatch-playground/playground/engine/burncheck"

// irfft is signal::irfft(spectrum_re, spectrum_im, dim, n)
// (crates/burn-tensor/src/tensor/signal/fft.rs:128-165): the dim's
// unwrap_dim_index ("IRFFT"), then Dispatch's irfft, a multi_op! on both
// halves, whose output has n points along dim (Flex: n, else
// 2 * (bins - 1); burn-flex/src/ops/fft.rs:1373-1426). Its values are not
// computed (rfft's are not either). The panics of burn-tensor's n asserts
// (fft.rs:137-142) and of Flex's shape asserts (fft.rs:1382-1405) are not
// modelled: those calls stay unknown.
func (w *World) irfft(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(4); ue != nil {
		return nil, ue, nil
	}
	re, ue := a.tensor(0)
	if ue != nil || re.kind != KindFloat {
		return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
	}
	im, ue := sameTensorArg(a, 1, re)
	if ue != nil {
		return nil, ue, nil
	}
	d, ue := a.int(2)
	if ue != nil {
		return nil, ue, nil
	}
	dim, f := burncheck.TensorDim("signal::irfft", d, re.Rank())
	if p := checkFailed(f); p != nil {
		return nil, nil, p.on(3)
	}
	var n int64
	hasN := false
	switch e := a.get(3).(type) {
	case *Enum:
		if e.Type == "Option" && e.Variant == "Some" && len(e.Fields) == 1 {
			v, ok := Deref(e.Fields[0]).(Int)
			if !ok {
				return nil, errArgType(4, "Option<usize>", c.Args[3]), nil
			}
			n, hasN = v.V, true
		} else if e.Type != "Option" || e.Variant != "None" {
			return nil, errArgType(4, "Option<usize>", c.Args[3]), nil
		}
	default:
		return nil, errArgType(4, "Option<usize>", c.Args[3]), nil
	}
	bins := re.shape[dim]
	if !hasN {
		n = 2 * (bins - 1)
	}
	if n < 1 || n&(n-1) != 0 || dimsDebug(re.shape) != dimsDebug(im.shape) || bins < 1 || n == 1 {
		return nil, errUnsupported("burn::tensor::signal::irfft with these arguments"), nil
	}
	pl, p := routeMulti([]namedInput{{name: "spectrum_re", t: re, arg: 1}, {name: "spectrum_im", t: im, arg: 2}})
	shape := re.Shape()
	shape[dim] = n
	out, ue, p := w.finish("irfft", re, pl, p, KindFloat, shape, re.dtype)
	if out != nil {
		w.trace[len(w.trace)-1].Note = "the signal's values are not computed"
	}
	return out, ue, p
}

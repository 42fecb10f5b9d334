package dispatch

import "github.com/dispatch-playground/playground/engine/burncheck"

// burn-tensor's TensorCheck runs in the public API before anything is
// dispatched; package burncheck reproduces it. Only three families check
// devices: the ten element-wise binary ops, matmul and cross. Device
// equality ignores autodiff, so an autodiff and a plain tensor of the same
// hardware pass there and fail later, in dispatch.

// checkFailed turns a failed check into Burn's panic, nil if it passed.
func checkFailed(f *burncheck.Failure) *Panic {
	if f == nil {
		return nil
	}
	return newPanic(f.ID, f.Location, f.Message)
}

// operand is what a binary check sees of a tensor: its shape, and its
// device as tensor.device() reports it, compared ignoring autodiff.
func operand(t *Tensor) burncheck.Operand {
	d := t.Device()
	return burncheck.Operand{Shape: t.Shape(), Device: d.rustDebug(), DeviceKey: d.Inner().Debug()}
}

// broadcastShape is the output shape of an element-wise op whose shapes
// passed the broadcast check: each dim is the one that is not 1.
func broadcastShape(lhs, rhs []int64) []int64 {
	out := make([]int64, len(lhs))
	for i := range lhs {
		out[i] = lhs[i]
		if i < len(rhs) && lhs[i] == 1 {
			out[i] = rhs[i]
		}
	}
	return out
}

// broadcastAll is the shape shapes of one rank broadcast to, each dim the
// one size that is not 1; shapes that do not broadcast leave the first as
// it is.
func broadcastAll(first []int64, rest ...[]int64) []int64 {
	out := append([]int64{}, first...)
	for _, s := range rest {
		if len(s) != len(out) {
			return first
		}
		for i, d := range s {
			switch {
			case out[i] == 1:
				out[i] = d
			case d != 1 && d != out[i]:
				return first
			}
		}
	}
	return out
}

// matmulShape is the output of a batched matmul: batch dims broadcast,
// then rows of lhs by columns of rhs.
func matmulShape(lhs, rhs []int64) []int64 {
	d := len(lhs)
	if d < 2 || len(rhs) != d {
		return append([]int64{}, lhs...)
	}
	out := broadcastShape(lhs[:d-2], rhs[:d-2])
	return append(out, lhs[d-2], rhs[d-1])
}

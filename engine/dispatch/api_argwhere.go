package dispatch

import (
	"github.com/dispatch-playground/playground/engine/tensor"
)

// argwhere and nonzero of a Bool tensor (crates/burn-tensor/src/tensor/
// api/bool.rs:224-275): Dispatch's bool_argwhere gives the [n, D]
// coordinates of the true values in row-major order, as the device's int
// dtype; nonzero splits them into D vectors of n indices, none when n is
// 0. Both read the mask back synchronously.
func (w *World) argwhere(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	if t.kind != KindBool {
		return nil, errTraitBounds(method, t), nil
	}
	if ue := a.want(0); ue != nil {
		return nil, ue, nil
	}
	rank := t.Rank()
	n, _ := numElements(t.shape)
	known := t.hasVals() && t.vals().NumElements() == int(n)
	if method == "nonzero" && !known {
		// How many tensors nonzero returns depends on the values.
		return nil, errUnsupported("Tensor::nonzero of a mask whose values are unknown"), nil
	}
	if w.wasm() && asyncRead(t.on) {
		// try_read_sync cannot block there (bool.rs:225-226, 272-273).
		return nil, errUnsupported("Tensor::" + method + " in a wasm32 build"), nil
	}
	if known {
		n = int64(tensor.CountTrue(t.vals()))
	}
	out, p := w.unaryOp(t, "bool_argwhere", KindInt, []int64{n, int64(rank)}, w.defaultsFor(t.on.Inner()).int)
	if p != nil {
		return nil, nil, p
	}
	if !known {
		w.trace[len(w.trace)-1].Note = "the number of rows is the number of true values in the mask; the shape shows its upper bound"
	}
	w.compute(out, []*Tensor{t}, func() (*tensor.Tensor, error) {
		dt, ok := valueDType(out.dtype)
		if !ok {
			return nil, tensor.ErrKind
		}
		coords := make([]int64, 0, n*int64(rank))
		for k := range t.vals().NumElements() {
			if !t.vals().Data.Bool(k) {
				continue
			}
			rest := int64(k)
			at := len(coords)
			coords = append(coords, make([]int64, rank)...)
			for d := rank - 1; d >= 0; d-- {
				coords[at+d] = rest % t.shape[d]
				rest /= t.shape[d]
			}
		}
		return tensor.FromInts(coords, []int{int(n), rank}, dt)
	})
	if method == "argwhere" {
		return out, nil, nil
	}
	parts := &Array{Vec: true}
	if n == 0 {
		return parts, nil, nil
	}
	// indices.chunk(dims[1], 1), each reshaped to [dims[0]] (bool.rs:235-241).
	chunks, ue, p := w.tensorMethod(out, Call{Recv: out, Method: "chunk", Args: []Value{Int{V: int64(rank), Suffix: "usize"}, Int{V: 1, Suffix: "usize"}}})
	if ue != nil || p != nil {
		return nil, ue, p
	}
	list, ok := Deref(chunks).(*Array)
	if !ok {
		return nil, errUnsupported("Tensor::nonzero"), nil
	}
	for _, c := range list.Elems {
		ct, ok := Deref(c).(*Tensor)
		if !ok {
			return nil, errUnsupported("Tensor::nonzero"), nil
		}
		r, ue, p := w.step(ct, "reshape", usizeDims([]int64{n}))
		if ue != nil || p != nil {
			return nil, ue, p
		}
		parts.Elems = append(parts.Elems, r)
	}
	return parts, nil, nil
}

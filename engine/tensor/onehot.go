package tensor

import "fmt"

// OneHotFill is one_hot_fill(num_classes, on_value, off_value, axis)
// (crates/burn-tensor/src/tensor/api/orderable.rs:311-350): a tensor of
// dtype with a dim of num_classes inserted at axis, off_value everywhere
// but at each element's class (a negative class counts from the end), where
// Burn scatter-adds on_value - off_value onto off_value, each of the three
// in dtype.
func OneHotFill(t *Tensor, numClasses int, on, off float64, axis int, dtype DType) (*Tensor, error) {
	if t.DType.IsBool() || dtype.IsBool() {
		return nil, kindError("one_hot_fill of a Bool tensor")
	}
	if axis < 0 || axis > len(t.Shape) {
		return nil, shapeError("one_hot_fill axis %d of a rank-%d tensor", axis, len(t.Shape))
	}
	shape := append(append(append([]int(nil), t.Shape[:axis]...), numClasses), t.Shape[axis:]...)
	full := func(v float64) *Tensor { return Full(shape, dtype, FloatScalar(v)) }
	offT, onT := full(off), full(on)
	out := offT
	a := splitAt(shape, axis)
	for i := range t.NumElements() {
		class := t.Int(i)
		if class < 0 {
			class += int64(numClasses)
		}
		if class < 0 || class >= int64(numClasses) {
			return nil, fmt.Errorf("%w: class %d of %d", ErrIndex, t.Int(i), numClasses)
		}
		// Element i of t is (o, i') around axis: o over the dims before
		// it, i' over those after.
		o, in := i/a.inner, i%a.inner
		p := a.pos(o, int(class), in)
		if dtype.IsFloat() {
			out.F[p] = dtype.roundFloat(offT.F[p] + dtype.roundFloat(onT.F[p]-offT.F[p]))
		} else {
			out.I[p] = dtype.wrapInt(offT.I[p] + dtype.wrapInt(onT.I[p]-offT.I[p]))
		}
	}
	return out, nil
}

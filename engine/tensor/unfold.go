package tensor

// Unfold is unfold(dim, size, step): every complete window of size
// elements along dim, windows step apart, the window count in dim's place
// and the window's elements in a new last dim
// (crates/burn-tensor/src/tensor/api/base.rs:3059-3083). Each output
// element is a copy of one input element, so the gradient adds the
// output's gradient back, overlapping windows accumulating
// (autodiff/unfold.rs).
func Unfold(t *Tensor, dim, size, step int) (*Tensor, error) {
	if err := checkDim(t, dim); err != nil {
		return nil, err
	}
	if size < 0 || step <= 0 {
		return nil, shapeError("unfold of size %d and step %d", size, step)
	}
	windows := 0
	if t.Shape[dim] >= size {
		windows = (t.Shape[dim]-size)/step + 1
	}
	a := splitAt(t.Shape, dim)
	shape := append(append([]int(nil), t.Shape...), size)
	shape[dim] = windows
	index := make([]int, 0, numel(shape))
	for o := range a.outer {
		for w := range windows {
			for i := range a.inner {
				for k := range size {
					index = append(index, a.pos(o, w*step+k, i))
				}
			}
		}
	}
	return remap(t, shape, index), nil
}

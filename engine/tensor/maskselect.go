package tensor

// MaskSelect is mask_select(mask): the elements where the mask is true,
// in the order of the flattened tensor, as a 1-D tensor
// (crates/burn-tensor/src/tensor/api/base.rs:1785-1803). The mask has the
// tensor's shape. Its gradient is the output's at the selected positions
// and zero elsewhere (base.rs:1764).
func MaskSelect(t, mask *Tensor) (*Tensor, error) {
	if !mask.DType.IsBool() {
		return nil, kindError("mask_select with a %s mask", mask.DType.Kind())
	}
	if !sameShape(t.Shape, mask.Shape) {
		return nil, shapeError("mask_select of %v by a mask of %v", t.Shape, mask.Shape)
	}
	var index []int
	for i := range mask.NumElements() {
		if mask.B[i] {
			index = append(index, i)
		}
	}
	return remap(t, []int{len(index)}, index), nil
}

// CountTrue is how many elements of a bool tensor are true.
func CountTrue(mask *Tensor) int {
	n := 0
	for _, b := range mask.B {
		if b {
			n++
		}
	}
	return n
}

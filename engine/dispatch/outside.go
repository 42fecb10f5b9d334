package dispatch

// OutsideData is a TensorData read from outside the playground (a file of
// weights): its shape and dtype are those the reader expects, its values
// unknown, so a tensor made from it carries its shape only and nothing
// computed from it is checked.
func OutsideData(shape []int64, dtype DType) *TensorData {
	return &TensorData{shape: append([]int64(nil), shape...), dtype: dtype}
}

// DataShape is a TensorData's shape and dtype.
func (td *TensorData) DataShape() ([]int64, DType) {
	return append([]int64(nil), td.shape...), td.dtype
}

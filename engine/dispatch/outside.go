package dispatch

import "github.com/dispatch-playground/playground/engine/tensor"

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

// F32Data is TensorData::new(values, shape) of a Vec<f32> that a model of
// a Burn crate computes itself (burn-nn's sinusoids): the values rounded
// to f32. Past the data budget it carries its shape only, as a literal
// that large does.
func F32Data(values []float64, shape []int64) *TensorData {
	out := &TensorData{shape: append([]int64(nil), shape...), dtype: F32}
	n, fits := numElements(shape)
	if !fits || n > maxDataLiteral || int64(len(values)) != n {
		return out
	}
	src := &tensor.Data{DType: tensor.F64, Shape: intDims(shape), F: values}
	out.values = src.Cast(tensor.F32)
	return out
}

package burncheck

// Slice is burn_std::Slice: a range along one dimension with a step. End is
// exclusive; HasEnd false means the range runs to the end of the dimension
// (`2..`, `..`). Negative Start and End count from the end of the
// dimension, as in `-2..`.
type Slice struct {
	Start  int64
	End    int64
	HasEnd bool
	Step   int64
}

// FullSlice is `..`, Slice::full().
func FullSlice() Slice { return Slice{Start: 0, Step: 1} }

// RangeSlice is `start..end`.
func RangeSlice(start, end int64) Slice { return Slice{Start: start, End: end, HasEnd: true, Step: 1} }

// IndexSlice is a single index `i` used as a slice: `i..i+1`, where -1 means
// the last element (an open end, as Slice::index does).
func IndexSlice(index int64) Slice {
	if index == -1 {
		return Slice{Start: index, Step: 1}
	}
	return Slice{Start: index, End: index + 1, HasEnd: true, Step: 1}
}

// InclusiveSlice is `start..=end`; an end of -1 means "through the last
// element".
func InclusiveSlice(start, end int64) Slice {
	s := IndexSlice(end)
	s.Start = start
	return s
}

// SteppedSlice is `s![range; step]`, Slice::from_range_stepped. A zero step
// fails burn-std's assert when the slice is built, before any tensor is
// touched.
func SteppedSlice(r Slice, step int64) (Slice, *Failure) {
	if step == 0 {
		return r, rustPanic(IDSliceStepZero, "Step cannot be zero", at(sliceFile, 468))
	}
	r.Step = step
	return r, nil
}

// toRange is Slice::to_range: both ends are resolved against the dimension
// size and clamped into [0, size], so the result never exceeds the size.
func (s Slice) toRange(size int64) (start, end int64) {
	start = resolveIndex(s.Start, size)
	end = size
	if s.HasEnd {
		end = resolveIndex(s.End, size)
	}
	return start, end
}

// outputSize is Slice::output_size: how many elements the slice selects.
func (s Slice) outputSize(size int64) int64 {
	start, end := s.toRange(size)
	if start >= end {
		return 0
	}
	length := end - start
	step := s.Step
	if step < 0 {
		step = -step
	}
	if step <= 1 {
		return length
	}
	return (length + step - 1) / step
}

func resolveIndex(index, size int64) int64 {
	if index < 0 {
		return max(size+index, 0)
	}
	return min(index, size)
}

// intoSlices is SliceArg::into_slices, which every Tensor slicing method
// applies before TensorCheck sees the slices: it pads missing dimensions
// with full slices and clamps each range to the dimension, rebuilding every
// slice with Slice::new (whose assert rejects a zero step).
func intoSlices(shape []int64, slices []Slice) ([]Slice, *Failure) {
	if len(slices) > len(shape) {
		return nil, rustPanic(IDTooManySlices,
			"Too many slices provided for shape, got "+itoa(len(slices))+" but expected at most "+itoa(len(shape)),
			at(sliceFile, 23))
	}
	out := make([]Slice, len(shape))
	for i, size := range shape {
		s := FullSlice()
		if i < len(slices) {
			s = slices[i]
		}
		start, end := s.toRange(size)
		if s.Step == 0 {
			return nil, rustPanic(IDSliceStepZero, "Step cannot be zero", at(sliceFile, 396))
		}
		out[i] = Slice{Start: start, End: end, HasEnd: true, Step: s.Step}
	}
	return out, nil
}

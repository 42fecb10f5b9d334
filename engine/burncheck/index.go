package burncheck

// DimIndex is check.rs's unwrap_dim_index over AsIndex::try_dim_index: it
// resolves a dim argument of a rank-`rank` tensor, where a negative dim
// counts from the end (-1 is the last dim), and fails with op as the
// operation name ("Sum Dim", "Softmax", ...) when the dim is out of range.
// The message quotes the dim as written, negative or not:
// "BoundsError: dimension -3 out of bounds: 0..2".
func DimIndex(op string, dim int64, rank int) (int, *Failure) {
	size := int64(rank)
	if size <= 0 {
		return 0, dimOutOfBounds(op, dim, 0)
	}
	resolved := dim
	if resolved < 0 {
		resolved += size
	}
	if resolved < 0 || resolved >= size {
		return 0, dimOutOfBounds(op, dim, size)
	}
	return int(resolved), nil
}

// dimOutOfBounds renders BoundsError::Index for a dimension, whose Display
// prints the valid range with Range's Debug ("0..2").
func dimOutOfBounds(op string, dim, size int64) *Failure {
	return single(op, "bt-check-dim-index",
		"BoundsError: dimension "+i64toa(dim)+" out of bounds: 0.."+i64toa(size))
}

// Reshape is Shape::reshape followed by check.rs's unwrap_shape_reshape,
// which every Tensor::reshape runs. Args are the target dims as written: a
// positive dim is taken as is, 0 keeps the source dim at that position and
// one -1 is inferred. It returns the resolved target shape.
//
// unwrap_shape_reshape is not #[track_caller] and holds its own check!, so
// Rust reports these failures at check.rs:1497 whoever called reshape.
func Reshape(shape, args []int64) ([]int64, *Failure) {
	infer := -1
	dims := make([]int64, 0, len(args))
	newSize := int64(1)
	for i, s := range args {
		switch {
		case s > 0:
			newSize *= s
			dims = append(dims, s)
		case s == 0:
			if i >= len(shape) {
				// Shape::reshape indexes the source dims without a check,
				// `self.dims[idx]` (cubecl-zspace shape.rs:420). The index
				// chain inherits core::ops::Index's #[track_caller] down to
				// that line, which is not in a #[track_caller] fn, so Rust
				// reports it there, as it reports the division at 463.
				return nil, indexOutOfBounds(len(shape), i, at(shapeFile, 420))
			}
			newSize *= shape[i]
			dims = append(dims, shape[i])
		case s == -1:
			if infer >= 0 {
				return nil, reshapeFailure("Repeated -1 in reshape")
			}
			infer = i
			dims = append(dims, 1)
		default:
			return nil, reshapeFailure("The given shape cannot contain negative dimensions (other than -1).")
		}
	}
	sourceSize := numElements(shape)
	if infer < 0 {
		if sourceSize != newSize {
			return nil, reshapeFailure("The given shape doesn't have the same number of elements as the current shape. Current shape: " +
				debugList(shape) + ", target shape: " + debugList(dims) + ".")
		}
		return dims, nil
	}
	if newSize == 0 {
		if sourceSize != 0 {
			return nil, reshapeFailure(cannotInfer(shape, args))
		}
		return nil, rustPanic(IDDivideByZero, "attempt to divide by zero", at(shapeFile, 463))
	}
	if sourceSize%newSize != 0 {
		return nil, reshapeFailure(cannotInfer(shape, args))
	}
	dims[infer] = sourceSize / newSize
	return dims, nil
}

func cannotInfer(shape, args []int64) string {
	return "Cannot infer a valid target shape. Current shape: " + debugList(shape) + ", target dimensions: " + debugList(args) + "."
}

func reshapeFailure(reason string) *Failure {
	f := single("Reshape", "bt-check-reshape", reason)
	f.Location = at(checkFile, 1497)
	return f
}

package tensor

import (
	"errors"
	"fmt"
)

// The errors an operation returns when its inputs cannot be computed.
// Package dispatch runs Burn's own checks first and reports Burn's panics
// itself, so these mean the caller should carry the result as a shape
// only; they never stand in for one of Burn's messages.
var (
	// ErrShape: shapes that do not fit the operation (rank, broadcast,
	// element count, dim out of range).
	ErrShape = errors.New("tensor: shapes do not fit the operation")
	// ErrKind: an input of the wrong kind or dtype (an int tensor where a
	// float one is needed, a non-bool mask).
	ErrKind = errors.New("tensor: input of the wrong kind")
	// ErrIndex: an index tensor naming a position outside the tensor. Burn
	// leaves this to the backend, which may read garbage or abort.
	ErrIndex = errors.New("tensor: index out of range")
	// ErrIntDivideByZero: an integer division or remainder by zero, which
	// Rust's integer arithmetic panics on and GPU backends leave undefined.
	ErrIntDivideByZero = errors.New("tensor: integer division by zero")
	// ErrUnknownOp: a method name the package has no kernel for.
	ErrUnknownOp = errors.New("tensor: no kernel for this operation")
	// ErrBudget: the run's element budget is spent.
	ErrBudget = errors.New("tensor: element budget spent")
	// ErrNotTracked: backward on a tensor no autodiff graph records.
	ErrNotTracked = errors.New("tensor: backward on a tensor without a graph")
	// ErrNotLeaf: require_grad on a tensor computed from tracked ones.
	ErrNotLeaf = errors.New("tensor: require_grad on a non-leaf tensor")
	// ErrDistribution: a distribution rand would refuse to build.
	ErrDistribution = errors.New("tensor: invalid distribution parameters")
)

func shapeError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrShape, fmt.Sprintf(format, args...))
}

func kindError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrKind, fmt.Sprintf(format, args...))
}

package burncheck

import (
	"strconv"
	"strings"
)

// Failure is a failed TensorCheck: the panic Burn raises before an operation
// reaches dispatch.
type Failure struct {
	// ID is the panics.tsv id of the condition that failed first, such as
	// "bt-check-matmul-inner". Panics on the same path that panics.tsv does
	// not list (Rust's own index and arithmetic panics, burn-std's slice
	// asserts) use the ids in the constants below.
	ID string
	// IDs lists every failed condition in the order TensorCheck registered
	// them; the message numbers them in the same order.
	IDs []string
	// Message is the full panic text, exactly as Burn prints it.
	Message string
	// Location is "crates/...rs:LINE", the place Rust reports. check! is a
	// macro, so Rust reports the line of the check! invocation inside the
	// calling Tensor method, not a line of check.rs. The check-level
	// functions cannot know their caller and leave Location empty (except
	// Reshape, whose check! sits in check.rs itself); the Tensor* validators
	// fill it in from the site table.
	Location string
}

func (f *Failure) Error() string { return f.Message }

// Ids of panics on check paths that panics.tsv does not list.
const (
	// IDIndexOutOfBounds is Rust's "index out of bounds: the len is N but the index is I".
	IDIndexOutOfBounds = "rust-index-out-of-bounds"
	// IDRangeEndOutOfRange is Rust's "range end index E out of range for slice of length N".
	IDRangeEndOutOfRange = "rust-range-end-out-of-range"
	// IDCopyFromSliceLength is Rust's copy_from_slice length mismatch.
	IDCopyFromSliceLength = "rust-copy-from-slice-length"
	// IDSubtractOverflow is Rust's "attempt to subtract with overflow" (debug builds).
	IDSubtractOverflow = "rust-subtract-overflow"
	// IDDivideByZero is Rust's "attempt to divide by zero".
	IDDivideByZero = "rust-divide-by-zero"
	// IDTooManySlices is burn-std's assert in SliceArg::into_slices.
	IDTooManySlices = "bstd-slice-too-many"
	// IDSliceStepZero is burn-std's assert that a Slice step is not zero.
	IDSliceStepZero = "bstd-slice-step-zero"
)

// Burn's source files that hold the check sites, relative to the
// repository root as Rust reports them.
const (
	checkFile = "crates/burn-tensor/src/tensor/api/check.rs"
	sliceFile = "crates/burn-std/src/tensor/slice.rs"
	shapeFile = "crates/cubecl-zspace/src/shape.rs"
)

func at(file string, line int) string { return file + ":" + strconv.Itoa(line) }

// tensorError is one registered condition: TensorError in check.rs.
type tensorError struct {
	id          string
	description string
	details     string
	hasDetails  bool
}

// tensorCheck accumulates failed conditions like TensorCheck::register: every
// registration replaces the operation name, so a message names the operation
// of the last failed condition.
type tensorCheck struct {
	op     string
	errors []tensorError
}

func (c *tensorCheck) register(op, id, description string) {
	c.op = op
	c.errors = append(c.errors, tensorError{id: id, description: description})
}

func (c *tensorCheck) registerDetailed(op, id, description, details string) {
	c.op = op
	c.errors = append(c.errors, tensorError{id: id, description: description, details: details, hasDetails: true})
}

func (c *tensorCheck) failed() bool { return len(c.errors) > 0 }

// failure renders the collected conditions the way FailedTensorCheck::format
// does, or returns nil when every condition held.
func (c *tensorCheck) failure() *Failure {
	if !c.failed() {
		return nil
	}
	var b strings.Builder
	b.WriteString("=== Tensor Operation Error ===\n  Operation: '")
	b.WriteString(c.op)
	b.WriteString("'\n  Reason:")
	ids := make([]string, len(c.errors))
	for i, e := range c.errors {
		ids[i] = e.id
		b.WriteString("\n    ")
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". ")
		b.WriteString(e.description)
		b.WriteString(" ")
		if e.hasDetails {
			b.WriteString(e.details)
			b.WriteString(" ")
		}
	}
	b.WriteString("\n")
	return &Failure{ID: ids[0], IDs: ids, Message: b.String()}
}

// single builds the failure of a check with one condition.
func single(op, id, description string) *Failure {
	var c tensorCheck
	c.register(op, id, description)
	return c.failure()
}

// rustPanic is a panic raised by the language or by an assert on a check path
// rather than by TensorCheck.
func rustPanic(id, message, location string) *Failure {
	return &Failure{ID: id, IDs: []string{id}, Message: message, Location: location}
}

// indexOutOfBounds is Rust's bounds check at location. Indexing an array,
// a slice, a Vec or a Shape reports the line of the indexing expression:
// core::ops::Index::index and IndexMut::index_mut are #[track_caller] in
// the trait, which every impl inherits (Shape's in cubecl-zspace, which
// forwards to smallvec's, which forwards to the slice's), so the location
// is the first caller outside that chain, Burn's line.
func indexOutOfBounds(length, index int, location string) *Failure {
	return rustPanic(IDIndexOutOfBounds,
		"index out of bounds: the len is "+strconv.Itoa(length)+" but the index is "+strconv.Itoa(index), location)
}

// usize prints a value Burn holds as usize. Go callers pass int64; a negative
// value cannot reach Burn (a negative literal where Rust expects usize does
// not compile, and `x as usize` wraps), so it prints as the wrapped value.
func usize(v int64) string { return strconv.FormatUint(uint64(v), 10) }

func itoa(v int) string { return strconv.Itoa(v) }

func i64toa(v int64) string { return strconv.FormatInt(v, 10) }

// debugList prints a slice of integers as Rust's {:?} of a slice, Vec or
// array: "[2, 3]".
func debugList(values []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(v, 10))
	}
	b.WriteByte(']')
	return b.String()
}

func debugInts(values []int) string {
	wide := make([]int64, len(values))
	for i, v := range values {
		wide[i] = int64(v)
	}
	return debugList(wide)
}

// debugShape prints burn_std::Shape with {:?}. Shape derives Debug over its
// one field, so it prints "Shape { dims: [2, 3] }"; its Display is the bare
// list.
func debugShape(dims []int64) string { return "Shape { dims: " + debugList(dims) + " }" }

func debugShapes(shapes [][]int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range shapes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(debugShape(s))
	}
	b.WriteByte(']')
	return b.String()
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func numElements(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}

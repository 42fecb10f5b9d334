package tensor

import (
	"math"
	"strconv"
	"strings"
)

// TensorData's test assertions (crates/burn-std/src/data/compare.rs).
// Each returns the message Burn panics with, or "" when the assertion
// holds; the caller raises the panic at the user's call site.

// maxReportedDiffs is how many differing positions a failed assertion
// lists before counting the rest.
const maxReportedDiffs = 5

// AssertEq is TensorData::assert_eq(&other, strict). Strict compares the
// dtypes first; then other's values are read as self's element type and
// compared exactly, so NaN never equals NaN.
func (d *Data) AssertEq(other *Data, strict bool) string {
	if strict && d.DType != other.DType {
		return "assertion `left == right` failed: Data types differ (" + d.DType.String() + " != " +
			other.DType.String() + ")\n  left: " + d.DType.String() + "\n right: " + other.DType.String()
	}
	var msg strings.Builder
	shapeDiff(&msg, d, other)
	conv := other.Cast(d.DType)
	diffs := 0
	for i := range min(d.NumElements(), conv.NumElements()) {
		var equal bool
		switch {
		case d.DType.IsFloat():
			equal = d.F[i] == conv.F[i]
		case d.DType.IsInt():
			equal = d.I[i] == conv.I[i]
		default:
			equal = d.B[i] == conv.B[i]
		}
		if equal {
			continue
		}
		if diffs < maxReportedDiffs {
			msg.WriteString("\n  => Position " + strconv.Itoa(i) + ": " + d.elemDisplay(i) + " != " + conv.elemDisplay(i))
		}
		diffs++
	}
	moreErrors(&msg, diffs)
	if msg.Len() == 0 {
		return ""
	}
	return "Tensors are not eq:" + msg.String()
}

func shapeDiff(msg *strings.Builder, a, b *Data) {
	if !sameShape(a.Shape, b.Shape) {
		msg.WriteString("\n  => Shape is different: Shape { dims: " + dimsDebug(a.Shape) +
			" } != Shape { dims: " + dimsDebug(b.Shape) + " }")
	}
}

func moreErrors(msg *strings.Builder, diffs int) {
	if diffs >= maxReportedDiffs {
		msg.WriteString("\n" + strconv.Itoa(diffs-maxReportedDiffs) + " more errors...")
	}
}

// Tolerance is burn_std::Tolerance<F>: Elem is F (F64, F32, F16 or BF16),
// the type the comparison reads both sides as; the bounds are held in F.
type Tolerance struct {
	Relative, Absolute float64
	Elem               DType
}

// DefaultTolerance is Tolerance::default(), the balanced one: 0.5%
// relative, 1e-5 absolute.
func DefaultTolerance(elem DType) Tolerance { return RelAbsTolerance(elem, 0.005, 1e-5) }

// StrictTolerance is Tolerance::strict(): no relative slack, 64 times F's
// smallest positive normal absolute.
func StrictTolerance(elem DType) Tolerance {
	minPositive := map[DType]float64{
		F64: 0x1p-1022, F32: 0x1p-126, F16: 0x1p-14, BF16: 0x1p-126,
	}[elem]
	return RelAbsTolerance(elem, 0, 64*minPositive)
}

// PermissiveTolerance is Tolerance::permissive(): 1% relative, 0.01
// absolute.
func PermissiveTolerance(elem DType) Tolerance { return RelAbsTolerance(elem, 0.01, 0.01) }

// RelAbsTolerance is Tolerance::rel_abs(relative, absolute); relative(r)
// and absolute(a) are this with the other bound 0.
func RelAbsTolerance(elem DType, relative, absolute float64) Tolerance {
	return Tolerance{Relative: elem.roundFloat(relative), Absolute: elem.roundFloat(absolute), Elem: elem}
}

// approxEq is Tolerance::approx_eq, computed in F.
func (t Tolerance) approxEq(x, y float64) bool {
	if x == y {
		return true
	}
	r := t.Elem.roundFloat
	diff := r(math.Abs(x - y))
	largest := math.Max(math.Abs(x), math.Abs(y))
	return diff < math.Max(t.Absolute, r(t.Relative*largest))
}

// AssertApproxEq is TensorData::assert_approx_eq::<F>(&other, tolerance):
// both sides read as F; NaNs match NaNs and infinities of one sign match.
func (d *Data) AssertApproxEq(other *Data, tol Tolerance) string {
	var msg strings.Builder
	shapeDiff(&msg, d, other)
	a, b := d.Cast(tol.Elem), other.Cast(tol.Elem)
	bits := floatBits(tol.Elem)
	r := tol.Elem.roundFloat
	diffs := 0
	for i := range min(a.NumElements(), b.NumElements()) {
		x, y := a.F[i], b.F[i]
		bothNaN := math.IsNaN(x) && math.IsNaN(y)
		bothInf := math.IsInf(x, 0) && math.IsInf(y, 0) && (x > 0) == (y > 0)
		if bothNaN || bothInf || tol.approxEq(x, y) {
			continue
		}
		if diffs < maxReportedDiffs {
			diffAbs := r(math.Abs(x - y))
			diffRel := diffAbs / math.Max(math.Abs(x), math.Abs(y))
			msg.WriteString("\n  => Position " + strconv.Itoa(i) + ": " + DisplayFloat(x, bits) + " != " + DisplayFloat(y, bits) +
				"\n     diff (rel = " + ExpFloat(diffRel, 64, 2, true) + ", abs = " + ExpFloat(diffAbs, 64, 2, true) +
				"), tol (rel = " + ExpFloat(tol.Relative, 64, 2, true) + ", abs = " + ExpFloat(tol.Absolute, 64, 2, true) + ")")
		}
		diffs++
	}
	moreErrors(&msg, diffs)
	if msg.Len() == 0 {
		return ""
	}
	return "Tensors are not approx eq:" + msg.String()
}

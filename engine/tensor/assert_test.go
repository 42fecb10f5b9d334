package tensor

import (
	"math"
	"strings"
	"testing"
)

func TestAssertApproxEqLikeBurnsTests(t *testing.T) {
	// crates/burn-std/src/data/compare.rs tests: literal floats are f64
	// TensorData, compared as f32 (and f16).
	a := mustFloats(t, []float64{3.0, 5.0, 6.0}, []int{1, 3}, F64).IntoData()
	near := mustFloats(t, []float64{3.03, 5.0, 6.0}, []int{1, 3}, F64).IntoData()
	if msg := a.AssertApproxEq(near, RelAbsTolerance(F32, 0, 3e-2)); msg != "" {
		t.Errorf("within 3e-2 as f32: %s", msg)
	}
	if msg := a.AssertApproxEq(near, RelAbsTolerance(F16, 0, 3e-2)); msg != "" {
		t.Errorf("within 3e-2 as f16: %s", msg)
	}
	far := mustFloats(t, []float64{3.031, 5.0, 6.0}, []int{1, 3}, F64).IntoData()
	want := "Tensors are not approx eq:\n" +
		"  => Position 0: 3 != 3.031\n" +
		"     diff (rel = +1.02e-2, abs = +3.10e-2), tol (rel = +0.00e0, abs = +1.00e-2)"
	if msg := a.AssertApproxEq(far, RelAbsTolerance(F32, 0, 1e-2)); msg != want {
		t.Errorf("got\n%s\nwant\n%s", msg, want)
	}
	longer := mustFloats(t, []float64{3.0, 5.0, 6.0, 7.0}, []int{1, 4}, F64).IntoData()
	msg := longer.AssertApproxEq(a, RelAbsTolerance(F32, 0, 1e-2))
	if msg != "Tensors are not approx eq:\n  => Shape is different: Shape { dims: [1, 4] } != Shape { dims: [1, 3] }" {
		t.Errorf("shape check: %q", msg)
	}
}

func TestAssertApproxEqSpecialValues(t *testing.T) {
	x := Full([]int{2}, F32, FloatScalar(math.NaN())).IntoData()
	if msg := x.AssertApproxEq(x, DefaultTolerance(F32)); msg != "" {
		t.Errorf("NaN matches NaN in assert_approx_eq: %s", msg)
	}
	if msg := x.AssertEq(x, true); !strings.HasPrefix(msg, "Tensors are not eq:\n  => Position 0: NaN != NaN") {
		t.Errorf("NaN never equals NaN in assert_eq: %q", msg)
	}
	tol := DefaultTolerance(F32)
	if !tol.approxEq(1000, 1004.9) || tol.approxEq(1000, 1005.1) {
		t.Error("the balanced tolerance is 0.5% relative")
	}
	if !tol.approxEq(0, 9e-6) || tol.approxEq(0, 1.1e-5) {
		t.Error("the balanced tolerance is 1e-5 absolute")
	}
}

func TestAssertEq(t *testing.T) {
	a := mustInts(t, []int64{1, 2, 3}, []int{3}, I32).IntoData()
	if msg := a.AssertEq(a, true); msg != "" {
		t.Errorf("equal data: %s", msg)
	}
	b := mustInts(t, []int64{1, 2, 4}, []int{3}, I32).IntoData()
	if msg := a.AssertEq(b, true); msg != "Tensors are not eq:\n  => Position 2: 3 != 4" {
		t.Errorf("got %q", msg)
	}
	f := mustFloats(t, []float64{1, 2, 3}, []int{3}, F64).IntoData()
	want := "assertion `left == right` failed: Data types differ (I32 != F64)\n  left: I32\n right: F64"
	if msg := a.AssertEq(f, true); msg != want {
		t.Errorf("strict dtypes: %q", msg)
	}
	if msg := a.AssertEq(f, false); msg != "" {
		t.Errorf("non-strict reads the other side as i32: %q", msg)
	}
	// Floats print with Display: 1 and 1.5, not 1.0.
	x := mustFloats(t, []float64{1, 1, 1, 1, 1, 1, 1}, []int{7}, F32).IntoData()
	y := mustFloats(t, []float64{1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5}, []int{7}, F32).IntoData()
	msg := x.AssertEq(y, true)
	if !strings.HasPrefix(msg, "Tensors are not eq:\n  => Position 0: 1 != 1.5\n") ||
		!strings.HasSuffix(msg, "  => Position 4: 1 != 1.5\n2 more errors...") ||
		strings.Contains(msg, "Position 5") {
		t.Errorf("five positions then a count:\n%s", msg)
	}
	exactlyFive := mustFloats(t, []float64{2, 2, 2, 2, 2}, []int{5}, F32).IntoData()
	ones := Ones([]int{5}, F32).IntoData()
	if msg := ones.AssertEq(exactlyFive, true); !strings.HasSuffix(msg, "\n0 more errors...") {
		t.Errorf("Burn counts the rest even when none remain:\n%s", msg)
	}
}

func TestDataEqualAndToVec(t *testing.T) {
	a := mustFloats(t, []float64{0, 1}, []int{2}, F32).IntoData()
	negZero := mustFloats(t, []float64{math.Copysign(0, -1), 1}, []int{2}, F32).IntoData()
	if a.Equal(negZero) {
		t.Error("PartialEq compares bytes: 0.0 and -0.0 differ")
	}
	if !a.Equal(mustFloats(t, []float64{0, 1}, []int{2}, F32).IntoData()) {
		t.Error("equal data")
	}
	if a.Equal(mustFloats(t, []float64{0, 1}, []int{2}, F64).IntoData()) {
		t.Error("dtypes differ")
	}
	if a.Equal(mustFloats(t, []float64{0, 1}, []int{1, 2}, F32).IntoData()) {
		t.Error("shapes differ")
	}
	if _, err := a.ToVec(F32); err != nil {
		t.Error(err)
	}
	_, err := a.ToVec(F64)
	de, ok := err.(*DataError)
	if !ok || de.Error() != "Expected data type F64, but got F32" || de.Debug() != "DTypeMismatch { expected: F64, actual: F32 }" {
		t.Errorf("to_vec::<f64>() of f32 data: %v", err)
	}
	bools := Full([]int{2}, BoolU8, IntScalar(1)).IntoData()
	if v, err := bools.ToVec(U8); err != nil || v.I[0] != 1 {
		t.Errorf("a Bool(U8) store reads as u8: %v %v", v, err)
	}
	if _, err := bools.ToVec(BoolNative); err == nil {
		t.Error("a Bool(U8) store does not read as bool")
	}
}

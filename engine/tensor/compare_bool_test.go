package tensor

import (
	"slices"
	"testing"
)

// A Bool tensor's equal_elem and not_equal_elem compare with the scalar
// as a bool, non-zero true; the ordered comparisons have no Bool form.
func TestCompareScalarOfBools(t *testing.T) {
	b, err := FromBools([]bool{true, false, true}, []int{3}, BoolNative)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method string
		s      Scalar
		want   []bool
	}{
		{"equal_elem", IntScalar(0), []bool{false, true, false}},
		{"equal_elem", IntScalar(1), []bool{true, false, true}},
		{"not_equal_elem", IntScalar(2), []bool{false, true, false}},
		{"not_equal_elem", IntScalar(0), []bool{true, false, true}},
	} {
		got, err := CompareScalar(c.method, b, c.s, BoolNative)
		if err != nil || !slices.Equal(got.B, c.want) {
			t.Errorf("%s(%v) = %v %v, want %v", c.method, c.s, got, err, c.want)
		}
	}
	if _, err := CompareScalar("greater_elem", b, IntScalar(0), BoolNative); err == nil {
		t.Error("greater_elem of a Bool tensor")
	}
}

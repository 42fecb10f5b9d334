package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Values worked by hand, with the widths: an i32 shifted past 31 bits
// keeps the low 32 bits of the i64 result, a u8's not is 255 - x, and a
// scalar is narrowed to the dtype first.
func TestBitwiseValues(t *testing.T) {
	a := mustInts(t, []int64{12, -1, 5}, []int{3}, I32)
	b := mustInts(t, []int64{10, 3, 33}, []int{3}, I32)
	cases := []struct {
		method string
		want   []int64
	}{
		{"bitwise_and", []int64{8, 3, 1}},
		{"bitwise_or", []int64{14, -1, 37}},
		{"bitwise_xor", []int64{6, -4, 36}},
		// 5 << 33 in i64 is 2^35 + 2^33, whose low 32 bits are 0.
		{"bitwise_left_shift", []int64{12 << 10, -8, 0}},
		{"bitwise_right_shift", []int64{0, -1, 0}},
	}
	for _, c := range cases {
		got, err := Bitwise(c.method, a, b, Scalar{})
		if err != nil || !slices.Equal(got.I, c.want) {
			t.Errorf("%s = %v %v, want %v", c.method, got, err, c.want)
		}
	}
	u := mustInts(t, []int64{0, 7, 200}, []int{3}, U8)
	not, _ := Bitwise("bitwise_not", u, nil, Scalar{})
	if !slices.Equal(not.I, []int64{255, 248, 55}) {
		t.Errorf("u8 not = %v", not.I)
	}
	// 0x1FF narrows to u8 0xFF before the and.
	and, _ := Bitwise("bitwise_and_scalar", u, nil, IntScalar(0x1FF))
	if !slices.Equal(and.I, []int64{0, 7, 200}) {
		t.Errorf("u8 and 0x1FF = %v", and.I)
	}
	shl, _ := Bitwise("bitwise_left_shift_scalar", u, nil, IntScalar(1))
	if !slices.Equal(shl.I, []int64{0, 14, 144}) {
		t.Errorf("u8 << 1 = %v", shl.I)
	}
	row := mustInts(t, []int64{1, 2}, []int{1, 2}, I64)
	col := mustInts(t, []int64{3, 4}, []int{2, 1}, I64)
	or, err := Bitwise("bitwise_or", row, col, Scalar{})
	if err != nil || !slices.Equal(or.I, []int64{3, 3, 5, 6}) || !slices.Equal(or.Shape, []int{2, 2}) {
		t.Errorf("broadcast or = %v %v", or, err)
	}
	if _, err := Bitwise("bitwise_and", mustFloats(t, []float64{1}, []int{1}, F32), nil, Scalar{}); err == nil {
		t.Error("bitwise_and of a Float tensor")
	}
}

// Against Go's own operators on the dtype's type, at random values.
func TestBitwiseAgainstNativeTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 9))
	for range 200 {
		x, y := int64(r.Int32()), int64(r.IntN(40))
		a := mustInts(t, []int64{x}, []int{1}, I32)
		b := mustInts(t, []int64{y}, []int{1}, I32)
		x32 := int32(x)
		want := map[string]int64{
			"bitwise_and": int64(x32 & int32(y)), "bitwise_or": int64(x32 | int32(y)), "bitwise_xor": int64(x32 ^ int32(y)),
			"bitwise_left_shift": int64(int32(int64(x32) << y)), "bitwise_right_shift": int64(int32(int64(x32) >> y)),
		}
		for m, w := range want {
			got, err := Bitwise(m, a, b, Scalar{})
			if err != nil || got.I[0] != w {
				t.Fatalf("%s(%d, %d) = %v, want %d", m, x, y, got, w)
			}
			gs, _ := Bitwise(m+"_scalar", a, nil, IntScalar(y))
			if gs.I[0] != w {
				t.Fatalf("%s_scalar(%d, %d) = %d, want %d", m, x, y, gs.I[0], w)
			}
		}
		u := mustInts(t, []int64{int64(uint32(x))}, []int{1}, U32)
		not, _ := Bitwise("bitwise_not", u, nil, Scalar{})
		if not.I[0] != int64(^uint32(x)) || not.I[0] > math.MaxUint32 {
			t.Fatalf("u32 not %d = %d", uint32(x), not.I[0])
		}
	}
}

package tensor

import (
	"errors"
	"math"
	"testing"
)

func q8s() QuantScheme { return DefaultQuantScheme().WithValue(Q8S) }

func perBlock(t *testing.T, s QuantScheme, block []uint8, d ScaleDtype) QuantScheme {
	t.Helper()
	out, err := s.PerBlock(block, d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The quantized values and scales of Burn's own tests and hand-computed
// ones: scale = 2·max|x|/(b−a) in f32, q = round(x/scale) clamped.
func TestQuantizeDynamicValues(t *testing.T) {
	cases := []struct {
		name   string
		values []float32
		shape  []int
		scheme QuantScheme
		q      []int8
		scales []float32
	}{
		{"per-tensor Q8S", []float32{0, 1, 2, 3, 4, 5}, []int{2, 3}, q8s(),
			[]int8{0, 25, 51, 76, 102, 127}, []float32{float32(10) / 254}},
		{"Burn's representable values", []float32{5, 0, 4, -12.7}, []int{4}, q8s(),
			[]int8{50, 0, 40, -127}, []float32{float32(-12.7) * -2 / 254}},
		{"Q8F spans 255 steps", []float32{-5, -2.5, 0, 2.5, 5, 7.5}, []int{6}, DefaultQuantScheme(),
			[]int8{-85, -43, 0, 43, 85, 127}, []float32{float32(15) / 255}},
		// 0.5 · f32(1/(2/14)) = 3.4999998 in f32, so it rounds to 3, not 4.
		{"Q4S in f32", []float32{-1, 0.5, 1}, []int{3}, DefaultQuantScheme().WithValue(Q4S),
			[]int8{-7, 3, 7}, []float32{float32(2) / 14}},
		{"blocks of 4", []float32{-2, -1, 0, 1, 4, 5, 6, 7}, []int{8}, perBlock(t, q8s(), []uint8{4}, ScaleF32),
			[]int8{-127, -64, 0, 64, 73, 91, 109, 127}, []float32{float32(4) / 254, float32(14) / 254}},
		{"a [2, 2] block is a rectangle", []float32{1, 1, 10, 10, 1, 1, 10, 10}, []int{2, 4}, perBlock(t, q8s(), []uint8{2, 2}, ScaleF32),
			[]int8{127, 127, 127, 127, 127, 127, 127, 127}, []float32{float32(2) / 254, float32(20) / 254}},
		{"all zero takes the smallest normal scale", []float32{0, 0}, []int{2}, q8s(),
			[]int8{0, 0}, []float32{math.Float32frombits(0x00800000)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := QuantizeDynamic(c.values, c.shape, c.scheme)
			if err != nil {
				t.Fatal(err)
			}
			if string(int8Bytes(q.Q)) != string(int8Bytes(c.q)) {
				t.Errorf("values %v, want %v", q.Q, c.q)
			}
			if len(q.Scales) != len(c.scales) {
				t.Fatalf("scales %v, want %v", q.Scales, c.scales)
			}
			for i := range c.scales {
				if q.Scales[i] != c.scales[i] {
					t.Errorf("scale %d = %v, want %v", i, q.Scales[i], c.scales[i])
				}
			}
			if q.Scheme.Store != (QuantStore{}) {
				t.Errorf("Flex keeps its values Native, got %s", q.Scheme.Store)
			}
		})
	}
}

func int8Bytes(v []int8) []byte {
	out := make([]byte, len(v))
	for i, x := range v {
		out[i] = byte(x)
	}
	return out
}

func TestQuantizeWithScalesAndDequantize(t *testing.T) {
	scale := float32(0.014173228)
	q, err := Quantize([]float32{-1.8, -1.0, 0, 0.5}, []int{4}, q8s(), []float32{scale}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int8{-127, -71, 0, 35}; string(int8Bytes(q.Q)) != string(int8Bytes(want)) {
		t.Fatalf("values %v, want %v", q.Q, want)
	}
	got := q.Dequantize()
	for i, x := range []int8{-127, -71, 0, 35} {
		if want := scale * float32(x); got[i] != want {
			t.Errorf("dequantized %d = %v, want %v", i, got[i], want)
		}
	}
	if _, err := Quantize([]float32{1}, []int{1}, q8s(), nil, nil); err == nil {
		t.Error("no scale must be refused")
	}
	if _, err := QuantizeDynamic([]float32{1}, []int{1}, DefaultQuantScheme().WithValue(E4M3)); !errors.Is(err, ErrQuantValue) {
		t.Errorf("float8 values are not modelled: %v", err)
	}
}

func TestTwoLevelQuantization(t *testing.T) {
	s := perBlock(t, q8s(), []uint8{4}, ScaleUE4M3).PerTensor(ScaleF32)
	values := []float32{1, 2, 3, 4, 0.1, 0.2, 0.3, 0.4}
	q, err := QuantizeDynamic(values, []int{8}, s)
	if err != nil {
		t.Fatal(err)
	}
	if !q.HasGlobal {
		t.Fatal("a two-level scheme keeps a per-tensor scale")
	}
	// global = (2·4/254)/448; the first block's scale lands on 448.
	if want := (float32(8) / 254) / 448; q.Global != want {
		t.Errorf("global %v, want %v", q.Global, want)
	}
	if q.Scales[0] != 448 {
		t.Errorf("the largest block scale should be e4m3's maximum, got %v", q.Scales[0])
	}
	for i, v := range q.Dequantize() {
		if math.Abs(float64(v-values[i])) > 0.02 {
			t.Errorf("dequantized %d = %v, want about %v", i, v, values[i])
		}
	}
}

func TestScaleRoundUp(t *testing.T) {
	cases := []struct {
		d        ScaleDtype
		in, want float32
		ok       bool
	}{
		{ScaleF32, 0.1, 0.1, true},
		{ScaleUE4M3, float32(4.5) / 127, 0.0390625, true},
		{ScaleUE4M3, 0.5, 0.5, true},
		{ScaleUE4M3, 1000, 448, true},
		{ScaleUE4M3, 0.001, 0.001953125, true},
		{ScaleF16, 0.1, 0.10003662109375, true},
		{ScaleBF16, 1, 1, true},
		{ScaleBF16, 1.001, 1.0078125, true},
		{ScaleUE8M0, 0.3, 0, false},
	}
	for _, c := range cases {
		got, ok := c.d.RoundUp(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("%s.round_up(%v) = %v, %v; want %v, %v", c.d, c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestQuantSchemeDebugAndBuilders(t *testing.T) {
	cases := []struct {
		s    QuantScheme
		want string
	}{
		{DefaultQuantScheme(), "QuantScheme { value: Q8F, store: PackedU32(0), mode: Symmetric, tensor: None, block: None }"},
		{q8s().WithStore(QuantStore{}), "QuantScheme { value: Q8S, store: Native, mode: Symmetric, tensor: None, block: None }"},
		{perBlock(t, q8s(), []uint8{1, 32}, ScaleF16).PerTensor(ScaleF32),
			"QuantScheme { value: Q8S, store: PackedU32(0), mode: Symmetric, tensor: Some(F32), block: Some(BlockScale { size: BlockSize([32]), dtype: F16 }) }"},
		{perBlock(t, q8s(), []uint8{4, 32}, ScaleF32).SwapBlockDims(2, 0, 1),
			"QuantScheme { value: Q8S, store: PackedU32(0), mode: Symmetric, tensor: None, block: Some(BlockScale { size: BlockSize([32, 4]), dtype: F32 }) }"},
		{perBlock(t, q8s(), []uint8{1, 4, 32}, ScaleF32).PermuteBlockDims(3, []int{2, 0, 1}),
			"QuantScheme { value: Q8S, store: PackedU32(0), mode: Symmetric, tensor: None, block: Some(BlockScale { size: BlockSize([32, 1, 4]), dtype: F32 }) }"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	if _, err := q8s().PerBlock([]uint8{2, 2, 2, 2, 2, 2}, ScaleF32); !errors.Is(err, ErrBlockCap) {
		t.Errorf("six block dims: %v", err)
	}
	if d, ok := DefaultQuantScheme().TensorScale(); !ok || d != ScaleF32 {
		t.Error("a scheme without levels resolves to a per-tensor f32 scale")
	}
	if _, ok := perBlock(t, q8s(), []uint8{4}, ScaleF32).GlobalScaleDtype(); ok {
		t.Error("a one-level block scheme has no global scale")
	}
	if DefaultQuantScheme().Equal(DefaultQuantScheme().PerTensor(ScaleF32)) {
		t.Error("an explicit per_tensor(F32) is not the default scheme")
	}
}

func TestCalibration(t *testing.T) {
	lo, hi, shape, err := ComputeRange([]float32{-1.8, -1.0, 0, 0.5}, []int{4}, q8s(), MinMax)
	if err != nil || lo[0] != -1.8 || hi[0] != 0.5 || len(shape) != 1 || shape[0] != 1 {
		t.Errorf("per-tensor min-max: %v %v %v %v", lo, hi, shape, err)
	}
	values := []float32{-1.8, -1.0, 0, 0.5, 1.8, 1.0, 0, -0.5}
	lo, hi, shape, err = ComputeRange(values, []int{2, 4}, perBlock(t, q8s(), []uint8{4}, ScaleF32), MinMax)
	if err != nil || lo[0] != -1.8 || hi[0] != 0.5 || lo[1] != -0.5 || hi[1] != 1.8 || shape[0] != 2 || shape[1] != 1 {
		t.Errorf("per-block min-max: %v %v %v %v", lo, hi, shape, err)
	}
	lo, hi, _, err = ComputeRange([]float32{-0.9, -0.3, 0, 0.6}, []int{4}, q8s(), AbsMean)
	if err != nil || hi[0] != 0.45 || lo[0] != -0.45 {
		t.Errorf("abs-mean: %v %v %v", lo, hi, err)
	}
	var div *BlockDivisibilityError
	if _, _, _, err = ComputeRange(values, []int{8}, perBlock(t, q8s(), []uint8{3}, ScaleF32), MinMax); !errors.As(err, &div) ||
		err.Error() != "Tensor Shape { dims: [8] } must be evenly divisible by block size [3]" {
		t.Errorf("indivisible blocks: %v", err)
	}
	two := perBlock(t, q8s(), []uint8{4}, ScaleUE4M3).PerTensor(ScaleF32)
	if _, _, _, err = ComputeRange(values, []int{8}, two, AbsMean); !errors.Is(err, ErrAbsMeanTwoLevel) {
		t.Errorf("abs-mean of a two-level scheme: %v", err)
	}

	scales, _, has, err := ComputeQParams(q8s(), []float32{0.5}, []float32{1.8})
	if err != nil || has || scales[0] != float32(1.8)*2/254 {
		t.Errorf("per-tensor qparams: %v %v %v", scales, has, err)
	}
	scales, global, has, err := ComputeQParams(two, []float32{-1.8, -0.5, 0.01, -0.04}, []float32{0.5, 1.8, 0.04, -0.01})
	if err != nil || !has || global != float32(1.8)*2/254/448 {
		t.Fatalf("two-level qparams: %v %v %v %v", scales, global, has, err)
	}
	if math.Abs(float64(scales[0]-448)) > 1e-3 || math.Abs(float64(scales[2]*global-float32(0.04)*2/254)) > 1e-9 {
		t.Errorf("normalized scales %v", scales)
	}
	scales, global, _, _ = ComputeQParams(two, []float32{0, 0}, []float32{0, 0})
	if global <= 0 || scales[0] != 0 {
		t.Errorf("an all-zero range keeps a positive global and finite scales: %v %v", scales, global)
	}
	if _, _, _, err := ComputeQParams(perBlock(t, q8s(), []uint8{4}, ScaleF32).PerTensor(ScaleF32), []float32{1}, []float32{1}); err == nil ||
		err.Error() != "block scales in F32 reach f32's range, which a per-tensor scale cannot absorb" {
		t.Errorf("f32 block scales under a global: %v", err)
	}
}

// TestQuantizedDataScales: a per-tensor scheme reads the first of its
// scales (there must be one); a block scheme takes them as given.
func TestQuantizedDataScales(t *testing.T) {
	if _, err := NewQuantizedData([]int8{1, 2}, []int{2}, q8s(), nil, nil); err == nil || err.Error() != "range end index 1 out of range for slice of length 0" {
		t.Errorf("per-tensor with no scale: %v", err)
	}
	block := perBlock(t, q8s(), []uint8{2}, ScaleF32)
	if _, err := NewQuantizedData([]int8{1, 2}, []int{2}, block, nil, nil); err != nil {
		t.Errorf("block scheme with no scales: %v (Burn slices only a per-tensor scheme's)", err)
	}
}

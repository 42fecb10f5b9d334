package tensor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mustFloats(t *testing.T, values []float64, shape []int, dtype DType) *Tensor {
	t.Helper()
	x, err := FromFloats(values, shape, dtype)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func mustInts(t *testing.T, values []int64, shape []int, dtype DType) *Tensor {
	t.Helper()
	x, err := FromInts(values, shape, dtype)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func count(n int, from int64) []int64 {
	values := make([]int64, n)
	for i := range values {
		values[i] = from + int64(i)
	}
	return values
}

// The cases of Burn's display tests
// (crates/burn-backend-tests/tests/tensor/float/stats/display.rs), on the
// Flex backend whose default int dtype is i32. The expected text is in
// testdata/display.
func TestDisplayMatchesBurnsTests(t *testing.T) {
	bools, _ := FromBools([]bool{true, false, true, false, true, false, false, true, true}, []int{3, 3}, BoolNative)
	cases := []struct {
		name string
		x    *Tensor
		opts PrintOptions
	}{
		{"int_2d", mustInts(t, count(9, 1), []int{3, 3}, I32), DefaultPrintOptions()},
		{"float_2d", mustFloats(t, []float64{1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9}, []int{3, 3}, F32), DefaultPrintOptions()},
		{"bool_2d", bools, DefaultPrintOptions()},
		{"int_3d", mustInts(t, count(24, 1), []int{2, 3, 4}, I32), DefaultPrintOptions()},
		{"int_4d", mustInts(t, count(24, 1), []int{2, 2, 2, 3}, I32), DefaultPrintOptions()},
		{"summarize_1", Zeros([]int{2, 2, 2, 1000}, F32), DefaultPrintOptions()},
		{"summarize_2", Zeros([]int{2, 2, 20, 100}, F32), DefaultPrintOptions()},
		{"summarize_3", Zeros([]int{2, 2, 200, 6}, F32), DefaultPrintOptions()},
		{"precision_default", Full([]int{1, 1}, F32, FloatScalar(0.123456789)), DefaultPrintOptions()},
		{"precision_3", Full([]int{3, 2}, F32, FloatScalar(0.123456789)), DefaultPrintOptions().WithPrecision(3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "display", c.name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			got := c.x.Display("Device<Flex(Cpu)>", c.opts)
			if got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestDisplaySummarisesLongRowsAndColumns(t *testing.T) {
	// 40x40 = 1600 elements > 1000: three rows at each end, three values
	// at each end of every row; the ", " after "..." comes from Burn
	// separating on i > 0.
	x := mustInts(t, count(1600, 0), []int{40, 40}, I64)
	got := x.Display("Device<NdArray(Cpu)>", DefaultPrintOptions())
	want := "Tensor {\n  data:\n" +
		"[[0, 1, 2, ..., 37, 38, 39],\n" +
		" [40, 41, 42, ..., 77, 78, 79],\n" +
		" [80, 81, 82, ..., 117, 118, 119],\n" +
		" ...\n" +
		" [1480, 1481, 1482, ..., 1517, 1518, 1519],\n" +
		" [1520, 1521, 1522, ..., 1557, 1558, 1559],\n" +
		" [1560, 1561, 1562, ..., 1597, 1598, 1599]],\n" +
		"  shape:  [40, 40],\n  device:  Device<NdArray(Cpu)>,\n  kind:  \"Int\",\n  dtype:  \"i64\",\n}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Exactly at the threshold nothing is summarised.
	edge := mustInts(t, count(1000, 0), []int{1000}, I32)
	if strings.Contains(edge.Display("d", DefaultPrintOptions()), "...") {
		t.Error("a 1000-element tensor was summarised; Burn summarises above the threshold")
	}
}

func TestDisplayEdgeCases(t *testing.T) {
	cases := []struct {
		name string
		x    *Tensor
		want string
	}{
		{"empty", Zeros([]int{0}, F32), "[]"},
		{"empty rows", Zeros([]int{2, 0}, F32), "[[],\n []]"},
		{"f16 prints through f32", Full([]int{2}, F16, FloatScalar(0.1)), "[0.099975586, 0.099975586]"},
		{"bf16", Full([]int{1}, BF16, FloatScalar(0.1)), "[0.100097656]"},
		{"f64 shortest", Full([]int{1}, F64, FloatScalar(0.1)), "[0.1]"},
		{"exponent below 1e-4", Full([]int{1}, F32, FloatScalar(1e-5)), "[1e-5]"},
		{"bool u8 store", Full([]int{2}, BoolU8, IntScalar(1)), "[true, true]"},
		{"u64 max", Full([]int{1}, U64, IntScalar(-1)), "[18446744073709551615]"},
	}
	for _, c := range cases {
		got := c.x.Display("d", DefaultPrintOptions())
		data := strings.TrimPrefix(got, "Tensor {\n  data:\n")
		data = data[:strings.Index(data, ",\n  shape:")]
		if data != c.want {
			t.Errorf("%s: data block %q, want %q", c.name, data, c.want)
		}
	}
	withPrecision := Full([]int{2}, F32, FloatScalar(2.5)).Display("d", DefaultPrintOptions().WithPrecision(0))
	if !strings.Contains(withPrecision, "[2, 2]") {
		t.Errorf("{:.0} of 2.5 must round half to even: %s", withPrecision)
	}
	if got := Full([]int{1}, BoolU32, IntScalar(0)).Display("d", DefaultPrintOptions()); !strings.Contains(got, `dtype:  "bool(u32)"`) {
		t.Errorf("a Bool(U32) store names its dtype bool(u32):\n%s", got)
	}
}

func TestTensorDebug(t *testing.T) {
	want := "Tensor { primitive: BridgeTensor { kind: Int }, _kind: PhantomData<burn_tensor::bridge::kind::Int> }"
	if got := TensorDebug("Int"); got != want {
		t.Errorf("got %s", got)
	}
	if got := TensorDebug("QFloat"); !strings.HasSuffix(got, "kind: QFloat }, _kind: PhantomData<burn_tensor::bridge::kind::Float> }") {
		t.Errorf("a quantized float keeps the Float type parameter: %s", got)
	}
}

func TestTensorDataFormats(t *testing.T) {
	x := mustFloats(t, []float64{1, 2, 3}, []int{3}, F32)
	d := x.IntoData()
	if got := d.DataDisplay(); got != "[1.0, 2.0, 3.0]" {
		t.Errorf("TensorData Display = %s", got)
	}
	// 1.0f32 is 0x3F800000: little-endian bytes 0, 0, 128, 63.
	want := `TensorData { bytes: Bytes { data: [0, 0, 128, "..."], len: 12 }, shape: Shape { dims: [3] }, dtype: F32 }`
	if got := d.DataDebug(); got != want {
		t.Errorf("TensorData Debug =\n%s\nwant\n%s", got, want)
	}
	small := mustInts(t, []int64{7, -1}, []int{2}, I8)
	if got := small.IntoData().DataDebug(); got != `TensorData { bytes: Bytes { data: [7, 255], len: 2 }, shape: Shape { dims: [2] }, dtype: I8 }` {
		t.Errorf("a short buffer prints whole: %s", got)
	}
	u8bools := Full([]int{2, 2}, BoolU8, IntScalar(1)).IntoData()
	if got := u8bools.DataDisplay(); got != "[1, 1, 1, 1]" {
		t.Errorf("a Bool(U8) store displays its bytes: %s", got)
	}
	half := Full([]int{1}, F16, FloatScalar(12.5)).IntoData()
	if got := half.DataDebug(); !strings.Contains(got, "data: [64, 74], len: 2") {
		t.Errorf("f16 12.5 is 0x4A40: %s", got)
	}
}

func TestPreview(t *testing.T) {
	small := mustFloats(t, []float64{1, 2, 3, 4}, []int{2, 2}, F32)
	if got := small.Preview(PreviewElements); got != "[[1.0, 2.0], [3.0, 4.0]]" {
		t.Errorf("small preview %q", got)
	}
	big := mustInts(t, count(100, 0), []int{10, 10}, I32)
	if got := big.Preview(PreviewElements); got != "[0, 1, 2, ..., 97, 98, 99] (100 values)" {
		t.Errorf("big preview %q", got)
	}
}

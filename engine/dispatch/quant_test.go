package dispatch

import (
	"strings"
	"testing"
)

// quantFixture is a Flex world with the Q8S scheme of Burn's QTensor
// helper: `device.settings().quantization.scheme.with_value(QuantValue::Q8S)`.
type quantFixture struct {
	opFixture
	scheme *QuantScheme
}

func newQuantFixture(t *testing.T) quantFixture {
	fx := newOpFixture(t)
	settings := mustCall(t, fx.w, method(fx.d, "settings")).(*Enum)
	base := settings.Named["quantization"].(*Enum).Named["scheme"]
	s := mustCall(t, fx.w, method(base, "with_value", enum("QuantValue", "Q8S"))).(*QuantScheme)
	return quantFixture{opFixture: fx, scheme: s}
}

func (fx quantFixture) q(t *testing.T, rank string, vals Value) *Tensor {
	t.Helper()
	return mustCall(t, fx.w, method(fx.floats(rank, vals), "quantize_dynamic", ref(fx.scheme))).(*Tensor)
}

func lastOps(w *World, n int) string {
	tr := w.Trace()
	ops := make([]string, 0, n)
	for _, e := range tr[max(0, len(tr)-n):] {
		ops = append(ops, e.Op)
	}
	return strings.Join(ops, " ")
}

// Ops on a quantized tensor, with values worked by hand from Flex's
// arithmetic: [[0, 1, 2], [3, 4, 5]] quantizes with scale 10/254 to
// [[0, 25, 51], [76, 102, 127]], which dequantizes to 25·scale = 0.984252 ...
func TestQuantizedOpsValues(t *testing.T) {
	cases := []struct {
		name  string
		call  func(fx quantFixture, q *Tensor) Call
		kind  Kind
		ops   string // the trace's last ops
		nOps  int
		value string
	}{
		{"dequantize", func(fx quantFixture, q *Tensor) Call { return method(q, "dequantize") },
			KindFloat, "dequantize", 1, "[[0.0, 0.984252, 2.007874], [2.992126, 4.015748, 5.0]]"},
		{"add of two quantized tensors is a float (Inhibit)", func(fx quantFixture, q *Tensor) Call { return method(q, "add", q) },
			KindFloat, "dequantize dequantize float_add", 3, "[[0.0, 1.968504, 4.015748], [5.984252, 8.031496, 10.0]]"},
		{"mul_scalar", func(fx quantFixture, q *Tensor) Call { return method(q, "mul_scalar", f(10)) },
			KindFloat, "dequantize float_mul_scalar", 2, "[[0.0, 9.84252, 20.07874], [29.92126, 40.15748, 50.0]]"},
		{"exp dequantizes first", func(fx quantFixture, q *Tensor) Call { return method(q, "exp") },
			KindFloat, "dequantize float_exp", 2, "[[1.0, 2.6758096, 7.4474673], [19.928003, 55.464767, 148.41316]]"},
		{"reshape keeps the i8 values and the scale", func(fx quantFixture, q *Tensor) Call { return method(q, "reshape", dims(3, 2)) },
			KindQFloat, "q_reshape", 1, "[[0.0, 0.984252], [2.007874, 2.992126], [4.015748, 5.0]]"},
		{"swap_dims keeps them too", func(fx quantFixture, q *Tensor) Call { return method(q, "swap_dims", i(0), i(1)) },
			KindQFloat, "q_swap_dims", 1, "[[0.0, 2.992126], [0.984252, 4.015748], [2.007874, 5.0]]"},
		{"abs requantizes (dequant_op_quant!)", func(fx quantFixture, q *Tensor) Call { return method(q, "abs") },
			KindQFloat, "dequantize float_abs quantize", 3, "[[0.0, 0.984252, 2.007874], [2.992126, 4.015748, 5.0]]"},
		{"a slice keeps the scale of the whole tensor", func(fx quantFixture, q *Tensor) Call {
			return method(q, "slice", arr(&Range{Lo: ptr(0), Hi: ptr(1)}, &Range{Lo: ptr(1), Hi: ptr(3)}))
		}, KindQFloat, "q_slice", 1, "[[0.984252, 2.007874]]"},
		{"gather requantizes with the gathered values' own scale", func(fx quantFixture, q *Tensor) Call {
			idx := fx.ints("2", arr(arr(i(0)), arr(i(0))))
			return method(q, "gather", i(1), idx)
		}, KindQFloat, "dequantize float_gather quantize", 3, "[[0.0], [2.992126]]"},
		{"matmul of a float and a quantized tensor is q_matmul", func(fx quantFixture, q *Tensor) Call {
			lhs := fx.floats("2", arr(arr(f(1), f(0)), arr(f(0), f(2))))
			return method(lhs, "matmul", q)
		}, KindFloat, "q_matmul", 1, "[[0.0, 0.984252, 2.007874], [5.984252, 8.031496, 10.0]]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newQuantFixture(t)
			q := fx.q(t, "2", arr(arr(f(0), f(1), f(2)), arr(f(3), f(4), f(5))))
			out := mustCall(t, fx.w, c.call(fx, q)).(*Tensor)
			if out.kind != c.kind {
				t.Errorf("kind %s, want %s", out.kind, c.kind)
			}
			if got := lastOps(fx.w, c.nOps); got != c.ops {
				t.Errorf("trace %q, want %q", got, c.ops)
			}
			if out.vals() == nil {
				t.Fatal("no values")
			}
			if got := out.vals().Preview(64); got != c.value {
				t.Errorf("values %s, want %s", got, c.value)
			}
			if c.kind == KindQFloat && (out.q == nil || !strings.HasPrefix(string(out.dtype), "QFloat(QuantScheme { value: Q8S, store: Native")) {
				t.Errorf("a quantized result keeps its i8 values and the Native Q8S scheme: %v %s", out.q != nil, out.dtype)
			}
		})
	}
}

// The quantized TensorData Flex reads back: i8 values, the scheme the
// tensor reports, Display and the comparisons of quantized data.
func TestQuantizedData(t *testing.T) {
	fx := newQuantFixture(t)
	q := fx.q(t, "1", arr(f(-1.8), f(-1.0), f(0), f(0.5)))
	data := mustCall(t, fx.w, method(q, "into_data")).(*TensorData)
	want := "[-127, -71, 0, 35] QuantScheme { value: Q8S, store: Native, mode: Symmetric, tensor: None, block: None }"
	if got, _ := Display(data); got != want {
		t.Errorf("Display %s\nwant    %s", got, want)
	}
	if data.q == nil || data.q.Scales[0] != float32(1.8)*2/254 {
		t.Fatalf("scales %v", data.q)
	}
	// The same values built by hand compare equal, strictly too.
	native := mustCall(t, fx.w, method(fx.scheme, "with_store", enum("QuantStore", "Native")))
	i8v := func(v int64) Int { return Int{V: v, Suffix: "i8"} }
	built := mustCall(t, fx.w, fn("TensorData::quantized", arr(i8v(-127), i8v(-71), i(0), i(35)), arr(i(4)), native,
		ref(arr(f(float64(float32(1.8)*2/254)))), enum("Option", "None"))).(*TensorData)
	mustCall(t, fx.w, method(data, "assert_eq", built, Bool(true)))
	// Integers with no i8 among them are i32 to rustc: Burn refuses them.
	if p := mustPanic(t, fx.w, fn("TensorData::quantized", arr(i(-127), i(35)), arr(i(2)), native,
		ref(arr(f(0.01))), enum("Option", "None"))); p.Message != "Invalid quantized type" {
		t.Errorf("untyped integers: %q", p.Message)
	}

	// from_data of quantized data is q_from_data, and it dequantizes to
	// scale·q.
	back := mustCall(t, fx.w, fnG("Tensor::from_data", []string{"1"}, built, ref(fx.d))).(*Tensor)
	if back.kind != KindQFloat || lastOps(fx.w, 1) != "q_from_data" {
		t.Errorf("from_data of quantized data: %s %s", back.kind, lastOps(fx.w, 1))
	}
	deq := mustCall(t, fx.w, method(back, "dequantize")).(*Tensor)
	if got := deq.vals().Preview(8); got != "[-1.8, -1.0062993, 0.0, 0.496063]" {
		t.Errorf("dequantized %s", got)
	}

	other := mustCall(t, fx.w, fn("TensorData::quantized", arr(i8v(-127), i8v(-70), i(0), i(35)), arr(i(4)), native,
		ref(arr(f(0.1))), enum("Option", "None"))).(*TensorData)
	p := mustPanic(t, fx.w, method(data, "assert_eq", other, Bool(false)))
	checkAgainstTable(t, p)
	if p.Message != "Tensors are not eq:\n  => Position 1: -71 != -70" {
		t.Errorf("unequal i8 values: %q", p.Message)
	}
	floats := mustCall(t, fx.w, method(fx.floats("1", arr(f(1), f(2), f(3), f(4))), "into_data"))
	p = mustPanic(t, fx.w, method(data, "assert_eq", floats, Bool(false)))
	checkAgainstTable(t, p)
	if p.Message != "Quantized data differs from other not quantized data" || p.Location != "crates/burn-std/src/data/compare.rs:248" {
		t.Errorf("quantized against float data: %q at %s", p.Message, p.Location)
	}
	block, err := fx.scheme.S.PerBlock([]uint8{2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	blocked := mustCall(t, fx.w, fn("TensorData::quantized", arr(i8v(-127), i8v(-71), i(0), i(35)), arr(i(4)), &QuantScheme{S: block},
		ref(arr(f(0.1), f(0.2))), enum("Option", "None"))).(*TensorData)
	p = mustPanic(t, fx.w, method(data, "assert_eq", blocked, Bool(false)))
	checkAgainstTable(t, p)
	if !strings.HasPrefix(p.Message, "Quantization schemes differ (QuantScheme { value: Q8S, store: Native,") {
		t.Errorf("different block levels: %q", p.Message)
	}
}

// The scheme values a program builds and the device's QuantConfig.
func TestQuantSchemeAndConfig(t *testing.T) {
	fx := newQuantFixture(t)
	settings := mustCall(t, fx.w, method(fx.d, "settings"))
	if got, want := Debug(settings.(*Enum).Named["quantization"]),
		"QuantConfig { scheme: QuantScheme { value: Q8F, store: Native, mode: Symmetric, tensor: None, block: None }, propagation: Inhibit }"; got != want {
		t.Errorf("Flex's QuantConfig %s", got)
	}
	two := mustCall(t, fx.w, method(fx.scheme, "per_block", arr(i(1), i(16)), enum("ScaleDtype", "UE4M3")))
	two = mustCall(t, fx.w, method(two, "per_tensor", enum("ScaleDtype", "F32")))
	two = mustCall(t, fx.w, method(two, "with_store", mustCall(t, fx.w, fn("QuantStore::PackedU32", i(1)))))
	if got, want := Debug(two), "QuantScheme { value: Q8S, store: PackedU32(1), mode: Symmetric, tensor: Some(F32), block: Some(BlockScale { size: BlockSize([16]), dtype: UE4M3 }) }"; got != want {
		t.Errorf("built scheme %s", got)
	}
	if ue := mustReject(t, fx.w, method(fx.scheme, "with_value", enum("ScaleDtype", "F32"))); ue.Code != "wrong-arguments" {
		t.Errorf("a ScaleDtype is no QuantValue: %v", ue)
	}
	p := mustPanic(t, fx.w, method(fx.scheme, "per_block", arr(i(2), i(2), i(2), i(2), i(2), i(2)), enum("ScaleDtype", "F32")))
	if p.Message != "Tried creating a block size larger than the cap" {
		t.Errorf("six block dims: %q", p.Message)
	}
	q := fx.q(t, "1", arr(f(1), f(2)))
	if got := Debug(mustCall(t, fx.w, method(q, "dtype"))); got != "QFloat(QuantScheme { value: Q8S, store: Native, mode: Symmetric, tensor: None, block: None })" {
		t.Errorf("dtype() %s", got)
	}
}

// Calibration and the quantization parameters, on the ranges of Burn's
// calibration.rs and scheme.rs tests.
func TestCalibrationAndParams(t *testing.T) {
	fx := newQuantFixture(t)
	x := fx.floats("1", arr(f(-1.8), f(-1.0), f(0), f(0.5)))
	r := mustCall(t, fx.w, fn("burn::tensor::quantization::compute_range", ref(fx.scheme), ref(x), ref(enum("Calibration", "MinMax")))).(*Enum)
	if lo, hi := r.Named["min"].(*Tensor), r.Named["max"].(*Tensor); lo.vals().Preview(8) != "[-1.8]" || hi.vals().Preview(8) != "[0.5]" {
		t.Errorf("min-max range %s %s", lo.vals().Preview(8), hi.vals().Preview(8))
	}
	qp := mustCall(t, fx.w, fn("compute_q_params", ref(fx.scheme), r)).(*Enum)
	if got := qp.Named["scales"].(*Tensor).vals().Preview(8); got != "[0.014173228]" {
		t.Errorf("scale %s, want 2·1.8/254", got)
	}
	q := mustCall(t, fx.w, method(x, "quantize", ref(fx.scheme), qp)).(*Tensor)
	if got, _ := Display(mustCall(t, fx.w, method(q, "into_data"))); !strings.HasPrefix(got, "[-127, -71, 0, 35] ") {
		t.Errorf("quantize with computed params: %s", got)
	}
	two, _ := fx.scheme.S.PerBlock([]uint8{4}, 0)
	two = two.PerTensor(0)
	p := mustPanic(t, fx.w, method(x, "quantize", ref(&QuantScheme{S: two}), qp))
	checkAgainstTable(t, p)
	if !strings.HasPrefix(p.Message, "assertion `left == right` failed: QuantScheme { value: Q8S, store: Native, mode: Symmetric, tensor: Some(F32), block: Some(BlockScale { size: BlockSize([4]), dtype: F32 }) } does not match a per-tensor scale of None\n  left: true\n right: false") ||
		p.Location != "crates/burn-tensor/src/tensor/api/float.rs:379" {
		t.Errorf("a two-level scheme without a global scale: %q at %s", p.Message, p.Location)
	}
	block, _ := fx.scheme.S.PerBlock([]uint8{3}, 0)
	p = mustPanic(t, fx.w, method(x, "quantize_dynamic", ref(&QuantScheme{S: block})))
	checkAgainstTable(t, p)
	if p.Message != "Tensor Shape { dims: [4] } must be evenly divisible by block size [3]" ||
		p.Location != "crates/burn-backend/src/quantization/scheme.rs:27" {
		t.Errorf("indivisible blocks: %q at %s", p.Message, p.Location)
	}
}

// try_into_vec_as reads a float tensor as Ok(Vec<E>); a quantized one,
// whose conversion Burn refuses, stays unknown.
func TestTryIntoVecAs(t *testing.T) {
	fx := newQuantFixture(t)
	x := fx.floats("1", arr(f(0.5), f(-1)))
	v := mustCall(t, fx.w, Call{Recv: x, Method: "try_into_vec_as", Generics: [][]string{{"f64"}}}).(*Enum)
	if v.Variant != "Ok" || Debug(v.Fields[0]) != "[0.5, -1.0]" {
		t.Errorf("try_into_vec_as::<f64>() = %s", Debug(v))
	}
	if got := mustCall(t, fx.w, method(fx.q(t, "1", arr(f(1))), "try_into_vec_as")); !isUnknownValue(got) {
		t.Errorf("a quantized tensor's values as f32: %s", Debug(got))
	}
}

// A move keeps the i8 values; detach goes through into_float and
// float_detach, so it returns a float; q_is_require_grad is false.
func TestQuantizedMoveAndAutodiffSurface(t *testing.T) {
	fx := newQuantFixture(t)
	q := fx.q(t, "1", arr(f(0), f(5)))
	moved := mustCall(t, fx.w, method(q, "to_device", ref(fx.d))).(*Tensor)
	if got, _ := Display(mustCall(t, fx.w, method(moved, "into_data"))); !strings.HasPrefix(got, "[0, 127] ") {
		t.Errorf("moved quantized data %s", got)
	}
	d := mustCall(t, fx.w, method(q, "detach")).(*Tensor)
	if d.kind != KindFloat || lastOps(fx.w, 2) != "dequantize float_detach" || d.vals().Preview(8) != "[0.0, 5.0]" {
		t.Errorf("detach of a quantized tensor: %s %q", d.kind, lastOps(fx.w, 2))
	}
	if v := mustCall(t, fx.w, method(q, "is_require_grad")); v != Bool(false) {
		t.Errorf("is_require_grad = %v", v)
	}
	if v := mustCall(t, fx.w, method(q, "require_grad")); v != Value(q) {
		t.Errorf("require_grad of a quantized tensor is the tensor itself")
	}
}

// DType::name of every quantized dtype is "qfloat" (dtype.rs:113-135).
func TestQuantizedDTypeName(t *testing.T) {
	fx := newQuantFixture(t)
	dt := mustCall(t, fx.w, method(fx.q(t, "1", arr(f(1))), "dtype"))
	if v := mustCall(t, fx.w, method(dt, "name")); v != Value(Str("qfloat")) {
		t.Errorf("name() = %v", v)
	}
}

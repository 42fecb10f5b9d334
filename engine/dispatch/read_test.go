package dispatch

import "testing"

// Each read method reports a failed read or conversion its own way, with
// the row of its own call site.
func TestReadFailures(t *testing.T) {
	qmsg := "Unsupported data conversion from " + string(flexQFloat) + " to F32"
	cases := []struct {
		method   string
		quantize bool
		args     []Value
		id, want string
	}{
		{"into_data_as", true, nil, "bt-into-data-as", "Failed to read tensor data: " + qmsg},
		{"to_data_as", true, nil, "bt-to-data-as", "Failed to read tensor data: " + qmsg},
		{"into_data_dtype", true, []Value{enum("DType", "F32")}, "bt-into-data-dtype", "Failed to read tensor data as F32: " + qmsg},
		{"to_data_dtype", true, []Value{enum("DType", "F32")}, "bt-to-data-dtype", "Failed to read tensor data as F32: " + qmsg},
		{"into_scalar", false, nil, "bt-into-scalar",
			"Error while reading data: use `try_into_scalar` instead to catch the error at runtime: InvalidShape { expected: 1, actual: 4 }"},
		{"into_scalar_async", true, nil, "bt-into-scalar-convert", "Failed to convert tensor data to a scalar: " + qmsg},
	}
	for _, c := range cases {
		w := world(t)
		d := mustCall(t, w, fn("Device::default")).(*Device)
		x := Value(ones(t, w, d, "", 4))
		if c.quantize {
			x = mustCall(t, w, fnG("Tensor::from_floats", []string{"1"}, arr(f(0.5)), ref(d)))
			x = mustCall(t, w, method(x, "quantize_dynamic", ref(mustCall(t, w, fn("QuantScheme::default")))))
		}
		p := mustPanic(t, w, method(x, c.method, c.args...))
		if p.ID != c.id || p.Message != c.want {
			t.Errorf("%s: %s %q\nwant %s %q", c.method, p.ID, p.Message, c.id, c.want)
		}
		// Only the methods that call expect themselves report their caller.
		if want := c.method == "into_scalar"; p.TrackCaller != want {
			t.Errorf("%s: TrackCaller = %v, want %v", c.method, p.TrackCaller, want)
		}
		checkAgainstTable(t, p)
	}
	// A plain read converts freely.
	w := world(t)
	x := ones(t, w, mustCall(t, w, fn("Device::default")).(*Device), "Int", 1)
	if v := mustCall(t, w, Call{Recv: x, Method: "into_data_as", Generics: [][]string{{"f32"}}}).(*TensorData); v.dtype != F32 {
		t.Errorf("into_data_as::<f32> of an int tensor: %s", v.dtype)
	}
	mustCall(t, w, method(x, "into_scalar"))
}

// flexQFloat is the dtype of a tensor quantized with QuantScheme::default()
// on Flex, which stores its values Native (burn-flex ops/qtensor.rs:141).
const flexQFloat DType = "QFloat(QuantScheme { value: Q8F, store: Native, mode: Symmetric, tensor: None, block: None })"

// A quantized tensor's dtype() round-trips into the read methods and
// prints as Burn's DType Debug.
func TestQuantizedDType(t *testing.T) {
	w := world(t)
	d := mustCall(t, w, fn("Device::default")).(*Device)
	q := mustCall(t, w, method(ones(t, w, d, "", 2), "quantize_dynamic", ref(mustCall(t, w, fn("QuantScheme::default")))))
	dt := mustCall(t, w, method(q, "dtype"))
	if Debug(dt) != string(flexQFloat) {
		t.Errorf("dtype() = %s", Debug(dt))
	}
	if data := mustCall(t, w, method(q, "to_data_dtype", dt)).(*TensorData); data.dtype != flexQFloat {
		t.Errorf("to_data_dtype(dtype()) = %s", data.dtype)
	}
}

package dispatch

import (
	"fmt"
	"strings"
)

// Reading a tensor back to the host (crates/burn-tensor/src/tensor/api/base.rs:1975-2240,
// 2940-3013): the read dispatches float_into_data (int_, bool_, q_), and
// the conversions to a requested element type run on the host data. Each
// method reports a failure its own way: into_data, to_data and into_scalar
// `.expect` the error's Debug; the *_as and *_dtype methods panic with its
// Display.

const locTensorBase = "crates/burn-tensor/src/tensor/api/base.rs"

// qfloatDefault is the dtype of a tensor quantized with
// QuantScheme::default() (cubecl-common 48348968 quant/scheme.rs:48-58),
// the only scheme the model builds.
const qfloatDefault DType = "QFloat(QuantScheme { value: Q8F, store: PackedU32(0), mode: Symmetric, tensor: None, block: None })"

// readFailure is how a read method reports an error.
type readFailure struct {
	id, try string // the row, and the try_ method its expect names
	line    int
	display bool   // unwrap_or_else(panic!("...{err}")) rather than expect
	prefix  string // the panic's own text before the error, for display
}

var readFailures = map[string]readFailure{
	"into_data":       {id: "bt-into-data", try: "try_into_data", line: 1986},
	"to_data":         {id: "bt-to-data", try: "try_to_data", line: 2029},
	"into_scalar":     {id: "bt-into-scalar", try: "try_into_scalar", line: 2941},
	"to_data_as":      {id: "bt-to-data-as", line: 2081, display: true, prefix: "Failed to read tensor data: "},
	"into_data_as":    {id: "bt-into-data-as", line: 2174, display: true, prefix: "Failed to read tensor data: "},
	"to_data_dtype":   {id: "bt-to-data-dtype", line: 2136, display: true, prefix: "Failed to read tensor data as %s: "},
	"into_data_dtype": {id: "bt-into-data-dtype", line: 2229, display: true, prefix: "Failed to read tensor data as %s: "},
}

// fail is the panic for an error whose Debug and Display are given; into_scalar's
// error is a TensorReadError, whose Debug names its variant around the inner error.
func (f readFailure) fail(target DType, variant, debug, display string) *Panic {
	if f.display {
		prefix := f.prefix
		if strings.Contains(prefix, "%s") {
			prefix = fmt.Sprintf(prefix, target)
		}
		return newPanic(f.id, at(locTensorBase, f.line), prefix+display).on(0)
	}
	if f.id == "bt-into-scalar" && variant != "" {
		debug = variant + "(" + debug + ")"
	}
	// into_data, to_data and into_scalar are #[track_caller] and call
	// expect themselves (base.rs:1984, 2027, 2939).
	p := newPanic(f.id, at(locTensorBase, f.line),
		fmt.Sprintf("Error while reading data: use `%s` instead to catch the error at runtime: %s", f.try, debug)).on(0)
	p.TrackCaller = true
	return p
}

// read is a read method of Tensor.
func (w *World) read(t *Tensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	want := 0
	if strings.HasSuffix(c.Method, "_dtype") {
		want = 1
	}
	if ue := a.want(want); ue != nil {
		return nil, ue, nil
	}
	f := readFailures[c.Method]
	target := t.dtype
	switch {
	case strings.HasSuffix(c.Method, "_dtype"):
		dt, ue := dtypeArg(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		target = dt
	case strings.HasSuffix(c.Method, "_as"), c.Method == "into_scalar":
		target = elementDType(t, c)
	}
	if p := w.readData(t, f); p != nil {
		return nil, nil, p
	}
	if c.Method == "into_scalar" {
		if n, _ := numElements(t.shape); n != 1 {
			return nil, nil, f.fail(target, "", fmt.Sprintf("InvalidShape { expected: 1, actual: %d }", n), "")
		}
	}
	if converted := c.Method != "into_data" && c.Method != "to_data"; converted && t.kind == KindQFloat && target != t.dtype {
		// TensorData::try_cast refuses quantized data
		// (crates/burn-std/src/data/tensor/conversion.rs:401-404).
		debug := fmt.Sprintf("UnsupportedConversion { from: %s, to: %s }", t.dtype, target)
		display := fmt.Sprintf("Unsupported data conversion from %s to %s", t.dtype, target)
		return nil, nil, f.fail(target, "Data", debug, display)
	}
	if c.Method == "into_scalar" {
		return scalarValue(t, target), nil, nil
	}
	if t.kind == KindQFloat {
		return quantizedData(t), nil, nil
	}
	return &TensorData{shape: t.Shape(), dtype: target, values: dataValues(t, target)}, nil, nil
}

// elementDType is the E of into_data_as::<E>, to_data_as::<E> or
// into_scalar::<E>: the turbofish, else the declared type, else what a
// float, int or bool tensor most often reads as.
func elementDType(t *Tensor, c Call) DType {
	name := ""
	if len(c.Generics) > 0 && len(c.Generics[0]) == 1 {
		name = c.Generics[0][0]
	} else {
		name = c.Expect
	}
	switch strings.TrimSpace(name) {
	case "bool":
		return "Bool(Native)"
	case "f32", "f64", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8":
		return DType(upperASCII(strings.TrimSpace(name)))
	}
	switch t.kind {
	case KindInt:
		return I64
	case KindBool:
		return "Bool(Native)"
	}
	return F32
}

// readData is the float_into_data (int_, bool_, q_) a read dispatches. A
// capture tensor is read from its session, open or not.
func (w *World) readData(t *Tensor, f readFailure) *Panic {
	op := t.kind.opPrefix() + "_into_data"
	if t.on.backend != Capture {
		if _, p := w.unaryOp(t, op, t.kind, nil, t.dtype); p != nil {
			return p
		}
		return w.readBack(t, panicReadSync, func(debug string) *Panic { return f.fail(t.dtype, "Execution", debug, debug) })
	}
	if err := captureReadError(t); err != "" {
		return w.failOp(op, t, f.fail(t.dtype, "Execution", err, err))
	}
	w.record(TraceEvent{Op: op, Backend: Capture.String(), Device: t.on.Debug(), Autodiff: t.tracked, Kind: t.kind.String(), Shape: t.Shape(),
		Note: "the value the capture session was given"})
	return nil
}

// captureReadError is the error of reading a capture tensor: CaptureClient
// answers from the session's values, open or not, and a computed tensor
// has none (ExecutionError::WithContext, whose Debug is its Display).
func captureReadError(t *Tensor) string {
	if t.on.session != nil && t.on.session.values[t.handle] {
		return ""
	}
	return fmt.Sprintf("An error happened during execution\nCaused by:\n  captured tensor TensorId(%d) has no concrete value", t.handle)
}

// Field is a public field of one of Burn's structs the model holds as its
// own type: TensorData's shape and dtype.
func Field(v Value, name string) (Value, bool) {
	if f, ok := Deref(v).(interface{ FieldOf(string) (Value, bool) }); ok {
		return f.FieldOf(name)
	}
	if d, ok := Deref(v).(*TensorData); ok {
		switch name {
		case "shape":
			return &ShapeValue{dims: append([]int64{}, d.shape...)}, true
		case "dtype":
			return dtypeEnum(d.dtype), true
		}
	}
	return nil, false
}

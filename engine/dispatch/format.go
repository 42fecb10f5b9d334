package dispatch

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dispatch-playground/playground/engine/tensor"
)

// Debug is Rust's `{:?}` of a value.
func Debug(v Value) string {
	switch x := v.(type) {
	case nil:
		return "()"
	case *Ref:
		return Debug(x.V)
	case Unit:
		return "()"
	case Int:
		return strconv.FormatInt(x.V, 10)
	case Float:
		return floatDebug(x)
	case Bool:
		return strconv.FormatBool(bool(x))
	case Str:
		return debugString(string(x))
	case *Array:
		return "[" + debugList(x.Elems) + "]"
	case Tuple:
		if len(x) == 1 {
			return "(" + Debug(x[0]) + ",)"
		}
		return "(" + debugList(x) + ")"
	case *FloatRange:
		return x.debug()
	case *Range:
		var b strings.Builder
		if x.Lo != nil {
			b.WriteString(strconv.FormatInt(*x.Lo, 10))
		}
		b.WriteString("..")
		if x.Inclusive {
			b.WriteString("=")
		}
		if x.Hi != nil {
			b.WriteString(strconv.FormatInt(*x.Hi, 10))
		}
		return b.String()
	case *Enum:
		return enumDebug(x)
	case *Device:
		return x.rustDebug()
	case *Tensor:
		// Tensor's derived Debug shows its BridgeTensor, whose Debug is
		// only the kind (crates/burn-tensor/src/bridge/kind.rs:101-107).
		return tensor.TensorDebug(x.kind.String())
	case *ShapeValue:
		return shapeDebug(x.dims)
	case *TensorData:
		if x.q != nil {
			return x.q.DataDebug()
		}
		if x.values != nil {
			return x.values.DataDebug()
		}
		return fmt.Sprintf("TensorData { shape: %s, dtype: %s, .. }", dimsDebug(x.shape), x.dtype)
	case *LinearConfig:
		return fmt.Sprintf("LinearConfig { d_input: %d, d_output: %d, bias: %t, .. }", x.dIn, x.dOut, x.bias)
	case *QuantScheme:
		return x.S.String()
	case *Opaque:
		return x.Type
	case Unknown:
		return "_"
	}
	return v.TypeName() + " { .. }"
}

// Display is Rust's `{}`; ok is false for types without Display (Device,
// Vec, Option, tuples, ...).
func Display(v Value) (s string, ok bool) {
	switch x := v.(type) {
	case *Ref:
		return Display(x.V)
	case Int:
		return strconv.FormatInt(x.V, 10), true
	case Float:
		return floatDisplay(x), true
	case Bool:
		return strconv.FormatBool(bool(x)), true
	case Str:
		return string(x), true
	case *ShapeValue:
		return dimsDebug(x.dims), true
	case *Tensor:
		return tensorDisplay(x, -1), true
	case *TensorData:
		if x.q != nil {
			return x.q.Display(), true
		}
		if x.values != nil {
			return x.values.DataDisplay(), true
		}
		return "[..]", true
	case *Enum:
		if x.Type == "DeviceError" {
			return deviceErrorDisplay(x), true
		}
		if x.Type == "DataError" {
			// burn-std's thiserror text (data/tensor/base.rs).
			return "Expected data type " + Debug(x.Named["expected"]) + ", but got " + Debug(x.Named["actual"]), true
		}
		if x.Type == "ExecutionError" {
			reason, _ := Deref(x.Named["reason"]).(Str)
			return "An error happened during execution\nCaused by:\n  " + string(reason), true
		}
	}
	return "", false
}

// deviceErrorDisplay is DeviceError's thiserror Display
// (crates/burn-std/src/device_settings.rs:63-80).
func deviceErrorDisplay(e *Enum) string {
	device, _ := Deref(e.Named["device"]).(Str)
	if e.Variant == "UnsupportedDType" {
		return fmt.Sprintf("Device %s does not support the requested data type %s", device, Debug(e.Named["dtype"]))
	}
	return fmt.Sprintf("Device %s settings have already been initialized and cannot be changed.\n"+
		"Default data types lock on the first tensor operation for a device (or on a previous "+
		"`set_default_dtypes`/`configure` call). Configure the device before creating any tensor "+
		"on it, or create tensors with an explicit dtype instead.", device)
}

// DisplayPrecision is Rust's `{:.N}` of a value: a float with exactly N
// fractional digits, a tensor with its floats printed that way (Display
// takes the formatter's precision over the print options' one). Other
// values print as `{}`; ok is false for types without Display.
func DisplayPrecision(v Value, precision int) (s string, ok bool) {
	switch x := Deref(v).(type) {
	case Float:
		return strconv.FormatFloat(x.V, 'f', precision, 64), true
	case *Tensor:
		return tensorDisplay(x, precision), true
	}
	return Display(v)
}

// tensorDisplay follows burn-tensor's display_fmt_impl
// (crates/burn-tensor/src/tensor/api/base.rs:3596-3636), with floats to
// precision fractional digits when it is not negative. A tensor past the
// run's value budget has no data to show, so its data block is elided.
func tensorDisplay(t *Tensor, precision int) string {
	device := t.Device().rustDebug()
	if t.hasVals() {
		opts := tensor.DefaultPrintOptions()
		if precision >= 0 {
			opts = opts.WithPrecision(precision)
		}
		return t.vals().Display(device, opts)
	}
	return fmt.Sprintf("Tensor {\n  data:\n[..],\n  shape:  %s,\n  device:  %s,\n  kind:  %s,\n  dtype:  %s,\n}",
		dimsDebug(t.shape), device, debugString(t.kind.String()), debugString(dtypeName(t.dtype)))
}

// dtypeName is DType::name() (crates/burn-std/src/tensor/dtype.rs:113-135).
func dtypeName(d DType) string {
	if dt, ok := valueDType(d); ok {
		return dt.Name()
	}
	if strings.HasPrefix(string(d), "QFloat") {
		return "qfloat"
	}
	return lowerASCII(string(d))
}

func debugList(vs []Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = Debug(v)
	}
	return strings.Join(parts, ", ")
}

func enumDebug(e *Enum) string {
	if e.Type == "ExecutionError" {
		// Its Debug writes its Display (crates/burn-std/src/device_settings.rs:126-130).
		s, _ := Display(e)
		return s
	}
	switch {
	case len(e.Fields) > 0:
		return e.Variant + "(" + debugList(e.Fields) + ")"
	case len(e.Named) > 0:
		keys := fieldOrder[e.Type]
		if len(keys) != len(e.Named) {
			keys = make([]string, 0, len(e.Named))
			for k := range e.Named {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + Debug(e.Named[k])
		}
		return e.Variant + " { " + strings.Join(parts, ", ") + " }"
	}
	return e.Variant
}

// fieldOrder is the declaration order of the structs whose derived Debug
// the model prints with fields out of alphabetical order.
var fieldOrder = map[string][]string{
	"DeviceSettings": {"float_dtype", "int_dtype", "bool_dtype", "quantization"},
	"DeviceConfig":   deviceConfigFields,
	"QuantConfig":    {"scheme", "propagation"},
	"DataError":      {"expected", "actual"},
}

// debugString is str's Debug: quoted, with Rust's escapes.
func debugString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func floatBits(f Float) int {
	if f.Suffix == "f32" {
		return 32
	}
	return 64
}

// floatDisplay is `{}` of f32/f64: the shortest digits that round-trip,
// never in exponent form.
func floatDisplay(f Float) string {
	switch {
	case math.IsNaN(f.V):
		return "NaN"
	case math.IsInf(f.V, 1):
		return "inf"
	case math.IsInf(f.V, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f.V, 'f', -1, floatBits(f))
}

// floatDebug is `{:?}`: like Display with a `.0` on integral values, but
// in exponent form (`1e16`, `1.5e-7`) outside [1e-4, 1e16).
func floatDebug(f Float) string {
	abs := math.Abs(f.V)
	if math.IsNaN(f.V) || math.IsInf(f.V, 0) {
		return floatDisplay(f)
	}
	if abs != 0 && (abs < 1e-4 || abs >= 1e16) {
		s := strconv.FormatFloat(f.V, 'e', -1, floatBits(f))
		mant, exp, _ := strings.Cut(s, "e")
		n, _ := strconv.Atoi(exp)
		return mant + "e" + strconv.Itoa(n)
	}
	s := floatDisplay(f)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// FieldOrder is the declaration order of a struct's fields where the model
// knows it (nil otherwise), for std's derived Debug.
func FieldOrder(e *Enum) []string {
	if keys := fieldOrder[e.Type]; len(keys) == len(e.Named) {
		return keys
	}
	return nil
}

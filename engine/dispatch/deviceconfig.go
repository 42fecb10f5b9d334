package dispatch

// DeviceConfig, burn-tensor's partial device settings
// (crates/burn-tensor/src/device.rs:1048-1107): three Options, the
// builders that set them, and `Device::configure`, which fills what is
// None with the device's defaults (device.rs:757-772, configure below).

var deviceConfigFields = []string{"float_dtype", "int_dtype", "bool_dtype"}

// deviceConfigMethods are the methods of a DeviceConfig value.
var deviceConfigMethods = map[string]bool{"float_dtype": true, "int_dtype": true, "bool_dtype": true, "clone": true}

func newDeviceConfig(float, int, bool Value) *Enum {
	return &Enum{Type: "DeviceConfig", Variant: "DeviceConfig", Named: map[string]Value{
		"float_dtype": float, "int_dtype": int, "bool_dtype": bool}}
}

// deviceConfigFunction is DeviceConfig::default() (#[derive(Default)]) and
// DeviceConfig::new(float, int, bool) (#[derive(new)]).
func deviceConfigFunction(name string, c Call) (Value, *UsageError, *Panic) {
	switch name {
	case "default":
		if len(c.Args) != 0 {
			return nil, errArgCount(false, 0, len(c.Args)), nil
		}
		return newDeviceConfig(optNone(), optNone(), optNone()), nil, nil
	case "new":
		if len(c.Args) != 3 {
			return nil, errArgCount(false, 3, len(c.Args)), nil
		}
		return newDeviceConfig(c.Args[0], c.Args[1], c.Args[2]), nil, nil
	}
	return nil, errUnknownFunction("DeviceConfig", name), nil
}

// deviceConfigMethod is a builder (`float_dtype(dtype)`, device.rs:1063-
// 1081): the config with that Option set. ok is false for any other method.
func deviceConfigMethod(e *Enum, c Call) (Value, *UsageError, bool) {
	switch c.Method {
	case "float_dtype", "int_dtype", "bool_dtype":
	case "clone":
		out := newDeviceConfig(nil, nil, nil)
		for k, v := range e.Named {
			out.Named[k] = v
		}
		return out, nil, true
	default:
		return nil, nil, false
	}
	if len(c.Args) != 1 {
		return nil, errArgCount(true, 1, len(c.Args)), true
	}
	if _, ue := dtypeValue(c.Args[0]); ue != nil {
		return nil, errArgType(1, "impl Into<"+dtypeKindOf(c.Method)+">", c.Args[0]), true
	}
	out := newDeviceConfig(nil, nil, nil)
	for k, v := range e.Named {
		out.Named[k] = v
	}
	out.Named[c.Method] = optSome(c.Args[0])
	return out, nil, true
}

func dtypeKindOf(method string) string {
	switch method {
	case "float_dtype":
		return "FloatDType"
	case "int_dtype":
		return "IntDType"
	}
	return "BoolDType"
}

// deviceConfigParts are the dtypes a DeviceConfig sets, as configure's
// argument list reads them.
func deviceConfigParts(e *Enum) []Value {
	var parts []Value
	for _, f := range deviceConfigFields {
		if o, ok := Deref(e.Named[f]).(*Enum); ok && o.Type == "Option" && o.Variant == "Some" && len(o.Fields) == 1 {
			parts = append(parts, o.Fields[0])
		}
	}
	return parts
}

func optNone() *Enum        { return &Enum{Type: "Option", Variant: "None"} }
func optSome(v Value) *Enum { return &Enum{Type: "Option", Variant: "Some", Fields: []Value{v}} }

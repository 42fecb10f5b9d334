package dispatch

import (
	"strings"
)

// Call is the one entry point of the interpreter into Burn's API.
//
// How values arrive:
//   - A path used as a value (`DType::F16`, `DeviceKind::Cpu`,
//     `Distribution::Default`, `presets::N0`) is built by the interpreter
//     as *Enum{Type: second-to-last segment, Variant: last segment}; a
//     struct literal (`Channel::WebSocket { port: 3000 }`) as *Enum with
//     Named fields. Call never sees those.
//   - A called path is a Call with Path set: associated functions
//     (`Device::cuda(0)`, `Tensor::<2>::ones(..)`), free functions
//     (`burn::server::start`, `activation::relu`) and tuple variants
//     (`DeviceKind::DiscreteGpu(0)`, `Distribution::Uniform(0.0, 1.0)`),
//     which return *Enum. Leading crate and module segments (`burn`,
//     `tensor`, `nn`, `activation`, ...) are ignored, so the full and the
//     imported spellings are the same call.
//   - `Default::default()` returns the Device, DeviceKind, Channel or
//     creation options that Call.Expect names; with no Expect it returns
//     *Enum{Type: "Default"}, which every argument position that takes a
//     type with a Default impl accepts as that default.
//   - Operators arrive as method calls named after their std::ops trait
//     method (`a + b` is Recv a, Method "add"; `2.0 * t` is Recv 2.0,
//     Method "mul"; `-t` is "neg"; `!mask` is "not"; `a == b` is "eq").
//
// Call returns a *Panic when Burn would panic at run time, a *UsageError
// when rustc would reject the call (or the playground does not model it).
func (w *World) Call(c Call) (Value, error) {
	v, err := w.call(c)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// call keeps typed nil errors out of the error interface.
func (w *World) call(c Call) (Value, error) {
	if len(c.Path) > 0 {
		v, ue, p := w.callPath(c)
		return result(v, ue, p)
	}
	recv := Deref(c.Recv)
	var (
		v  Value
		ue *UsageError
		p  *Panic
	)
	switch r := recv.(type) {
	case Unknown:
		return Unknown{}, nil
	case *Device:
		v, ue, p = w.deviceMethod(r, c)
	case *Tensor:
		v, ue, p = w.tensorMethod(r, c)
	case *Gradients:
		v, ue, p = w.gradientsMethod(r, c)
	case *LinearConfig:
		v, ue, p = w.linearConfigMethod(r, c)
	case *Linear:
		v, ue, p = w.linearMethod(r, c)
	case *TensorData:
		v, ue, p = w.tensorDataMethod(r, c)
	case *Tolerance:
		v, ue, p = w.toleranceMethod(r, c)
	case *Transaction:
		v, ue, p = w.transactionMethod(r, c)
	case *InterpolateOptions:
		v, ue, p = w.interpolateOptionsMethod(r, c)
	case *GridSampleOptions:
		v, ue, p = gridSampleOptionsMethod(r, c)
	case *ShapeValue:
		v, ue, p = w.shapeMethod(r, c)
	case *QuantScheme:
		v, ue, p = w.quantSchemeMethod(r, c)
	case *EndpointBuilder, *Endpoint, *RemoteSecret:
		v, ue, p = w.remoteValueMethod(recv, c)
	case *CollectiveTensor:
		v, ue, p = w.collectiveMethod(r, c)
	case *CaptureScope:
		v, ue, p = w.captureScopeMethod(r, c)
	case *DeviceFilter:
		v, ue, p = w.deviceFilterMethod(r, c)
	case *Devices:
		v, ue, p = w.devicesMethod(r, c)
	case *Enum:
		if dv, due, dp, ok := dtypeMethod(r, c); ok {
			v, ue, p = dv, due, dp
		} else if r.Type == "DeviceConfig" {
			var ok bool
			if v, ue, ok = deviceConfigMethod(r, c); !ok {
				ue = errUnknownMethod("`DeviceConfig`", c.Method)
			}
		} else if qv, qok := quantizedBytesMethod(r, c); qok {
			v = qv
		} else if HasOperator(r, c.Method) {
			v, ue, p = w.filterOperator(r, c)
		} else {
			ue = errUnknownMethod("`"+recv.TypeName()+"`", c.Method)
		}
	case *ParamID:
		v, ue, p = w.paramIDMethod(r, c)
	case Int, Float, Bool:
		if ev, eue, ep, ok := elementMethod(recv, c); ok {
			v, ue, p = ev, eue, ep
		} else if _, isBool := recv.(Bool); isBool {
			ue = errUnknownMethod("`"+recv.TypeName()+"`", c.Method)
		} else {
			v, ue, p = w.scalarOperator(recv, c)
		}
	default:
		ue = errUnknownMethod("`"+recv.TypeName()+"`", c.Method)
	}
	return result(v, ue, p)
}

func result(v Value, ue *UsageError, p *Panic) (Value, error) {
	switch {
	case p != nil:
		return nil, p
	case ue != nil:
		return nil, ue
	case v == nil:
		return Unit{}, nil
	}
	return v, nil
}

// moduleSegments are path segments that name crates and modules, not the
// item called.
var moduleSegments = map[string]bool{
	"crate": true, "self": true, "super": true, "burn": true, "burn_tensor": true, "burn_core": true,
	"burn_nn": true, "burn_dispatch": true, "burn_remote": true, "tensor": true, "backend": true,
	"nn": true, "module": true, "activation": true, "prelude": true, "ops": true, "remote": true,
	"distributed": true, "id": true, "burn_std": true, "quantization": true,
}

func normalizePath(p []string) []string {
	for len(p) > 1 && moduleSegments[p[0]] {
		p = p[1:]
	}
	return p
}

func (w *World) callPath(c Call) (Value, *UsageError, *Panic) {
	full := c.Path
	path := normalizePath(full)
	if len(path) == 1 {
		return w.freeFunction(path[0], full, c)
	}
	typ, name := path[len(path)-2], path[len(path)-1]
	if IsElementType(typ) {
		return w.elementFunction(typ, name, c)
	}
	switch typ {
	case "Device":
		return w.deviceFunction(name, c)
	case "Tensor":
		return w.tensorFunction(name, c)
	case "server":
		return w.serverFunction(name, c)
	case "Default":
		if name == "default" && len(c.Args) == 0 {
			return w.defaultValue(c.Expect)
		}
	case "DeviceKind", "Distribution", "DeviceIndex":
		return variantCall(typ, name, c)
	case "QuantStore":
		return quantStoreCall(name, c)
	case "TensorData":
		return w.tensorDataFunction(name, c)
	case "PadMode":
		return padModeFunction(name, c)
	case "Slice":
		return sliceFunction(name, c)
	case "Norm":
		return normFunction(name, c)
	case "Tolerance":
		return w.toleranceFunction(name, c)
	case "DeviceConfig":
		return deviceConfigFunction(name, c)
	case "Transaction":
		return w.transactionFunction(name, c)
	case "Shape":
		return w.shapeFunction(name, c)
	case "LinearConfig":
		return w.linearConfigFunction(name, c)
	case "Endpoint", "RemoteSecret", "Channel":
		return w.remoteFunction(typ, name, c)
	case "QuantScheme":
		return w.quantSchemeFunction(name, c)
	case "DeviceType":
		return w.deviceTypeFunction(name, c)
	case "DeviceFilter":
		return w.deviceFilterFunction(name, c)
	case "DistributedContext":
		return w.distributedFunction(typ, name, c)
	case "ParamId":
		return w.paramIDFunction(name, c)
	case "linalg":
		return w.linalgFunction(name, c)
	case "grid":
		switch name {
		case "affine_grid_2d":
			return w.affineGrid2d(c)
		case "meshgrid", "meshgrid_stack":
			return w.meshgrid(name, c)
		}
		return nil, errUnsupported("burn::tensor::grid::" + name), nil
	case "GridOptions":
		return gridOptionsFunction(name, c)
	case "GridSampleOptions":
		return gridSampleOptionsFunction(name, c)
	case "loss":
		if name == "cross_entropy_with_logits" {
			return w.crossEntropyWithLogits(c)
		}
		return nil, errUnsupported("burn::tensor::loss::" + name), nil
	case "signal":
		if name == "rfft" {
			return w.rfft(c)
		}
		if name == "irfft" {
			return w.irfft(c)
		}
		if signalWindows[name] {
			return w.signalWindow(name, c)
		}
		return nil, errUnsupported("burn::tensor::signal::" + name), nil
	case "ConvOptions", "ConvTransposeOptions":
		return w.convOptionsFunction(typ, name, c)
	case "PaddedConvOptions":
		return w.paddedConvOptionsFunction(name, c)
	case "InterpolateOptions":
		return w.interpolateOptionsFunction(name, c)
	case "DeformConvOptions":
		return w.deformConvOptionsFunction(name, c)
	case "UnfoldOptions":
		return w.unfoldOptionsFunction(name, c)
	case "AttentionModuleOptions":
		if name == "default" && len(c.Args) == 0 {
			return &Enum{Type: "Default", Variant: "default"}, nil, nil
		}
	case "FloatDType", "IntDType", "BoolDType", "BoolStore", "DType":
		if name == "from" && len(c.Args) == 1 {
			v, ue, p := dtypeConvert(c.Args[0], typ)
			if p != nil {
				p = p.on(1)
			}
			return v, ue, p
		}
		if typ != "DType" {
			break
		}
		if name == "Bool" && len(c.Args) == 1 {
			return &Enum{Type: "DType", Variant: "Bool", Fields: c.Args}, nil, nil
		}
	}
	return nil, errUnknownFunction("`"+typ+"`", name), nil
}

// freeFunction is a function called by its bare name after imports:
// activations, module ops, the server entry points.
func (w *World) freeFunction(name string, full []string, c Call) (Value, *UsageError, *Panic) {
	if _, ok := moreActivationArgs[name]; ok {
		return w.moreActivation(name, c)
	}
	switch name {
	case "relu", "sigmoid", "gelu", "tanh", "silu", "softmax", "log_softmax", "leaky_relu":
		return w.activation(name, c)
	case "linear":
		return w.moduleLinear(c)
	case "prelu":
		return w.prelu(c)
	case "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d":
		return w.conv(name, c)
	case "max_pool1d", "max_pool2d", "max_pool1d_with_indices", "max_pool2d_with_indices", "avg_pool1d", "avg_pool2d",
		"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d":
		return w.pool(name, c)
	case "interpolate":
		return w.interpolate(c)
	case "ctc_loss":
		return w.ctcLoss(c)
	case "attention", "attention_fallback":
		return w.attention(c, name == "attention_fallback")
	case "deform_conv2d":
		return w.deformConv2d(c)
	case "unfold4d", "fold4d":
		return w.unfold4d(c, name == "fold4d")
	case "embedding":
		return w.embedding(c)
	case "batch_norm":
		return w.batchNorm(c)
	case "layer_norm":
		return w.layerNorm(c)
	case "avg_pool2d_backward", "max_pool2d_with_indices_backward", "conv2d_weight_backward":
		return w.moduleBackward(name, c)
	case "start", "start_async":
		if len(full) >= 2 && full[len(full)-2] == "server" {
			return w.serverFunction(name, c)
		}
	case "all_reduce":
		return w.distributedFunction("", name, c)
	case "compute_range", "compute_q_params":
		return w.quantizationFunction(name, c)
	}
	return nil, &UsageError{Code: "unknown-function", Arg: -1,
		Message: "cannot find function `" + strings.Join(full, "::") + "` in this scope"}, nil
}

// defaultValue is `Default::default()` for the type the program declares.
func (w *World) defaultValue(expect string) (Value, *UsageError, *Panic) {
	switch strings.TrimSpace(strings.TrimPrefix(expect, "burn::tensor::")) {
	case "Device":
		d, p := w.defaultDevice()
		return d, nil, p
	case "DeviceKind":
		return &Enum{Type: "DeviceKind", Variant: "DefaultDevice"}, nil, nil
	}
	return &Enum{Type: "Default", Variant: "default"}, nil, nil
}

func isDefaultMarker(v Value) bool {
	e, ok := Deref(v).(*Enum)
	return ok && e.Type == "Default"
}

// variantCall builds a tuple variant of an enum Burn's API takes.
func variantCall(typ, variant string, c Call) (Value, *UsageError, *Panic) {
	arity := -1
	switch typ {
	case "DeviceKind":
		if n, ok := deviceKindArity[variant]; ok {
			arity = n
		}
	case "Distribution":
		arity = map[string]int{"Default": 0, "Uniform": 2, "Normal": 2, "Bernoulli": 1}[variant]
		if variant != "Default" && arity == 0 {
			arity = -1
		}
	case "DeviceIndex":
		arity = map[string]int{"Specified": 1, "Default": 0}[variant]
		if variant != "Default" && arity == 0 {
			arity = -1
		}
	}
	if arity < 0 {
		return nil, &UsageError{Code: "unknown-function", Arg: -1,
			Message: "no variant or associated item named `" + variant + "` found for enum `" + typ + "` in the current scope"}, nil
	}
	if len(c.Args) != arity {
		return nil, errArgCount(false, arity, len(c.Args)), nil
	}
	return &Enum{Type: typ, Variant: variant, Fields: c.Args}, nil, nil
}

// argument access

type argList struct {
	c      Call
	method bool
}

func (a argList) n() int { return len(a.c.Args) }

func (a argList) want(n int) *UsageError {
	if len(a.c.Args) != n {
		return errArgCount(a.method, n, len(a.c.Args))
	}
	return nil
}

func (a argList) get(i int) Value { return Deref(a.c.Args[i]) }

func (a argList) int(i int) (int64, *UsageError) {
	switch v := a.get(i).(type) {
	case Int:
		return v.V, nil
	}
	return 0, errArgType(i+1, "usize", a.c.Args[i])
}

// intValue also returns the literal's suffix, which decides the
// DeviceIndex conversion that runs.
func (a argList) intValue(i int) (Int, *UsageError) {
	if v, ok := a.get(i).(Int); ok {
		return v, nil
	}
	return Int{}, errArgType(i+1, "usize", a.c.Args[i])
}

func (a argList) float(i int) (float64, *UsageError) {
	switch v := a.get(i).(type) {
	case Float:
		return v.V, nil
	case Int:
		return float64(v.V), nil
	}
	return 0, errArgType(i+1, "f64", a.c.Args[i])
}

func (a argList) boolean(i int) (bool, *UsageError) {
	if v, ok := a.get(i).(Bool); ok {
		return bool(v), nil
	}
	return false, errArgType(i+1, "bool", a.c.Args[i])
}

func (a argList) str(i int) (string, *UsageError) {
	if v, ok := a.get(i).(Str); ok {
		return string(v), nil
	}
	return "", errArgType(i+1, "&str", a.c.Args[i])
}

func (a argList) tensor(i int) (*Tensor, *UsageError) {
	if t, ok := a.get(i).(*Tensor); ok {
		return t, nil
	}
	return nil, errArgType(i+1, "Tensor", a.c.Args[i])
}

// device takes a Device argument (by value or borrowed), `Default::default()`
// included, which is Device::default() and may panic.
func (w *World) deviceArg(a argList, i int) (*Device, *UsageError, *Panic) {
	v := a.get(i)
	if d, ok := v.(*Device); ok {
		return d, nil, nil
	}
	if isDefaultMarker(v) {
		d, p := w.defaultDevice()
		return d, nil, p
	}
	return nil, errArgType(i+1, "&Device", a.c.Args[i]), nil
}

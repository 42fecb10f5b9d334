package dispatch

import "testing"

// The capture, distributed, enumeration and read surface answers every
// value the interpreter can pass with a value, a *Panic or a *UsageError,
// and a capture scope's Done accepts whatever the closure returned.
func TestNewSurfaceNeverCrashes(t *testing.T) {
	w := NewWorld(Config{Features: features(t, true, "flex", "cuda", "capture", "remote-websocket"),
		Hardware: Hardware{Cuda: 2}, Servers: []Server{{Address: "ws://localhost:3000", Device: "cuda"}}})
	flex := device(t, w, "flex")
	cuda := device(t, w, "cuda", i(0))
	capture := device(t, w, "capture")
	scope, cb := openScope(t, w, capture)
	captured := ones(t, w, capture, "", 2)
	values := []Value{
		Unit{}, i(0), i(-3), f(1.5), Bool(true), Str("ws://localhost:3000"), arr(), arr(i(1)), &Array{Vec: true},
		Tuple{}, enum("DType", "F32"), enum("ReduceOperation", "Sum"), enum("DeviceType", "Cuda"), enum("DeviceType", "Metal"),
		&Enum{Type: "DeviceType", Variant: "Remote", Fields: []Value{i(1)}}, sumConfig(), &Enum{Variant: "DistributedConfig"},
		flex, cuda, capture, autodiffOf(t, w, cuda), ones(t, w, flex, "", 2), ones(t, w, cuda, "", 2), ones(t, w, flex, "Int", 2),
		captured, &Array{Elems: []Value{cuda, flex}}, &Array{Elems: []Value{i(1)}},
		&ParamID{value: 3}, &DeviceFilter{}, &Devices{devices: []*Device{cuda}}, &CollectiveTensor{t: ones(t, w, cuda, "", 2)},
		scope, &CompletedCaptureScope{session: scope.session}, closureArg, Unknown{},
	}
	recvs := values[len(values)-9:]
	recvs = append(recvs, flex, cuda, capture, ones(t, w, cuda, "", 2), captured, enum("DeviceType", "Flex"), &TensorData{shape: []int64{2}, dtype: F32})
	methods := []string{"resolve", "assume_resolved", "complete", "into_vec", "iter", "len", "first", "get", "autodiff", "configure",
		"bitor", "with", "val", "clone", "capture_scope", "settings", "supports_dtype", "seed", "set_distributed", "is_distributed",
		"into_data", "to_data", "into_data_as", "to_data_dtype", "into_data_dtype", "into_scalar", "into_scalar_async", "to_device",
		"max_pair", "min_pair", "one_hot", "mean", "mean_dim"}
	for _, r := range recvs {
		for _, m := range methods {
			for _, a := range values {
				for _, args := range [][]Value{nil, {a}, {a, a}} {
					run(t, w, Call{Recv: r, Method: m, Args: args})
				}
			}
		}
	}
	for _, path := range []string{"DistributedContext::init", "all_reduce", "ParamId::from", "ParamId::new", "DeviceType::remote_websocket",
		"DeviceFilter::new", "Device::enumerate", "Shape::new"} {
		for _, a := range values {
			for _, b := range values {
				run(t, w, Call{Path: splitPath(path), Args: []Value{a, b}})
				run(t, w, Call{Path: splitPath(path), Args: []Value{a, b, a}})
				run(t, w, Call{Path: splitPath(path), Args: []Value{a}})
			}
		}
	}
	for _, ret := range values {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("capture_scope's Done(%s): Go panic %v", Debug(ret), r)
				}
			}()
			cb.Done(ret)
		}()
	}
}

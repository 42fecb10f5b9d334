package dispatch

import (
	"fmt"
	"testing"
)

// Whatever the interpreter passes, Call answers with a value, a *Panic or
// a *UsageError: it never crashes the engine.
func TestCallNeverCrashes(t *testing.T) {
	w := world(t, "flex", "cuda", "capture", "remote-websocket", "remote-server", "tch")
	flex := device(t, w, "flex")
	ad := mustCall(t, w, method(flex, "autodiff")).(*Device)
	values := []Value{
		Unit{}, i(0), i(-1), i(2), i(1 << 40), f(0.5), Bool(true), Str("x"),
		dims(), dims(2), dims(2, 3), dims(0, 0), arr(i(-1)), arr(&Range{}), arr(f(1)),
		&Array{Elems: []Value{ones(t, w, flex, "", 2)}, Vec: true}, &Array{Vec: true},
		Tuple{}, Tuple{ref(flex), i(3)}, &Range{Lo: ptr(3), Hi: ptr(1)},
		enum("DType", "F16"), enum("Option", "None"), &Enum{Type: "Default", Variant: "default"},
		flex, ad, ref(flex),
		ones(t, w, flex, "", 2, 3), ones(t, w, ad, "", 2, 3), ones(t, w, flex, "Int", 2, 3),
		ones(t, w, flex, "Bool", 2, 3), ones(t, w, flex, "Int", 2), ones(t, w, ad, "", 1),
		&Gradients{grads: map[uint64]bool{}}, &ShapeValue{dims: []int64{2, 3}}, Unknown{},
	}
	lin := mustCall(t, w, method(mustCall(t, w, fn("LinearConfig::new", i(3), i(2))), "init", ref(flex)))
	recvs := append(append([]Value{i(2), f(0.5), lin}, values[len(values)-12:]...), mustCall(t, w, fn("LinearConfig::new", i(3), i(2))))
	var methods []string
	for m := range opTable {
		methods = append(methods, m)
	}
	methods = append(methods, "to_device", "require_grad", "backward", "grad", "grad_remove", "grad_replace", "inner",
		"no_grad", "detach", "one_hot", "dims", "shape", "into_data", "into_scalar", "zeros_like", "clone", "autodiff",
		"gradient_checkpointing", "eq", "forward", "devices", "init", "rem", "set_require_grad")
	calls := 0
	for _, r := range recvs {
		for _, m := range methods {
			for _, a := range values {
				for _, b := range []Value{nil, i(1), ones(t, w, flex, "Bool", 2, 3)} {
					args := []Value{a}
					if b != nil {
						args = append(args, b)
					}
					for n := 0; n <= len(args); n++ {
						c := Call{Recv: r, Method: m, Args: args[:n], Generics: [][]string{{"2"}}}
						run(t, w, c)
						calls++
					}
				}
			}
		}
	}
	for _, path := range []string{"Device::cuda", "Device::wgpu", "Device::remote_websocket", "Tensor::ones", "Tensor::cat",
		"Tensor::stack", "Tensor::from_data", "Tensor::arange", "Tensor::from_inner", "Tensor::random", "burn::server::start",
		"LinearConfig::new", "TensorData::new", "relu", "softmax", "linear", "Default::default", "DeviceKind::DiscreteGpu"} {
		for _, a := range values {
			for _, b := range values {
				run(t, w, Call{Path: splitPath(path), Args: []Value{a, b}})
				run(t, w, Call{Path: splitPath(path), Args: []Value{a}})
				calls += 2
			}
		}
	}
	if calls < 10000 {
		t.Errorf("only %d calls", calls)
	}
}

func run(t *testing.T, w *World, c Call) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s with %s: Go panic %v", describe(c), fmt.Sprint(c.Args), r)
		}
	}()
	v, err := w.Call(c)
	if err == nil && v == nil {
		t.Fatalf("%s: nil value without an error", describe(c))
	}
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(p); i++ {
		if p[i] == ':' && p[i+1] == ':' {
			out = append(out, p[start:i])
			start = i + 2
		}
	}
	return append(out, p[start:])
}

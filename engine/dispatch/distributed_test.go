package dispatch

import (
	"strings"
	"testing"
)

func autodiffOf(t testing.TB, w *World, d *Device) *Device {
	t.Helper()
	return mustCall(t, w, method(d, "autodiff")).(*Device)
}

// sumConfig is `DistributedConfig { all_reduce_op: ReduceOperation::Sum }`
// as the interpreter builds a struct literal after
// `use burn::tensor::distributed::DistributedConfig`.
func sumConfig() *Enum {
	return &Enum{Type: "distributed", Variant: "DistributedConfig",
		Named: map[string]Value{"all_reduce_op": enum("ReduceOperation", "Sum")}}
}

// The collectives run on Cuda and Remote: a context over CUDA devices, an
// all_reduce of a tracked tensor that stays on the tape, and its resolve.
func TestDistributedOnCuda(t *testing.T) {
	w := world(t, "cuda")
	gpus := &Array{Elems: []Value{autodiffOf(t, w, device(t, w, "cuda", i(0))), autodiffOf(t, w, device(t, w, "cuda", i(1)))}}
	if _, ok := mustCall(t, w, fn("DistributedContext::init", gpus, sumConfig())).(*DistributedContext); !ok {
		t.Fatal("init must return the context")
	}
	if ev := w.Trace()[len(w.Trace())-1]; ev.Op != "start_communication_server" || ev.Device != "Cuda(Cuda(0))" || !ev.Autodiff {
		t.Errorf("trace = %+v", ev)
	}
	x := mustCall(t, w, method(ones(t, w, gpus.Elems[0].(*Device), "", 4), "require_grad")).(*Tensor)
	c := mustCall(t, w, fn("all_reduce", x, enum("ReduceOperation", "Mean"), gpus)).(*CollectiveTensor)
	y := mustCall(t, w, method(c, "resolve")).(*Tensor)
	if !y.Tracked() || y.node.parents[0] != x.node {
		t.Errorf("all_reduce of a tracked tensor must stay on the tape with it as parent")
	}
	tr := w.Trace()
	if got := tr[len(tr)-2].Op + " " + tr[len(tr)-1].Op; got != "all_reduce sync_collective" {
		t.Errorf("trace ends %q", got)
	}
	// No device at all starts nothing.
	before := len(w.Trace())
	mustCall(t, w, fn("DistributedContext::init", &Array{}, sumConfig()))
	if len(w.Trace()) != before {
		t.Error("an empty device list must not start a server")
	}
	// Not a Cuda machine with three GPUs: the device fails on first use.
	three := &Array{Elems: []Value{device(t, w, "cuda", i(0)), device(t, w, "cuda", i(2))}}
	if p := mustPanic(t, w, fn("DistributedContext::init", three, sumConfig())); p.ID != "playground-missing-hardware" {
		t.Errorf("init on a missing GPU: %s", p.ID)
	}
}

// The remote client resolves each device id through the registry: a
// non-remote device whose index id happens to be a registered remote id
// passes (Flex's index id is 0, the first remote device's id).
func TestRemoteAllReduceResolvesIndexIDs(t *testing.T) {
	w := NewWorld(Config{Features: features(t, true, "remote-websocket", "cuda"), Hardware: Hardware{Cuda: 1},
		Servers: []Server{{Address: "ws://localhost:3000", Device: "cuda"}}})
	remote := device(t, w, "remote_websocket", Str("ws://localhost:3000"), i(0))
	x := ones(t, w, remote, "", 2)
	mustCall(t, w, fn("all_reduce", x, enum("ReduceOperation", "Sum"), &Array{Elems: []Value{remote, device(t, w, "cuda", i(0))}}))
	p := mustPanic(t, w, fn("all_reduce", x, enum("ReduceOperation", "Sum"), &Array{Elems: []Value{device(t, w, "cuda", i(3))}}))
	if p.ID != "rem-allreduce-unregistered" || p.Input != 3 {
		t.Errorf("Cuda(3) in the list: %s on input %d", p.ID, p.Input)
	}
}

func TestSetDistributed(t *testing.T) {
	w := world(t, "cuda")
	ad := autodiffOf(t, w, device(t, w, "cuda", i(0)))
	x := mustCall(t, w, method(ones(t, w, ad, "", 2), "require_grad")).(*Tensor)
	if v := mustCall(t, w, method(x, "is_distributed")); v != Bool(false) {
		t.Errorf("is_distributed before = %v", v)
	}
	id := mustCall(t, w, fn("ParamId::from", i(42)))
	y := mustCall(t, w, method(x, "set_distributed", id)).(*Tensor)
	if v := mustCall(t, w, method(y, "is_distributed")); v != Bool(true) {
		t.Errorf("is_distributed after = %v", v)
	}
	if !strings.Contains(y.kindDebug(), "distributed_params: Some(DistributedParams { param_id: ParamId { value: 42 } })") {
		t.Errorf("Debug = %s", y.kindDebug())
	}
	if y.node.id != x.node.id || y.node.requirement != reqGrad || len(y.node.parents) != 0 || !y.node.step {
		t.Errorf("grad_distributed keeps id and requirement, drops parents, registers a root step: %+v", y.node)
	}
	// A tracked Flex tensor is never distributed.
	flex := ones(t, w, autodiffOf(t, w, mustCall(t, w, fn("Device::default")).(*Device)), "", 2)
	if v := mustCall(t, w, method(flex, "is_distributed")); v != Bool(false) {
		t.Errorf("is_distributed on Flex = %v", v)
	}
	// Without the autodiff feature both are the backend's defaults.
	plain := NewWorld(Config{Features: features(t, false, "std", "cuda"), Hardware: Hardware{Cuda: 1}})
	z := ones(t, plain, device(t, plain, "cuda", i(0)), "", 2)
	if v := mustCall(t, plain, method(z, "set_distributed", mustCall(t, plain, fn("ParamId::new")))); v != z {
		t.Error("set_distributed without autodiff must return the tensor")
	}
	if v := mustCall(t, plain, method(z, "is_distributed")); v != Bool(false) {
		t.Errorf("is_distributed without autodiff = %v", v)
	}
	mustReject(t, w, method(ones(t, w, ad, "Int", 2), "is_distributed"))
}

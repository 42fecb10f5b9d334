package dispatch

import "fmt"

// burn::tensor::distributed (crates/burn-tensor/src/tensor/distributed.rs,
// feature std) over Dispatch's DistributedOps
// (crates/burn-dispatch/src/ops/distributed.rs): only Cuda and Remote
// carry collectives (macros.rs:25-36), and the first device or the tensor
// alone decides which arm runs. Tensor::set_distributed and
// is_distributed (api/float.rs:820-831) are Dispatch's AutodiffBackend
// functions (backend.rs:734-838).

// DistributedContext is the handle DistributedContext::init returns; its
// Drop closes the communication server of the first device, which cannot
// fail once init accepted the devices.
type DistributedContext struct{ devices []*Device }

// CollectiveTensor is all_reduce's result before it is synchronized.
type CollectiveTensor struct{ t *Tensor }

// ParamID is burn-std's ParamId. ParamId::new() draws a random u64, which
// a reproducible run cannot print, so only an id built from a number
// shows its value.
type ParamID struct {
	value  uint64
	random bool
}

func (*DistributedContext) TypeName() string { return "DistributedContext" }
func (c *CollectiveTensor) TypeName() string {
	return fmt.Sprintf("CollectiveTensor<%d>", c.t.Rank())
}
func (*ParamID) TypeName() string { return "ParamId" }

// debug is ParamId's derived Debug.
func (p *ParamID) debug() string {
	if p.random {
		return "ParamId { value: .. }"
	}
	return fmt.Sprintf("ParamId { value: %d }", p.value)
}

// collectiveBackend reports the backends of distributed_backend_list!.
func (w *World) collectiveBackend(b Backend) bool {
	return (b == Cuda || b == Remote) && w.compiled(b)
}

func (w *World) distributedFunction(typ, name string, c Call) (Value, *UsageError, *Panic) {
	if !w.apiFeature("std") {
		return nil, errGatedPath("burn::tensor::distributed", "distributed", "tensor", "std"), nil
	}
	a := argList{c: c}
	switch typ + "::" + name {
	case "DistributedContext::init":
		if ue := a.want(2); ue != nil {
			return nil, ue, nil
		}
		devices, ue := deviceList(a, 0)
		if ue != nil {
			return nil, ue, nil
		}
		if ue := distributedConfigArg(a, 1); ue != nil {
			return nil, ue, nil
		}
		if p := w.startCommunicationServer(devices); p != nil {
			return nil, nil, p.on(1)
		}
		return &DistributedContext{devices: devices}, nil, nil
	case "::all_reduce":
		if ue := a.want(3); ue != nil {
			return nil, ue, nil
		}
		t, ue := a.tensor(0)
		if ue != nil || t.kind == KindInt || t.kind == KindBool {
			return nil, errArgType(1, "Tensor<D>", c.Args[0]), nil
		}
		if e, ok := a.get(1).(*Enum); !ok || e.Type != "ReduceOperation" || (e.Variant != "Sum" && e.Variant != "Mean") {
			return nil, errArgType(2, "ReduceOperation", c.Args[1]), nil
		}
		devices, ue := deviceList(a, 2)
		if ue != nil {
			return nil, ue, nil
		}
		return w.allReduce(t, devices)
	}
	return nil, errUnknownFunction("`"+typ+"`", name), nil
}

// deviceList reads a Vec<Device>.
func deviceList(a argList, i int) ([]*Device, *UsageError) {
	arr, ok := a.get(i).(*Array)
	if !ok {
		return nil, errArgType(i+1, "Vec<Device>", a.c.Args[i])
	}
	devices := make([]*Device, len(arr.Elems))
	for j, e := range arr.Elems {
		d, ok := Deref(e).(*Device)
		if !ok {
			return nil, errArgType(i+1, "Vec<Device>", a.c.Args[i])
		}
		devices[j] = d
	}
	return devices, nil
}

// distributedConfigArg reads `DistributedConfig { all_reduce_op }`.
func distributedConfigArg(a argList, i int) *UsageError {
	e, ok := a.get(i).(*Enum)
	if !ok || e.Variant != "DistributedConfig" {
		return errArgType(i+1, "DistributedConfig", a.c.Args[i])
	}
	op, ok := Deref(e.Named["all_reduce_op"]).(*Enum)
	if !ok || op.Type != "ReduceOperation" || (op.Variant != "Sum" && op.Variant != "Mean") || len(e.Named) != 1 {
		return errArgType(i+1, "DistributedConfig", a.c.Args[i])
	}
	return nil
}

// startCommunicationServer is Dispatch::start_communication_server
// (ops/distributed.rs:14-113): nothing for no device; otherwise the first
// device picks the arm and every other device must be the same variant.
// An autodiff first device first requires every device to be autodiff
// (line 31), then matches its inner device.
func (w *World) startCommunicationServer(devices []*Device) *Panic {
	if len(devices) == 0 {
		return nil
	}
	first := devices[0]
	if first.autodiff {
		for _, d := range devices {
			if !d.autodiff {
				return newPanic("disp-dist-mixed-variant-ad", at(locDispatchDistributed, 31), unreachableMsg(msgSameVariant))
			}
		}
	}
	inner := first.Inner()
	if !w.collectiveBackend(inner.backend) {
		if first.autodiff {
			return newPanic("disp-dist-unsupported-device-ad", at(locDispatchDistributed, 89), unsupportedDevice(inner))
		}
		return newPanic("disp-dist-unsupported-device", at(locDispatchDistributed, 61), unsupportedDevice(first))
	}
	for _, d := range devices {
		if d.Inner().backend == inner.backend && d.autodiff == first.autodiff {
			continue
		}
		if first.autodiff {
			return newPanic("disp-dist-mixed-variant-ad-inner", at(locDispatchDistributed, 80), unreachableMsg(msgSameVariant))
		}
		return newPanic("disp-dist-mixed-variant", at(locDispatchDistributed, 53), unreachableMsg(msgSameVariant))
	}
	for _, d := range devices {
		if p := w.prepare(d); p != nil {
			return p
		}
	}
	w.record(TraceEvent{Op: "start_communication_server", Backend: inner.backend.String(), Device: inner.Debug(), Autodiff: first.autodiff,
		Note: fmt.Sprintf("a gradient sync server for %s", plural(len(devices), "device"))})
	return nil
}

const msgSameVariant = "All devices are expected to be of the same variant."

func unsupportedDevice(d *Device) string {
	return "Distributed operations are not supported for device " + d.Debug()
}

func unsupportedTensorKind(kind string) string {
	return "Distributed operations are not supported for tensor kind " + kind
}

// allReduce is burn_tensor::distributed::all_reduce: the input becomes a
// float (a quantized one is dequantized), each device becomes its
// DeviceId, and Dispatch::all_reduce routes by the tensor through
// unary_float!(@distributed) (macros.rs:626-689). The remote client then
// maps every DeviceId's index back to a registered remote device on the
// tensor's peer (rem/src/client/runner.rs:138-160).
func (w *World) allReduce(t *Tensor, devices []*Device) (Value, *UsageError, *Panic) {
	if t.kind == KindQFloat {
		v, ue, p := w.moreTensorMethod(t, Call{Recv: t, Method: "dequantize"})
		if ue != nil || p != nil {
			return nil, ue, p
		}
		t = v.(*Tensor)
	}
	if !w.collectiveBackend(t.on.backend) {
		if t.tracked {
			return nil, nil, w.failOp("all_reduce", t, newPanic("disp-unary-float-dist-ad", at(locDispatchMacros, 688), unsupportedTensorKind(t.innerKindDebug())).on(1))
		}
		return nil, nil, w.failOp("all_reduce", t, newPanic("disp-unary-float-dist", at(locDispatchMacros, 663), unsupportedTensorKind(t.kindDebug())).on(1))
	}
	if t.on.backend == Remote {
		local := t.on.remote.peerText()
		for _, d := range devices {
			peer, ok := w.remotePeers[deviceIndexID(d)]
			if !ok {
				return nil, nil, w.failOp("all_reduce", t, newPanic("rem-allreduce-unregistered", at(locRemoteRunner, 144),
					"an all_reduce device must be a registered remote device on this process").on(3).
					label("%s has index id %d, and no remote device of this process has that registry id", d.rustDebug(), deviceIndexID(d)))
			}
			if peer.text != local {
				m := fmt.Sprintf("cross-peer all_reduce is not supported yet: the tensor is on `%s` but the collective includes a device on `%s`", local, peer.text)
				return nil, nil, w.failOp("all_reduce", t, newPanic("rem-allreduce-cross-peer", at(locRemoteRunner, 147),
					assertEqMsg(m, peer.debug, t.on.remote.peerDebug())).on(3))
			}
		}
	}
	pl := routeUnary(t, KindFloat)
	if p := w.prepare(pl.on); p != nil {
		return nil, nil, p
	}
	out := w.output(pl, KindFloat, t.shape, t.dtype)
	w.recordOp("all_reduce", pl, out)
	return &CollectiveTensor{t: out}, nil, nil
}

// deviceIndexID is the index_id of DispatchDevice::id() (device.rs:514-530):
// the inner device's own DeviceId index, which is the hardware index, the
// registry id of a remote device or the id of a capture device.
func deviceIndexID(d *Device) int {
	d = d.Inner()
	switch d.backend {
	case Cuda, Rocm:
		return d.index
	case LibTorch:
		if d.torch == "Cuda" {
			return d.index
		}
	case Metal, Vulkan, Wgpu, WebGpu:
		// cubecl's WgpuDevice::to_id keeps the payload of the indexed kinds.
		if deviceKindArity[d.wgpu.Name] == 1 {
			return int(uint16(d.wgpu.Index))
		}
	case Remote:
		return d.remote.id
	case Capture:
		return d.capture
	}
	return 0
}

func (w *World) collectiveMethod(c *CollectiveTensor, call Call) (Value, *UsageError, *Panic) {
	a := argList{c: call, method: true}
	switch call.Method {
	case "resolve":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		// sync_collective on the handle's device (dispatch_device!(@distributed)):
		// the handle sits where all_reduce accepted it.
		d := c.t.Device()
		w.record(TraceEvent{Op: "sync_collective", Backend: c.t.on.backend.String(), Device: c.t.on.Debug(), Autodiff: d.autodiff})
		return c.t, nil, nil
	case "assume_resolved":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return c.t, nil, nil
	case "clone":
		return c, nil, nil
	}
	return nil, errUnknownMethod("struct `"+c.TypeName()+"`", call.Method), nil
}

func (w *World) paramIDFunction(name string, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	switch name {
	case "new", "default":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &ParamID{random: true}, nil, nil
	case "from":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		n, ue := a.intValue(0)
		if ue != nil || n.V < 0 {
			return nil, errArgType(1, "u64", c.Args[0]), nil
		}
		return &ParamID{value: uint64(n.V)}, nil, nil
	}
	return nil, errUnknownFunction("struct `ParamId`", name), nil
}

func (w *World) paramIDMethod(p *ParamID, c Call) (Value, *UsageError, *Panic) {
	switch c.Method {
	case "clone":
		return p, nil, nil
	case "val":
		if p.random {
			return Unknown{}, nil, nil
		}
		return Int{V: int64(p.value), Suffix: "u64"}, nil, nil
	}
	return nil, errUnknownMethod("struct `ParamId`", c.Method), nil
}

// distributedMethod is Tensor::set_distributed(param_id) and
// is_distributed(): without the autodiff feature they are the backend
// trait's defaults (identity, false); with it, Dispatch requires a
// tracked float, and only Cuda and Remote carry the parameters.
func (w *World) distributedMethod(t *Tensor, method string, a argList) (Value, *UsageError, *Panic) {
	if !w.apiFeature("std") || t.kind == KindInt || t.kind == KindBool {
		return nil, errUnknownMethod("struct `"+t.TypeName()+"`", method), nil
	}
	if t.kind == KindQFloat {
		return nil, errUnsupported("Tensor::" + method + " on a quantized tensor"), nil
	}
	if method == "is_distributed" {
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		switch {
		case !w.autodiffCompiled():
			return Bool(false), nil, nil
		case !t.tracked:
			return nil, nil, newPanic("disp-is-dist-plain", at(locDispatchBackend, 836), msgRequiresAutodiff).on(0)
		}
		return Bool(w.collectiveBackend(t.on.backend) && t.node.distributed != nil), nil, nil
	}
	if ue := a.want(1); ue != nil {
		return nil, ue, nil
	}
	id, ok := a.get(0).(*ParamID)
	if !ok {
		return nil, errArgType(1, "ParamId", a.c.Args[0]), nil
	}
	switch {
	case !w.autodiffCompiled():
		return t, nil, nil
	case !t.tracked:
		return nil, nil, newPanic("disp-set-dist-plain", at(locDispatchBackend, 770), msgRequiresAutodiff).on(0)
	case !w.collectiveBackend(t.on.backend):
		return nil, nil, newPanic("disp-set-dist-unsupported", at(locDispatchBackend, 767), unsupportedTensorKind(t.innerKindDebug())).on(0)
	}
	// Autodiff's grad_distributed rebuilds the node with the same id and
	// requirement, no parents, order 0 and a RootStep
	// (crates/burn-autodiff/src/tensor.rs:224-238).
	out := *t
	node := *t.node
	node.parents, node.order, node.step, node.consumed = nil, 0, true, false
	node.distributed = id
	out.node = &node
	if out.ckp == nil {
		out.ckp = strategyPtr(Disabled)
	}
	return &out, nil, nil
}

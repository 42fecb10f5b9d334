package dispatch

import "fmt"

// This file holds every Burn panic the model raises, one small function per
// row of Burn's panic table (shared/burn/panics.tsv), so the messages read
// as a set. IDs are the table's ids; locations are the panic sites at Burn
// 2c06be35. Rust's panic shapes (spec §0) are applied here and nowhere else.

const (
	locDispatchDevice      = "crates/burn-dispatch/src/device.rs"
	locDispatchBackend     = "crates/burn-dispatch/src/backend.rs"
	locDispatchMacros      = "crates/burn-dispatch/src/macros.rs"
	locDispatchTensor      = "crates/burn-dispatch/src/tensor.rs"
	locRemoteServer        = "crates/burn-dispatch/src/remote_server.rs"
	locDispatchDistributed = "crates/burn-dispatch/src/ops/distributed.rs"
	locTensorDevice        = "crates/burn-tensor/src/device.rs"
	locAutodiffTensor      = "crates/burn-autodiff/src/tensor.rs"
	locAutodiffServer      = "crates/burn-autodiff/src/runtime/server.rs"
	locAutodiffOps         = "crates/burn-autodiff/src/ops/tensor.rs"
	locRemoteClientBase    = "crates/burn-remote/src/client/base.rs"
	locRemoteService       = "crates/burn-remote/src/client/service.rs"
	locRemoteConn          = "crates/burn-remote/src/client/service/conn.rs"
	locCommWebsocket       = "crates/burn-communication/src/websocket/base.rs"
	locIrohNode            = "crates/burn-remote/src/transport/iroh/node.rs"
	locRemoteRunner        = "crates/burn-remote/src/client/runner.rs"
	locRemoteSession       = "crates/burn-remote/src/server/session.rs"
	locBridgeFloat         = "crates/burn-tensor/src/bridge/ops/float.rs"
	locStdDType            = "crates/burn-std/src/tensor/dtype.rs"
)

func at(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

func newPanic(id, location, message string) *Panic {
	return &Panic{ID: id, Location: location, Message: message, Input: -1}
}

// on sets the input the panic is about.
func (p *Panic) on(input int) *Panic {
	p.Input = input
	return p
}

func (p *Panic) label(format string, args ...any) *Panic {
	p.Labels = append(p.Labels, fmt.Sprintf(format, args...))
	return p
}

// Rust's panic shapes.
func unimplementedMsg(m string) string {
	if m == "" {
		return "not implemented"
	}
	return "not implemented: " + m
}
func unreachableMsg(m string) string {
	if m == "" {
		return "internal error: entered unreachable code"
	}
	return "internal error: entered unreachable code: " + m
}
func assertEqMsg(m, left, right string) string {
	return fmt.Sprintf("assertion `left == right` failed: %s\n  left: %s\n right: %s", m, left, right)
}

// ---- default device (crates/burn-dispatch/src/device.rs:269-395)

var burnDeviceLines = map[string]int{
	"cuda": 285, "metal": 292, "rocm": 299, "vulkan": 306, "webgpu": 313, "wgpu": 320,
	"cpu": 327, "tch": 332, "remote": 337, "flex": 344, "ndarray": 351,
}

func panicBurnDeviceDisabled(name string) *Panic {
	return newPanic("disp-burn-device-"+name, at(locDispatchDevice, burnDeviceLines[name]),
		fmt.Sprintf("BURN_DEVICE=%s requested, but the '%s' feature is not enabled.", name, name))
}

func panicBurnDeviceUnknown(original string) *Panic {
	return newPanic("disp-burn-device-unknown", at(locDispatchDevice, 355),
		fmt.Sprintf("Unknown BURN_DEVICE override: '%s'.", original))
}

// ---- burn-tensor Device API (crates/burn-tensor/src/device.rs)

func panicDeviceIndexNegative(suffix string) *Panic {
	id, line := "bt-device-index-i32", 229
	if suffix == "i64" {
		id, line = "bt-device-index-i64", 235
	}
	// `.expect` on usize::try_from's Result prints the TryFromIntError.
	return newPanic(id, at(locTensorDevice, line), "device index must be non-negative: TryFromIntError(())")
}

func panicAutodiffTwice() *Panic {
	return newPanic("bt-autodiff-twice", at(locTensorDevice, 538), unimplementedMsg("Only first-order autodiff is supported"))
}

func panicCheckpointStrategyPlain() *Panic {
	return newPanic("bt-ckpt-strategy-plain", at(locTensorDevice, 552), "Autodiff is not enabled on this device")
}

func panicGradientCheckpointingPlain() *Panic {
	return newPanic("bt-grad-ckpt-plain", at(locTensorDevice, 581), "Autodiff is not enabled on this device")
}

// ---- routing (crates/burn-dispatch/src/macros.rs, device.rs:209-229)

func panicCheckpointMismatch(lhs, rhs Strategy) *Panic {
	m := fmt.Sprintf("Gradient checkpointing strategy mismatch: %s vs %s. Tensors in the same operation must share a strategy.", lhs, rhs)
	return newPanic("disp-ckpt-mismatch", at(locDispatchDevice, 216), assertEqMsg(m, lhs.String(), rhs.String()))
}

// sameBackendPanic are the binary ops' "not on the same backend" panics
// that moving one plain tensor to the other's device resolves.
var sameBackendPanic = map[string]bool{
	"disp-binary-op-backend": true, "disp-binary-float-backend": true, "disp-binary-float-any-backend": true,
}

func notSameBackend(lhs, rhs string) string {
	return fmt.Sprintf("The provided tensors are not on the same backend. Got backends %s and %s.", lhs, rhs)
}

// panicBinaryOpBackend is binary_op!'s fallback (int, bool and quantized ops).
func panicBinaryOpBackend(lhs, rhs string) *Panic {
	return newPanic("disp-binary-op-backend", at(locDispatchMacros, 844), notSameBackend(lhs, rhs))
}

// panicBinaryFloatBackend is binary_float!'s fallback for (float, float):
// plain pairs on two backends, or a tracked float with a plain one.
func panicBinaryFloatBackend(lhs, rhs string) *Panic {
	return newPanic("disp-binary-float-backend", at(locDispatchMacros, 910), notSameBackend(lhs, rhs))
}

// panicBinaryAutodiffBackend is two tracked floats on two backends; the
// Debug arguments are the inner kinds.
func panicBinaryAutodiffBackend(lhs, rhs string) *Panic {
	return newPanic("disp-binary-ad-backend", at(locDispatchMacros, 1086), notSameBackend(lhs, rhs))
}

func panicBinaryFloatAnyInner() *Panic {
	return newPanic("disp-binary-float-any-inner", at(locDispatchMacros, 951), "The provided tensors are not on the same backend.")
}

func panicBinaryFloatAnyBackend(lhs, rhs string) *Panic {
	return newPanic("disp-binary-float-any-backend", at(locDispatchMacros, 968), notSameBackend(lhs, rhs))
}

func panicMultiInputWrong(name string) *Panic {
	return newPanic("disp-multi-input-wrong", at(locDispatchMacros, 1129), fmt.Sprintf("Input tensor %s is on the wrong device", name))
}

func panicMultiOptionalWrong(name string) *Panic {
	return newPanic("disp-multi-opt-wrong", at(locDispatchMacros, 1138), fmt.Sprintf("Optional tensor %s is on the wrong device", name))
}

func panicMultiAutodiffInputWrong(name string) *Panic {
	return newPanic("disp-multi-ad-input-wrong", at(locDispatchMacros, 1198), fmt.Sprintf("Input tensor %s is on the wrong device", name))
}

func panicMultiAutodiffInputOther(name string) *Panic {
	return newPanic("disp-multi-ad-input-other", at(locDispatchMacros, 1204), fmt.Sprintf("Input tensor %s is on the wrong device", name))
}

func panicMultiAutodiffOptionalWrong(name string) *Panic {
	return newPanic("disp-multi-ad-opt-wrong", at(locDispatchMacros, 1214), fmt.Sprintf("Input tensor %s is on the wrong device", name))
}

func panicMultiAutodiffOptionalPlain(name string) *Panic {
	return newPanic("disp-multi-ad-opt-plain", at(locDispatchMacros, 1217), fmt.Sprintf("Optional tensor %s is on the wrong device", name))
}

// panicLiftPlainFloat is BackendTensor::autodiff() on a plain float, which
// multi_op! reaches for a plain float input next to a tracked first input
// (crates/burn-dispatch/src/tensor.rs:97-98).
func panicLiftPlainFloat() *Panic {
	return newPanic("disp-bt-autodiff", at(locDispatchTensor, 98), unreachableMsg(""))
}

func panicVecWrongBackend(expected Backend) *Panic {
	return newPanic("disp-vec-wrong-backend", at(locDispatchMacros, 1445), fmt.Sprintf("Tensor is on the wrong backend (expected %s).", expected))
}

func panicVecAutodiffWrongBackend(expected Backend) *Panic {
	return newPanic("disp-vec-ad-wrong-backend", at(locDispatchMacros, 1459), fmt.Sprintf("Autodiff float tensor is on the wrong backend (expected %s).", expected))
}

func panicVecAutodiffPlain(expected Backend) *Panic {
	return newPanic("disp-vec-ad-plain", at(locDispatchMacros, 1464), fmt.Sprintf("Expected autodiff-wrapped float tensor for backend %s.", expected))
}

// ---- transfers (crates/burn-dispatch/src/macros.rs:150-414)

func panicTrackedToPlain() *Panic {
	return newPanic("disp-float-todev-ad-mix", at(locDispatchMacros, 368), "Cannot move between autodiff and non-autodiff instances.")
}

func panicTrackedAcrossBackends() *Panic {
	return newPanic("disp-float-todev-ad-cross", at(locDispatchMacros, 398), unimplementedMsg("Autodiff tensor cannot be moved between backends."))
}

func panicFloatFromCapture() *Panic {
	return newPanic("disp-float-todev-from-capture", at(locDispatchMacros, 373), "Cannot move a tensor from a capture device")
}

func panicFromCapture() *Panic {
	return newPanic("disp-todev-from-capture", at(locDispatchMacros, 267), "Cannot move a tensor from a capture device")
}

func panicToAutodiffNoInnerArm() *Panic {
	return newPanic("disp-todev-ad-nested", at(locDispatchMacros, 260), unreachableMsg("Autodiff should not wrap an autodiff device."))
}

// ---- autodiff entry points (crates/burn-dispatch/src/backend.rs:281-898)

const (
	msgRequiresAutodiff = "Requires autodiff tensor."
	msgCaptureAutodiff  = "Capture tensors do not support autodiff"
	msgNestedAutodiff   = "Autodiff should not wrap an autodiff tensor."
)

// autodiffEntry holds the lines of one AutodiffBackend function's panics.
type autodiffEntry struct {
	name                 string // id infix: backward, grad, grad-remove, inner, from-inner
	capture, plain, none int    // lines of the Capture arm, the plain arm and the no-autodiff stub
	noneID               string
}

var (
	entryBackward    = autodiffEntry{"backward", 316, 322, 849, "disp-noad-backward"}
	entryGrad        = autodiffEntry{"grad", 390, 396, 853, "disp-noad-grad"}
	entryGradRemove  = autodiffEntry{"grad-remove", 468, 474, 860, "disp-noad-grad-remove"}
	entryInner       = autodiffEntry{"inner", 599, 605, 868, "disp-noad-inner"}
	entryFromInner   = autodiffEntry{"from-inner", 700, 0, 884, "disp-noad-from-inner"}
	entryGradReplace = autodiffEntry{"grad-replace", 0, 541, 864, "disp-noad-grad-replace"}
	entryIntInner    = autodiffEntry{"int-inner", 0, 0, 872, "disp-noad-int-inner"}
	entryBoolInner   = autodiffEntry{"bool-inner", 0, 0, 876, "disp-noad-bool-inner"}
	entryIntFrom     = autodiffEntry{"int-from-inner", 0, 0, 888, "disp-noad-int-from-inner"}
	entryBoolFrom    = autodiffEntry{"bool-from-inner", 0, 0, 892, "disp-noad-bool-from-inner"}
	entryQInner      = autodiffEntry{"q-inner", 0, 0, 880, "disp-noad-q-inner"}
	entryQFrom       = autodiffEntry{"q-from-inner", 0, 0, 896, "disp-noad-q-from-inner"}
)

func panicRequiresAutodiff(e autodiffEntry) *Panic {
	return newPanic("disp-"+e.name+"-plain", at(locDispatchBackend, e.plain), msgRequiresAutodiff)
}

func panicCaptureAutodiff(e autodiffEntry) *Panic {
	return newPanic("disp-"+e.name+"-capture", at(locDispatchBackend, e.capture), msgCaptureAutodiff)
}

// panicGradReplaceBackend is grad_replace's fallback: the tracked tensor's
// inner kind and the replacement's kind differ, or the backend has no arm
// (LibTorch and Capture never do).
func panicGradReplaceBackend(t, g string) *Panic {
	return newPanic("disp-grad-replace-backend", at(locDispatchBackend, 537), notSameBackend(t, g))
}

func panicFromInnerNested() *Panic {
	return newPanic("disp-from-inner-nested", at(locDispatchBackend, 703), msgNestedAutodiff)
}

// panicNoAutodiffFeature is the placeholder AutodiffBackend impl of a build
// without the autodiff feature (backend.rs:842-898).
// Its fix turns the feature on.
func panicNoAutodiffFeature(e autodiffEntry) *Panic {
	p := newPanic(e.noneID, at(locDispatchBackend, e.none), unimplementedMsg("Requires `autodiff` feature"))
	p.Fixes = []FixHint{{Title: "Enable burn's `autodiff` feature", Arg: NoArg, AddFeature: "autodiff"}}
	return p
}

func panicRequireGradNonLeaf() *Panic {
	return newPanic("ad-require-grad-nonleaf", at(locAutodiffTensor, 115), "Can't convert a non leaf tensor into a tracked tensor")
}

func panicBackwardNoStep() *Panic {
	return newPanic("ad-backward-no-step", at(locAutodiffServer, 69),
		"Node should have a step registered, did you forget to call `Tensor::register_grad` on the tensor where you need gradients?")
}

func panicAutodiffTopk() *Panic {
	return newPanic("ad-topk", at(locAutodiffOps, 2588), unimplementedMsg("topk is not implemented for autodiff"))
}

// panicAutodiffScatterUpdate is Autodiff's float_scatter, which
// differentiates only the Add and Assign updates.
func panicAutodiffScatterUpdate(update string) *Panic {
	return newPanic("ad-scatter-update", at(locAutodiffOps, 1125), unimplementedMsg(fmt.Sprintf("float_scatter with %s update is not implemented", update)))
}

// ---- remote server (crates/burn-dispatch/src/remote_server.rs:56-131)

func panicServerLibTorch() *Panic {
	return newPanic("disp-remote-server-libtorch", at(locRemoteServer, 115), "LibTorch is not supported as a remote-server backend (no BackendIr impl)")
}

func panicServerRemote() *Panic {
	return newPanic("disp-remote-server-remote", at(locRemoteServer, 119), "Cannot host a remote server on a remote device")
}

func panicServerCapture() *Panic {
	return newPanic("disp-remote-server-capture", at(locRemoteServer, 123), "Cannot host a remote server on a capture device")
}

// ---- remote client (crates/burn-remote/src/client)

// panicServiceCallFailed is the main thread's `.expect("Service call failed")`
// (client/base.rs:32) on the CallError cubecl's device handle returns when
// the connect task panicked on the device runner thread; CallError's Debug
// quotes the runner's panic message (cubecl-common device/handle/base.rs).
func panicServiceCallFailed(cause *Panic) *Panic {
	p := newPanic("rem-service-call-ensure", at(locRemoteClientBase, 32),
		fmt.Sprintf("Service call failed: CallError(task panicked on device runner thread: %s)", cause.Message))
	p.Cause = cause
	return p
}

// connectError is burn-remote's connect_error (client/service/conn.rs:183-190).
func connectError(peer, errDebug string) string {
	return fmt.Sprintf("Failed to open remote 'session' channel to %s: %s. Is a `burn-remote` compute node running at that peer?", peer, errDebug)
}

func panicConnectFailed(message string) *Panic {
	return newPanic("rem-connect-failed", at(locRemoteService, 154), message)
}

// connectFailedWith is the runner thread's panic on a WebSocket session
// channel that did not open: its text is connect_error's
// (client/service/conn.rs:183-190), the Err open_channels returned, around
// the transport's own error (cause, nil when that is not Burn's).
func connectFailedWith(message string, cause *Panic) *Panic {
	p := panicConnectFailed(message)
	p.Cause = returnedError("rem-ws-connect-error", at(locRemoteConn, 186), message)
	p.Cause.Cause = cause
	return p
}

// returnedError is an Err value of one of Burn's "error" rows that a
// panic's message carries.
func returnedError(id, location, message string) *Panic {
	p := newPanic(id, location, message)
	p.Returned = true
	return p
}

func panicServerDisconnectedDuringInit() *Panic {
	return newPanic("rem-disconnected-init", at(locRemoteService, 179), "Server disconnected during initialization")
}

func panicServerDeviceIndex(index, hosted int) *Panic {
	return newPanic("rem-server-device-index", at(locRemoteSession, 117),
		fmt.Sprintf("Requested device index %d but server hosts only %d device(s)", index, hosted))
}

func panicRemoteDefaultNoWebsocket() *Panic {
	return newPanic("rem-default-no-websocket", at(locRemoteRunner, 325),
		"RemoteDevice::default requires the `websocket` compatibility feature; construct an Iroh device through RemoteNode::device")
}

func panicIrohWebsocketTransfer(srcIroh, dstIroh bool) *Panic {
	return newPanic("rem-iroh-ws-transfer", at(locRemoteRunner, 410),
		assertEqMsg("Moving a tensor between Iroh and legacy WebSocket compute peers is not supported",
			fmt.Sprint(srcIroh), fmt.Sprint(dstIroh)))
}

// ---- dtypes (burn-tensor bridge, burn-std)

func panicFloatFromDataDType(d DType) *Panic {
	return newPanic("bt-bridge-float-from-data", at(locBridgeFloat, 285), fmt.Sprintf("Expected float dtype, got %s", d))
}

// panicFloatDTypeConversion is `impl From<DType> for FloatDType`, which
// Float creation ops (zeros, ones, full, empty, random) reach with a
// non-float dtype option. The site is outside the dispatch panic table.
func panicFloatDTypeConversion(d DType) *Panic {
	return newPanic("std-float-dtype", at(locStdDType, 215), fmt.Sprintf("Expected float data type, got %s", d))
}

func panicIntDTypeConversion(d DType) *Panic {
	return newPanic("std-int-dtype", at(locStdDType, 256), fmt.Sprintf("Expected int data type, got %s", d))
}

// ---- the playground's own

// panicMissingHardware stands for a failure of the backend runtime when it
// first uses a device the simulated machine does not have: for CUDA,
// cubecl-cuda unwraps cudarc's device::get(index) (cubecl 48348968
// crates/cubecl-cuda/src/runtime.rs:60) and panics with the driver's
// CUDA_ERROR_INVALID_DEVICE; wgpu finds no adapter. Those messages come
// from the drivers, not from Burn, so the playground does not pretend to
// know them: the panic has no Burn location.
func panicMissingHardware(d *Device, have string) *Panic {
	return newPanic("playground-missing-hardware", "",
		fmt.Sprintf("%s needs hardware the simulated machine does not have (%s). Burn creates the device lazily; the %s runtime fails when the first operation uses it.",
			d.Debug(), have, d.backend))
}

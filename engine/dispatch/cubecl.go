package dispatch

import (
	"fmt"
	"strings"
)

// The cubecl side of a backend extension: the values an
// `impl Trait for CubeBackend<R>` works with when a route runs it
// (crates/burn-cubecl/src/tensor/base.rs, cubecl's CubeDim and CubeCount),
// and the GPU kernels it launches, which the playground does not run.
// engine/cubecl answers the calls; these are the values and what they do.
//
// A CubeTensor shares its buffer with its clones, as a cubecl Handle
// does: a kernel that writes a buffer makes the values of every tensor on
// it unknown, so nothing after the kernel is checked against a guess.

// cubeBuffer is a cubecl Handle: the memory a CubeTensor views. t holds
// the shape, dtype, device and (when known) values of the tensor on it.
type cubeBuffer struct {
	t     *Tensor
	bytes int64 // the size client.empty(n) allocated, -1 when unknown
	empty bool  // allocated by client.empty: an output, for the trace
}

// CubeTensor is burn-cubecl's CubeTensor<R> (tensor/base.rs:20-33).
type CubeTensor struct{ buf *cubeBuffer }

// CubeMeta is the Box<Metadata> of a CubeTensor: its shape and strides.
type CubeMeta struct{ shape []int64 }

// ComputeClient is cubecl's ComputeClient<R> of a device.
type ComputeClient struct{ on *Device }

// CubeDevice is a runtime's device (R::Device): a WgpuDevice, a CudaDevice ...
type CubeDevice struct{ on *Device }

// CubeHandle is cubecl's server::Handle, or its binding.
type CubeHandle struct{ buf *cubeBuffer }

// CubeDim is cubecl's CubeDim { x, y, z }.
type CubeDim struct{ X, Y, Z int64 }

// CubeCount is cubecl's CubeCount: Static(x, y, z) is the one the
// playground reads.
type CubeCount struct{ X, Y, Z int64 }

// KernelArg is what a kernel launch takes for a tensor or a buffer:
// CubeTensor::into_tensor_arg, a handle's binding, a StorageType.
type KernelArg struct {
	buf  *cubeBuffer // nil for a scalar argument
	what string
}

// KernelArguments is cubecl's KernelArguments, the buffers a source
// kernel (WGSL) is launched with.
type KernelArguments struct{ bufs []*cubeBuffer }

// SourceTemplate is burn-cubecl's SourceTemplate (template/source.rs:8-12):
// the playground keeps no text, a source kernel is not compiled.
type SourceTemplate struct{}

// CubeOpaque is a cubecl value the playground only carries along: a
// StorageType, a KernelId, a SourceKernel.
type CubeOpaque struct{ Type string }

func runtimeName(b Backend) string {
	switch {
	case b.isWgpuFamily():
		return "WgpuRuntime"
	case b == Cuda:
		return "CudaRuntime"
	case b == Rocm:
		return "HipRuntime"
	case b == Cpu:
		return "CpuRuntime"
	}
	return "R"
}

func (c *CubeTensor) TypeName() string {
	return "CubeTensor<" + runtimeName(c.buf.t.on.backend) + ">"
}
func (*CubeMeta) TypeName() string        { return "Box<Metadata>" }
func (c *ComputeClient) TypeName() string { return "ComputeClient<" + runtimeName(c.on.backend) + ">" }
func (d *CubeDevice) TypeName() string    { return cubeDeviceType(d.on.backend) }
func (*CubeHandle) TypeName() string      { return "Handle" }
func (*CubeDim) TypeName() string         { return "CubeDim" }
func (*CubeCount) TypeName() string       { return "CubeCount" }
func (a *KernelArg) TypeName() string     { return a.what }
func (*KernelArguments) TypeName() string { return "KernelArguments" }
func (*SourceTemplate) TypeName() string  { return "SourceTemplate" }
func (o *CubeOpaque) TypeName() string    { return o.Type }
func (c *CubeTensor) Tensor() *Tensor     { return c.buf.t }
func (d *CubeDim) String() string {
	return fmt.Sprintf("CubeDim { x: %d, y: %d, z: %d }", d.X, d.Y, d.Z)
}
func (d *CubeDevice) Debug() string          { return d.on.payloadDebug() }
func (c *CubeTensor) Device() *Device        { return c.buf.t.on }
func (m *CubeMeta) strides() []int64         { return contiguousStrides(m.shape) }
func (c *CubeTensor) meta() *CubeMeta        { return &CubeMeta{shape: append([]int64{}, c.buf.t.shape...)} }
func (c *CubeTensor) dtypeValue() Value      { return dtypeEnum(c.buf.t.dtype) }
func (c *CubeTensor) client() *ComputeClient { return &ComputeClient{on: c.buf.t.on} }

func cubeDeviceType(b Backend) string {
	switch {
	case b.isWgpuFamily():
		return "WgpuDevice"
	case b == Cuda:
		return "CudaDevice"
	case b == Rocm:
		return "AmdDevice"
	case b == Cpu:
		return "CpuDevice"
	}
	return "Device"
}

func contiguousStrides(shape []int64) []int64 {
	strides := make([]int64, len(shape))
	current := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = current
		current *= shape[i]
	}
	return strides
}

// CubePrimitive is the CubeTensor a concrete route hands the program's
// impl for an input it extracted: a buffer of its own, holding the
// input's values.
func CubePrimitive(t *Tensor) *CubeTensor {
	c := *t
	c.kind, c.tracked, c.node, c.ckp = KindFloat, false, nil, nil
	return &CubeTensor{buf: &cubeBuffer{t: &c, bytes: -1}}
}

// FieldOf is a public field of a CubeTensor (base.rs:20-33), a CubeDim
// (x, y, z) or, for the rest, none.
func (c *CubeTensor) FieldOf(name string) (Value, bool) {
	switch name {
	case "meta":
		return c.meta(), true
	case "dtype":
		return c.dtypeValue(), true
	case "client":
		return c.client(), true
	case "device":
		return &CubeDevice{on: c.buf.t.on}, true
	case "handle":
		return &CubeHandle{buf: c.buf}, true
	case "qparams":
		return none(), true
	}
	return nil, false
}

func (d *CubeDim) FieldOf(name string) (Value, bool) {
	switch name {
	case "x":
		return Int{V: d.X, Suffix: "u32"}, true
	case "y":
		return Int{V: d.Y, Suffix: "u32"}, true
	case "z":
		return Int{V: d.Z, Suffix: "u32"}, true
	}
	return nil, false
}

// CubeMethod is a method on one of the cubecl values; handled is false
// for a receiver that is not one.
func (w *World) CubeMethod(c Call) (v Value, handled bool, err error) {
	switch r := Deref(c.Recv).(type) {
	case *CubeTensor:
		v, err = result(w.cubeTensorMethod(r, c))
	case *CubeMeta:
		v, err = result(cubeMetaMethod(r, c))
	case *ComputeClient:
		v, err = result(w.clientMethod(r, c))
	case *CubeDevice:
		v, err = result(cloneOnly(r, c, "struct `"+r.TypeName()+"`"))
	case *CubeHandle:
		v, err = result(handleMethod(r, c))
	case *CubeDim:
		v, err = result(cloneOnly(r, c, "struct `CubeDim`"))
	case *CubeCount, *KernelArg, *CubeOpaque:
		v, err = result(cloneOnly(r, c, "`"+r.TypeName()+"`"))
	case *KernelArguments:
		v, err = result(kernelArgumentsMethod(r, c))
	case *SourceTemplate:
		v, err = result(sourceTemplateMethod(r, c))
	default:
		return nil, false, nil
	}
	return v, true, err
}

func cloneOnly(v Value, c Call, typ string) (Value, *UsageError, *Panic) {
	if c.Method == "clone" {
		if ue := (argList{c: c, method: true}).want(0); ue != nil {
			return nil, ue, nil
		}
		return v, nil, nil
	}
	return nil, errUnknownMethod(typ, c.Method), nil
}

// locCubeTensor is burn-cubecl's tensor/base.rs.
const locCubeTensor = "crates/burn-cubecl/src/tensor/base.rs"

// PanicCubeDevices is the panic-table row of assert_is_on_same_device.
const PanicCubeDevices = "cube-same-device"

func (w *World) cubeTensorMethod(t *CubeTensor, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	typ := "struct `" + t.TypeName() + "`"
	switch c.Method {
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		// Clone shares the handle (base.rs:84-98).
		return &CubeTensor{buf: t.buf}, nil, nil
	case "assert_is_on_same_device":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		o, ok := a.get(0).(*CubeTensor)
		if !ok {
			return nil, errArgType(1, "&"+t.TypeName(), c.Args[0]), nil
		}
		// base.rs:315-322: R::Device's PartialEq, then its Debug.
		if !t.buf.t.on.Equal(o.buf.t.on) {
			return nil, nil, newPanic(PanicCubeDevices, at(locCubeTensor, 317),
				fmt.Sprintf("Both tensors should be on the same device %s != %s", t.buf.t.on.payloadDebug(), o.buf.t.on.payloadDebug())).on(0)
		}
		return Unit{}, nil, nil
	case "into_tensor_arg", "as_tensor_arg", "into_buffer_arg", "as_handle_ref", "binding", "into_linear_view":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &KernelArg{buf: t.buf, what: "TensorArg<" + runtimeName(t.buf.t.on.backend) + ">"}, nil, nil
	case "shape":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &ShapeValue{dims: append([]int64{}, t.buf.t.shape...)}, nil, nil
	case "dtype":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return t.dtypeValue(), nil, nil
	case "rank":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return Int{V: int64(len(t.buf.t.shape)), Suffix: "usize"}, nil, nil
	case "device":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &CubeDevice{on: t.buf.t.on}, nil, nil
	case "is_contiguous", "is_contiguous_buffer", "is_nonoverlapping":
		// The model's tensors are laid out contiguously.
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return Bool(true), nil, nil
	case "elem_size":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		n, ok := dtypeSize(t.buf.t.dtype)
		if !ok {
			return nil, errUnsupported(t.TypeName() + "::elem_size"), nil
		}
		return Int{V: n, Suffix: "usize"}, nil, nil
	}
	return nil, errUnknownMethod(typ, c.Method), nil
}

func cubeMetaMethod(m *CubeMeta, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "shape":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &ShapeValue{dims: append([]int64{}, m.shape...)}, nil, nil
	case "num_dims", "rank":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return Int{V: int64(len(m.shape)), Suffix: "usize"}, nil, nil
	case "strides":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		out := &Array{}
		for _, s := range m.strides() {
			out.Elems = append(out.Elems, Int{V: s, Suffix: "usize"})
		}
		return out, nil, nil
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return &CubeMeta{shape: append([]int64{}, m.shape...)}, nil, nil
	}
	return nil, errUnknownMethod("struct `Metadata`", c.Method), nil
}

func (w *World) clientMethod(cl *ComputeClient, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "clone":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		return cl, nil, nil
	case "empty":
		// An allocation: its bytes are whatever the memory held.
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		n, ue := a.int(0)
		if ue != nil {
			return nil, ue, nil
		}
		return &CubeHandle{buf: &cubeBuffer{bytes: n, empty: true}}, nil, nil
	case "create_from_slice", "create":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		return &CubeHandle{buf: &cubeBuffer{bytes: -1}}, nil, nil
	}
	return nil, errUnknownMethod("struct `"+cl.TypeName()+"`", c.Method), nil
}

func handleMethod(h *CubeHandle, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "clone", "binding":
		if ue := a.want(0); ue != nil {
			return nil, ue, nil
		}
		if c.Method == "binding" && h.buf.t != nil {
			// A binding is what a source kernel is given, and a WGSL
			// kernel may write any buffer it binds: from here on the
			// buffer's values are unknown, even if the launch that
			// takes it is one the playground cannot follow.
			h.buf.t = h.buf.t.WithoutValues()
		}
		return &CubeHandle{buf: h.buf}, nil, nil
	}
	return nil, errUnknownMethod("struct `Handle`", c.Method), nil
}

func kernelArgumentsMethod(k *KernelArguments, c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c, method: true}
	switch c.Method {
	case "with_buffers":
		if ue := a.want(1); ue != nil {
			return nil, ue, nil
		}
		list, ok := a.get(0).(*Array)
		if !ok {
			return nil, errArgType(1, "Vec<Binding>", c.Args[0]), nil
		}
		out := &KernelArguments{bufs: append([]*cubeBuffer{}, k.bufs...)}
		for _, e := range list.Elems {
			if h, ok := Deref(e).(*CubeHandle); ok {
				out.bufs = append(out.bufs, h.buf)
			}
		}
		return out, nil, nil
	case "clone":
		return k, nil, nil
	}
	return nil, errUnknownMethod("struct `KernelArguments`", c.Method), nil
}

func sourceTemplateMethod(s *SourceTemplate, c Call) (Value, *UsageError, *Panic) {
	switch c.Method {
	case "register":
		if ue := (argList{c: c, method: true}).want(2); ue != nil {
			return nil, ue, nil
		}
		return s, nil, nil
	case "add_template":
		if ue := (argList{c: c, method: true}).want(1); ue != nil {
			return nil, ue, nil
		}
		return s, nil, nil
	}
	return nil, errUnknownMethod("struct `SourceTemplate`", c.Method), nil
}

// dtypeSize is DType::size (crates/burn-std/src/tensor/dtype.rs:36-73) for
// the dtypes that are not quantized.
func dtypeSize(d DType) (int64, bool) {
	if d.IsBool() {
		switch d {
		case "Bool(Native)", "Bool(U8)":
			return 1, true
		case "Bool(U32)":
			return 4, true
		}
		return 0, false
	}
	if strings.HasPrefix(string(d), "QFloat") {
		return 0, false
	}
	td, ok := valueDType(d)
	if !ok {
		return 0, false
	}
	return int64(td.Size()), true
}

// NewContiguous is CubeTensor::new_contiguous(client, device, shape,
// handle, dtype) (base.rs:147-171): a tensor viewing handle with
// contiguous strides. Its values are what the buffer holds: unknown for a
// fresh allocation.
func (w *World) NewContiguous(c Call) (Value, error) {
	return result(w.newContiguous(c))
}

func (w *World) newContiguous(c Call) (Value, *UsageError, *Panic) {
	a := argList{c: c}
	if ue := a.want(5); ue != nil {
		return nil, ue, nil
	}
	if _, ok := a.get(0).(*ComputeClient); !ok {
		return nil, errArgType(1, "ComputeClient<R>", c.Args[0]), nil
	}
	dev, ok := a.get(1).(*CubeDevice)
	if !ok {
		return nil, errArgType(2, "R::Device", c.Args[1]), nil
	}
	shape, ue := shapeArg(a, 2)
	if ue != nil {
		return nil, ue, nil
	}
	h, ok := a.get(3).(*CubeHandle)
	if !ok {
		return nil, errArgType(4, "Handle", c.Args[3]), nil
	}
	d, ue := dtypeValue(a.get(4))
	if ue != nil {
		ue.Arg = 5
		return nil, ue, nil
	}
	t := w.newTensor(KindFloat, shape, d, dev.on)
	// The handle is the one the tensor views from now on.
	h.buf.t = t
	return &CubeTensor{buf: h.buf}, nil, nil
}

// NewCubeDim is CubeDim::new_3d / new_2d / new_1d / new.
func NewCubeDim(name string, c Call) (Value, error) {
	a := argList{c: c}
	want := map[string]int{"new_3d": 3, "new_2d": 2, "new_1d": 1, "new_single": 0}[name]
	if ue := a.want(want); ue != nil {
		return nil, ue
	}
	dims := []int64{1, 1, 1}
	for i := 0; i < want; i++ {
		n, ue := a.int(i)
		if ue != nil {
			return nil, ue
		}
		dims[i] = n
	}
	return &CubeDim{X: dims[0], Y: dims[1], Z: dims[2]}, nil
}

// NewCubeCount is CubeCount::Static(x, y, z).
func NewCubeCount(c Call) (Value, error) {
	a := argList{c: c}
	if ue := a.want(3); ue != nil {
		return nil, ue
	}
	var dims [3]int64
	for i := range dims {
		n, ue := a.int(i)
		if ue != nil {
			return nil, ue
		}
		dims[i] = n
	}
	return &CubeCount{X: dims[0], Y: dims[1], Z: dims[2]}, nil
}

// NewKernelArguments is KernelArguments::new().
func NewKernelArguments() Value { return &KernelArguments{} }

// NewSourceTemplate is SourceTemplate::new(text).
func NewSourceTemplate() Value { return &SourceTemplate{} }

// NewCubeOpaque is a cubecl value the playground carries by type.
func NewCubeOpaque(typ string) Value { return &CubeOpaque{Type: typ} }

// IntoContiguous is burn-cubecl's kernel::into_contiguous: the model's
// tensors are contiguous already, so it is the tensor itself.
func IntoContiguous(c Call) (Value, error) {
	a := argList{c: c}
	if ue := a.want(1); ue != nil {
		return nil, ue
	}
	t, ok := a.get(0).(*CubeTensor)
	if !ok {
		return nil, errArgType(1, "CubeTensor<R>", c.Args[0])
	}
	return t, nil
}

// StorageType is dtype_to_storage_type(dtype) (burn-backend's cubecl
// module): the playground carries it by type.
func StorageType(c Call) (Value, error) {
	a := argList{c: c}
	if ue := a.want(1); ue != nil {
		return nil, ue
	}
	if _, ue := dtypeValue(a.get(0)); ue != nil {
		ue.Arg = 1
		return nil, ue
	}
	return &KernelArg{what: "StorageType"}, nil
}

// Kernel is what a launch found of a GPU kernel: its name and the tensors
// it was given, written says which it may write.
type Kernel struct {
	Name    string
	Tensors []Value // *KernelArg, *CubeTensor or *KernelArguments
	Written []bool
}

// LaunchKernel is the launch of a GPU kernel, which the playground does not
// run: every buffer it may write holds unknown values from now on, so what
// is read from them later is not checked. It records the launch in the
// trace, on the device of the first tensor it was given.
func (w *World) LaunchKernel(k Kernel) {
	// The trace shows the shape of the first fresh buffer the kernel
	// may write (an output made from client.empty), else of the first
	// it may write, else of the first tensor.
	var first, written, fresh *Tensor
	mark := func(b *cubeBuffer, write bool) {
		if b == nil {
			return
		}
		if b.t != nil && first == nil {
			first = b.t
		}
		if !write || b.t == nil {
			return
		}
		b.t = b.t.WithoutValues()
		if b.empty && fresh == nil {
			fresh = b.t
		}
		if written == nil {
			written = b.t
		}
	}
	for i, v := range k.Tensors {
		write := i >= len(k.Written) || k.Written[i]
		switch x := Deref(v).(type) {
		case *KernelArg:
			mark(x.buf, write)
		case *CubeTensor:
			mark(x.buf, write)
		case *KernelArguments:
			for _, b := range x.bufs {
				mark(b, write)
			}
		}
	}
	if first == nil {
		// No tensor the playground knows was given: nothing to trace.
		return
	}
	ev := TraceEvent{Op: k.Name, Kind: KindFloat.String(),
		Note: "a GPU kernel: the playground does not run it; the tensors it writes hold unknown values"}
	ev.Backend, ev.Device = first.on.backend.String(), first.on.Debug()
	ev.Shape = first.Shape()
	if written != nil {
		ev.Shape = written.Shape()
	}
	if fresh != nil {
		ev.Shape = fresh.Shape()
	}
	w.record(ev)
}

// BuildInfo is burn-cubecl's template::build_info(&[&lhs, &rhs, ..])
// (template/base.rs:100-119): the rank of the first tensor, then each
// tensor's strides, then each one's shape, as u32s. ok is false when the
// argument is not a list of CubeTensors of at least that rank.
func BuildInfo(c Call) (Value, bool) {
	if len(c.Args) != 1 {
		return nil, false
	}
	list, ok := Deref(c.Args[0]).(*Array)
	if !ok || len(list.Elems) == 0 {
		return nil, false
	}
	var ts []*CubeTensor
	for _, e := range list.Elems {
		t, ok := Deref(e).(*CubeTensor)
		if !ok || t.buf.t == nil {
			return nil, false
		}
		ts = append(ts, t)
	}
	ndims := len(ts[0].buf.t.shape)
	u32 := func(n int64) Value { return Int{V: n, Suffix: "u32"} }
	out := &Array{Vec: true, Elems: []Value{u32(int64(ndims))}}
	for _, t := range ts {
		if len(t.buf.t.shape) < ndims {
			return nil, false
		}
		for _, s := range contiguousStrides(t.buf.t.shape)[:ndims] {
			out.Elems = append(out.Elems, u32(s))
		}
	}
	for _, t := range ts {
		for _, d := range t.buf.t.shape[:ndims] {
			out.Elems = append(out.Elems, u32(d))
		}
	}
	return out, true
}

// BytesOf is `bytemuck::cast_slice(&info)` for the info buffer of a
// source kernel: bytes the playground carries by type.
func BytesOf() Value { return &CubeOpaque{Type: "&[u8]"} }

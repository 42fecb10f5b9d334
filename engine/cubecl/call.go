package cubecl

import (
	"strings"

	"github.com/dispatch-playground/playground/engine/dispatch"
	"github.com/dispatch-playground/playground/engine/nn"
)

// kernelNote is why a kernel's launch is a boundary.
const kernelNote = "a GPU kernel: the playground does not run it; the tensors it writes hold unknown values, so what is read from them is not checked"

// Call answers the calls into burn-cubecl and the cubecl items it models:
// handled is false for every other call.
func Call(w *dispatch.World, c dispatch.Call, _ nn.Host) (v dispatch.Value, handled bool, err error) {
	if len(c.Path) == 0 {
		if launch(c) {
			// ComputeClient::launch / execute of a source kernel
			// (template/base.rs:17-22, the WGSL example's forward.rs).
			w.LaunchKernel(dispatch.Kernel{Name: "ComputeClient::" + c.Method, Tensors: c.Args})
			return nil, true, &nn.Unmodelled{Item: "ComputeClient::" + c.Method, Why: kernelNote}
		}
		v, handled, err := w.CubeMethod(c)
		if ue, ok := err.(*dispatch.UsageError); ok && ue.Code == "unknown-method" {
			// cubecl's types have many more methods than the ones the
			// playground models: the others are a boundary, not rustc's
			// error.
			return nil, true, &nn.Unmodelled{Item: typeName(c.Recv) + "::" + c.Method, Why: notModelled}
		}
		return v, handled, err
	}
	n := len(c.Path)
	name := c.Path[n-1]
	typ := ""
	if n >= 2 {
		typ = c.Path[n-2]
	}
	switch {
	case typ == "CubeTensor" && name == "new_contiguous":
		v, err = w.NewContiguous(c)
	case typ == "CubeDim" && (name == "new_3d" || name == "new_2d" || name == "new_1d" || name == "new_single"):
		v, err = dispatch.NewCubeDim(name, c)
	case typ == "CubeCount" && name == "Static":
		v, err = dispatch.NewCubeCount(c)
	case typ == "KernelArguments" && name == "new" && len(c.Args) == 0:
		v = dispatch.NewKernelArguments()
	case typ == "SourceTemplate" && name == "new" && len(c.Args) == 1:
		v = dispatch.NewSourceTemplate()
	case typ == "SourceKernel" && name == "new":
		v = dispatch.NewCubeOpaque("SourceKernel<K>")
	case typ == "KernelId" && name == "new":
		v = dispatch.NewCubeOpaque("KernelId")
	case name == "into_contiguous" && len(c.Args) == 1 && isCube(c.Args[0]):
		v, err = dispatch.IntoContiguous(c)
	case name == "dtype_to_storage_type":
		v, err = dispatch.StorageType(c)
	case name == "build_info":
		info, ok := dispatch.BuildInfo(c)
		if !ok {
			return nil, true, &nn.Unmodelled{Item: "build_info", Why: "Burn defines it at crates/burn-cubecl/src/template/base.rs:100"}
		}
		v = info
	case n == 2 && c.Path[0] == "bytemuck" && name == "cast_slice":
		// The info buffer's bytes, for client.create_from_slice.
		v = dispatch.BytesOf()
	default:
		if holdsCube(c.Args) {
			// A backend op on the primitives (`Self::float_exp(x)`,
			// `B::float_matmul(..)`) or another function of burn-cubecl's:
			// the playground does not run it.
			item := name
			if typ != "" {
				item = typ + "::" + name
			}
			return nil, true, &nn.Unmodelled{Item: item, Why: notModelled}
		}
		return nil, false, nil
	}
	return v, true, err
}

// notModelled is why a call on cubecl's values past the ones modelled is a
// boundary.
const notModelled = "the playground models a CubeTensor's metadata, its allocation and the launch of a kernel, not the backend's operations on it"

func holdsCube(args []dispatch.Value) bool {
	for _, a := range args {
		if isCube(a) {
			return true
		}
	}
	return false
}

func typeName(v dispatch.Value) string {
	name := dispatch.Deref(v).TypeName()
	if i := strings.IndexByte(name, '<'); i >= 0 {
		name = name[:i]
	}
	return name
}

func isCube(v dispatch.Value) bool {
	_, ok := dispatch.Deref(v).(*dispatch.CubeTensor)
	return ok
}

// launch is a kernel launch on a ComputeClient.
func launch(c dispatch.Call) bool {
	if _, ok := dispatch.Deref(c.Recv).(*dispatch.ComputeClient); !ok {
		return false
	}
	return c.Method == "launch" || c.Method == "execute" || c.Method == "launch_unchecked" || c.Method == "execute_unchecked"
}

package cubecl_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// A custom cubecl kernel behind a #[backend_extension], as Burn's example
// custom-cubecl-kernel writes it (smaller tensors).

const kernelCargo = `[package]
name = "custom-cubecl-kernel"
version = "0.1.0"
edition = "2024"

[dependencies]
burn = { version = "0.22", default-features = false, features = ["autodiff", "wgpu", "autotune", "template", "extension"%s] }
burn-cubecl = { version = "0.22" }
burn-fusion = { version = "0.22" }
cubecl = { version = "0.10", features = ["wgpu"] }

[package.metadata.playground]
hardware = { wgpu = ["DiscreteGpu", "DiscreteGpu"] }
`

const kernelLib = `mod forward {
use super::Backend;
use burn::backend::tensor::FloatTensor;
use burn::{backend::cubecl::dtype_to_storage_type, tensor::Shape};
use burn_cubecl::{CubeBackend, CubeRuntime, kernel::into_contiguous, tensor::CubeTensor};
use cubecl::{CubeCount, CubeDim};
use crate::kernel::fused_matmul_add_relu_kernel;

impl<R: CubeRuntime> Backend for CubeBackend<R> {
    fn fused_matmul_add_relu(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        let dtype = lhs.dtype;
        let cube_dim = CubeDim::new_3d(16, 16, 1);
        lhs.assert_is_on_same_device(&rhs);
        lhs.assert_is_on_same_device(&bias);
        let lhs = into_contiguous(lhs);
        let rhs = into_contiguous(rhs);
        let bias = into_contiguous(bias);
        let ndims = lhs.meta.num_dims();
        let num_rows = lhs.meta.shape()[ndims - 2];
        let num_cols = rhs.meta.shape()[ndims - 1];
        let mut num_batches = 1;
        let mut shape_out = vec![0; ndims];
        for i in shape_out.clone().into_iter().take(ndims - 2) {
            shape_out[i] = usize::max(lhs.meta.shape()[i], rhs.meta.shape()[i]);
            num_batches *= shape_out[i];
        }
        shape_out[ndims - 2] = num_rows;
        shape_out[ndims - 1] = num_cols;
        let shape_out = Shape::from(shape_out);
        let buffer = lhs.client.empty(shape_out.num_elements() * dtype.size());
        let output = CubeTensor::new_contiguous(lhs.client.clone(), lhs.device.clone(), shape_out, buffer, dtype);
        let cubes_needed_in_x = f32::ceil(num_rows as f32 / cube_dim.x as f32) as u32;
        let cubes_needed_in_y = f32::ceil(num_cols as f32 / cube_dim.y as f32) as u32;
        let cube_count = CubeCount::Static(cubes_needed_in_x, cubes_needed_in_y, num_batches as u32);
        fused_matmul_add_relu_kernel::launch(
            &output.client,
            cube_count,
            cube_dim,
            lhs.into_tensor_arg(),
            rhs.into_tensor_arg(),
            bias.into_tensor_arg(),
            output.clone().into_tensor_arg(),
            dtype_to_storage_type(dtype),
        );
        output
    }
}

impl<R: CubeRuntime> Backend for burn_fusion::Fusion<CubeBackend<R>> {
    fn fused_matmul_add_relu(_lhs: FloatTensor<Self>, _rhs: FloatTensor<Self>, _bias: FloatTensor<Self>) -> FloatTensor<Self> {
        todo!()
    }
}
}

mod kernel {
use cubecl::{cube, prelude::*};

#[cube(launch)]
pub fn fused_matmul_add_relu_kernel<F: Float>(
    lhs: &Tensor<F>,
    rhs: &Tensor<F>,
    bias: &Tensor<F>,
    output: &mut Tensor<F>,
    #[define(F)] _dtype: ElemType,
) {
    let row = ABSOLUTE_POS_X as usize;
    let col = ABSOLUTE_POS_Y as usize;
    let n_rows = output.shape(output.rank() - 2);
    let n_cols = output.shape(output.rank() - 1);
    let dim_k = rhs.shape(rhs.rank() - 1);
    if row >= n_rows || col >= n_cols {
        terminate!();
    }
    let mut sum = F::new(0.0_f32);
    for k in 0..dim_k {
        sum += lhs[row * dim_k + k] * rhs[k * n_cols + col];
    }
    let index = row * n_cols + col;
    output[index] = F::max(sum + bias[index], F::new(0.0_f32));
}
}

use burn::{
    backend::{Autodiff, Dispatch, Wgpu, backend_extension, tensor::FloatTensor},
    tensor::{Device, DeviceKind, Distribution, Tensor, Tolerance, activation},
};

#[backend_extension(Autodiff, Wgpu)]
pub trait Backend: burn::backend::Backend {
    fn fused_matmul_add_relu(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self>;
}

impl<B: Backend, C: burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy> Backend for Autodiff<B, C> {
    fn fused_matmul_add_relu(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>, bias: FloatTensor<Self>) -> FloatTensor<Self> {
        todo!()
    }
}

pub fn matmul_add_relu_custom(lhs: Tensor<3>, rhs: Tensor<3>, bias: Tensor<3>) -> Tensor<3> {
    let output = Dispatch::fused_matmul_add_relu(lhs.into_dispatch(), rhs.into_dispatch(), bias.into_dispatch());
    Tensor::from_dispatch(output)
}

pub fn matmul_add_relu_reference(lhs: Tensor<3>, rhs: Tensor<3>, bias: Tensor<3>) -> Tensor<3> {
    let x = lhs.matmul(rhs) + bias;
    activation::relu(x)
}
`

func runKernel(t *testing.T, features, main string) (engine.Result, string) {
	t.Helper()
	src := kernelLib + main
	return engine.Run(engine.Request{Config: fmt.Sprintf(kernelCargo, features), Snippet: src}), src
}

const inference = `
fn main() {
    let device = Device::default();
    let lhs = Tensor::<3>::random([1, 4, 4], Distribution::Default, &device);
    let rhs = Tensor::random([2, 4, 4], Distribution::Default, &device);
    let bias = Tensor::random([2, 4, 4], Distribution::Default, &device);
    let reference = matmul_add_relu_reference(lhs.clone(), rhs.clone(), bias.clone()).into_data().convert::<f32>();
    let custom = matmul_add_relu_custom(lhs, rhs, bias).into_data().convert::<f32>();
    reference.assert_approx_eq::<f32>(&custom, Tolerance::default());
    println!("same output");
}
`

func ops(res engine.Result) []string {
	var out []string
	for _, e := range res.Trace {
		out = append(out, e.Op)
	}
	return out
}

func codes(res engine.Result, severity string) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if d.Severity == severity {
			out = append(out, d.Code+": "+d.Message)
		}
	}
	return out
}

// TestKernelInference: the reference's ops are traced, the op is routed
// to Wgpu and runs the program's impl for CubeBackend<R>, the kernel's
// launch is a boundary whose output has the shape the impl built, and the
// assertion against the reference is not checked (never passed).
func TestKernelInference(t *testing.T) {
	res, src := runKernel(t, "", inference)
	if errs := codes(res, "error"); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s, complete %v: want a run that is not complete", res.Status, res.Complete)
	}
	got := ops(res)
	want := []string{"float_matmul", "float_add", "relu", "fused_matmul_add_relu", "fused_matmul_add_relu_kernel::launch"}
	i := 0
	for _, op := range got {
		if i < len(want) && op == want[i] {
			i++
		}
	}
	if i != len(want) {
		t.Fatalf("trace %v does not hold %v in order", got, want)
	}
	for _, e := range res.Trace {
		if e.Op == "fused_matmul_add_relu_kernel::launch" && !slices.Equal(e.Shape, []int64{2, 4, 4}) {
			t.Errorf("the kernel's output has shape %v, want [2 4 4] (the batch of rhs)", e.Shape)
		}
		if e.Op == "fused_matmul_add_relu" && !strings.Contains(e.Note, "CubeBackend<WgpuRuntime>") {
			t.Errorf("the op's note %q does not name the impl it runs", e.Note)
		}
	}
	var unchecked, boundary bool
	for _, d := range res.Diagnostics {
		at := src[d.Span.Start.Offset:d.Span.End.Offset]
		switch {
		case d.Code == engine.CodeUnchecked && strings.Contains(at, "assert_approx_eq"):
			unchecked = true
		case d.Code == engine.CodeUnmodelled && strings.Contains(d.Message, "GPU kernel") && strings.HasPrefix(at, "fused_matmul_add_relu_kernel::launch"):
			boundary = true
		}
	}
	if !unchecked || !boundary {
		t.Fatalf("unchecked assertion %v, kernel boundary %v: %v", unchecked, boundary, codes(res, "warning"))
	}
}

// TestKernelTwoDevices: inputs on two devices of one backend route to it
// (the routing compares backends), and the impl's
// assert_is_on_same_device panics as burn-cubecl does.
func TestKernelTwoDevices(t *testing.T) {
	res, _ := runKernel(t, "", `
fn main() {
    let lhs = Tensor::<3>::random([1, 4, 4], Distribution::Default, &Device::wgpu(DeviceKind::DiscreteGpu(0)));
    let rhs = Tensor::random([2, 4, 4], Distribution::Default, &Device::wgpu(DeviceKind::DiscreteGpu(1)));
    let bias = Tensor::random([2, 4, 4], Distribution::Default, &Device::wgpu(DeviceKind::DiscreteGpu(0)));
    let _ = matmul_add_relu_custom(lhs, rhs, bias);
}
`)
	if res.Status != engine.StatusPanicked || res.Panic == nil {
		t.Fatalf("status %s: want the panic of assert_is_on_same_device", res.Status)
	}
	p := res.Panic
	if p.Message != "Both tensors should be on the same device DiscreteGpu(0) != DiscreteGpu(1)" ||
		p.Location != "crates/burn-cubecl/src/tensor/base.rs:317" || p.Code != "both-tensors-should-be-on-the-same-device" {
		t.Fatalf("panic %q at %s (%s)", p.Message, p.Location, p.Code)
	}
	if slices.Contains(ops(res), "fused_matmul_add_relu_kernel::launch") {
		t.Fatalf("the kernel launched after the panic: %v", ops(res))
	}
}

// TestKernelFusion: with burn-wgpu's fusion on (burn's default features),
// Wgpu is Fusion<CubeBackend<R>>, and the route runs that impl: todo!().
func TestKernelFusion(t *testing.T) {
	res, _ := runKernel(t, `, "fusion"`, inference)
	if res.Status != engine.StatusPanicked || res.Panic == nil || res.Panic.Message != "not yet implemented" {
		t.Fatalf("status %s, panic %+v: want the Fusion impl's todo!()", res.Status, res.Panic)
	}
	if slices.Contains(ops(res), "fused_matmul_add_relu_kernel::launch") {
		t.Fatalf("the CubeBackend impl ran under fusion: %v", ops(res))
	}
}

// TestKernelWrites: a kernel's `&mut` parameters are what it writes. An
// impl that launches a kernel writing its input and returns it gives a
// tensor whose values are unknown (the assertion is not checked); one that
// returns an input the kernel only reads keeps its values, so a wrong
// expectation still fails.
func TestKernelWrites(t *testing.T) {
	const prog = `
use burn::backend::{Autodiff, Dispatch, Wgpu, backend_extension, tensor::FloatTensor};
use burn::tensor::{Device, Tensor, TensorData};
use burn_cubecl::{CubeBackend, CubeRuntime, tensor::CubeTensor};
use cubecl::{CubeCount, CubeDim, cube, prelude::*};

#[cube(launch)]
pub fn touch<F: Float>(input: &Tensor<F>, output: &mut Tensor<F>) {
    output[ABSOLUTE_POS] = input[ABSOLUTE_POS];
}

#[backend_extension(Wgpu)]
pub trait Ext: burn::backend::Backend {
    fn pick(x: FloatTensor<Self>, y: FloatTensor<Self>) -> FloatTensor<Self>;
}

impl<R: CubeRuntime> Ext for CubeBackend<R> {
    fn pick(x: FloatTensor<Self>, y: FloatTensor<Self>) -> FloatTensor<Self> {
        touch::launch(&x.client, CubeCount::Static(%s, 1, 1), CubeDim::new_1d(2), x.clone().into_tensor_arg(), y.clone().into_tensor_arg());
        %s
    }
}
impl<R: CubeRuntime> Ext for burn_fusion::Fusion<CubeBackend<R>> {
    fn pick(x: FloatTensor<Self>, _y: FloatTensor<Self>) -> FloatTensor<Self> { x }
}

fn main() {
    let device = Device::default();
    let x = Tensor::<1>::from_floats([1.0, 2.0], &device);
    let y = Tensor::<1>::from_floats([3.0, 4.0], &device);
    let out: Tensor<1> = Tensor::from_dispatch(Dispatch::pick(x.into_dispatch(), y.into_dispatch()));
    assert_eq!(out.into_data(), TensorData::from([5.0f32, 6.0]));
}
`
	run := func(count, ret string) engine.Result {
		cargo := fmt.Sprintf(kernelCargo, "") + "\n[dependencies.rand]\nversion = \"0.9\"\n"
		return engine.Run(engine.Request{Config: cargo, Snippet: fmt.Sprintf(prog, count, ret)})
	}
	written := run("1", "y")
	if written.Status != engine.StatusOK || written.Complete {
		t.Fatalf("returning the written tensor: status %s complete %v, errors %v; want an unchecked run", written.Status, written.Complete, codes(written, "error"))
	}
	unchecked := false
	for _, d := range written.Diagnostics {
		unchecked = unchecked || (d.Code == engine.CodeUnchecked && strings.Contains(d.Message, "assert_eq"))
	}
	if !unchecked {
		t.Fatalf("the assertion on the written tensor was not reported unchecked: %v", codes(written, "warning"))
	}
	// A cube count the playground does not know still launches the
	// kernel: what it writes is unknown all the same.
	if res := run("rand::random::<u32>()", "y"); res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("an unknown cube count: status %s complete %v errors %v; want an unchecked run", res.Status, res.Complete, codes(res, "error"))
	}
	read := run("1", "x")
	if read.Status != engine.StatusPanicked || read.Panic == nil || !strings.Contains(read.Panic.Message, "assertion `left == right` failed") {
		t.Fatalf("returning the read-only input: status %s panic %+v; want the failed assert_eq on its known values", read.Status, read.Panic)
	}
}

// TestSourceKernel: the WGSL example's forward, kernel_source! included:
// the struct it declares exists, client.launch of the source kernel is a
// boundary, and the output has the shape the impl built.
func TestSourceKernel(t *testing.T) {
	const cargo = `[package]
name = "custom-wgpu-kernel"
version = "0.1.0"
edition = "2024"

[dependencies]
burn = { version = "0.22", default-features = false, features = ["autodiff", "wgpu", "autotune", "template", "extension"] }
cubecl = { version = "0.10", features = ["wgpu"] }
burn-fusion = { version = "0.22" }
derive-new = "0.7"
bytemuck = "1"
`
	const src = `
use burn::backend::{Dispatch, Wgpu, backend_extension, tensor::FloatTensor};
use burn::backend::wgpu::{CubeBackend, CubeTensor, KernelSource, SourceKernel, SourceTemplate, WgpuRuntime, build_info, into_contiguous, kernel_source};
use burn::tensor::{DType, Device, Shape, Tensor, TensorData};
use cubecl::{CubeCount, CubeDim, prelude::KernelId, server::KernelArguments};
use derive_new::new;

kernel_source!(DoubleRaw, "./double.wgsl");

#[derive(new, Debug)]
struct Double {
    cube_dim: CubeDim,
    dtype: DType,
}

impl KernelSource for Double {
    fn source(&self) -> SourceTemplate {
        DoubleRaw::new().source().register("workgroup_size_x", self.cube_dim.x.to_string()).register("elem", self.dtype.name())
    }
    fn id(&self) -> KernelId {
        KernelId::new::<Self>().info(self.cube_dim)
    }
}

#[backend_extension(Wgpu)]
pub trait Ext: burn::backend::Backend {
    fn double(x: FloatTensor<Self>) -> FloatTensor<Self>;
}

impl Ext for CubeBackend<WgpuRuntime> {
    fn double(x: FloatTensor<Self>) -> FloatTensor<Self> {
        let dtype = x.dtype;
        let cube_dim = CubeDim::new_2d(16, 16);
        let x = into_contiguous(x);
        let shape_out = Shape::from(vec![x.meta.shape()[0], 2 * x.meta.shape()[1]]);
        let buffer = x.client.empty(shape_out.num_elements() * dtype.size());
        let output = CubeTensor::new_contiguous(x.client.clone(), x.device.clone(), shape_out, buffer, dtype);
        let info = build_info(&[&x, &output]);
        let info_handle = x.client.create_from_slice(bytemuck::cast_slice(&info));
        x.client.launch(
            Box::new(SourceKernel::new(Double::new(cube_dim, dtype), cube_dim)),
            CubeCount::Static(1, 1, 1),
            KernelArguments::new().with_buffers(vec![x.handle.binding(), output.handle.clone().binding(), info_handle.binding()]),
        );
        output
    }
}
impl Ext for burn_fusion::Fusion<CubeBackend<WgpuRuntime>> {
    fn double(_x: FloatTensor<Self>) -> FloatTensor<Self> { todo!() }
}

fn main() {
    let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], &Device::default());
    let out: Tensor<2> = Tensor::from_dispatch(Dispatch::double(x.into_dispatch()));
    assert_eq!(out.dims(), [3, 4]);
    assert_eq!(out.into_data(), TensorData::from([[0.0f32; 4]; 3]));
}
`
	// A WGSL kernel may write every buffer it binds: an impl returning
	// its input after binding it gives values the playground does not
	// know, so an assertion that they are the input's is not passed.
	// Its info buffer is made from a value the playground does not know,
	// so the launch is one it cannot follow.
	inPlace := strings.NewReplacer("x.handle.binding()", "x.handle.clone().binding()", "        output\n    }\n}", "        x\n    }\n}",
		"bytemuck::cast_slice(&info)", "bytemuck::cast_slice(&[rand::random::<u32>()])",
		"assert_eq!(out.dims(), [3, 4]);", "", "TensorData::from([[0.0f32; 4]; 3])", "TensorData::from([[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]])").Replace(src)
	if inPlace == src {
		t.Fatal("the in-place variant did not change the program")
	}
	res := engine.Run(engine.Request{Config: cargo + "rand = \"0.9\"\n", Snippet: inPlace})
	assertUnchecked := false
	for _, d := range res.Diagnostics {
		assertUnchecked = assertUnchecked || (d.Code == engine.CodeUnchecked && strings.Contains(d.Message, "assert_eq"))
	}
	if res.Status != engine.StatusOK || len(codes(res, "error")) > 0 || !assertUnchecked {
		t.Fatalf("the input returned after a WGSL kernel bound it: status %s errors %v warnings %v; want the assertion unchecked", res.Status, codes(res, "error"), codes(res, "warning"))
	}
	res = engine.Run(engine.Request{Config: cargo, Snippet: src})
	if errs := codes(res, "error"); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if res.Status != engine.StatusOK || res.Complete {
		t.Fatalf("status %s, complete %v; want a run that is not complete", res.Status, res.Complete)
	}
	var launched bool
	for _, e := range res.Trace {
		if e.Op == "ComputeClient::launch" {
			launched = slices.Equal(e.Shape, []int64{3, 4})
		}
	}
	if !launched {
		t.Fatalf("no launch of the source kernel with the output's shape [3 4] in %v", ops(res))
	}
	var boundary, unchecked bool
	for _, d := range res.Diagnostics {
		boundary = boundary || (d.Code == engine.CodeUnmodelled && strings.Contains(d.Message, "ComputeClient::launch"))
		unchecked = unchecked || (d.Code == engine.CodeUnchecked && strings.Contains(d.Message, "assert_eq"))
	}
	if !boundary || !unchecked {
		t.Fatalf("launch boundary %v, unchecked assertion %v: %v", boundary, unchecked, codes(res, "warning"))
	}
}

// TestBackendOpOnPrimitive: an impl for a cubecl backend that calls one of
// the backend's own ops on its primitives (`Self::float_exp(x)`) runs to a
// boundary, not to rustc's error: Burn has the op, the playground does not
// run it on a CubeTensor.
func TestBackendOpOnPrimitive(t *testing.T) {
	const cargo = `[package]
name = "k"
version = "0.1.0"
edition = "2024"

[dependencies]
burn = { version = "0.22", default-features = false, features = ["std", "wgpu", "extension"] }
`
	const src = `use burn::backend::{backend_extension, tensor::FloatTensor, Backend, Dispatch, Wgpu};
use burn::tensor::{Device, Tensor};

#[backend_extension(Wgpu)]
pub trait T: Backend {
    fn f(x: FloatTensor<Self>) -> FloatTensor<Self>;
}
impl T for Wgpu {
    fn f(x: FloatTensor<Self>) -> FloatTensor<Self> { Self::float_exp(x) }
}
fn main() {
    let x = Tensor::<1>::from_floats([1.0, 2.0], &Device::default());
    let y: Tensor<1> = Tensor::from_dispatch(Dispatch::f(x.into_dispatch()));
    println!("{}", y);
}
`
	res := engine.Run(engine.Request{Config: cargo, Snippet: src})
	if errs := codes(res, "error"); len(errs) > 0 || res.Status != engine.StatusOK {
		t.Fatalf("status %s, errors %v", res.Status, errs)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || (d.Code == engine.CodeUnmodelled && strings.Contains(d.Message, "float_exp"))
	}
	if !found {
		t.Fatalf("no boundary at Self::float_exp: %v", codes(res, "warning"))
	}
}

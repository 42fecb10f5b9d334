// Package cubecl models burn-cubecl at Burn commit 2c06be35
// (crates/burn-cubecl) and the few items of the cubecl crate a backend
// extension's impl for `CubeBackend<R>` uses, as Burn's examples
// custom-cubecl-kernel and custom-wgpu-kernel and the book's
// backend-extension chapters write it.
//
// Values (engine/dispatch/cubecl.go): a CubeTensor (tensor/base.rs:20-33)
// with its meta (shape(), num_dims(), strides()), dtype, client, device
// and handle; `assert_is_on_same_device` with Burn's panic (base.rs:315-322);
// `into_contiguous`; `CubeTensor::new_contiguous(client, device, shape,
// handle, dtype)` (base.rs:147-171); `client.empty(n)`; CubeDim::new_3d,
// new_2d, new_1d and its x, y, z; CubeCount::Static; dtype_to_storage_type;
// KernelArguments, SourceTemplate and SourceKernel as a WGSL kernel needs
// them.
//
// GPU kernels are a boundary: a `#[cube(launch)]` function's `launch` (the
// interpreter answers it) and `client.launch` / `client.execute` of a
// source kernel are not run. Every buffer the kernel may write holds
// unknown values from then on, so an assertion on the output is not
// checked; its shape, dtype and device are what the program built.
//
// Call is the crate model engine/interp tries with the others.
package cubecl

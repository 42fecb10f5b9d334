// burn/extensions.md 1.6 #1
use burn::{
    tensor::{activation, Tensor},
    backend::{backend_extension, tensor::FloatTensor, Autodiff, Dispatch, Wgpu},
};

/// An extra op for our kernel, layered on top of Burn's backend trait.
#[backend_extension(Autodiff, Wgpu)]
pub trait Backend: burn::backend::Backend {
    fn fused_scale_shift_gelu(
        input: FloatTensor<Self>,
        scale: FloatTensor<Self>,
        shift: FloatTensor<Self>,
    ) -> FloatTensor<Self>;
}

/// Tensor-level entry point: unwrap to dispatch tensors, run the op, wrap the result.
pub fn scale_shift_gelu(input: Tensor<3>, scale: Tensor<3>, shift: Tensor<3>) -> Tensor<3> {
    let fused = Dispatch::fused_scale_shift_gelu(
        input.into_dispatch(),
        scale.into_dispatch(),
        shift.into_dispatch(),
    );
    Tensor::from_dispatch(fused)
}

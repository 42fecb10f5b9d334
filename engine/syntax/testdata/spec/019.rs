// burn/extensions.md 1.6 #5
use burn::backend::{backend_extension, tensor::FloatTensor, ops::FloatTensorOps, Backend};
use burn_cubecl::CubeBackend;

#[backend_extension(Cube, Fusion)]
pub trait GainOps: Backend {
    /// The output keeps the dtype and shape of `signal`.
    #[fusion(dtype = signal, shape = signal)]
    fn apply_gain(signal: FloatTensor<Self>, gain: f32) -> FloatTensor<Self>;
}

impl GainOps for CubeBackend {
    fn apply_gain(signal: FloatTensor<Self>, gain: f32) -> FloatTensor<Self> {
        Self::float_mul_scalar(signal, gain.into())
    }
}

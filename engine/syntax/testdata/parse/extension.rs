// A backend extension with a structured input, and calls through Dispatch.
#![allow(deprecated)]
use burn::backend::{backend_extension, tensor::FloatTensor, Backend, Dispatch, NdArray, Flex, Autodiff};
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;

/// An operand that may carry a tensor.
#[derive(ExtensionType)]
pub enum Operand<B: Backend> {
    Empty,
    Full(FloatTensor<B>),
    Scaled { tensor: FloatTensor<B>, by: f32 },
}

#[backend_extension(NdArray, Flex, Autodiff)]
pub trait PickOps: Backend {
    fn pick(#[extension_type] choice: Operand<Self>) -> FloatTensor<Self>;
    fn double(v: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_add(v.clone(), v)
    }
}

impl PickOps for NdArray {
    fn pick(choice: Operand<Self>) -> FloatTensor<Self> {
        match choice {
            Operand::Full(tensor) | Operand::Scaled { tensor, .. } => tensor,
            Operand::Empty => unreachable!("routing panics first"),
        }
    }
}
impl PickOps for Flex {}
impl<B: Backend + PickOps, C: CheckpointStrategy> PickOps for Autodiff<B, C> {}

let x = Tensor::<1>::from_floats([1.0, 2.0], &Device::ndarray());
let raw = <Dispatch as PickOps>::pick(Operand::Full(x.into_dispatch()));
let doubled = Tensor::<1>::from_dispatch(Dispatch::double(raw));

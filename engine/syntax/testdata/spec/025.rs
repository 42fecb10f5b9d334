// burn/extensions.md 4.1 #11
#[backend_extension(NdArray, Flex, Autodiff)]
pub trait MulExt: Backend { fn mul2(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> { Self::float_mul(lhs, rhs) } }
let a = Tensor::<1>::from_floats([1.0], &Device::ndarray().autodiff());
let b = Tensor::<1>::from_floats([2.0], &Device::flex().autodiff());
Dispatch::mul2(a.into_dispatch(), b.into_dispatch());

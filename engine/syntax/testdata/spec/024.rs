// burn/extensions.md 4.1 #10
#[backend_extension(Flex)]
pub trait MulExt: Backend { fn mul2(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> { Self::float_mul(lhs, rhs) } }
let x = Tensor::<1>::from_floats([1.0], &Device::flex());
let w = Tensor::<1>::from_floats([2.0], &Device::flex().autodiff()).require_grad();
Dispatch::mul2(x.into_dispatch(), w.into_dispatch());

// burn/extensions.md 4.1 #9
#[backend_extension(NdArray, Flex)]
pub trait AddExt: Backend { fn add2(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> { Self::float_add(lhs, rhs) } }
let a = Tensor::<1>::from_floats([1.0], &Device::ndarray());
let b = Tensor::<1>::from_floats([2.0], &Device::flex());
Dispatch::add2(a.into_dispatch(), b.into_dispatch());

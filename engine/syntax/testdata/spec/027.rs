// burn/extensions.md 4.1 #13
#[backend_extension(NdArray, Flex)]
pub trait TakeExt: Backend {
    fn take(indices: IntTensor<Self>, values: FloatTensor<Self>) -> FloatTensor<Self> { Self::float_gather(0, values, indices) }
}
let v = Tensor::<1>::from_floats([1.0, 2.0], &Device::ndarray());
let i = Tensor::<1, Int>::from_ints([1, 0], &Device::flex());
Dispatch::take(i.into_dispatch(), v.into_dispatch());

// burn/extensions.md 4.1 #12
let a = Tensor::<1>::from_floats([1.0], &Device::ndarray().autodiff());
let b = Tensor::<1>::from_floats([2.0], &Device::flex());
Dispatch::mul2(a.into_dispatch(), b.into_dispatch());

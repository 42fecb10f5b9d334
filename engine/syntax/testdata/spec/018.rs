// burn/extensions.md 1.6 #4
#[cfg(all(feature = "flex", feature = "autodiff"))]
mod doubling_under_autodiff {
    use super::*;
    use burn::backend::{autodiff::checkpoint::strategy::CheckpointStrategy, Autodiff, Backend, Flex};

    #[backend_extension(NdArray, Flex, Autodiff)]
    pub trait DoubleBackend: Backend {
        /// One default body shared by every backend: v + v.
        fn double(v: FloatTensor<Self>) -> FloatTensor<Self> {
            Self::float_add(v.clone(), v)
        }
    }

    impl DoubleBackend for Flex {}
    impl DoubleBackend for NdArray {}
    impl<B: Backend + DoubleBackend, C: CheckpointStrategy> DoubleBackend for Autodiff<B, C> {}

    fn check_doubled(on: Device) {
        let input = Tensor::<1>::from_floats([0.5, -3.0, 10.0, 0.0], &on);
        let raw = <Dispatch as DoubleBackend>::double(input.into_dispatch());
        let expected = burn::tensor::TensorData::from([1.0f32, -6.0, 20.0, 0.0]);
        Tensor::<1>::from_dispatch(raw).into_data().assert_eq(&expected, true);
    }

    #[test]
    fn one_op_reaches_flex_and_ndarray_through_autodiff() {
        check_doubled(Device::flex().autodiff());
        check_doubled(Device::ndarray().autodiff());
    }
}

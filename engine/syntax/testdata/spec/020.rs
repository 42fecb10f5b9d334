// burn/extensions.md 1.6 #6
#[test]
fn borrowed_input_survives_a_fused_add() {
    let cpu = Device::cpu();
    let base = Tensor::<1>::from_floats([0.5, 1.5, 2.5], &cpu).into_dispatch();
    let tail = Tensor::<1>::from_floats([9., 8.], &cpu).into_dispatch();

    // `add` only borrows `base`, so it is still ours afterwards.
    let shifted = Dispatch::add(&base, 1.);
    let both = Tensor::<1>::from_dispatch(Dispatch::join(shifted, tail, 0));
    assert_eq!(both.dims(), [5]);
    both.into_data()
        .assert_eq(&burn::tensor::TensorData::from([1.5, 2.5, 3.5, 9., 8.]), false);

    let base = Tensor::<1>::from_dispatch(base);
    base.into_data()
        .assert_eq(&burn::tensor::TensorData::from([0.5, 1.5, 2.5]), false);
}

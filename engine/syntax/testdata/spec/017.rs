// burn/extensions.md 1.6 #3
#[test]
fn bare_tensor_routes_when_operand_is_empty() {
    let dev = device();
    let x = Tensor::<1>::from_floats([-1.0, 0.0, 7.5], &dev);
    let want = x.clone().into_data();

    let routed = <Dispatch as PickOps>::mix_pick(x.into_dispatch(), Operand::Empty);
    Tensor::<1>::from_dispatch(routed)
        .into_data()
        .assert_eq(&want, true);
}

#[test]
#[should_panic(expected = "received no tensor input")]
fn operand_alone_without_tensor_cannot_route() {
    // Nothing here carries a tensor, so routing's `.expect` fires.
    let _ = <Dispatch as PickOps>::pick(Operand::Empty);
}

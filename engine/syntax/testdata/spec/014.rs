// burn/spec.md 11. #14
fn one_extension_op_serves_both_backends_under_autodiff() {
    let flex_ad = Device::flex().autodiff();
    check_doubled(flex_ad);
    check_doubled(Device::ndarray().autodiff());
}

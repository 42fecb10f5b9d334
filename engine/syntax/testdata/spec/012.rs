// burn/spec.md 11. #12
fn main() {
    let dev = Device::default();
    // Forward pass first, then the same kernel with gradients.
    infer(&dev);
    train(&dev.autodiff());
}

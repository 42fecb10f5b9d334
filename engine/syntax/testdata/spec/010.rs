// burn/spec.md 11. #10
let plain = Device::default();
let ad = plain.clone().autodiff();

let bias = Tensor::<2>::from_floats([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], &plain);
// It lands on the autodiff device, but nothing tracks it yet.
let bias = bias.to_device(&ad);

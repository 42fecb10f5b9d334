// burn/spec.md 11. #1
use burn::tensor::{Device, Tensor};

// Begin on whichever adapter wgpu selects by default.
let gpu = Device::wgpu(Default::default());
let weights = Tensor::<2>::ones([4, 8], &gpu);

// Same tensor API, other backend: hand the values to a CUDA card.
let cuda = Device::cuda(1);
let weights = weights.to_device(&cuda);

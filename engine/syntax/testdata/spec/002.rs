// burn/spec.md 11. #2
let accel = Device::cuda(0);
let host = Device::flex();

let net = net.to_device(&accel);
let batch = Tensor::<2>::ones([16, 4], &host);
let batch = batch.to_device(&accel);

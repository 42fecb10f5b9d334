// burn/spec.md 11. #4
let ad = Device::wgpu(Default::default()).autodiff();
let w = Tensor::<2>::ones([3, 5], &ad).require_grad();
let loss = w.clone().powf_scalar(3.0).sum();
let mut grads = loss.backward();

// Look at the gradient and leave it in the container...
let peeked = w.grad(&grads);
// ...or take it out for good.
let taken = w.grad_remove(&mut grads);

// burn/spec.md 11. #9
let ad = AutodiffDevice::new();
let labels = TestTensorInt::<1>::from_data([2, 0, 1], &ad);
// An int tensor created there still reports the autodiff device.
assert!(labels.device().is_autodiff());

let mask = labels.one_hot::<2>(3).float();
assert!(mask.device().is_autodiff());

let scores = TestTensor::<2>::ones([3, 3], &ad).require_grad();
let picked = (scores.clone() * mask).sum();
let grads = picked.backward();

let g = scores.grad(&grads).expect("scores were marked require_grad");
// The gradient comes back on the plain device.
assert!(!g.device().is_autodiff());

// burn/spec.md 11. #3
let base = Device::wgpu(Default::default());
let train_on = base.autodiff();
assert!(train_on.is_autodiff(), "training needs a tape");

// Back to the plain device for evaluation.
let eval_on = train_on.inner();
assert!(!eval_on.is_autodiff());

// Moving tensors between devices, training with autodiff.
use burn::tensor::{Device, Tensor, Int, Bool};

fn main() {
    let gpu = Device::wgpu(Default::default());
    let weights = Tensor::<2>::ones([4, 8], &gpu);
    let cuda = Device::cuda(1);
    let weights = weights.to_device(&cuda);

    let ad = Device::flex().autodiff();
    let w = Tensor::<2>::from_floats([[0.1, -0.2], [0.3, 4e-1]], &ad).require_grad();
    let loss = (w.clone() * 2.0 + 1).powf_scalar(3.0).sum();
    let mut grads = loss.backward();
    let taken = w.grad_remove(&mut grads).expect("w was marked require_grad");
    assert!(!taken.device().is_autodiff(), "gradients live on the plain device");

    let ids = Tensor::<1, Int>::arange(0..10, &cuda);
    let mask: Tensor<1, Bool> = ids.clone().greater_elem(4);
    let firsts = ids.slice(s![..5]);
    let values: Vec<i64> = firsts.into_data().to_vec().unwrap();
    println!("{values:?} {}", mask.dims()[0]);
}

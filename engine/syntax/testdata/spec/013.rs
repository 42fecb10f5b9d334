// burn/spec.md 11. #13
let gpus = Device::enumerate(DeviceType::Cuda).into_vec();
let config = DistributedConfig {
    all_reduce_op: ReduceOperation::Sum,
};
// The context has to stay alive while the collectives run.
let _ctx = DistributedContext::init(gpus.clone(), config);

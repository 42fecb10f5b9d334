// burn/spec.md 11. #8
let channel = Channel::Iroh {
    secret: Box::new(node_secret),
};
burn::server::start_async(Device::flex(), channel).await;

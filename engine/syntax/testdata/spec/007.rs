// burn/spec.md 11. #7
let port = 7000;
let served = Device::default();
burn::server::start(served, Channel::WebSocket { port });

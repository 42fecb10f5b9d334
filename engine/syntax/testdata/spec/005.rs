// burn/spec.md 11. #5
let server = Device::remote_websocket("ws://127.0.0.1:3000", 0);
let inputs = Tensor::<2>::ones([8, 64], &server);
let logits = classifier.to_device(&server).forward(inputs);

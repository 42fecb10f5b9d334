// burn/spec.md 11. #11
let here = Device::default();
let there = Device::remote_websocket("ws://localhost:3010", 0);

let xs = Tensor::<2>::from_floats([[2.0, 4.0], [6.0, 8.0], [10.0, 12.0]], &here);
// Ship a copy to the server and compute there.
let halved = xs.clone().to_device(&there) * 0.5;

// Bring the result home and read it out.
let halved = halved.to_device(&here);
let values: Vec<f32> = halved.to_data().to_vec().unwrap();

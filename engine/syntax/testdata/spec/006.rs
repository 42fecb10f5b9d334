// burn/spec.md 11. #6
// Bind a local Iroh endpoint, then dial the compute peer by its id.
let node = Endpoint::builder(presets::N0).bind().await?;
let peer = Device::remote_iroh(&node, peer_id, 0);

let xs = Tensor::<1>::from_floats([0.5, -1.5, 2.5, 4.0], &peer);
let energy = xs.square().sum(); // computed on the peer, not here

// A server and a client, in doc-test style.
let port = 3000;
burn::server::start(Device::default(), Channel::WebSocket { port });

async fn connect(peer: PeerId) -> Result<(), Box<dyn std::error::Error>> {
    let node = Endpoint::builder(presets::N0).bind().await?;
    let there = Device::remote_iroh(&node, peer, 0);
    let xs = Tensor::<2>::from_floats([[2.0, 4.0], [6.0, 8.0]], &there);
    let halved = xs.clone().to_device(&there) * 0.5;
    Ok(())
}

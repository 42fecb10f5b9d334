package wasm

import "github.com/dispatch-playground/playground/engine"

// warmUp is run on every new instance before it serves anyone. The engine
// loads its tables (the catalog above all) on first use, and inside the
// sandbox that first use takes about a second: a program that panics and so
// needs a catalog record moves that second from a user's run to start-up.
var warmUp = engine.Request{
	Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\"] }\n\n" +
		"[package.metadata.playground]\nhardware = { cuda = 1 }\n",
	Snippet: "use burn::tensor::{Device, Tensor};\n\nfn main() {\n" +
		"    let a = Tensor::<1>::ones([2], &Device::cuda(0));\n" +
		"    let b = Tensor::<1>::ones([2], &Device::flex());\n" +
		"    let c = a + b;\n}\n",
}

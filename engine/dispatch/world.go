package dispatch

// Config is what the dispatch model needs from the user's Cargo.toml.
type Config struct {
	// Features holds every enabled "crate/feature" pair after propagation
	// through Burn's feature graph, e.g. "burn/autodiff",
	// "burn-tensor/flex", "burn-dispatch/cuda".
	Features map[string]bool
	// Env is the environment the program sees (BURN_DEVICE, ...).
	Env map[string]string
	// Hardware is what the simulated machine has.
	Hardware Hardware
	// Servers are the remote servers the snippet can connect to.
	Servers []Server
}

// Hardware describes the simulated machine.
type Hardware struct {
	Cuda   int      // number of CUDA devices
	Rocm   int      // number of ROCm devices
	Wgpu   []string // wgpu adapters by kind: "DiscreteGpu", "IntegratedGpu", "VirtualGpu", "Cpu"
	Metal  bool     // a Metal-capable GPU is present
	Vulkan bool
}

// Server is a remote server configured in [[package.metadata.playground.servers]].
type Server struct {
	Address string // "ws://localhost:3000", or an Iroh endpoint id
	Device  string // what the server hosts, a BURN_DEVICE-style name: "flex", "tch", "cuda", ...
}

// Enabled reports whether "crate/feature" is on.
func (c *Config) Enabled(crate, feature string) bool {
	return c.Features[crate+"/"+feature]
}

// Call is one call into Burn's API. Exactly one of Path (an associated or
// free function) and Method (a method on Recv) is set.
type Call struct {
	// Path is the function's path without generics, as written minus
	// leading crate prefixes the interpreter resolved: ["Device", "cuda"],
	// ["Tensor", "ones"], ["burn", "server", "start"], ["LinearConfig", "new"].
	Path []string
	// Generics holds each path segment's generic arguments as written
	// (Tensor::<2, Int>::ones -> [["2", "Int"], nil]); or, for a method,
	// the method's turbofish. A declared type such as `let x: Tensor<2, Int>`
	// is passed by the interpreter as Expect.
	Generics [][]string
	// Expect is the declared type of the value being built, when the
	// program states one (`let t: Tensor<3> = ...`), else "".
	Expect string
	Recv   Value
	Method string
	Args   []Value
}

// TraceEvent is one dispatched tensor operation.
type TraceEvent struct {
	Site     int // the interpreter's call site, set with SetSite
	Op       string
	Backend  string
	Device   string // the DispatchDevice Debug form of the device it ran on
	Autodiff bool
	Kind     string // "Float", "Int", "Bool", "QFloat"
	Shape    []int64
	Note     string
}

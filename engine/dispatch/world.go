package dispatch

import "github.com/dispatch-playground/playground/engine/tensor"

// Config is what the dispatch model needs from the user's Cargo.toml.
type Config struct {
	// Features holds every enabled "crate/feature" pair after propagation
	// through Burn's feature graph, e.g. "burn/autodiff",
	// "burn-tensor/flex", "burn-dispatch/cuda".
	Features map[string]bool
	// Env is the environment the program sees (BURN_DEVICE, ...).
	Env map[string]string
	// Args are the program's command-line arguments after its name, as
	// `cargo run -- ARGS` passes them.
	Args []string
	// Hardware is what the simulated machine has.
	Hardware Hardware
	// Servers are the remote servers the snippet can connect to.
	Servers []Server
	// Target is the Rust target triple the program is built for; "" is
	// the host. TargetWasm selects Burn's cfg(target_family = "wasm")
	// code paths.
	Target string
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
	// Faults are misbehaviours of the server process, from ServerFaults.
	Faults []string
}

// Enabled reports whether "crate/feature" is on.
func (c *Config) Enabled(crate, feature string) bool {
	return c.Features[crate+"/"+feature]
}

// Call is one call into Burn's API. Exactly one of Path (an associated or
// free function) and Method (a method on Recv) is set.
//
// Enum-like values: a path used as a value (`DType::F16`,
// `DeviceKind::Cpu`, `Distribution::Default`, `presets::N0`) and a struct
// literal (`Channel::WebSocket { port: 3000 }`) never reach Call: the
// interpreter builds them as *Enum{Type, Variant[, Named]}. A tuple
// variant (`DeviceKind::DiscreteGpu(0)`, `Distribution::Uniform(a, b)`) is
// a Call with Path, which returns the *Enum. `Default::default()` is a
// Call with Path ["Default", "default"]; see World.Call for the rest.
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
	// Module is the path of the module whose method dispatched the
	// operation ("model.conv1"), set with SetModule; "" outside any.
	Module string

	// out is the tensor the operation produced, whose values (set right
	// after it is recorded) Trace previews in the note.
	out *Tensor
}

// World is one simulated Burn process: the configuration it was built
// with, the process-wide counters Burn keeps (autodiff node ids, remote
// registry ids, capture ids) and the trace of dispatched operations. A
// World is used by one run at a time; nothing in the package is shared
// between Worlds.
type World struct {
	cfg   Config
	site  int
	trace []TraceEvent
	// module is the path the following operations are tagged with;
	// modulePaths interns the paths EnterModule builds.
	module      string
	modulePaths map[modulePathKey]string
	// dispatched counts every operation, kept in trace or not; cutSite is
	// the site of the first one past MaxTrace.
	dispatched int
	cutSite    int

	nextNode          uint64                  // burn-autodiff's NodeId counter
	graphs            graphMemory             // burn-autodiff's graphs and what backward frees (autodiff_memory.go)
	nextHandle        uint64                  // fusion and router tensor ids (TensorId counters)
	nextCapture       int                     // CaptureDevice ids
	nextSecret        int                     // RemoteSecret keys
	captures          map[int]*captureSession // the active capture scope of each capture device id
	nextCaptureTensor uint64                  // burn-capture's TensorId counter
	remoteIDs         map[string]int
	remotePeers       map[int]remotePeer       // the peer of each remote registry id
	connected         map[int]bool             // remote registry ids whose session is open
	settings          map[string]dtypeDefaults // the device settings registry, by inner device
	serving           bool

	// budget bounds the tensor values the run computes; past it tensors
	// carry shapes only.
	budget *tensor.Budget
	// unneeded counts the WithoutValues calls running: their tensors get
	// no values.
	unneeded int
	rngs     map[Backend]*tensor.RNG // each backend's generator, for random
}

// NewWorld starts a process with the given build and machine.
func NewWorld(cfg Config) *World {
	// The maps are made when first written: most programs use none of
	// them, and a run makes two Worlds.
	return &World{cfg: cfg, site: -1, budget: tensor.NewBudget(tensor.DefaultBudget, tensor.DefaultWork)}
}

func (w *World) setSettings(key string, s dtypeDefaults) {
	if w.settings == nil {
		w.settings = map[string]dtypeDefaults{}
	}
	w.settings[key] = s
}

// SetSite tags the TraceEvents and the tensors created by the following
// calls with the interpreter's call site.
func (w *World) SetSite(site int) { w.site = site }

// MaxTrace bounds the trace a World keeps. A loop can dispatch millions of
// operations; keeping them all would make the Result, and the memory of a
// WebAssembly instance, grow with the step budget. Later operations are
// counted, not kept.
const MaxTrace = 1000

// Trace is the first MaxTrace dispatched operations, in order. The note
// of an operation whose output has values ends with a preview of them.
func (w *World) Trace() []TraceEvent {
	kept := w.trace[:min(len(w.trace), MaxTrace)]
	out := make([]TraceEvent, len(kept))
	for i, ev := range kept {
		if ev.out != nil && ev.out.hasVals() {
			preview := "values: " + ev.out.preview(tensor.PreviewElements)
			if ev.Note == "" {
				ev.Note = preview
			} else {
				ev.Note += "; " + preview
			}
		}
		ev.out = nil
		out[i] = ev
	}
	return out
}

// Dispatched is how many operations were dispatched, and the call site of
// the first one Trace does not keep (-1 when it keeps them all).
func (w *World) Dispatched() (count, cutSite int) {
	if w.dispatched <= MaxTrace {
		return w.dispatched, -1
	}
	return w.dispatched, w.cutSite
}

// Serving reports that burn::server::start has been called: in Rust it
// blocks the thread until the process is stopped, so nothing after it runs.
func (w *World) Serving() bool { return w.serving }

// record appends to the trace. Past MaxTrace, every event lands in one spare
// slot, so code that annotates the event it just recorded
// (w.trace[len(w.trace)-1].Note) still has one to write to.
func (w *World) record(ev TraceEvent) {
	ev.Site = w.site
	ev.Module = w.module
	w.dispatched++
	switch {
	case len(w.trace) <= MaxTrace:
		if len(w.trace) == MaxTrace {
			w.cutSite = w.site
		}
		w.trace = append(w.trace, ev)
	default:
		w.trace[MaxTrace] = ev
	}
}

package dispatch

import "fmt"

// Panic is a Burn panic: the row of Burn's panic table it reproduces (ID,
// e.g. "disp-remote-server-libtorch"), the exact message Rust prints and the
// location "crates/...rs:LINE" of the panic site at the modelled commit.
//
// Operations return a *Panic instead of calling Go's panic, so the caller
// decides where to stop (run) or to go on (check).
type Panic struct {
	ID       string
	Message  string
	Location string
	// Input names the argument that caused it when Burn's message names one
	// (0 = receiver, 1.. = arguments, -1 = the call as a whole). The
	// interpreter uses it to choose the span to point at.
	Input int
	// Labels are notes about the values involved, such as "`b` is on
	// Cuda(0)", that the interpreter may attach to spans.
	Labels []string
	// Fixes are mechanical repairs the interpreter can turn into edits.
	Fixes []FixHint
	// Cause is the panic that happened first on another thread (burn's
	// device runner) and that this one re-raises, or the error whose text
	// the message carries; nil when there is none. Its ID names the root
	// cause better than the re-raising site does.
	Cause *Panic
	// Returned marks a cause that is an error value Burn returned (a row
	// of kind "error"), not a panic of its own.
	Returned bool
	// TrackCaller marks a panic raised inside a #[track_caller] method of
	// Burn's API (into_data's expect): Rust reports the caller's line in
	// the program, not Location, which stays the Burn site for the catalog.
	TrackCaller bool
}

// FixHint describes a machine-applicable fix in terms of the call's inputs.
// The interpreter turns it into text edits: it replaces the source text of
// input Arg (numbered as Panic.Input) with NewText, in which {0} stands for
// the receiver's source text and {1}, {2}, ... for the arguments' texts
// ({i::} for input i's path up to its last `::`, interp's fillHint), and
// it adds AddFeature to the burn dependency's features in Cargo.toml.
type FixHint struct {
	Title      string
	Arg        int // input whose text is replaced; NoArg to replace nothing
	NewText    string
	AddFeature string // burn feature to enable, "" for none
	// Tensors are the call inputs (0 the receiver, i the i-th argument)
	// the edit needs to be tensors of the program's own call: a panic
	// raised inside a module's forward reaches the program's call to the
	// module, whose inputs are not the op's.
	Tensors []int
	// AfterSite, when not 0, is an interpreter's site plus one: the edit
	// inserts NewText after that call, which made a plain device (see
	// Device.WithOrigin), instead of editing an input.
	AfterSite int
	// Server, when set, is a fix to the servers the playground's config
	// declares ([[package.metadata.playground.servers]]).
	Server *ServerEdit
}

// ServerEdit is a fix to the playground's servers in Cargo.toml: declare a
// server at Add that hosts Device, or take the fault DropFault off the
// server declared at Address. A server is how the playground says what
// runs on another machine, so these are the edits that stand for "start
// the compute node" and "fix the server".
type ServerEdit struct {
	Add, Device        string
	Address, DropFault string
}

// Applies reports whether the hint's edit fits call, whose receiver and
// arguments it may name.
func (h FixHint) Applies(call Call) bool {
	for _, i := range h.Tensors {
		var v Value
		switch {
		case i == 0:
			v = call.Recv
		case i-1 < len(call.Args):
			v = call.Args[i-1]
		}
		if _, ok := Deref(v).(*Tensor); !ok {
			return false
		}
	}
	return true
}

// NoArg marks a FixHint that edits no input of the call.
const NoArg = -2

func (p *Panic) Error() string { return p.Message }

// Rendered is the text Rust prints for the panic. A panic without a Burn
// location (the playground's own) names none.
func (p *Panic) Rendered() string {
	if p.Location == "" {
		return fmt.Sprintf("thread 'main' panicked:\n%s", p.Message)
	}
	return fmt.Sprintf("thread 'main' panicked at %s:\n%s", p.Location, p.Message)
}

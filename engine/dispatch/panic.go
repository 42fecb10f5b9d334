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
}

func (p *Panic) Error() string { return p.Message }

// Rendered is the text Rust prints for the panic.
func (p *Panic) Rendered() string {
	return fmt.Sprintf("thread 'main' panicked at %s:\n%s", p.Location, p.Message)
}

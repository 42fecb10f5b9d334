package dispatch

// UsageError is a call that rustc would reject (an unknown method, a
// function behind a disabled feature, wrong arguments) or that the
// playground does not model. It becomes a check diagnostic; it is never a
// Burn panic.
type UsageError struct {
	Code    string // a catalog code: "unknown-method", "feature-not-enabled", ...
	Message string // rustc's wording where rustc would reject the program
	Arg     int    // -1: the call as a whole, 0: the receiver, i+1: argument i
	Help    []string
	// Feature is the burn feature that would make the call compile, for
	// Code "feature-not-enabled" (the interpreter offers a Cargo.toml fix).
	Feature string
	Fixes   []FixHint
}

func (e *UsageError) Error() string { return e.Message }

package reactor

import "github.com/dispatch-playground/playground/engine"

// Handler runs a request and returns the Result JSON.
type Handler func(req engine.Request) ([]byte, error)

// handler is set once, by Serve from the main package's init, before the host
// can call any export.
var handler Handler

// Serve makes h the function the run exports call.
func Serve(h Handler) { handler = h }

package reactor

// Handler turns a request's bytes into a result's bytes.
type Handler func(request []byte) ([]byte, error)

// handler is set once, by Serve from the main package's init, before the host
// can call any export.
var handler Handler

// Serve makes h the function run calls.
func Serve(h Handler) { handler = h }

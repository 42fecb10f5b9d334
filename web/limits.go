package web

import "time"

// DefaultAddr is where `playground serve` listens: loopback only, unless
// told otherwise.
const DefaultAddr = "127.0.0.1:8080"

// Defaults of Limits.
const (
	// DefaultBodyBytes bounds a request body; larger ones get 413.
	DefaultBodyBytes = 1 << 20
	// DefaultSnippetBytes bounds the snippet of a run; larger ones get 413.
	DefaultSnippetBytes = 256 << 10
)

// retryAfter is the Retry-After of a 429. A run takes milliseconds and at
// most the sandbox's wall time, so a second later the queue has moved.
const retryAfter = time.Second

// databasePingTimeout bounds the ping of the share database that /healthz
// and /metrics make: a database that does not answer within it is
// unreachable, and a load balancer's health check still gets its answer.
const databasePingTimeout = 2 * time.Second

// Timeouts of the HTTP server. A run is bounded by the sandbox's wall time;
// these only guard against slow clients.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	// ShutdownTimeout is how long a graceful shutdown waits for requests
	// in flight.
	ShutdownTimeout = 15 * time.Second
)

// Limits are the server's own limits on a request, besides the sandbox's.
type Limits struct {
	BodyBytes    int64
	SnippetBytes int
}

// DefaultLimits returns the default Limits.
func DefaultLimits() Limits {
	return Limits{BodyBytes: DefaultBodyBytes, SnippetBytes: DefaultSnippetBytes}
}

package web

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// RateLimit bounds how often one client may ask for what costs a run or a
// write: every POST, and the pages that run a program for their first
// paint. Static files, the catalog's JSON, shared states, health and
// metrics are not counted. It also bounds the sandbox time a client takes:
// its runs at once, and what a run stopped by a limit costs. A client is an
// IPv4 address or an IPv6 /64: the connection's peer, or the client a
// proxy of Config.TrustedProxies names. Behind a reverse proxy that the
// server does not trust every client is the proxy, so limit there and turn
// this off, or trust it.
type RateLimit struct {
	// PerSecond is the sustained rate a client may keep up; 0 turns the
	// limit off.
	PerSecond float64
	// Burst is how many requests a client may make at once.
	Burst int
	// Clients bounds the clients tracked at once. Past it, clients not yet
	// tracked share one allowance, so the table's memory stays bounded
	// however many addresses send requests.
	Clients int
	// ClientRuns bounds the runs one client may have in the sandbox at
	// once, executing or waiting for an instance; past it the client gets
	// 429 at once. So one client holds at most this many instances, and
	// this many places of the sandbox's queue. 0: no bound (it holds
	// whether PerSecond is 0 or not).
	ClientRuns int
	// TimeCost charges a run that the wall time, the engine's step budget
	// or the memory limit stopped by the time it took: one more request of
	// the client's allowance per TimeCost, on top of the one its request
	// cost. With 100 ms, a run stopped at the wall time of 2 s costs 21.
	// 0: such a run costs one request like any other.
	TimeCost time.Duration
}

// DefaultRateLimit lets a person load pages and press Run as fast as they
// can click, and holds a script to two runs a second, one at a time; a
// client whose runs keep hitting the wall time of 2 s gets one every
// 10.5 s once its burst is spent.
var DefaultRateLimit = RateLimit{PerSecond: 2, Burst: 30, Clients: 10_000, ClientRuns: 1, TimeCost: 100 * time.Millisecond}

// sharedClient is the key of the allowance that clients share once the
// table is full.
const sharedClient = ""

// limiter is a token bucket per client.
type limiter struct {
	cfg RateLimit
	now func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(cfg RateLimit, now func() time.Time) *limiter {
	cfg.Burst = max(cfg.Burst, 1)
	cfg.Clients = max(cfg.Clients, 1)
	return &limiter{cfg: cfg, now: now, buckets: map[string]*bucket{}}
}

// take spends one request of client's allowance. When none is left it
// says how long until there is.
func (l *limiter) take(client string) (allowed bool, retry time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.bucketOf(client, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.cfg.PerSecond * float64(time.Second))
}

// charge spends n more requests of client's allowance after take let one
// through: the cost of what it turned out to use. The allowance may go
// below zero; the client then waits until it has refilled past one.
func (l *limiter) charge(client string, n float64) {
	if n <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketOf(client, l.now())
	b.tokens -= n
}

// bucketOf is client's bucket, refilled up to now: a full one for a client
// not tracked, or, once the table is full, the one such clients share.
func (l *limiter) bucketOf(client string, now time.Time) *bucket {
	b := l.buckets[client]
	if b == nil {
		if len(l.buckets) >= l.cfg.Clients {
			l.forgetFull(now)
		}
		if len(l.buckets) >= l.cfg.Clients {
			client = sharedClient
			b = l.buckets[client]
		}
		if b == nil {
			b = &bucket{tokens: float64(l.cfg.Burst), at: now}
			l.buckets[client] = b
		}
	}
	b.tokens = l.refilled(b, now)
	b.at = now
	return b
}

func (l *limiter) refilled(b *bucket, now time.Time) float64 {
	return min(float64(l.cfg.Burst), b.tokens+now.Sub(b.at).Seconds()*l.cfg.PerSecond)
}

// forgetFull drops the clients whose allowance has refilled: a full bucket
// is what a client never seen gets, so forgetting it changes nothing.
func (l *limiter) forgetFull(now time.Time) {
	for client, b := range l.buckets {
		if l.refilled(b, now) >= float64(l.cfg.Burst) {
			delete(l.buckets, client)
		}
	}
}

// clientOf is the client an address counts as: its IPv4
// address, or the /64 of its IPv6 address (one host usually holds a whole
// /64).
func clientOf(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return host
	case ip.To4() != nil:
		return ip.To4().String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// costly reports whether a request runs a program or writes: what the
// rate limit counts.
func costly(r *http.Request) bool {
	switch r.Method {
	case http.MethodPost:
		return true
	case http.MethodGet, http.MethodHead:
		p := r.URL.Path
		return p == "/" || strings.HasPrefix(p, "/examples/") || strings.HasPrefix(p, "/s/") ||
			strings.HasPrefix(p, "/catalog") || strings.HasPrefix(p, "/embed/")
	}
	return false
}

// clientLimits answers 429 with Retry-After to a client past its
// allowance, under /api/ with the API's JSON error body, and passes the
// client of every request that costs a run on to the run (clientFrom).
func clientLimits(cl *clients, m *metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if !costly(req) {
				return next(c)
			}
			// The server's IPExtractor decides whose headers to believe.
			client := clientOf(c.RealIP())
			if l := cl.rate; l != nil {
				if allowed, retry := l.take(client); !allowed {
					m.refuse(limitRate)
					seconds := max(1, int(math.Ceil(retry.Seconds())))
					c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(seconds))
					message := fmt.Sprintf("this client made more requests than the limit of %g a second (%d at once)", l.cfg.PerSecond, l.cfg.Burst)
					if cl.timeCost > 0 {
						message += fmt.Sprintf(", where a run stopped by a time or memory limit counts one more per %v it took", cl.timeCost)
					}
					message += fmt.Sprintf("; retry after %d s", seconds)
					if strings.HasPrefix(req.URL.Path, "/api/") {
						return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited, Message: message}
					}
					return echo.NewHTTPError(http.StatusTooManyRequests, message)
				}
			}
			c.SetRequest(req.WithContext(withClient(req.Context(), client)))
			return next(c)
		}
	}
}

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
// metrics are not counted. A client is an IPv4 address or an IPv6 /64, as
// the connection shows it: behind a reverse proxy every client is the
// proxy, so limit there and turn this off.
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
}

// DefaultRateLimit lets a person load pages and press Run as fast as they
// can click, and holds a script to two runs a second.
var DefaultRateLimit = RateLimit{PerSecond: 2, Burst: 30, Clients: 10_000}

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
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.cfg.PerSecond * float64(time.Second))
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

// clientOf is the client a request counts against: its peer's IPv4
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

// rateLimited answers 429 with Retry-After to a client past its
// allowance; under /api/ with the API's JSON error body.
func rateLimited(l *limiter, m *metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if !costly(req) {
				return next(c)
			}
			allowed, retry := l.take(clientOf(c.RealIP()))
			if allowed {
				return next(c)
			}
			m.refuse(limitRate)
			seconds := max(1, int(math.Ceil(retry.Seconds())))
			c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(seconds))
			message := fmt.Sprintf("this client made more requests than the limit of %g a second (%d at once); retry after %d s",
				l.cfg.PerSecond, l.cfg.Burst, seconds)
			if strings.HasPrefix(req.URL.Path, "/api/") {
				return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited, Message: message}
			}
			return echo.NewHTTPError(http.StatusTooManyRequests, message)
		}
	}
}

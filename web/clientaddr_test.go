package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dispatch-playground/playground/web"
)

// lockedBuffer collects log lines from any goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// remotes are the client addresses of the request log's records, in order.
func (b *lockedBuffer) remotes(t *testing.T) []string {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
	for sc.Scan() {
		var record struct{ Msg, Remote string }
		if err := json.Unmarshal(sc.Bytes(), &record); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if record.Msg == "request" {
			out = append(out, record.Remote)
		}
	}
	return out
}

// forwardedFrom runs three runs from a loopback client allowed one run
// per hour: forwarded for 10.1.2.3, then without the header, then
// forwarded for 10.1.2.3 again. It returns their statuses and the
// addresses the request log gives them.
func forwardedFrom(t *testing.T, proxies []string) ([]int, []string) {
	t.Helper()
	var logs lockedBuffer
	s := newStubServer(t, func(c *web.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		c.RateLimit = web.RateLimit{PerSecond: 1.0 / 3600, Burst: 1, Clients: 100}
		c.TrustedProxies = proxies
	})
	var statuses []int
	for _, forwarded := range []string{"10.1.2.3", "", "10.1.2.3"} {
		req := httptest.NewRequest(http.MethodPost, "/api/run", strings.NewReader(`{"snippet":"let a = 1;"}`))
		req.RemoteAddr = "127.0.0.1:40000"
		if forwarded != "" {
			req.Header.Set("X-Forwarded-For", forwarded)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		statuses = append(statuses, rec.Code)
	}
	return statuses, logs.remotes(t)
}

// TestForwardedForIsIgnoredWithoutTrustedProxies: a client cannot choose
// the address it is logged and rate-limited as by sending
// X-Forwarded-For; without --trusted-proxies the address is the socket's.
func TestForwardedForIsIgnoredWithoutTrustedProxies(t *testing.T) {
	statuses, remotes := forwardedFrom(t, nil)
	if want := []string{"127.0.0.1", "127.0.0.1", "127.0.0.1"}; !slices.Equal(remotes, want) {
		t.Errorf("logged as %q, want %q", remotes, want)
	}
	// One allowance for the three: the header does not make a new client.
	if want := []int{200, 429, 429}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
}

// TestTrustedProxyForwardsTheClientAddress: with --trusted-proxies
// 127.0.0.1/32, what that proxy forwards is the client: 10.1.2.3 and the
// proxy itself are two clients with an allowance each.
func TestTrustedProxyForwardsTheClientAddress(t *testing.T) {
	statuses, remotes := forwardedFrom(t, []string{"127.0.0.1/32"})
	if want := []string{"10.1.2.3", "127.0.0.1", "10.1.2.3"}; !slices.Equal(remotes, want) {
		t.Errorf("logged as %q, want %q", remotes, want)
	}
	if want := []int{200, 200, 429}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
	// A proxy that is not trusted forwards nothing.
	statuses, remotes = forwardedFrom(t, []string{"192.0.2.0/24", "::1"})
	if want := []string{"127.0.0.1", "127.0.0.1", "127.0.0.1"}; !slices.Equal(remotes, want) || statuses[1] != 429 {
		t.Errorf("through an untrusted proxy: logged as %q, statuses %v", remotes, statuses)
	}
	if _, err := web.New(web.Config{TrustedProxies: []string{"proxy.local"}}); err == nil || !strings.Contains(err.Error(), "proxy.local") {
		t.Errorf("New with the proxy proxy.local: %v", err)
	}
}

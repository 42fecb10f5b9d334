package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/web"
)

// The two clients of the fairness test, told apart by the server the way
// it tells any two clients apart: by their addresses. Every 127.0.0.0/8
// address is this machine's on Linux.
var (
	politeAddr = net.IPv4(127, 0, 0, 1)
	greedyAddr = net.IPv4(127, 0, 0, 2)
)

// greedySnippet runs until the sandbox's wall time stops it (it would
// take 10^19 iterations, and the engine's step budget needs longer than
// the default wall time to run out in the sandbox).
const greedySnippet = "fn main() {\n    for i in 0..u64::MAX {}\n}\n"

// politeExample is what the polite client runs: the tour's first program.
const politeExample = "tour-hello"

// fairReport is what the fairness test saw.
type fairReport struct {
	wallTime    time.Duration
	pool        int
	alone, with []time.Duration // the polite client's latencies, alone and with the greedy client
	// politeFailed are the polite client's answers other than the right
	// Result, by what they were.
	politeFailed map[string]int
	// greedy counts the greedy client's answers: "200" for the Result it
	// must get, else the status and the API's error code.
	greedy map[string]int
}

// fairness runs the fairness test: a polite client sends tour-hello every
// o.politeEvery, first alone for o.duration, then for o.duration more
// while a greedy client, from another address, sends an endless program
// from o.greedy connections as fast as the server lets it (each waits
// for the Retry-After of a 429). It prints the polite client's
// percentiles in both phases.
func fairness(ctx context.Context, o options, out io.Writer) (*fairReport, error) {
	polite, greedy, err := fairJobs(o.wallTime)
	if err != nil {
		return nil, err
	}
	target := o.url
	pool := o.pool
	if target == "" {
		addr, stop, size, err := startFairServer(ctx, o)
		if err != nil {
			return nil, err
		}
		defer stop()
		target, pool = "http://"+addr, size
	} else if strings.Contains(target, ",") {
		return nil, errors.New("-fairness measures one server: give -url one")
	} else if err := requireIPv4Loopback(target); err != nil {
		return nil, err
	}
	poolText := "of the server"
	if pool > 0 {
		poolText = strconv.Itoa(pool)
	}
	fmt.Fprintf(out, "fairness: against %s (wall time %v, pool %s, its default rate limit), %v alone then %v with the greedy client\n",
		target, o.wallTime, poolText, o.duration, o.duration)
	fmt.Fprintf(out, "  polite: %s from %v every %v; greedy: an endless loop from %v on %d connections, each honouring Retry-After\n",
		politeExample, politeAddr, o.politeEvery, greedyAddr, o.greedy)

	r := &fairReport{wallTime: o.wallTime, pool: pool, politeFailed: map[string]int{}, greedy: map[string]int{}}
	politeClient := clientFrom(politeAddr, 1)
	greedyClient := clientFrom(greedyAddr, o.greedy)

	r.alone = sendPolitely(ctx, politeClient, target, polite, o, r.politeFailed)

	greedyCtx, stopGreedy := context.WithCancel(ctx)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range o.greedy {
		wg.Go(func() {
			for greedyCtx.Err() == nil {
				outcome, retry := post(greedyCtx, greedyClient, target, greedy)
				if greedyCtx.Err() != nil {
					return
				}
				mu.Lock()
				r.greedy[outcome]++
				mu.Unlock()
				if retry > 0 {
					sleep(greedyCtx, retry)
				}
			}
		})
	}
	r.with = sendPolitely(ctx, politeClient, target, polite, o, r.politeFailed)
	stopGreedy()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.print(out)
	return r, nil
}

// fairRequest is a request and the answers that are right for it.
type fairRequest struct {
	body []byte
	want [][]byte // each with the server's final newline
}

func fairJobs(wallTime time.Duration) (polite, greedy fairRequest, err error) {
	ex, ok := examples.ByName(politeExample)
	if !ok {
		return polite, greedy, fmt.Errorf("no example %s", politeExample)
	}
	for _, p := range []struct {
		req engine.Request
		to  *fairRequest
	}{
		{engine.Request{Config: ex.Config, Snippet: ex.Snippet}, &polite},
		{engine.Request{Snippet: greedySnippet}, &greedy},
	} {
		body, err := abi.EncodeRequest(p.req)
		if err != nil {
			return polite, greedy, err
		}
		native, err := abi.HandleRequest(p.req)
		if err != nil {
			return polite, greedy, err
		}
		p.to.body, p.to.want = body, [][]byte{append(native, '\n')}
	}
	// The endless loop ends at the wall time, or, with a long one, at the
	// engine's step budget as it does natively.
	limited, err := abi.Encode(wasm.TimeLimitResult(greedySnippet, wallTime))
	if err != nil {
		return polite, greedy, err
	}
	greedy.want = append(greedy.want, append(limited, '\n'))
	return polite, greedy, nil
}

// clientFrom is an HTTP client whose connections come from the address ip.
func clientFrom(ip net.IP, conns int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
	}}
}

// sendPolitely sends the polite request every o.politeEvery (at once
// when the last answer came later) for o.duration, and returns the
// latencies of its right answers; the others are counted in failed.
func sendPolitely(ctx context.Context, client *http.Client, target string, polite fairRequest, o options, failed map[string]int) []time.Duration {
	var latencies []time.Duration
	end := time.Now().Add(o.duration)
	for next := time.Now(); next.Before(end) && ctx.Err() == nil; {
		sleep(ctx, time.Until(next))
		start := time.Now()
		outcome, _ := post(ctx, client, target, polite)
		took := time.Since(start)
		if outcome == "200" {
			latencies = append(latencies, took)
		} else if ctx.Err() == nil {
			failed[outcome]++
		}
		next = next.Add(o.politeEvery)
		if now := time.Now(); next.Before(now) {
			next = now
		}
	}
	return latencies
}

// post sends one request. Its outcome is "200" for an answer among
// req.want; otherwise the status and the API's error code, "wrong: " and
// the start of the body for a 200 with another body, or "transport".
// retry is a 429's Retry-After.
func post(ctx context.Context, client *http.Client, target string, req fairRequest) (outcome string, retry time.Duration) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, target+"/api/run", bytes.NewReader(req.body))
	if err != nil {
		return "transport", 0
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(hr)
	if err != nil {
		return "transport", 0
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return "transport", 0
	}
	if resp.StatusCode == http.StatusOK {
		for _, want := range req.want {
			if bytes.Equal(body, want) {
				return "200", 0
			}
		}
		return "wrong: " + shorten(body), 0
	}
	var e struct {
		Error struct{ Code string }
	}
	_ = json.Unmarshal(body, &e)
	outcome = strconv.Itoa(resp.StatusCode) + " " + e.Error.Code
	if resp.StatusCode == http.StatusTooManyRequests {
		seconds, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if err != nil || seconds < 0 {
			return outcome + " without Retry-After", time.Second
		}
		retry = time.Duration(seconds) * time.Second
	}
	return outcome, retry
}

// shorten keeps the start of a wrong answer, for the report.
func shorten(body []byte) string {
	const keep = 200
	if len(body) > keep {
		return string(body[:keep]) + "…"
	}
	return string(bytes.TrimSpace(body))
}

func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// percentile is the nearest-rank percentile: the smallest latency that
// at least p of them do not exceed (with fewer than 100, p99 is the
// slowest).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// bound is what the polite client's p99 must stay under with the greedy
// client: the wall time, which one of the greedy client's runs may hold
// an instance for, plus one run of its own (its p99 alone).
func (r *fairReport) bound() time.Duration {
	return r.wallTime + percentile(sorted(r.alone), 0.99)
}

func sorted(d []time.Duration) []time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s
}

func (r *fairReport) print(w io.Writer) {
	for _, phase := range []struct {
		name string
		l    []time.Duration
	}{{"polite alone      ", r.alone}, {"polite with greedy", r.with}} {
		s := sorted(phase.l)
		fmt.Fprintf(w, "%s  %3d runs, p50 %v p99 %v max %v\n", phase.name, len(s),
			percentile(s, 0.5).Round(time.Millisecond), percentile(s, 0.99).Round(time.Millisecond), percentile(s, 1).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "polite refused     %s\n", counts(r.politeFailed))
	fmt.Fprintf(w, "greedy answers     %s\n", counts(r.greedy))
	fmt.Fprintf(w, "bound              p99 with greedy under the wall time + p99 alone = %v\n", r.bound().Round(time.Millisecond))
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s × %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func (r *fairReport) failures() []string {
	var out []string
	if len(r.politeFailed) > 0 {
		out = append(out, "the polite client got answers other than its Result: "+counts(r.politeFailed))
	}
	if len(r.alone) == 0 || len(r.with) == 0 {
		out = append(out, "the polite client got no Result in a phase")
		return out
	}
	if p99 := percentile(sorted(r.with), 0.99); p99 >= r.bound() {
		out = append(out, fmt.Sprintf("with the greedy client, the polite client's p99 is %v, not under the wall time plus one run (%v)",
			p99.Round(time.Millisecond), r.bound().Round(time.Millisecond)))
	}
	for outcome, n := range r.greedy {
		if outcome == "200" || strings.HasPrefix(outcome, "429 ") && !strings.HasSuffix(outcome, "without Retry-After") {
			continue
		}
		out = append(out, fmt.Sprintf("the greedy client got %d × %s", n, outcome))
	}
	return out
}

// startFairServer serves on 127.0.0.1 in this process with the limits of
// `playground serve`, its rate limit included, but o.wallTime and o.pool.
func startFairServer(ctx context.Context, o options) (addr string, stop func(), pool int, err error) {
	var module []byte
	if o.wasm != "" {
		module, err = os.ReadFile(o.wasm)
	} else {
		module, err = fs.ReadFile(web.Static(), web.EngineWasm)
	}
	if err != nil {
		return "", nil, 0, fmt.Errorf("engine.wasm: %w (build it with `go tool task build:wasm`)", err)
	}
	limits := wasm.DefaultLimits()
	limits.WallTime = o.wallTime
	if o.pool > 0 {
		limits.PoolSize = o.pool
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	sb, err := wasm.New(ctx, wasm.Config{Module: module, Limits: limits, Isolation: o.isolation, Logger: logger})
	if err != nil {
		return "", nil, 0, err
	}
	srv, err := web.New(web.Config{Sandbox: sb, Limits: web.DefaultLimits(), RateLimit: web.DefaultRateLimit,
		CORS: web.DefaultCORSConfig, Version: engine.Version, Logger: logger})
	if err != nil {
		_ = sb.Close(context.Background())
		return "", nil, 0, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(politeAddr.String(), "0"))
	if err != nil {
		_ = sb.Close(context.Background())
		return "", nil, 0, err
	}
	serveCtx, stopServing := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serveCtx, ln) }()
	return ln.Addr().String(), func() {
		stopServing()
		<-served
		_ = sb.Close(context.Background())
	}, limits.PoolSize, nil
}

// requireIPv4Loopback: the two clients need two addresses of this
// machine that the server counts as two clients, which IPv6's one
// loopback address (one /64) cannot give.
func requireIPv4Loopback(target string) error {
	if err := requireLoopback(target); err != nil {
		return err
	}
	u, _ := url.Parse(target)
	host := u.Hostname()
	if host == "localhost" {
		return fmt.Errorf("-fairness needs the server's IPv4 loopback address (http://127.0.0.1:PORT), not localhost")
	}
	if ip := net.ParseIP(host); ip == nil || ip.To4() == nil {
		return fmt.Errorf("-fairness needs an IPv4 loopback server: the two clients come from 127.0.0.1 and 127.0.0.2")
	}
	return nil
}

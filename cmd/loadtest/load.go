package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/internal/procmem"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/web"
)

// job is one example with the answers a correct server may give.
type job struct {
	name string
	body []byte
	// want is the native Result JSON with the server's final newline.
	want []byte
	// timeLimited is the sandbox's own time-limit Result for this program:
	// also right when the native run ends at the engine's step budget,
	// which inside the sandbox may take longer than the wall time.
	timeLimited []byte
}

// report is what the clients saw.
type report struct {
	requests, ok, busy, busyWithRetryAfter, serverErrors, other, wrong, transport int64
	latencies                                                                     []time.Duration // of 200s
	firstWrong                                                                    string
	wrongNames                                                                    []string
	rssStart, rssPeak, rssEnd                                                     int64 // bytes; 0 when unknown
	elapsed                                                                       time.Duration
}

func (r *report) failures(o options) []string {
	var out []string
	if r.serverErrors > 0 {
		out = append(out, fmt.Sprintf("%d answers were 5xx", r.serverErrors))
	}
	if r.wrong > 0 {
		slices.Sort(r.wrongNames)
		out = append(out, fmt.Sprintf("%d Results differ from the native engine's (%s), first: %s",
			r.wrong, strings.Join(slices.Compact(r.wrongNames), ", "), r.firstWrong))
	}
	if r.busy != r.busyWithRetryAfter {
		out = append(out, fmt.Sprintf("%d of %d 429s lack Retry-After", r.busy-r.busyWithRetryAfter, r.busy))
	}
	if r.other > 0 || r.transport > 0 {
		out = append(out, fmt.Sprintf("%d unexpected statuses, %d transport errors", r.other, r.transport))
	}
	if r.ok == 0 {
		out = append(out, "no request succeeded")
	}
	if limit := int64(o.maxRSSMiB) << 20; r.rssPeak > limit {
		out = append(out, fmt.Sprintf("resident memory peaked at %d MiB, above %d MiB", r.rssPeak>>20, o.maxRSSMiB))
	}
	return out
}

func run(ctx context.Context, o options, out io.Writer) (*report, error) {
	jobs, err := loadJobs(o)
	if err != nil {
		return nil, err
	}
	targets, pids := splitList(o.url), o.pids
	if len(targets) == 0 {
		addr, stop, err := startServer(ctx, o)
		if err != nil {
			return nil, err
		}
		defer stop()
		targets, pids = []string{"http://" + addr}, []int{os.Getpid()}
	}
	for _, target := range targets {
		if err := requireLoopback(target); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(out, "loadtest: %d clients for %v against %s, %d examples\n", o.clients, o.duration, strings.Join(targets, " and "), len(jobs))

	rss := func() int64 { return rssOf(pids) }
	r := &report{rssStart: rss()}
	r.rssPeak = r.rssStart
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				r.rssPeak = max(r.rssPeak, rss())
			}
		}
	}()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients}}
	sendUntilDone(ctx, client, targets, jobs, o.clients, r)
	<-sampled
	r.rssEnd = rss()
	r.rssPeak = max(r.rssPeak, r.rssEnd)
	r.print(out)
	return r, nil
}

// send makes one request and records its outcome; a 429 is honoured by
// waiting for its Retry-After.
func (r *report) send(ctx context.Context, client *http.Client, target string, j job) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target+"/api/run", bytes.NewReader(j.body))
	if err != nil {
		r.transport++
		return
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			r.transport++
		}
		return
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		if ctx.Err() == nil {
			r.transport++
		}
		return
	}
	took := time.Since(start)
	r.requests++
	switch {
	case resp.StatusCode == http.StatusOK:
		r.ok++
		r.latencies = append(r.latencies, took)
		if !bytes.Equal(body, j.want) && !bytes.Equal(body, j.timeLimited) {
			r.wrong++
			if r.firstWrong == "" {
				r.firstWrong = fmt.Sprintf("%s gave %.300s", j.name, body)
			}
			r.wrongNames = append(r.wrongNames, j.name)
		}
	case resp.StatusCode == http.StatusTooManyRequests:
		r.busy++
		if seconds, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && seconds >= 0 {
			r.busyWithRetryAfter++
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(seconds) * time.Second):
			}
		}
	case resp.StatusCode >= 500:
		r.serverErrors++
	default:
		r.other++
	}
}

func (r *report) merge(o *report) {
	r.requests += o.requests
	r.ok += o.ok
	r.busy += o.busy
	r.busyWithRetryAfter += o.busyWithRetryAfter
	r.serverErrors += o.serverErrors
	r.other += o.other
	r.wrong += o.wrong
	r.transport += o.transport
	r.latencies = append(r.latencies, o.latencies...)
	if r.firstWrong == "" {
		r.firstWrong = o.firstWrong
	}
	r.wrongNames = append(r.wrongNames, o.wrongNames...)
}

func (r *report) print(w io.Writer) {
	slices.Sort(r.latencies)
	pct := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[int(p*float64(len(r.latencies)-1))]
	}
	secs := r.elapsed.Seconds()
	fmt.Fprintf(w, "requests  %d (%.1f/s)\n", r.requests, float64(r.requests)/secs)
	fmt.Fprintf(w, "200       %d (%.1f/s), latency p50 %v p99 %v max %v\n", r.ok, float64(r.ok)/secs,
		pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), pct(1).Round(time.Microsecond))
	fmt.Fprintf(w, "429       %d, %d with Retry-After\n", r.busy, r.busyWithRetryAfter)
	fmt.Fprintf(w, "5xx       %d\n", r.serverErrors)
	fmt.Fprintf(w, "wrong     %d Results differ from the native engine's\n", r.wrong)
	fmt.Fprintf(w, "other     %d statuses, %d transport errors\n", r.other, r.transport)
	if r.rssPeak > 0 {
		fmt.Fprintf(w, "RSS       start %d MiB, peak %d MiB, end %d MiB\n", r.rssStart>>20, r.rssPeak>>20, r.rssEnd>>20)
	}
}

func loadJobs(o options) ([]job, error) {
	var jobs []job
	for _, ex := range examples.All() {
		if o.filter != nil && !o.filter.MatchString(ex.Name) {
			continue
		}
		body, err := abi.EncodeRequest(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
		if err != nil {
			return nil, err
		}
		// The server sees the request as JSON carries it: invalid UTF-8,
		// for one, arrives as U+FFFD.
		req, err := abi.DecodeRequest(body)
		if err != nil {
			return nil, err
		}
		want, err := abi.HandleRequest(req)
		if err != nil {
			return nil, err
		}
		limited, err := abi.Encode(wasm.TimeLimitResult(req.Snippet, wasm.DefaultWallTime))
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, job{name: ex.Name, body: body, want: append(want, '\n'), timeLimited: append(limited, '\n')})
	}
	if len(jobs) == 0 {
		return nil, errors.New("no examples selected")
	}
	return jobs, nil
}

// startServer serves on a loopback port in this process with the default
// limits, as `playground serve` does.
func startServer(ctx context.Context, o options) (string, func(), error) {
	var module []byte
	var err error
	if o.wasm != "" {
		module, err = os.ReadFile(o.wasm)
	} else {
		module, err = fs.ReadFile(web.Static(), web.EngineWasm)
	}
	if err != nil {
		return "", nil, fmt.Errorf("engine.wasm: %w (build it with `go tool task build:wasm`)", err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	sb, err := wasm.New(ctx, wasm.Config{Module: module, Limits: wasm.DefaultLimits(), Isolation: o.isolation, Logger: logger})
	if err != nil {
		return "", nil, err
	}
	srv, err := web.New(web.Config{Sandbox: sb, Limits: web.DefaultLimits(), CORS: web.DefaultCORSConfig, Version: engine.Version, Logger: logger})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	serveCtx, stopServing := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serveCtx, ln) }()
	return ln.Addr().String(), func() {
		stopServing()
		<-served
		_ = sb.Close(context.Background())
	}, nil
}

func requireLoopback(target string) error {
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s is not a loopback address; the load test only targets this machine", target)
}

// rssOf is the resident memory of processes and of their sandbox workers,
// in bytes; 0 when unknown (no process given).
func rssOf(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		n, _ := procmem.TreeRSS(pid)
		total += n
	}
	return total
}

// splitList splits -url's comma-separated servers.
func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// sendUntilDone runs clients concurrent clients, each sending the jobs in
// turn (starting at its own offset) to one of targets (client c to
// targets[c % len(targets)], as a load balancer spreads connections)
// until ctx is done, and merges what they saw into r.
func sendUntilDone(ctx context.Context, client *http.Client, targets []string, jobs []job, clients int, r *report) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			var local report
			for i := c; ctx.Err() == nil; i++ {
				local.send(ctx, client, targets[c%len(targets)], jobs[i%len(jobs)])
			}
			mu.Lock()
			r.merge(&local)
			mu.Unlock()
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
}

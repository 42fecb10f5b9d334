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
	"os"
	"runtime"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/web"
)

// The paths -compare measures one after the other, with the same clients,
// duration and examples:
//
//	native       abi.HandleRequest in this process: the engine alone
//	sandbox      Sandbox.RunJSON in this process: the engine in the wazero pool
//	http-native  POST /api/run to a loopback server that runs the native engine
//	http         POST /api/run to a loopback server that runs the sandbox, as
//	             `playground serve` does
const (
	pathNative     = "native"
	pathSandbox    = "sandbox"
	pathHTTPNative = "http-native"
	pathHTTP       = "http"
)

// pathResult is one path's throughput and latencies.
type pathResult struct {
	name string
	r    *report
}

// compare measures the four paths and prints them side by side, with the
// ratios between them.
func compare(ctx context.Context, o options, out io.Writer) ([]pathResult, error) {
	jobs, err := loadJobs(o)
	if err != nil {
		return nil, err
	}
	module, err := readModule(o)
	if err != nil {
		return nil, err
	}
	limits := wasm.DefaultLimits()
	sb, err := wasm.New(ctx, wasm.Config{Module: module, Limits: limits, Isolation: o.isolation})
	if err != nil {
		return nil, err
	}
	defer sb.Close(context.Background())
	// In this process the request arrives as the server gets it, as JSON,
	// and is decoded natively on both paths, as the server decodes it.
	nativeJSON := func(_ context.Context, body []byte) ([]byte, error) { return abi.Handle(body) }
	sandboxJSON := func(ctx context.Context, body []byte) ([]byte, error) {
		req, err := abi.DecodeRequest(body)
		if err != nil {
			return nil, err
		}
		return sb.RunJSON(ctx, req)
	}
	native := func(_ context.Context, req engine.Request) ([]byte, error) { return abi.HandleRequest(req) }

	fmt.Fprintf(out, "loadtest: %d clients for %v on each path, %d examples, sandbox pool %d, queue %d, GOMAXPROCS %d\n",
		o.clients, o.duration, len(jobs), limits.PoolSize, limits.QueueLength, runtime.GOMAXPROCS(0))
	var results []pathResult
	for _, p := range []struct {
		name      string
		inProcess func(context.Context, []byte) ([]byte, error)
		runner    func(context.Context, engine.Request) ([]byte, error) // behind HTTP; nil: the sandbox
	}{
		{name: pathNative, inProcess: nativeJSON},
		{name: pathSandbox, inProcess: sandboxJSON},
		{name: pathHTTPNative, runner: native},
		{name: pathHTTP},
	} {
		var r *report
		if p.inProcess != nil {
			r = loadInProcess(ctx, o, jobs, p.inProcess)
		} else if r, err = loadOverHTTP(ctx, o, jobs, web.Config{Sandbox: sb, Runner: p.runner, Limits: web.DefaultLimits(), Version: engine.Version}); err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "-- %s\n", p.name)
		r.print(out)
		results = append(results, pathResult{p.name, r})
		if ctx.Err() != nil {
			break
		}
	}
	printComparison(out, results)
	return results, nil
}

// loadInProcess calls run from o.clients goroutines for o.duration and
// checks every Result as the HTTP client does. A refusal for a full queue
// waits a second, as a 429's Retry-After asks an HTTP client to.
func loadInProcess(ctx context.Context, o options, jobs []job, run func(context.Context, []byte) ([]byte, error)) *report {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	r := &report{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for c := range o.clients {
		wg.Go(func() {
			var local report
			for i := c; ctx.Err() == nil; i++ {
				j := jobs[i%len(jobs)]
				t0 := time.Now()
				out, err := run(ctx, j.body)
				took := time.Since(t0)
				switch {
				case errors.Is(err, wasm.ErrBusy):
					local.requests++
					local.busy++
					local.busyWithRetryAfter++
					select {
					case <-ctx.Done():
					case <-time.After(time.Second):
					}
				case err != nil:
					if ctx.Err() == nil {
						local.requests++
						local.serverErrors++
					}
				default:
					local.requests++
					local.ok++
					local.latencies = append(local.latencies, took)
					local.check(j, append(out, '\n'))
				}
			}
			mu.Lock()
			r.merge(&local)
			mu.Unlock()
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	return r
}

// check records a 200's Result that is neither the native engine's nor the
// sandbox's time-limit Result.
func (r *report) check(j job, body []byte) {
	if bytes.Equal(body, j.want) || bytes.Equal(body, j.timeLimited) {
		return
	}
	r.wrong++
	if r.firstWrong == "" {
		r.firstWrong = fmt.Sprintf("%s gave %.300s", j.name, body)
	}
	r.wrongNames = append(r.wrongNames, j.name)
}

// loadOverHTTP serves cfg on a loopback port and sends the jobs to it.
func loadOverHTTP(ctx context.Context, o options, jobs []job, cfg web.Config) (*report, error) {
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := web.New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	serveCtx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serveCtx, ln) }()
	defer func() {
		stop()
		<-served
	}()
	target := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients}}
	defer client.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	r := &report{}
	sendUntilDone(ctx, client, []string{target}, jobs, o.clients, r)
	return r, nil
}

// printComparison prints the paths side by side: throughput of Results,
// latency percentiles, and each path's throughput against the native
// engine's and against the in-process sandbox's.
func printComparison(w io.Writer, results []pathResult) {
	rate := map[string]float64{}
	for _, p := range results {
		rate[p.name] = float64(p.r.ok) / p.r.elapsed.Seconds()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "== side by side")
	fmt.Fprintln(tw, "path\tResults/s\tp50\tp99\t429s\twrong\t÷ native\t÷ sandbox\t")
	for _, p := range results {
		lat := slices.Clone(p.r.latencies)
		slices.Sort(lat)
		pct := func(q float64) time.Duration {
			if len(lat) == 0 {
				return 0
			}
			return lat[int(q*float64(len(lat)-1))]
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%v\t%v\t%d\t%d\t%s\t%s\t\n", p.name, rate[p.name],
			roundLatency(pct(0.50)), roundLatency(pct(0.99)), p.r.busy, p.r.wrong,
			ratio(rate[p.name], rate[pathNative]), ratio(rate[p.name], rate[pathSandbox]))
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "http-native ÷ http (what the sandbox costs behind the same server): %s\n", ratio(rate[pathHTTPNative], rate[pathHTTP]))
	fmt.Fprintf(w, "sandbox ÷ http (what HTTP costs in front of the sandbox): %s\n", ratio(rate[pathSandbox], rate[pathHTTP]))
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func roundLatency(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(10 * time.Microsecond)
}

// readModule reads -wasm, or the engine.wasm embedded in this binary.
func readModule(o options) ([]byte, error) {
	var module []byte
	var err error
	if o.wasm != "" {
		module, err = os.ReadFile(o.wasm)
	} else {
		module, err = fs.ReadFile(web.Static(), web.EngineWasm)
	}
	if err != nil {
		return nil, fmt.Errorf("engine.wasm: %w (build it with `go tool task build:wasm`)", err)
	}
	return module, nil
}

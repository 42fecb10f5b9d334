// Command loadtest drives POST /api/run of a playground server with many
// concurrent clients sending the examples, and checks every answer: each
// 200 must carry exactly the Result the native engine gives, each 429 a
// Retry-After, and nothing may be a 5xx. It reports throughput, latency
// percentiles, status counts and the resident memory of the server.
//
//	go run ./cmd/loadtest                      # in-process server, 200 clients, 30 s
//	go run ./cmd/loadtest -url http://127.0.0.1:8080 -pid $(pidof playground)
//	go run ./cmd/loadtest -url http://127.0.0.1:8081,http://127.0.0.1:8082   # two replicas
//	go run ./cmd/loadtest -compare -clients 8   # native, sandbox, HTTP side by side
//	go run ./cmd/loadtest -fairness             # a polite client's latency beside a greedy one
//
// It only talks to loopback addresses. Exit status 1 means a check failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dispatch-playground/playground/wasm"
)

func main() {
	var o options
	flag.IntVar(&o.clients, "clients", 200, "concurrent clients")
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "how long to send requests")
	flag.StringVar(&o.url, "url", "", "server to test (loopback only), or several, comma-separated, which the clients are spread over as behind a load balancer; empty starts one in this process")
	pids := flag.String("pid", "", "process ids of the servers given by -url, comma-separated, for their memory (default: this process)")
	flag.StringVar(&o.wasm, "wasm", "web/static/engine.wasm", "engine.wasm for the in-process server (empty: the one embedded in this binary)")
	flag.IntVar(&o.maxRSSMiB, "max-rss", 1024, "fail if the server's resident memory exceeds this many MiB")
	examples := flag.String("examples", "", "only the examples whose names match this regular expression")
	o.isolation = wasm.ProcessIsolation
	flag.Var(&o.isolation, "isolation", "isolation of the sandbox in this process, as `playground serve --isolation`")
	flag.BoolVar(&o.compare, "compare", false, "measure, one after the other, the native engine and the sandbox in this process and a loopback server in front of each, and print them side by side")
	flag.BoolVar(&o.fairness, "fairness", false, "measure a polite client's latency alone, then while a greedy client from another address sends endless programs; -duration is each phase's")
	flag.DurationVar(&o.wallTime, "wall-time", wasm.DefaultWallTime, "-fairness: the sandbox's wall time (of the in-process server, or the one -url runs with)")
	flag.IntVar(&o.pool, "pool", 0, "-fairness: instances of the in-process server's sandbox (0: one per CPU, as `playground serve`)")
	flag.IntVar(&o.greedy, "greedy", 4, "-fairness: connections the greedy client sends from")
	flag.DurationVar(&o.politeEvery, "polite-every", 500*time.Millisecond, "-fairness: how often the polite client runs tour-hello")
	flag.Parse()
	for _, field := range strings.Split(*pids, ",") {
		if field = strings.TrimSpace(field); field == "" {
			continue
		}
		pid, err := strconv.Atoi(field)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: -pid:", err)
			os.Exit(2)
		}
		o.pids = append(o.pids, pid)
	}
	if *examples != "" {
		re, err := regexp.Compile(*examples)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: -examples:", err)
			os.Exit(2)
		}
		o.filter = re
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.fairness {
		r, err := fairness(ctx, o, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		if f := r.failures(); len(f) > 0 {
			for _, f := range f {
				fmt.Println("FAIL:", f)
			}
			os.Exit(1)
		}
		fmt.Println("PASS")
		return
	}
	var reports []*report
	if o.compare {
		paths, err := compare(ctx, o, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		for _, p := range paths {
			reports = append(reports, p.r)
		}
	} else {
		r, err := run(ctx, o, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		reports = append(reports, r)
	}
	failed := false
	for _, r := range reports {
		for _, f := range r.failures(o) {
			fmt.Println("FAIL:", f)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
	fmt.Println("PASS")
}

// options are the flags.
type options struct {
	clients   int
	duration  time.Duration
	url       string
	pids      []int
	wasm      string
	maxRSSMiB int
	filter    *regexp.Regexp
	compare   bool
	isolation wasm.Isolation

	fairness    bool
	wallTime    time.Duration
	pool        int
	greedy      int
	politeEvery time.Duration
}

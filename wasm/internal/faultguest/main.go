// Command faultguest is engine.wasm with faults the real engine must never
// have, so that tests can prove the host survives them: a snippet of
// exactly "spin" loops forever, "grow" allocates until memory runs out,
// "crash" panics, and "hoard" keeps 12 MiB more of memory at each run, so
// that a run of it on an instance that ran it before needs more memory
// than one on a fresh instance. "slow" computes for a while (half a second
// or so) before it answers, so that a test can kill a worker under it. A
// snippet of "probe" reports, instead of a Result, what the guest can see
// of the world (arguments, environment, files, network, clock), so that
// tests can prove it sees nothing. Every other request, and "hoard" and
// "slow" once they are done, runs the real engine.
//
// It exists for the tests of package wasm and the server; it is never served.
package main

import (
	"encoding/json"
	"net"
	"os"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/reactor"
)

// Snippets that trigger a fault.
const (
	Spin  = "spin"
	Grow  = "grow"
	Crash = "crash"
	Hoard = "hoard"
	Slow  = "slow"
	Probe = "probe"
)

// hoardBytes is what each run of Hoard keeps.
const hoardBytes = 12 << 20

// slowSteps is how long Slow computes.
const slowSteps = 1 << 29

// sink keeps allocations reachable so that the collector cannot free them.
var sink [][]byte

// work keeps Slow's computation from being optimized away.
var work uint64

func init() { reactor.Serve(handle) }

func handle(req engine.Request) ([]byte, error) {
	switch req.Snippet {
	case Spin:
		n := 0
		for {
			n++
		}
	case Grow:
		for {
			sink = append(sink, make([]byte, 1<<20))
		}
	case Crash:
		var m map[string]int
		m["nil map"]++
	case Hoard:
		b := make([]byte, hoardBytes)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		sink = append(sink, b)
	case Slow:
		for i := range uint64(slowSteps) {
			work = work*31 + i
		}
	case Probe:
		return probe()
	}
	return abi.HandleRequest(req)
}

// World is what the probe reports.
type World struct {
	Args     []string `json:"args"`
	Env      []string `json:"env"`
	ReadErr  string   `json:"readErr"`
	ListErr  string   `json:"listErr"`
	DialErr  string   `json:"dialErr"`
	UnixTime int64    `json:"unixTime"`
}

func probe() ([]byte, error) {
	w := World{Args: os.Args, Env: os.Environ(), UnixTime: time.Now().Unix()}
	if _, err := os.ReadFile("/etc/hostname"); err != nil {
		w.ReadErr = err.Error()
	}
	if _, err := os.ReadDir("."); err != nil {
		w.ListErr = err.Error()
	}
	if c, err := net.Dial("tcp", "127.0.0.1:80"); err != nil {
		w.DialErr = err.Error()
	} else {
		c.Close()
	}
	return json.Marshal(w)
}

func main() {}

package wasm_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/adversarial"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// orderLimits is one instance (`serve --pool 1`) with the default limits.
func orderLimits() wasm.Limits {
	l := wasm.DefaultLimits()
	l.PoolSize = 1
	return l
}

// corpusRequests are the Requests of the adversarial corpus (the raw
// bodies of the HTTP tests are not Requests), by case name.
func corpusRequests(t *testing.T) (names []string, reqs map[string]engine.Request) {
	t.Helper()
	cases, err := adversarial.Load(adversarial.Dir)
	if err != nil {
		t.Fatal(err)
	}
	reqs = map[string]engine.Request{}
	for _, c := range cases {
		if c.Body != nil || c.Want.Engine == nil && c.Want.Run == nil {
			continue
		}
		names = append(names, c.Name)
		reqs[c.Name] = engine.Request{Config: c.Config, Snippet: c.Snippet}
	}
	return names, reqs
}

// TestSameResultWhateverRanBefore runs the adversarial corpus through one
// instance in three orders (by name, reversed, shuffled), for both
// isolations: each input must get byte for byte the same Result whatever
// ran before it, the native engine's or the sandbox's own for a limit only
// the host enforces. The one exception is the wall time, a clock, which no
// design makes a function of the request: the loops of the corpus need
// 10-20 times their native 0.05-0.8 s in wasm, so on a loaded machine one
// order may stop at the wall time a run that another finished at the
// engine's step budget. Both answers must then agree with the native
// engine (wasmtest.Agrees); the test logs how often that happened.
func TestSameResultWhateverRanBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the adversarial corpus six times through the sandbox")
	}
	names, reqs := corpusRequests(t)
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	shuffled := slices.Clone(names)
	rand.New(rand.NewPCG(4, 12)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	orders := []struct {
		name  string
		names []string
	}{{"by name", names}, {"reversed", reversed}, {"shuffled", shuffled}}

	native := map[string][]byte{}
	for name, req := range reqs {
		out, err := abi.HandleRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		native[name] = out
	}
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		l := orderLimits()
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, iso)
		wallTime := map[string][]byte{}
		for name, req := range reqs {
			wallTime[name], _ = abi.Encode(wasm.TimeLimitResult(req.Snippet, l.WallTime))
		}
		first := map[string][]byte{}
		firstOrder := map[string]string{}
		clocked := map[string]bool{}
		for _, order := range orders {
			start := time.Now()
			for i, name := range order.names {
				out, err := sb.RunJSON(context.Background(), reqs[name])
				if err != nil {
					t.Fatalf("%s, %s: %v", order.name, name, err)
				}
				before := "nothing"
				if i > 0 {
					before = order.names[i-1]
				}
				if !wasmtest.Agrees(out, native[name], reqs[name], l) {
					t.Errorf("%s after %s (%s): the sandbox's Result differs from the native engine's\nsandbox %.300s\nnative  %.300s",
						name, before, order.name, out, native[name])
				}
				prev, seen := first[name]
				switch {
				case !seen:
					first[name], firstOrder[name] = out, order.name
				case string(out) == string(prev):
				case string(out) == string(wallTime[name]) || string(prev) == string(wallTime[name]):
					clocked[name] = true
				default:
					t.Errorf("%s after %s (%s): a Result different from the one in the order %s\nnow    %.300s\nbefore %.300s",
						name, before, order.name, firstOrder[name], out, prev)
				}
			}
			t.Logf("%s: %d inputs in %v", order.name, len(order.names), time.Since(start).Round(time.Millisecond))
		}
		t.Logf("%d inputs, %d of them stopped by the wall time in one order and not another: %v; stats %+v",
			len(names), len(clocked), slices.Sorted(maps.Keys(clocked)), sb.Stats())
		if s := sb.Stats(); s.Crashes != 0 {
			t.Errorf("stats %+v: a run crashed", s)
		}
	})
}

// TestDeepInputsAfterALargeRequest: the two inputs whose answer depended on
// the run before (15,000 nested inline tables in Cargo.toml, answered
// playground-memory-limit after some runs and invalid-toml after others,
// and 200,000 unclosed parentheses, the memory limit or a syntax error)
// get the native engine's Result after each of the heaviest inputs of the
// corpus, on one instance.
func TestDeepInputsAfterALargeRequest(t *testing.T) {
	deep := map[string]engine.Request{
		"nested inline tables": {Config: "a = " + strings.Repeat("{b=", 15000) + "1" + strings.Repeat("}", 15000) + "\n"},
		"unclosed parentheses": {Snippet: "fn main() { let x = " + strings.Repeat("(", 200000)},
	}
	want := map[string][]byte{}
	for name, req := range deep {
		out, err := abi.HandleRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		want[name] = out
	}
	_, reqs := corpusRequests(t)
	// Inputs that leave a large heap behind, and that the engine finishes
	// on its own: a wall time long enough for them on a loaded machine
	// keeps their instance in use, rather than replaced for the clock.
	large := []string{"tensor-literal-45k", "toml-servers", "deep-blocks", "features-everything", "identifier-255k"}
	l := orderLimits()
	l.WallTime = time.Minute
	forEachIsolation(t, func(t *testing.T, iso wasm.Isolation) {
		sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), l, iso)
		for _, before := range large {
			req, ok := reqs[before]
			if !ok {
				t.Fatalf("the corpus has no %s", before)
			}
			for _, name := range []string{"nested inline tables", "unclosed parentheses"} {
				if _, err := sb.RunJSON(context.Background(), req); err != nil {
					t.Fatal(err)
				}
				got, err := sb.RunJSON(context.Background(), deep[name])
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want[name]) {
					t.Errorf("%s after %s: %.300s, want the engine's %.300s", name, before, got, want[name])
				}
			}
		}
		t.Logf("stats %+v", sb.Stats())
	})
}

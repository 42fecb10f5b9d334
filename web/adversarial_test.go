package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/adversarial"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// TestAdversarial sends the hostile inputs of testdata/adversarial to
// POST /api/run and POST /api/share of a server with its default limits.
// Each must answer with the memory of the process and its sandbox workers
// under 512 MB, sampled every 10 ms (the time each
// answer took is logged and reported in BENCHMARKS.md, never asserted: a
// loaded machine would fail a clock): a 4xx with the error code its file names,
// or a Result that is the native engine's (with the diagnostics its file
// names) or the sandbox's own for a limit only the host enforces (the wall
// time, on a slow machine, for the heavier inputs). A shared state must read back as it was stored,
// and its page must render. The process runs under the memory limit the
// server sets for itself.
func TestAdversarial(t *testing.T) {
	if adversarial.TimeLimit != wasm.DefaultWallTime || adversarial.ResultLimit != wasm.DefaultResultBytes {
		t.Fatalf("the corpus's bounds (%v, %d bytes) are not the sandbox's defaults (%v, %d bytes)",
			adversarial.TimeLimit, adversarial.ResultLimit, wasm.DefaultWallTime, wasm.DefaultResultBytes)
	}
	cases, err := adversarial.Load(adversarial.Dir)
	if err != nil {
		t.Fatal(err)
	}
	limits := wasm.DefaultLimits()
	// The memory limit `playground serve` sets for these limits.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(web.SoftMemoryLimit(limits, wasm.ProcessIsolation)))
	f := newFixture(t, wasmtest.Build(t), limits, nil)
	memory := adversarial.WatchMemory(10 * time.Millisecond)
	defer memory.Stop()
	defer func() { t.Logf("the process and its workers peaked at %d MiB", memory.Peak()>>20) }()
	for _, c := range cases {
		if c.Want.Run == nil && c.Want.Share == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if want := c.Want.Run; want != nil {
				body := c.Body
				if body == nil {
					if body, err = abi.EncodeRequest(engine.Request{Config: c.Config, Snippet: c.Snippet}); err != nil {
						t.Fatal(err)
					}
				}
				start := time.Now()
				rec := f.do(http.MethodPost, "/api/run", string(body))
				took := time.Since(start)
				t.Logf("run: %d bytes in, %v, %d, %d bytes out", len(body), took.Round(time.Millisecond), rec.Code, rec.Body.Len())
				if rec.Code != http.StatusOK || !checkAgainstNative(t, body, rec.Body.Bytes(), limits) {
					checkAnswer(t, rec.Code, rec.Body.Bytes(), *want)
				}
			}
			if want := c.Want.Share; want != nil {
				start := time.Now()
				rec := f.do(http.MethodPost, "/api/share", string(c.Share))
				took := time.Since(start)
				t.Logf("share: %d bytes in, %v, %d, %d bytes out", len(c.Share), took.Round(time.Millisecond), rec.Code, rec.Body.Len())
				checkAnswer(t, rec.Code, rec.Body.Bytes(), *want)
				if rec.Code == http.StatusOK {
					checkSharedState(t, f, rec.Body.Bytes(), c.Share)
				}
			}
			if rss := memory.Peak(); rss > adversarial.MemoryLimit {
				t.Errorf("the process and its workers peaked at %d MiB", rss>>20)
			}
		})
	}
}

// checkAnswer compares an answer with the corpus's expectation: a Result's
// status and codes for a 200, the error code of the JSON body otherwise.
func checkAnswer(t *testing.T, status int, body []byte, want adversarial.Answer) {
	t.Helper()
	if status != want.HTTP {
		t.Fatalf("status %d, want %s: %.300s", status, want, body)
	}
	if status != http.StatusOK {
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(body, &answer); err != nil || answer.Error.Message == "" {
			t.Fatalf("%d without a JSON error body: %.300s", status, body)
		}
		for _, code := range want.Codes {
			if !adversarial.Has([]string{answer.Error.Code}, code) {
				t.Errorf("error %s (%s), want %s", answer.Error.Code, answer.Error.Message, code)
			}
		}
		return
	}
	if want.Status == "" {
		return // a share's answer: {"id": ...}
	}
	var res engine.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("200 without a Result: %v: %.300s", err, body)
	}
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code)
	}
	if res.Status != want.Status {
		t.Errorf("status %s, want %s (codes %v)", res.Status, want.Status, slices.Compact(slices.Sorted(slices.Values(codes))))
	}
	for _, code := range want.Codes {
		if !adversarial.Has(codes, code) {
			t.Errorf("no %s among %v", code, slices.Compact(slices.Sorted(slices.Values(codes))))
		}
	}
}

// checkAgainstNative requires the sandbox's Result to be the native
// engine's for the request the server decoded, or the sandbox's own for a
// host limit (hostLimited), which says nothing of what the engine answers:
// the corpus's expectation is then the engine's test to check.
func checkAgainstNative(t *testing.T, body, answer []byte, limits wasm.Limits) (hostLimited bool) {
	t.Helper()
	req, err := abi.DecodeRequest(body)
	if err != nil {
		t.Fatalf("the server ran a body that does not decode: %v", err)
	}
	native, err := abi.HandleRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	out := []byte(strings.TrimSuffix(string(answer), "\n"))
	if !wasmtest.Agrees(out, native, req, limits) {
		t.Errorf("the sandbox's Result differs from the native engine's\nsandbox %.500s\nnative  %.500s", answer, native)
	}
	if hostLimited = !bytes.Equal(out, native); hostLimited {
		t.Logf("the sandbox stopped the run at a host limit: %.200s", out)
	}
	return hostLimited
}

// checkSharedState reads a stored state back through the API and renders
// its page.
func checkSharedState(t *testing.T, f *fixture, answer, state []byte) {
	t.Helper()
	var shared struct{ ID string }
	if err := json.Unmarshal(answer, &shared); err != nil || shared.ID == "" {
		t.Fatalf("share answered %s", answer)
	}
	got := f.do(http.MethodGet, "/api/share/"+shared.ID, "")
	if got.Code != http.StatusOK {
		t.Fatalf("reading the share back: %d %.300s", got.Code, got.Body)
	}
	var stored, sent any
	if err := json.Unmarshal(got.Body.Bytes(), &stored); err != nil {
		t.Fatalf("the stored state is not JSON: %v", err)
	}
	if err := json.Unmarshal(state, &sent); err != nil {
		t.Fatalf("the state sent is not JSON: %v", err)
	}
	if a, b := mustJSON(t, stored), mustJSON(t, sent); a != b {
		t.Errorf("the state read back differs from the one stored")
	}
	start := time.Now()
	page := f.do(http.MethodGet, "/s/"+shared.ID, "")
	t.Logf("the page of the share: %v", time.Since(start).Round(time.Millisecond))
	if page.Code >= 500 {
		t.Errorf("the page of the share answered %d", page.Code)
	}
	t.Logf("page /s/%s: %d, %d bytes", shared.ID, page.Code, page.Body.Len())
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

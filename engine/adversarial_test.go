package engine_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/internal/adversarial"
)

// TestAdversarial runs the hostile inputs of testdata/adversarial through
// engine.Run. Each must get the answer its file names, within the time
// limit plus a second and with the process's memory under 512 MB, in a
// Result that keeps the contract (spans inside the input, the two
// promises) and fits the sandbox's Result limit, so that the server can
// return it unchanged.
func TestAdversarial(t *testing.T) {
	cases, err := adversarial.Load(adversarial.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { t.Logf("the process's memory peaked at %d MiB", adversarial.PeakRSS()>>20) }()
	for _, c := range cases {
		want := c.Want.Engine
		if want == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			req := engine.Request{Config: c.Config, Snippet: c.Snippet}
			start := time.Now()
			res := engine.Run(req)
			took := time.Since(start)
			data, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			codes := resultCodes(res)
			t.Logf("%d+%d bytes in, %v, %s %v, %d bytes out", len(req.Config), len(req.Snippet), took.Round(time.Millisecond), res.Status, slices.Compact(slices.Sorted(slices.Values(codes))), len(data))
			if res.Status != want.Status {
				t.Errorf("status %s, want %s", res.Status, want.Status)
			}
			for _, code := range want.Codes {
				if !adversarial.Has(codes, code) {
					t.Errorf("no %s among %v", code, codes)
				}
			}
			if rss := adversarial.PeakRSS(); rss > adversarial.MemoryLimit {
				t.Errorf("the process's memory peaked at %d MiB", rss>>20)
			}
			if len(data) > adversarial.ResultLimit {
				t.Errorf("the Result is %d bytes, more than the sandbox returns (%d)", len(data), adversarial.ResultLimit)
			}
			checkSpans(t, req, res)
			checkPromises(t, res)
		})
	}
}

// resultCodes lists a Result's diagnostic codes and its panic's.
func resultCodes(res engine.Result) []string {
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code)
	}
	if res.Panic != nil {
		codes = append(codes, res.Panic.Code)
	}
	return codes
}

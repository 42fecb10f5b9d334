package ui

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/labstack/echo/v4"
)

// TestAnIncompleteRunDoesNotReadAsOK runs the engine itself behind the
// page: an assertion on values the engine does not know reads "Ran; N
// things were not checked" with a note, never "Runs without a panic".
func TestAnIncompleteRunDoesNotReadAsOK(t *testing.T) {
	e := echo.New()
	Register(e, Deps{Run: func(_ context.Context, req engine.Request) (engine.Result, error) { return engine.Run(req), nil },
		Shares: &memoryShares{items: map[string][]byte{}}, Version: "v-test"})
	cases := []struct {
		name, snippet string
		summary       string
		incomplete    bool
	}{
		{"unchecked", "use burn::tensor::Tensor;\nfn main() {\n    let device = Default::default();\n" +
			"    let big = Tensor::<2>::ones([2000, 2000], &device);\n    let s: f32 = big.sum().into_scalar();\n" +
			"    assert_eq!(s, 1.0);\n    println!(\"{s}\");\n}\n", "Ran; 2 things were not checked", true},
		{"checked", "use burn::tensor::Tensor;\nfn main() {\n    let device = Default::default();\n" +
			"    let t = Tensor::<1>::from_data([1.0, 2.0], &device);\n    let s: f32 = t.sum().into_scalar();\n" +
			"    assert_eq!(s, 3.0);\n}\n", "Runs without a panic", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, e, http.MethodPost, "/run", url.Values{"config": {""}, "snippet": {tc.snippet}, "mode": {"panic"}})
			if rec.Code != http.StatusOK {
				t.Fatalf("POST /run = %d", rec.Code)
			}
			body := rec.Body.String()
			if !strings.Contains(body, tc.summary) {
				t.Errorf("the summary does not read %q", tc.summary)
			}
			note := strings.Contains(body, `data-testid="incomplete"`)
			if note != tc.incomplete || strings.Contains(body, "Runs without a panic") == tc.incomplete {
				t.Errorf("incomplete note shown %v, want %v", note, tc.incomplete)
			}
			if tc.incomplete && !strings.Contains(body, "Not complete: 2 things were not checked.") {
				t.Error("the note does not count what was not checked")
			}
			if strings.Contains(body, `class="summary status-ok incomplete"`) != tc.incomplete {
				t.Error("the summary's class does not mark the incomplete run")
			}
		})
	}
}

// TestThePageCountsTheEnginesIncompleteCodes keeps the page's list of the
// warnings that make a Result incomplete the engine's, so the count the
// browser shows is the one the server-side page shows.
func TestThePageCountsTheEnginesIncompleteCodes(t *testing.T) {
	js, err := os.ReadFile(filepath.Join("..", "frontend", "results.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const INCOMPLETE = new Set\(\[([^\]]*)\]\)`).FindSubmatch(js)
	if m == nil {
		t.Fatal("results.js has no INCOMPLETE set")
	}
	var got []string
	for _, q := range strings.Split(string(m[1]), ",") {
		got = append(got, strings.Trim(strings.TrimSpace(q), `"`))
	}
	want := engine.IncompleteCodes()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("results.js counts %q, the engine %q", got, want)
	}
}

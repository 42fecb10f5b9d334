package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

const okSnippet = `use burn::tensor::{Device, Tensor};

fn main() {
    let device = Device::default();
    let t = Tensor::<2>::ones([2, 3], &device);
    println!("{:?}", t.dims());
}
`

// TestMalformedInput: every kind of bad input is rejected with
// diagnostics, never a Go panic.
func TestMalformedInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	cases := []struct {
		name string
		req  engine.Request
	}{
		{"truncated snippet", engine.Request{Snippet: okSnippet[:len(okSnippet)/2]}},
		{"invalid utf-8", engine.Request{Snippet: "fn main() { let s = \"\xff\xfe\"; }"}},
		{"bad toml", engine.Request{Config: "[dependencies\nburn = ", Snippet: okSnippet}},
		{"unknown method", engine.Request{Snippet: strings.Replace(okSnippet, "t.dims()", "t.frobnicate()", 1)}},
		{"random bytes", engine.Request{Snippet: string(random[:engine.MaxSnippetBytes])}},
		{"oversized snippet", engine.Request{Snippet: string(random)}},
		{"nul bytes", engine.Request{Snippet: "fn main() {\x00\x00}"}},
		{"unknown feature", engine.Request{Config: "[dependencies]\nburn = { version = \"0.22\", features = [\"cudaa\"] }\n", Snippet: okSnippet}},
		{"deep nesting", engine.Request{Snippet: "fn main() { let x = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + "; }"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(c.req)
			if res.Status != engine.StatusRejected {
				t.Errorf("status %q, want rejected", res.Status)
			}
			if len(res.Diagnostics) == 0 {
				t.Error("no diagnostics")
			}
			checkSpans(t, c.req, res)
		})
	}
}

// checkSpans requires every span of the Result to lie inside its file.
func checkSpans(t *testing.T, req engine.Request, res engine.Result) {
	t.Helper()
	size := map[string]int{"main.rs": len(req.Snippet), "Cargo.toml": len(req.Config)}
	for _, d := range res.Diagnostics {
		n, ok := size[d.File]
		if !ok {
			t.Errorf("diagnostic %s names unknown file %q", d.Code, d.File)
			continue
		}
		if d.Span.Start.Offset < 0 || d.Span.End.Offset > n || d.Span.Start.Offset > d.Span.End.Offset {
			t.Errorf("diagnostic %s span %+v outside %s (%d bytes)", d.Code, d.Span, d.File, n)
		}
	}
	for _, tr := range res.Trace {
		if tr.Span.End.Offset > len(req.Snippet) {
			t.Errorf("trace span %+v outside main.rs", tr.Span)
		}
	}
}

func TestEmptyRequestRunsClean(t *testing.T) {
	res := engine.Run(engine.Request{})
	if res.Status != engine.StatusOK {
		t.Fatalf("empty request: status %s: %+v", res.Status, res.Diagnostics)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"status":"ok"`, `"panic":null`, `"diagnostics":[]`, `"trace":[]`, `"output":""`, `"burn":"2c06be35"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON %s lacks %s", data, key)
		}
	}
}

func TestTimeLimit(t *testing.T) {
	res := engine.Run(engine.Request{Snippet: "fn main() {\n    let mut n = 0u64;\n    for i in 0..u64::MAX {\n        n += 1;\n    }\n}\n"})
	if res.Status != engine.StatusRejected {
		t.Fatalf("status %s, want rejected", res.Status)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Code == "playground-time-limit"
	}
	if !found {
		t.Errorf("no playground-time-limit diagnostic: %+v", res.Diagnostics)
	}
}

// FuzzRun checks the invariants of Run on arbitrary input: no Go panic,
// valid JSON of the contract, spans inside the input, and the promises.
func FuzzRun(f *testing.F) {
	for _, ex := range examples.All() {
		f.Add(ex.Config, ex.Snippet)
	}
	f.Add("", okSnippet)
	f.Fuzz(func(t *testing.T, config, snippet string) {
		entries := []string{""}
		if strings.Contains(snippet, "#[test]") {
			// The program's tests too, as cargo test runs them.
			entries = append(entries, engine.EntryTests)
		}
		for _, entry := range entries {
			req := engine.Request{Config: config, Snippet: snippet, Entry: entry}
			res := engine.Run(req)
			data, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			var back engine.Result
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			switch res.Status {
			case engine.StatusOK, engine.StatusPanicked, engine.StatusRejected:
			default:
				t.Fatalf("status %q", res.Status)
			}
			checkSpans(t, req, res)
			checkPromises(t, res)
		}
	})
}

package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm/abi"
	"github.com/dispatch-playground/playground/web"
)

// TestRunTakesACrate: POST /api/run carries a Request of contract version
// 2 (files and an entry) whole to the runner, and counts the files against
// the snippet limit.
func TestRunTakesACrate(t *testing.T) {
	var got engine.Request
	s := newStubServer(t, func(c *web.Config) {
		c.Runner = func(_ context.Context, req engine.Request) ([]byte, error) {
			got = req
			return abi.Encode(engine.Run(req))
		}
	})
	body := `{"config": "[package]\nname = \"app\"\nversion = \"0.1.0\"\n[dependencies]\nburn = \"0.22\"\n",
		"snippet": "mod util;\nfn main() { util::boom(); }\n",
		"files": {"src/util.rs": "pub fn boom() {\n    panic!(\"boom\");\n}\n"}}`
	rec := serve(s, http.MethodPost, "/api/run", body, "Content-Type", "application/json")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if len(got.Files) != 1 {
		t.Errorf("the runner got files %v", got.Files)
	}
	var res engine.Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != engine.StatusPanicked || res.Panic.Location != "src/util.rs:2:5" {
		t.Errorf("status %s panic %+v", res.Status, res.Panic)
	}

	big := strings.Repeat("// filler\n", web.DefaultLimits().SnippetBytes/10)
	huge, _ := json.Marshal(engine.Request{Snippet: "fn main() {}", Files: map[string]string{"src/a.rs": big, "src/b.rs": big}})
	if rec := serve(s, http.MethodPost, "/api/run", string(huge), "Content-Type", "application/json"); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a crate over the limit: %d %s", rec.Code, rec.Body)
	}
}

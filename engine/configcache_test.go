package engine

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/dispatch-playground/playground/engine/config"
)

func TestConfigCacheGivesWhatParseGives(t *testing.T) {
	var c configCache
	texts := []string{
		"",
		"[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"autodiff\"] }\n",
		"[dependencies]\nburn = { version = \"0.22\", features = [\"no-such-feature\"] }\n", // a diagnostic with a fix
		"[dependencies\n", // invalid TOML
	}
	for round := range 3 {
		for _, text := range texts {
			got, gotDiags := c.parse(text)
			want, wantDiags := config.Parse(text)
			if !reflect.DeepEqual(got.Dispatch, want.Dispatch) || !reflect.DeepEqual(gotDiags, wantDiags) {
				t.Fatalf("round %d, %q: cached %+v %+v, parsed %+v %+v", round, text, got.Dispatch, gotDiags, want.Dispatch, wantDiags)
			}
			// A run may change its diagnostics; the next must not see it.
			for i := range gotDiags {
				gotDiags[i].Message = "changed"
				for j := range gotDiags[i].Fixes {
					for k := range gotDiags[i].Fixes[j].Edits {
						gotDiags[i].Fixes[j].Edits[k].NewText = "changed"
					}
				}
			}
		}
	}
	if len(c.entries) != len(texts) {
		t.Errorf("%d entries for %d texts", len(c.entries), len(texts))
	}
}

func TestConfigCacheIsBounded(t *testing.T) {
	var c configCache
	for i := range 3 * configCacheEntries {
		c.parse(fmt.Sprintf("[dependencies]\nburn = \"0.22\"\n# %d\n", i))
	}
	if len(c.entries) != configCacheEntries {
		t.Errorf("%d entries, want %d", len(c.entries), configCacheEntries)
	}
	big := "[dependencies]\nburn = \"0.22\"\n#" + string(make([]byte, configCacheMaxBytes)) + "\n"
	c.parse(big)
	for _, e := range c.entries {
		if e.text == big {
			t.Error("a manifest over the size bound was kept")
		}
	}
	// The most recently used entry survives the next insertion.
	first := c.entries[0].text
	c.parse(first)
	c.parse("[dependencies]\nburn = \"0.22\"\n# new\n")
	if c.entries[len(c.entries)-2].text != first {
		t.Error("a manifest just used was evicted")
	}
}

// TestConfigCacheConcurrent: goroutines of a native server share the
// cache; `go test -race` checks that they may.
func TestConfigCacheConcurrent(t *testing.T) {
	text := "[dependencies]\nburn = { version = \"0.22\", features = [\"no-such-feature\"] }\n"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				res := Run(Request{Config: text, Snippet: "fn main() {}"})
				if len(res.Diagnostics) == 0 {
					t.Error("the unknown feature's diagnostic is missing")
				}
			}
		})
	}
	wg.Wait()
}

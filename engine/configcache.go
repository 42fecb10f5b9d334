package engine

import (
	"sync"

	"github.com/dispatch-playground/playground/engine/config"
	"github.com/dispatch-playground/playground/engine/diag"
)

// Sizes of the cache of parsed manifests. People edit the snippet far more
// often than Cargo.toml, and an embedded page runs several snippets under
// one manifest, so the same text comes back run after run; reading it
// (TOML, then Burn's feature graph) is a fifth of a run inside the sandbox.
// Only small manifests are kept, so the cache stays a few hundred KB
// whatever the input.
const (
	configCacheEntries  = 8
	configCacheMaxBytes = 8 << 10
)

// configs is the process's cache: one per instance in the sandbox, shared
// by the goroutines of a native server.
var configs configCache

// configCache remembers the Configs of the last few manifest texts. A
// Config is never changed after config.Parse returns it, so one value
// serves every run of the same text; the diagnostics are copied for each
// run, which may append to them and sort them.
type configCache struct {
	mu      sync.Mutex
	entries []configEntry // the most recently used last
}

type configEntry struct {
	text  string
	cfg   *config.Config
	diags diag.List
}

// parse is config.Parse, remembered.
func (c *configCache) parse(text string) (*config.Config, diag.List) {
	if len(text) > configCacheMaxBytes {
		return config.Parse(text)
	}
	c.mu.Lock()
	for i, e := range c.entries {
		if e.text == text {
			copy(c.entries[i:], c.entries[i+1:])
			c.entries[len(c.entries)-1] = e
			c.mu.Unlock()
			return e.cfg, e.diags.Clone()
		}
	}
	c.mu.Unlock()
	cfg, diags := config.Parse(text)
	c.mu.Lock()
	if len(c.entries) == configCacheEntries {
		copy(c.entries, c.entries[1:])
		c.entries = c.entries[:len(c.entries)-1]
	}
	c.entries = append(c.entries, configEntry{text, cfg, diags.Clone()})
	c.mu.Unlock()
	return cfg, diags
}

package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/web"
)

// httptest.NewRequest's requests are for this host.
const (
	ownOrigin = "http://example.com"
	docs      = "https://docs.example"
	evil      = "https://evil.example"
)

// countingServer is a stub server that counts the runs it was asked for.
func countingServer(t *testing.T, cors web.CORSConfig) (*web.Server, *atomic.Int64) {
	t.Helper()
	var runs atomic.Int64
	s := newStubServer(t, func(c *web.Config) {
		c.CORS = cors
		c.Runner = func(context.Context, engine.Request) ([]byte, error) {
			runs.Add(1)
			return []byte(okResult), nil
		}
	})
	return s, &runs
}

// writes are the four routes that run or store, with a body each accepts.
var writes = []struct{ path, contentType, body string }{
	{"/api/run", "application/json", `{"config":"","snippet":"let a = 1;"}`},
	{"/api/share", "application/json", `{"v":1,"config":"","snippet":"let a = 1;","mode":"panic"}`},
	{"/run", "application/x-www-form-urlencoded", url.Values{"snippet": {"let a = 1;"}}.Encode()},
	{"/share", "application/x-www-form-urlencoded", url.Values{"snippet": {"let a = 1;"}}.Encode()},
}

// succeeded reports whether a write did what it was asked: a run or a
// share answers 200, the form's share redirects to its link.
func succeeded(path string, status int) bool {
	if path == "/share" {
		return status == http.StatusSeeOther
	}
	return status == http.StatusOK
}

// TestCrossSiteWritesAreRefused: with --cors-writes off, a POST that
// another site's page makes (its Origin is not this server's, or its
// Sec-Fetch-Site says cross-site or same-site) gets 403, under /api/ with
// the API's JSON error, and runs and stores nothing.
func TestCrossSiteWritesAreRefused(t *testing.T) {
	s, runs := countingServer(t, web.DefaultCORSConfig)
	for _, headers := range [][]string{
		{"Origin", evil},
		{"Origin", evil, "Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Origin", "https://sub.example.com", "Sec-Fetch-Site", "same-site"},
		{"Origin", "null"},
	} {
		for _, w := range writes {
			rec := serve(s, http.MethodPost, w.path, w.body, append([]string{"Content-Type", w.contentType}, headers...)...)
			if rec.Code != http.StatusForbidden {
				t.Errorf("POST %s with %q: %d, want 403", w.path, headers, rec.Code)
				continue
			}
			if strings.HasPrefix(w.path, "/api/") {
				var answer struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || answer.Error.Code != "cross_origin" || answer.Error.Message == "" {
					t.Errorf("POST %s with %q: body %q, want the API's JSON error cross_origin", w.path, headers, rec.Body)
				}
			}
		}
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("refused writes ran %d programs", n)
	}
}

// TestOwnPagesAndScriptsMayWrite: the playground's own pages post with
// Sec-Fetch-Site: same-origin (or, in an older browser, an Origin of this
// host), a frame page under /embed/ is of this origin too, and a client
// that is no browser (curl) sends neither header; all of them run and
// share.
func TestOwnPagesAndScriptsMayWrite(t *testing.T) {
	s, runs := countingServer(t, web.DefaultCORSConfig)
	for _, headers := range [][]string{
		{"Origin", ownOrigin, "Sec-Fetch-Site", "same-origin"},
		{"Origin", ownOrigin},
		{"Sec-Fetch-Site", "none"},
		{},
	} {
		for _, w := range writes {
			rec := serve(s, http.MethodPost, w.path, w.body, append([]string{"Content-Type", w.contentType}, headers...)...)
			if !succeeded(w.path, rec.Code) {
				t.Errorf("POST %s with %q: %d %.200s", w.path, headers, rec.Code, rec.Body)
			}
		}
	}
	if runs.Load() == 0 {
		t.Errorf("no write ran a program")
	}
}

// TestEmbedWorksFromOtherSites: what a docs page on another site fetches
// for embedded snippets (docs/embedding.md: the script, its manifest, the
// engine's files, the frames, the API's reads and the preflight) answers
// as before; with --cors-writes the origins of --cors-origins may post to
// the API (the embed's fallback to POST /api/run, and engine="server"),
// and other origins still may not; the forms stay the playground's own.
func TestEmbedWorksFromOtherSites(t *testing.T) {
	crossSite := []string{"Origin", docs, "Sec-Fetch-Site", "cross-site"}
	t.Run("reads", func(t *testing.T) {
		s, _ := countingServer(t, web.DefaultCORSConfig)
		share := serve(s, http.MethodPost, "/api/share", writes[1].body)
		var created struct{ ID string }
		if err := json.Unmarshal(share.Body.Bytes(), &created); err != nil {
			t.Fatalf("share: %d %s", share.Code, share.Body)
		}
		for path, status := range map[string]int{
			"/embed.js":                  http.StatusFound,
			"/embed/v1/engine.json":      http.StatusOK,
			"/embed/examples/tour-hello": http.StatusOK,
			"/embed/" + created.ID:       http.StatusOK,
			"/api/catalog":               http.StatusOK,
			"/api/share/" + created.ID:   http.StatusOK,
			s.AssetURL("favicon.svg"):    http.StatusOK,
			"/examples/tour-hello":       http.StatusOK,
			"/s/" + created.ID + "?x=1":  http.StatusOK,
		} {
			if rec := serve(s, http.MethodGet, path, "", crossSite...); rec.Code != status {
				t.Errorf("GET %s from another site: %d, want %d", path, rec.Code, status)
			}
		}
		pre := serve(s, http.MethodOptions, "/api/run", "", append(crossSite, "Access-Control-Request-Method", "POST")...)
		if pre.Code != http.StatusNoContent {
			t.Errorf("preflight: %d", pre.Code)
		}
	})
	t.Run("--cors-writes", func(t *testing.T) {
		s, runs := countingServer(t, web.CORSConfig{AllowOrigins: []string{docs}, AllowWrites: true})
		pre := serve(s, http.MethodOptions, "/api/run", "", append(crossSite, "Access-Control-Request-Method", "POST")...)
		if pre.Header().Get("Access-Control-Allow-Origin") != docs || !strings.Contains(pre.Header().Get("Access-Control-Allow-Methods"), "POST") {
			t.Errorf("preflight from %s: %d %v", docs, pre.Code, pre.Header())
		}
		for _, w := range writes[:2] {
			rec := serve(s, http.MethodPost, w.path, w.body, append([]string{"Content-Type", w.contentType}, crossSite...)...)
			if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != docs {
				t.Errorf("POST %s from %s: %d, Allow-Origin %q: %.200s", w.path, docs, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"), rec.Body)
			}
			if rec := serve(s, http.MethodPost, w.path, w.body, "Content-Type", w.contentType, "Origin", evil, "Sec-Fetch-Site", "cross-site"); rec.Code != http.StatusForbidden {
				t.Errorf("POST %s from %s, not listed: %d", w.path, evil, rec.Code)
			}
		}
		for _, w := range writes[2:] {
			if rec := serve(s, http.MethodPost, w.path, w.body, append([]string{"Content-Type", w.contentType}, crossSite...)...); rec.Code != http.StatusForbidden {
				t.Errorf("POST %s from %s: %d, want 403", w.path, docs, rec.Code)
			}
		}
		if n := runs.Load(); n != 1 {
			t.Errorf("%d runs, want the one from %s", n, docs)
		}
	})
	t.Run("--cors-writes for any origin", func(t *testing.T) {
		s, _ := countingServer(t, web.CORSConfig{AllowOrigins: []string{"*"}, AllowWrites: true})
		rec := serve(s, http.MethodPost, "/api/run", writes[0].body, "Content-Type", "application/json", "Origin", evil, "Sec-Fetch-Site", "cross-site")
		if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("POST /api/run from %s: %d %v", evil, rec.Code, rec.Header())
		}
		if rec := serve(s, http.MethodPost, "/run", writes[2].body, "Content-Type", writes[2].contentType, "Origin", evil); rec.Code != http.StatusForbidden {
			t.Errorf("POST /run from %s: %d, want 403", evil, rec.Code)
		}
	})
	t.Run("an origin that is not one", func(t *testing.T) {
		_, err := web.New(web.Config{CORS: web.CORSConfig{AllowOrigins: []string{"docs.example"}, AllowWrites: true}})
		if err == nil || !strings.Contains(err.Error(), "docs.example") {
			t.Errorf("New with the origin docs.example: %v", err)
		}
	})
}

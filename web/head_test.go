package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dispatch-playground/playground/engine/catalog"
)

// TestHeadAnswersLikeGet: HEAD on the pages, the frames, the embed's
// files and /healthz answers with GET's status and headers, and no body.
func TestHeadAnswersLikeGet(t *testing.T) {
	s := newStubServer(t, nil)
	share := serve(s, http.MethodPost, "/api/share", `{"snippet":"let a = 1;"}`)
	var created struct{ ID string }
	if err := json.Unmarshal(share.Body.Bytes(), &created); err != nil {
		t.Fatalf("share: %d %s", share.Code, share.Body)
	}
	paths := []string{
		"/", "/examples/tour-hello", "/catalog", "/catalog/" + catalog.All()[0].Code, "/s/" + created.ID,
		"/embed/" + created.ID, "/embed/examples/tour-hello", "/embed.js", "/embed/v1/engine.json",
		"/healthz", "/api/catalog", "/api/share/" + created.ID, s.AssetURL("favicon.svg"),
		"/examples/no-such-example", "/api/run",
	}
	for _, path := range paths {
		get := serve(s, http.MethodGet, path, "")
		head := serve(s, http.MethodHead, path, "")
		if head.Code != get.Code {
			t.Errorf("HEAD %s: %d, GET: %d", path, head.Code, get.Code)
		}
		for _, name := range []string{"Content-Type", "Cache-Control", "Location", "Allow", "X-Frame-Options"} {
			if h, g := head.Header().Get(name), get.Header().Get(name); h != g {
				t.Errorf("HEAD %s: %s %q, GET: %q", path, name, h, g)
			}
		}
		if head.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d bytes of body", path, head.Body.Len())
		}
		if get.Body.Len() == 0 && get.Code != http.StatusFound {
			t.Errorf("GET %s: no body", path)
		}
	}

	// Through the network, a client reads the headers and no body.
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, path := range []string{"/healthz", "/"} {
		get, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, get.Body)
		get.Body.Close()
		head, err := http.Head(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != get.StatusCode || len(body) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s over the network: %d %q %q; GET: %d %q", path,
				head.StatusCode, head.Header.Get("Content-Type"), body, get.StatusCode, get.Header.Get("Content-Type"))
		}
	}
}

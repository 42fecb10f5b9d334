package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// compressed is data written through a compressing writer of b.
func compressed(data []byte, writer func(b *bytes.Buffer) io.WriteCloser) []byte {
	var b bytes.Buffer
	w := writer(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func brotliOf(data []byte) []byte {
	return compressed(data, func(b *bytes.Buffer) io.WriteCloser { return brotli.NewWriter(b) })
}

func gzipOf(data []byte) []byte {
	return compressed(data, func(b *bytes.Buffer) io.WriteCloser { return gzip.NewWriter(b) })
}

// TestStaleSiblingsAreNotServed: a stylesheet edited after its siblings
// were built is served as it is, not as its stale brotli; a sibling that
// is the file compressed is served to a browser that takes it.
func TestStaleSiblingsAreNotServed(t *testing.T) {
	css := []byte("body { color: red }")
	files := fstest.MapFS{
		"css/site.css":    {Data: css},
		"css/site.css.br": {Data: brotliOf([]byte("body { color: blue }"))},
		"css/site.css.gz": {Data: gzipOf(css)},
	}
	f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) { c.Static = files })
	for _, c := range []struct{ accept, encoding string }{{"br", ""}, {"br, gzip", "gzip"}, {"gzip", "gzip"}} {
		rec := f.do(http.MethodGet, "/static/css/site.css", "", "Accept-Encoding", c.accept)
		if got := rec.Header().Get("Content-Encoding"); rec.Code != http.StatusOK || got != c.encoding {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, want %q", c.accept, rec.Code, got, c.encoding)
		}
		if c.encoding == "" && rec.Body.String() != string(css) {
			t.Errorf("Accept-Encoding %q: body %q", c.accept, rec.Body)
		}
	}
}

// TestPageBundlesAreServedWithBrotli: the page's scripts and stylesheet,
// as go tool task build:web leaves them, go out brotli-compressed to a
// browser that takes it, and the embed script other sites load stays
// under 30 KB gzipped.
func TestPageBundlesAreServedWithBrotli(t *testing.T) {
	static := web.Static()
	if _, err := fs.Stat(static, "dist/main.js"); err != nil {
		t.Skip("web/static/dist is not built: go tool task build:web")
	}
	f := newFixture(t, wasmtest.Build(t), smallLimits(), func(c *web.Config) { c.Static = static })
	for _, name := range []string{"dist/main.js", "dist/worker.js", "dist/embed.js", "css/playground.css"} {
		plain, err := fs.ReadFile(static, name)
		if err != nil {
			t.Fatal(err)
		}
		rec := f.do(http.MethodGet, f.server.AssetURL(name), "", "Accept-Encoding", "gzip, deflate, br")
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "br" {
			t.Errorf("%s: %d, Content-Encoding %q, want br (is %s.br built?)", name, rec.Code, rec.Header().Get("Content-Encoding"), name)
			continue
		}
		if rec.Body.Len() >= len(plain) {
			t.Errorf("%s: %d bytes compressed, %d plain", name, rec.Body.Len(), len(plain))
		}
	}
	rec := f.do(http.MethodGet, f.server.AssetURL("dist/embed.js"), "", "Accept-Encoding", "gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.Len() > 30*1024 {
		t.Errorf("embed.js gzipped: %q, %d bytes, want under 30 KB", rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
}

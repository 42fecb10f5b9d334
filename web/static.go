package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"
)

//go:embed static
var embedded embed.FS

// EngineWasm is the path of the engine module under /static/.
const EngineWasm = "engine.wasm"

// Static returns the files embedded from web/static.
func Static() fs.FS {
	sub, err := fs.Sub(embedded, "static")
	if err != nil {
		panic(err) // "static" is a literal directory of the embed pattern
	}
	return sub
}

// hashLength is how many hex digits of a file's SHA-256 go into its
// versioned name.
const hashLength = 12

// immutable is the Cache-Control of a versioned name: its content can never
// change, because a new content gets a new name.
const immutable = "public, max-age=31536000, immutable"

// encodings are the precompressed siblings looked for, best first.
var encodings = []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// assets serves a file tree with versioned names and precompressed
// siblings. Everything is read and hashed once, at start.
type assets struct {
	files map[string]asset // by path relative to the root
}

type asset struct {
	data []byte
	hash string
}

func newAssets(fsys fs.FS) (*assets, error) {
	a := &assets{files: map[string]asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		a.files[name] = asset{data: data, hash: hex.EncodeToString(sum[:])[:hashLength]}
		return nil
	})
	a.dropStale()
	return a, err
}

// dropStale forgets the precompressed siblings of the page's scripts and
// styles that are not their file compressed: a stylesheet is a source
// file, edited in place, and its siblings are built beside it (go tool
// task build:web), so a build that skipped that step must not serve last
// week's CSS to the browsers that take brotli. engine.wasm's siblings are
// made in the same step as the module, and decoding 18 MB at every start
// would cost more than it guards.
func (a *assets) dropStale() {
	for name, f := range a.files {
		if path.Ext(name) == ".wasm" {
			continue
		}
		for _, enc := range encodings {
			sibling, ok := a.files[name+enc.suffix]
			if ok && !decodesTo(enc.token, sibling.data, f.data) {
				delete(a.files, name+enc.suffix)
			}
		}
	}
}

// decodesTo reports whether data, in the encoding token, is want.
func decodesTo(token string, data, want []byte) bool {
	var r io.Reader = brotli.NewReader(bytes.NewReader(data))
	if token == "gzip" {
		z, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return false
		}
		r = z
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))+1))
	return err == nil && bytes.Equal(got, want)
}

// URL is the versioned URL of name ("engine.wasm" gives
// "/static/engine.3f2a1c0d9e8b.wasm"), or its plain URL if there is no
// such file.
func (a *assets) URL(name string) string {
	f, ok := a.files[name]
	if !ok {
		return "/static/" + name
	}
	dir, base := path.Split(name)
	ext := path.Ext(base)
	return "/static/" + dir + strings.TrimSuffix(base, ext) + "." + f.hash + ext
}

// file returns the bytes of name, if present.
func (a *assets) file(name string) ([]byte, bool) {
	f, ok := a.files[name]
	return f.data, ok
}

// resolve maps a requested path to a file, reporting whether the request
// named a version (and so may be cached for ever).
func (a *assets) resolve(name string) (string, bool, bool) {
	if _, ok := a.files[name]; ok {
		return name, false, true
	}
	dir, base := path.Split(name)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	dot := strings.LastIndexByte(stem, '.')
	if dot < 0 {
		return "", false, false
	}
	plain := dir + stem[:dot] + ext
	f, ok := a.files[plain]
	if !ok || f.hash != stem[dot+1:] {
		// A version that is not the current one: serving today's bytes
		// under it would be cached for ever as the old version.
		return "", false, false
	}
	return plain, true, true
}

func (a *assets) serve(c echo.Context) error {
	name, versioned, ok := a.resolve(c.Param("*"))
	if !ok {
		return echo.ErrNotFound
	}
	w, r := c.Response(), c.Request()
	h := w.Header()
	f := a.files[name]
	body, etag := f.data, f.hash
	compressed := false
	for _, enc := range encodings {
		sibling, ok := a.files[name+enc.suffix]
		if !ok {
			continue
		}
		compressed = true
		if accepts(r.Header.Get(echo.HeaderAcceptEncoding), enc.token) {
			h.Set(echo.HeaderContentEncoding, enc.token)
			body, etag = sibling.data, f.hash+"-"+enc.token
			break
		}
	}
	if compressed {
		h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	}
	if ext := path.Ext(name); ext == ".wasm" {
		// Browsers compile a module while it downloads only with this type.
		h.Set(echo.HeaderContentType, "application/wasm")
	}
	if versioned {
		h.Set("Cache-Control", immutable)
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("ETag", `"`+etag+`"`)
	// Embedded snippets run the engine in other sites' pages: their worker
	// imports the worker script and fetches engine.wasm from here, and both
	// need CORS. The files are public and no credentials go with them.
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	// ServeContent sets the type from the extension when none is set, and
	// answers If-None-Match and Range.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
	return nil
}

// accepts reports whether an Accept-Encoding header allows token.
func accepts(header, token string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

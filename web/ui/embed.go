package ui

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
)

// EmbedVersion is the version of the public embedding surface: the
// <dispatch-snippet> element's attributes, the /embed/{id} frame URL with
// its query, and POST /api/run (docs/embedding.md). A change that breaks
// any of them is a new version with its own URLs; /embed.js keeps serving
// this one.
const EmbedVersion = "1"

// embedScriptMaxAge is how long a docs page may keep /embed.js's redirect:
// the script behind it is immutable, so this bounds how long an update
// takes to reach pages that embed the playground.
const embedScriptMaxAge = "public, max-age=300"

// embedManifestPath is where the embed script reads the URLs of the
// engine and its worker, which change with every build.
const embedManifestPath = "/embed/v" + EmbedVersion + "/engine.json"

// registerEmbed adds the embedding routes. They answer other origins: the
// script and its manifest are fetched by docs pages anywhere, and the frame
// pages are the only pages of this server another site may frame.
func registerEmbed(e *echo.Echo, p *pages) {
	e.GET("/embed.js", p.redirectScript)
	e.GET(embedManifestPath, p.serveManifest)
	e.GET("/embed/:id", func(c echo.Context) error { return p.showFrame(c, "/s/"+c.Param("id")) }, frameHeaders)
	e.GET("/embed/examples/:name", func(c echo.Context) error { return p.showFrame(c, "/examples/"+c.Param("name")) }, frameHeaders)
	e.GET("/embed/catalog/:code", func(c echo.Context) error { return p.showFrame(c, "/catalog/"+c.Param("code")) }, frameHeaders)
}

// redirectScript sends /embed.js to the script's versioned name, which is
// cached for ever; only this short redirect is fetched again.
func (p *pages) redirectScript(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Cache-Control", embedScriptMaxAge)
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	return c.Redirect(http.StatusFound, p.deps.AssetURL("dist/embed.js"))
}

// embedManifest is what the embed script needs to run the engine in the
// page that embeds it: where the engine and its worker are, and the
// watchdog's limit and result (the same the playground page gets).
type embedManifest struct {
	Version         string        `json:"version"`
	EngineVersion   string        `json:"engineVersion"`
	Engine          string        `json:"engine"`
	Worker          string        `json:"worker"`
	TimeLimitMs     int64         `json:"timeLimitMs"`
	TimeLimitResult engine.Result `json:"timeLimitResult"`
}

func (p *pages) serveManifest(c echo.Context) error {
	h := c.Response().Header()
	// The URLs inside change with each build; the files they name do not.
	h.Set("Cache-Control", "no-cache")
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	return c.JSON(http.StatusOK, embedManifest{
		Version:         EmbedVersion,
		EngineVersion:   engine.Version,
		Engine:          p.deps.AssetURL("engine.wasm"),
		Worker:          p.deps.AssetURL("dist/worker.js"),
		TimeLimitMs:     browserTimeLimit.Milliseconds(),
		TimeLimitResult: timeLimitResult(),
	})
}

// embedView is what a frame page shows: the state's texts and the
// element's options, read from the frame URL's query.
type embedView struct {
	Config, Snippet string
	// Files is the crate's other files as the element's files attribute
	// (a JSON object), empty when there are none.
	Files    string
	Mode     string // "panic" or "validate"
	Theme    string // "auto", "light" or "dark"
	Engine   string // "browser" or "server"
	Editable bool
	Readonly bool
}

// showFrame renders the frame page of a state this server knows: a
// shared program, an example or a catalog record's example.
func (p *pages) showFrame(c echo.Context, origin string) error {
	s, title, err := p.startState(c.Request().Context(), origin)
	if err != nil {
		return Render(c, startStatus(err), embedMessage(err.Error()))
	}
	if title == "" {
		title = "Dispatch Playground"
	} else {
		title += " · Dispatch Playground"
	}
	v := frameOptions(c.QueryParams(), s)
	return Render(c, http.StatusOK, embedFrame(title, p.deps.AssetURL("dist/embed.js"), v))
}

// frameOptions reads the frame URL's query: the same names and values as
// the element's attributes. Unknown values fall back to the defaults, as
// the element's do.
func frameOptions(q url.Values, s State) embedView {
	v := embedView{Config: s.Config, Snippet: s.Snippet, Mode: "panic", Theme: "auto", Engine: "browser"}
	if len(s.Files) > 0 {
		b, _ := json.Marshal(s.Files)
		v.Files = string(b)
	}
	if s.Mode == ModeValidation {
		v.Mode = "validate"
	}
	if m := q.Get("mode"); m == "panic" || m == "validate" {
		v.Mode = m
	}
	if t := q.Get("theme"); t == "light" || t == "dark" {
		v.Theme = t
	}
	if q.Get("engine") == "server" {
		v.Engine = "server"
	}
	v.Editable = flag(q, "editable")
	v.Readonly = flag(q, "readonly")
	return v
}

// flag reads a boolean query parameter: present means on, unless its value
// says otherwise.
func flag(q url.Values, name string) bool {
	if !q.Has(name) {
		return false
	}
	switch strings.ToLower(q.Get(name)) {
	case "0", "false", "no", "off":
		return false
	}
	return true
}

// frameHeaders is securityHeaders for the frame pages: any site may frame
// them, and they run only this server's script, which may start its
// engine worker and compile WebAssembly.
func frameHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", frameSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		return next(c)
	}
}

// frameSecurityPolicy has no style source: the element styles its shadow
// root with a constructed style sheet, which needs none.
const frameSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; " +
	"img-src 'self' data:; " +
	"connect-src 'self'; " +
	"worker-src 'self'; " +
	"object-src 'none'; " +
	"base-uri 'none'; " +
	"form-action 'none'; " +
	"frame-ancestors *"

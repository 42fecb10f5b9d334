package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/examples"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
)

// ShareStore keeps shared playground states. A state is the JSON of a State.
type ShareStore interface {
	Put(ctx context.Context, state []byte) (id string, err error)
	Get(ctx context.Context, id string) ([]byte, error)
}

// Deps is what the pages need from the server.
type Deps struct {
	// Run is the sandbox runner, used for first paint and for the form post
	// that works without JavaScript.
	Run func(ctx context.Context, req engine.Request) (engine.Result, error)
	// Shares stores states behind /s/{id} links.
	Shares ShareStore
	// Version is the playground server's version.
	Version string
	// AssetURL turns a path under /static/ into its versioned URL.
	AssetURL func(name string) string
}

// browserTimeLimit is when the page's watchdog stops a run in the browser:
// the sandbox's wall-time limit, so both places stop the same programs.
const browserTimeLimit = wasm.DefaultWallTime

// timeLimitResult is what the page reports when its watchdog stops a run:
// the sandbox's own time-limit Result, to which the page gives the span of
// the snippet it ran.
func timeLimitResult() engine.Result { return wasm.TimeLimitResult("", browserTimeLimit) }

// Register adds the page routes to e. Every page response carries the
// content security policy (see securityHeaders).
func Register(e *echo.Echo, d Deps) {
	if d.AssetURL == nil {
		d.AssetURL = func(name string) string { return "/static/" + name }
	}
	p := &pages{deps: d}
	e.GET("/", p.home, securityHeaders)
	e.GET("/examples/:name", p.example, securityHeaders)
	e.GET("/s/:id", p.shared, securityHeaders)
	e.POST("/run", p.run, securityHeaders)
	e.POST("/share", p.share, securityHeaders)
	e.GET("/catalog", p.catalogIndex, securityHeaders)
	e.GET("/catalog/:code", p.catalogRecord, securityHeaders)
	registerEmbed(e, p)
}

type pages struct {
	deps Deps
}

func (p *pages) meta(c echo.Context, title, description string) pageMeta {
	if title == "" {
		title = "Dispatch Playground"
	} else {
		title += " · Dispatch Playground"
	}
	return pageMeta{
		Title:       title,
		Description: description,
		Version:     p.deps.Version,
		Nonce:       nonceOf(c),
		Asset:       p.deps.AssetURL,
	}
}

const playgroundDescription = "Paste a Cargo.toml and a Burn snippet: see which backend and device each tensor operation runs on, and where Burn would panic."

// showPlayground renders the playground page for a state and runs it in the
// sandbox, so the page arrives with its results.
func (p *pages) showPlayground(c echo.Context, status int, title string, v playgroundView) error {
	if v.Results == nil {
		v.Results = p.runState(c.Request().Context(), v.State)
	}
	v.Groups = menuGroups()
	return Render(c, status, playgroundPage(p.meta(c, title, playgroundDescription), v, p.deps.AssetURL))
}

// runState runs a state in the sandbox; nil when the server has no runner.
func (p *pages) runState(ctx context.Context, s State) *resultsView {
	if p.deps.Run == nil {
		return nil
	}
	res, err := p.deps.Run(ctx, s.request())
	if err != nil {
		return &resultsView{Mode: s.Mode, Failure: "The server sandbox could not run the program: " + err.Error()}
	}
	return &resultsView{Result: res, Mode: s.Mode}
}

// menuGroups is built once: the examples and the catalog are embedded.
var menuGroups = sync.OnceValue(func() []exampleGroup {
	return exampleGroups(examples.All(), examplesByRecord(), cardTitle)
})

func exampleState(ex examples.Example) State {
	return newState(ex.Config, ex.Snippet, ModePanic)
}

// startState is the state a page of this server starts from, and the
// page's title: "/" shows the default example, "/examples/{name}" an
// example, "/s/{id}" a shared state and "/catalog/{code}" the example of a
// record. The error says, for the reader, why there is none.
func (p *pages) startState(ctx context.Context, origin string) (State, string, error) {
	switch {
	case origin == "/":
		if ex, ok := defaultExample(examples.All()); ok {
			return exampleState(ex), "", nil
		}
		return State{}, "", errors.New("There are no examples to start from.")
	case strings.HasPrefix(origin, "/examples/"):
		name := strings.TrimPrefix(origin, "/examples/")
		if ex, ok := examples.ByName(name); ok {
			return exampleState(ex), ex.Title, nil
		}
		return State{}, "", fmt.Errorf("There is no example named “%s”.", name)
	case strings.HasPrefix(origin, "/catalog/"):
		code := strings.TrimPrefix(origin, "/catalog/")
		if ex, ok := recordExample(code); ok {
			return exampleState(ex), ex.Title, nil
		}
		return State{}, "", fmt.Errorf("No example shows the record “%s”.", code)
	case strings.HasPrefix(origin, "/s/"):
		id := strings.TrimPrefix(origin, "/s/")
		if p.deps.Shares == nil {
			return State{}, "", errors.New("This server does not keep shared programs.")
		}
		data, err := p.deps.Shares.Get(ctx, id)
		if errors.Is(err, store.ErrUnavailable) {
			return State{}, "", errSharesUnavailable
		}
		if err != nil {
			return State{}, "", fmt.Errorf("There is no shared program “%s”.", id)
		}
		s, err := decodeState(data)
		if err != nil {
			return State{}, "", fmt.Errorf("The shared program “%s” cannot be read: %v", id, err)
		}
		return s, "Shared program", nil
	}
	return State{}, "", fmt.Errorf("There is no page %s.", origin)
}

// errSharesUnavailable is startState's error when the database of shared
// programs cannot be reached: the program may well exist.
var errSharesUnavailable = errors.New("The server cannot reach its database of shared programs right now. Try again in a moment.")

// startStatus is the status of a page that could not start from its
// origin: 503 while the shared programs cannot be read, else 404.
func startStatus(err error) int {
	if errors.Is(err, errSharesUnavailable) {
		return http.StatusServiceUnavailable
	}
	return http.StatusNotFound
}

// showStart renders the playground as a page of this server starts it.
func (p *pages) showStart(c echo.Context, origin string) error {
	s, title, err := p.startState(c.Request().Context(), origin)
	if err != nil {
		if startStatus(err) == http.StatusServiceUnavailable {
			return Render(c, http.StatusServiceUnavailable, messagePage(p.meta(c, "Unavailable", ""), "Unavailable", err.Error()))
		}
		return p.notFound(c, err.Error())
	}
	return p.showPlayground(c, http.StatusOK, title, playgroundView{State: s, Reset: s, Origin: origin})
}

func (p *pages) home(c echo.Context) error    { return p.showStart(c, "/") }
func (p *pages) example(c echo.Context) error { return p.showStart(c, "/examples/"+c.Param("name")) }
func (p *pages) shared(c echo.Context) error  { return p.showStart(c, "/s/"+c.Param("id")) }

// formState reads the playground form. Browsers send textarea text with
// CRLF line ends; the editors and the engine see LF.
func formState(c echo.Context) (State, error) {
	s := newState(lf(c.FormValue("config")), lf(c.FormValue("snippet")), parseMode(c.FormValue("mode")))
	if s.size() > maxStateBytes {
		return s, errStateTooLarge
	}
	return s, nil
}

func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// origin is where the form's "Reset to example" goes: a page of this
// server, never anything the form could point elsewhere.
func origin(c echo.Context) string {
	o := c.FormValue("origin")
	for _, prefix := range []string{"/examples/", "/s/", "/catalog/"} {
		if strings.HasPrefix(o, prefix) && !strings.ContainsAny(o[len(prefix):], "/\\?#") {
			return o
		}
	}
	return "/"
}

// run answers the form post: it runs the texts in the sandbox, or, when a
// fix button was pressed, applies that fix first and runs the result.
func (p *pages) run(c echo.Context) error {
	s, err := formState(c)
	if err != nil {
		return p.tooLarge(c)
	}
	v := playgroundView{State: s, Origin: origin(c)}
	if v.Reset, _, err = p.startState(c.Request().Context(), v.Origin); err != nil {
		v.Reset = s
	}
	if fix := c.FormValue("fix"); fix != "" {
		v.State, v.Results = p.applyFixAndRun(c.Request().Context(), s, fix)
	}
	return p.showPlayground(c, http.StatusOK, "", v)
}

// applyFixAndRun finds the fix named "diagnostic:fix" in the state's
// result, applies it, and runs the fixed state. A fix that no longer
// exists (the text changed) leaves the state as it is.
func (p *pages) applyFixAndRun(ctx context.Context, s State, name string) (State, *resultsView) {
	before := p.runState(ctx, s)
	if before == nil || before.Failure != "" {
		return s, before
	}
	di, fi, ok := parseFixName(name)
	if !ok || di >= len(before.Result.Diagnostics) || fi >= len(before.Result.Diagnostics[di].Fixes) {
		return s, before
	}
	fixed, err := applyFix(s, before.Result.Diagnostics[di].Fixes[fi])
	if err != nil {
		before.Failure = "The fix could not be applied: " + err.Error()
		return s, before
	}
	return fixed, p.runState(ctx, fixed)
}

func parseFixName(name string) (diagnostic, fix int, ok bool) {
	a, b, found := strings.Cut(name, ":")
	d, err1 := strconv.Atoi(a)
	f, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || d < 0 || f < 0 {
		return 0, 0, false
	}
	return d, f, true
}

// share stores the form's state and sends the browser to its short link.
func (p *pages) share(c echo.Context) error {
	s, err := formState(c)
	if err != nil {
		return p.tooLarge(c)
	}
	if p.deps.Shares == nil {
		return p.notFound(c, "This server does not keep shared programs.")
	}
	data, err := s.encode()
	if err != nil {
		return p.tooLarge(c)
	}
	id, err := p.deps.Shares.Put(c.Request().Context(), data)
	if err != nil {
		failure := "The program could not be shared: " + err.Error()
		if errors.Is(err, store.ErrUnavailable) {
			// The error names the database; the reader needs to know only
			// that it is away.
			failure = "The program could not be shared: the server cannot reach its database right now. Try again in a moment."
		}
		return p.showPlayground(c, http.StatusServiceUnavailable, "", playgroundView{
			State: s, Origin: origin(c), Reset: s,
			Results: &resultsView{Mode: s.Mode, Failure: failure},
		})
	}
	return c.Redirect(http.StatusSeeOther, "/s/"+id)
}

func (p *pages) tooLarge(c echo.Context) error {
	return Render(c, http.StatusRequestEntityTooLarge, messagePage(p.meta(c, "Too large", ""), "Too large", errStateTooLarge.Error()+"."))
}

func (p *pages) notFound(c echo.Context, message string) error {
	return Render(c, http.StatusNotFound, messagePage(p.meta(c, "Not found", ""), "Not found", message))
}

// statusOf is the result's status for styling: "none" before any run,
// "failed" when the runner failed.
func statusOf(r *resultsView) string {
	switch {
	case r == nil:
		return "none"
	case r.Failure != "":
		return "failed"
	}
	return r.Result.Status
}

func diagnosticCount(r *resultsView) int {
	if r == nil {
		return 0
	}
	return len(r.diagnostics())
}

// sourceWhere is where a record's message is raised, file:line, or the
// file alone for a record with no single line (a playground limit, a
// check the engine makes).
func sourceWhere(r catalog.Record) string {
	if r.Line <= 0 {
		return r.FilePath
	}
	return fmt.Sprintf("%s:%d", r.FilePath, r.Line)
}

// cardTitle is a diagnostic's heading: its catalog record's title, written
// for people where the message has placeholders (the card shows the filled
// message below it).
func cardTitle(code string) string {
	if r, ok := catalog.ByCode(code); ok {
		return r.Title
	}
	return code
}

// Render writes component as the HTML response with the given status.
func Render(c echo.Context, status int, component templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := component.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTML(status, buf.String())
}

package ui

import (
	"context"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
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

// Register adds the page routes to e.
func Register(e *echo.Echo, d Deps) {
	p := &pages{deps: d}
	e.GET("/", p.playground)
}

type pages struct {
	deps Deps
}

func (p *pages) playground(c echo.Context) error {
	return Render(c, http.StatusOK, templ.Raw("<!doctype html><title>Dispatch Playground</title>"))
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

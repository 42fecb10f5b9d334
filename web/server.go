package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/web/ui"
)

// Config configures New.
type Config struct {
	// Sandbox runs every request. Nil means it could not start, and
	// SandboxError says why; runs then answer 503.
	Sandbox      *wasm.Sandbox
	SandboxError error
	// Runner, when set, runs requests in place of Sandbox and returns the
	// Result JSON. It exists so that a load test can put the native engine
	// behind the same server and measure what the sandbox costs; a server
	// that takes strangers' programs runs them in the sandbox.
	Runner func(ctx context.Context, req engine.Request) ([]byte, error)
	// Shares keeps shared states. Nil turns sharing off (503).
	Shares ShareStore
	// Static is the tree served under /static/; nil means the files
	// embedded from web/static.
	Static fs.FS
	Limits Limits
	// RateLimit bounds each client's requests; the zero value turns it
	// off (DefaultRateLimit is what `playground serve` uses).
	RateLimit RateLimit
	CORS      CORSConfig
	// TrustedProxies lists the reverse proxies (IP addresses or CIDR
	// ranges) whose X-Forwarded-For names the client. Empty: the client is
	// the connection's peer, whatever the headers say.
	TrustedProxies []string
	Version        string
	// Logger receives request logs; nil discards them.
	Logger *slog.Logger
}

// ShareStore keeps the shared states behind /api/share, /s/{id} and
// /embed/{id}: store.SQLite on one machine, store.Postgres for replicas
// that share one database. Its errors are the store package's: Put's
// *store.StateError and store.ErrTooLarge, Get's store.ErrNotFound, and
// store.ErrUnavailable from either when the database cannot be reached,
// which the server answers with 503.
type ShareStore interface {
	ui.ShareStore
	// Ping reports whether the database answers; /healthz and /metrics
	// say so.
	Ping(ctx context.Context) error
}

// Server is the playground's HTTP server. It is an http.Handler.
type Server struct {
	cfg     Config
	echo    *echo.Echo
	log     *slog.Logger
	assets  *assets
	metrics metrics
	clients *clients // the per-client limits of Config.RateLimit
	catalog []byte   // the JSON of /api/catalog, built once
}

// New builds the server and its routes.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Static == nil {
		cfg.Static = Static()
	}
	if cfg.Sandbox == nil && cfg.SandboxError == nil {
		cfg.SandboxError = wasm.ErrUnavailable
	}
	a, err := newAssets(cfg.Static)
	if err != nil {
		return nil, fmt.Errorf("index static files: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Logger, assets: a, catalog: CatalogJSON()}
	if cfg.Shares != nil {
		// The API and the pages count the shares the database failed.
		s.cfg.Shares = observedShares{ShareStore: cfg.Shares, m: &s.metrics}
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(e, s.log)
	// The request log and the rate limit take the client from c.RealIP().
	if e.IPExtractor, err = ipExtractor(cfg.TrustedProxies); err != nil {
		return nil, err
	}
	e.Pre(headAsGet)
	e.Use(headRestored)
	e.Use(middleware.Recover())
	e.Use(baseHeaders)
	e.Use(requestLogger(s.log))
	e.Use(CORSWithConfig(cfg.CORS))
	crossOrigin, err := crossOriginWrites(cfg.CORS)
	if err != nil {
		return nil, err
	}
	e.Use(crossOrigin)
	if s.clients = newClients(cfg.RateLimit, time.Now); s.clients.limited() {
		e.Use(clientLimits(s.clients, &s.metrics))
	}
	e.Use(formRead)

	e.POST("/api/run", s.handleRun)
	e.GET("/api/catalog", s.handleCatalog)
	e.POST("/api/share", s.handleSharePut)
	e.GET("/api/share/:id", s.handleShareGet)
	e.GET("/healthz", s.handleHealth)
	e.GET("/metrics", s.handleMetrics)
	e.GET("/static/*", a.serve)
	e.HEAD("/static/*", a.serve)

	deps := ui.Deps{Run: s.run, Version: cfg.Version, AssetURL: a.URL}
	if s.cfg.Shares != nil {
		deps.Shares = s.cfg.Shares
	}
	ui.Register(e, deps)
	s.echo = e
	return s, nil
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// AssetURL is the versioned URL of a file under /static/.
func (s *Server) AssetURL(name string) string { return s.assets.URL(name) }

// Serve answers requests on ln until ctx is done, then shuts down
// gracefully: it stops accepting, and waits up to ShutdownTimeout for the
// requests in flight.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	s.log.Info("listening", "addr", "http://"+ln.Addr().String())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down", "timeout", ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// ListenAndServe listens on addr and calls Serve.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// CatalogJSON is the body of /api/catalog: the array of every record's
// JSON, in the catalog's order.
func CatalogJSON() []byte {
	buf := []byte{'['}
	for i, r := range catalog.All() {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, r.JSON()...)
	}
	return append(buf, ']', '\n')
}

package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// CORSConfig configures cross-origin access to /api/*.
type CORSConfig struct {
	// AllowOrigins lists the origins that may call the API from a browser;
	// "*" allows any. Empty turns CORS off.
	AllowOrigins []string
	// AllowWrites also lets those origins POST (run and share). Reads
	// (GET, HEAD) are allowed whenever AllowOrigins is not empty.
	AllowWrites bool
	// MaxAge is how long a browser may cache a preflight answer.
	MaxAge time.Duration
}

// DefaultCORSConfig lets any origin read the API (the catalog, shared
// states) and no origin post to it: a docs page that embeds the playground
// runs the engine in the browser, not here.
var DefaultCORSConfig = CORSConfig{AllowOrigins: []string{"*"}, MaxAge: 10 * time.Minute}

// CORSWithConfig answers preflights and adds the CORS headers for /api/*.
// Echo's own CORS middleware allows the same origins for every method; here
// reads and writes are separate.
func CORSWithConfig(cfg CORSConfig) echo.MiddlewareFunc {
	methods := []string{http.MethodGet, http.MethodHead}
	if cfg.AllowWrites {
		methods = append(methods, http.MethodPost)
	}
	allowMethods := strings.Join(methods, ", ")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			if !strings.HasPrefix(req.URL.Path, "/api/") || len(cfg.AllowOrigins) == 0 {
				return next(c)
			}
			h := c.Response().Header()
			h.Add(echo.HeaderVary, echo.HeaderOrigin)
			origin := req.Header.Get(echo.HeaderOrigin)
			allowed := origin != "" && (slices.Contains(cfg.AllowOrigins, "*") || slices.Contains(cfg.AllowOrigins, origin))
			preflight := req.Method == http.MethodOptions && req.Header.Get(echo.HeaderAccessControlRequestMethod) != ""
			if preflight {
				if allowed && slices.Contains(methods, req.Header.Get(echo.HeaderAccessControlRequestMethod)) {
					h.Set(echo.HeaderAccessControlAllowOrigin, allowOrigin(cfg, origin))
					h.Set(echo.HeaderAccessControlAllowMethods, allowMethods)
					h.Set(echo.HeaderAccessControlAllowHeaders, echo.HeaderContentType)
					h.Set(echo.HeaderAccessControlMaxAge, strconv.Itoa(int(cfg.MaxAge.Seconds())))
				}
				return c.NoContent(http.StatusNoContent)
			}
			if allowed && slices.Contains(methods, req.Method) {
				h.Set(echo.HeaderAccessControlAllowOrigin, allowOrigin(cfg, origin))
				h.Set(echo.HeaderAccessControlExposeHeaders, echo.HeaderRetryAfter)
			}
			return next(c)
		}
	}
}

// crossOriginWrites refuses, with 403, the writes a browser makes for
// another site: a POST (or any unsafe method) whose Sec-Fetch-Site is not
// same-origin or none, or, from a browser too old to send it, whose Origin
// is not this server's host. Without it any page could spend its visitors'
// allowances on runs and shares. Requests with neither header (curl,
// scripts) are no browser's and pass; so do the origins of cfg on /api/*
// when cfg.AllowWrites lets them post. The pages' forms (/run, /share) take
// posts from the playground's own pages only.
func crossOriginWrites(cfg CORSConfig) (echo.MiddlewareFunc, error) {
	pages := http.NewCrossOriginProtection()
	api := pages
	if cfg.AllowWrites {
		api = http.NewCrossOriginProtection()
		for _, origin := range cfg.AllowOrigins {
			if origin == "*" {
				api = nil // any origin may post to the API
				break
			}
			if err := api.AddTrustedOrigin(origin); err != nil {
				return nil, fmt.Errorf("CORS origin %q: %w", origin, err)
			}
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			isAPI := strings.HasPrefix(req.URL.Path, "/api/")
			check := pages
			if isAPI {
				check = api
			}
			if check == nil || check.Check(req) == nil {
				return next(c)
			}
			if isAPI {
				message := "this server refuses writes from other sites' pages"
				if cfg.AllowWrites && len(cfg.AllowOrigins) > 0 {
					message += " but those of " + strings.Join(cfg.AllowOrigins, ", ")
				} else {
					message += " (`playground serve --cors-writes` lets the origins of --cors-origins post)"
				}
				return &apiError{Status: http.StatusForbidden, Code: codeCrossOrigin, Message: message}
			}
			return echo.NewHTTPError(http.StatusForbidden, "the playground's forms take posts from its own pages only")
		}
	}, nil
}

func allowOrigin(cfg CORSConfig, origin string) string {
	if slices.Contains(cfg.AllowOrigins, "*") {
		return "*"
	}
	return origin
}

// requestLogger logs one structured record per request.
func requestLogger(logger *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogMethod:        true,
		LogURIPath:       true,
		LogStatus:        true,
		LogLatency:       true,
		LogRemoteIP:      true,
		LogContentLength: true,
		LogResponseSize:  true,
		LogError:         true,
		HandleError:      true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= http.StatusInternalServerError {
				level = slog.LevelError
			}
			attrs := []slog.Attr{
				slog.String("method", v.Method),
				slog.String("path", v.URIPath),
				slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency),
				slog.String("remote", v.RemoteIP),
				slog.String("bytes_in", v.ContentLength),
				slog.Int64("bytes_out", v.ResponseSize),
			}
			if v.Error != nil {
				attrs = append(attrs, slog.String("err", v.Error.Error()))
			}
			logger.LogAttrs(context.Background(), level, "request", attrs...)
			return nil
		},
	})
}

// statusClientClosed answers a request whose client went away first.
const statusClientClosed = 499

// apiError is the JSON error body of /api/*: {"error": {"code", "message"}}.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Message }

// Error codes of the API.
const (
	codeBadRequest       = "bad_request"
	codeBodyTooLarge     = "request_too_large"
	codeSnippetTooLarge  = "snippet_too_large"
	codeStateTooLarge    = "state_too_large"
	codeBusy             = "busy"
	codeRateLimited      = "rate_limited"
	codeUnavailable      = "sandbox_unavailable"
	codeCrashed          = "engine_crashed"
	codeNotFound         = "not_found"
	codeCanceled         = "canceled"
	codeMethodNotAllowed = "method_not_allowed"
	codeCrossOrigin      = "cross_origin"
	codeRequestTimeout   = "request_timeout"
	codeInternal         = "internal"
)

// codeDatabaseUnavailable: the database of shared states cannot be
// reached (503).
const codeDatabaseUnavailable = "database_unavailable"

// errorHandler answers errors under /api/ and on /healthz with the JSON
// body; pages get Echo's default.
func errorHandler(e *echo.Echo, logger *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		path := c.Request().URL.Path
		if !strings.HasPrefix(path, "/api/") && path != "/api" {
			e.DefaultHTTPErrorHandler(err, c)
			return
		}
		ae, ok := err.(*apiError)
		if !ok {
			ae = &apiError{Status: http.StatusInternalServerError, Code: codeInternal, Message: "internal server error"}
			if he, isHTTP := err.(*echo.HTTPError); isHTTP {
				ae.Status = he.Code
				ae.Message = strings.ToLower(http.StatusText(he.Code))
				switch he.Code {
				case http.StatusNotFound:
					ae.Code = codeNotFound
				case http.StatusMethodNotAllowed:
					ae.Code = codeMethodNotAllowed
				case http.StatusRequestEntityTooLarge:
					ae.Code = codeBodyTooLarge
				default:
					if he.Code < http.StatusInternalServerError {
						ae.Code = codeBadRequest
					}
				}
			} else {
				logger.Error("api", "path", path, "err", err)
			}
		}
		if ae.Status == http.StatusTooManyRequests && c.Response().Header().Get(echo.HeaderRetryAfter) == "" {
			c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(int(retryAfter.Seconds())))
		}
		_ = c.JSON(ae.Status, map[string]*apiError{"error": ae})
	}
}

// ipExtractor is how the server finds a request's client: the
// connection's peer, or, when that peer is one of the trusted proxies,
// the last address of X-Forwarded-For that is not one of them. A client
// that sends the header itself is not a trusted proxy, so it cannot
// choose the address it is logged and rate-limited as.
func ipExtractor(proxies []string) (echo.IPExtractor, error) {
	if len(proxies) == 0 {
		return echo.ExtractIPDirect(), nil
	}
	// Echo trusts loopback, link-local and private addresses by default;
	// here only the ranges named.
	trust := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, proxy := range proxies {
		prefix, err := netip.ParsePrefix(proxy)
		if err != nil {
			addr, aerr := netip.ParseAddr(proxy)
			if aerr != nil {
				return nil, fmt.Errorf("trusted proxy %q is neither an IP address nor a CIDR range", proxy)
			}
			addr = addr.WithZone("")
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		_, ipNet, err := net.ParseCIDR(prefix.Masked().String())
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", proxy, err)
		}
		trust = append(trust, echo.TrustIPRange(ipNet))
	}
	return echo.ExtractIPFromXFFHeader(trust...), nil
}

// headKey marks, in the context, a HEAD request routed as a GET.
const headKey = "playground.head"

// headAsGet routes HEAD like GET (Echo answers 405 to a HEAD on a GET
// route), and drops the body the GET handler writes: a HEAD answer is the
// GET answer's status and headers. headRestored gives the request its
// method back once it is routed, so that everything after sees HEAD.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodHead {
			return next(c)
		}
		// Echo routes the *http.Request it was given, so the change is to it.
		req.Method = http.MethodGet
		c.Set(headKey, true)
		res := c.Response()
		res.Writer = headWriter{res.Writer}
		return next(c)
	}
}

func headRestored(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if head, _ := c.Get(headKey).(bool); head {
			c.Request().Method = http.MethodHead
		}
		return next(c)
	}
}

// headWriter drops a body. net/http drops the body of a HEAD answer too;
// this also keeps it out of any other http.ResponseWriter.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// formRead reads the body of a form post before its page does: the pages
// read fields with FormValue, which drops the error of a body that
// stopped coming or was cut short and would go on with what arrived.
func formRead(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodPost || strings.HasPrefix(req.URL.Path, "/api/") {
			return next(c)
		}
		// ParseMultipartForm would hide the error of ParseForm behind
		// ErrNotMultipart.
		err := req.ParseForm()
		if err == nil {
			if err = req.ParseMultipartForm(formMemory); errors.Is(err, http.ErrNotMultipart) {
				err = nil
			}
		}
		if err == nil {
			return next(c)
		}
		be := bodyError(err, 0)
		return echo.NewHTTPError(be.Status, be.Message)
	}
}

// formMemory is how much of a multipart form is held in memory (the rest
// goes to temporary files): net/http's default for FormValue.
const formMemory = 32 << 20

// bodyError is the answer to a request whose body could not be read: 413
// past limit, 408 when it stopped coming before the server's read timeout,
// 400 otherwise. The messages are plain: the error of a read names the
// connection's addresses, which are no business of the client's.
func bodyError(err error, limit int64) *apiError {
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooLarge):
		return &apiError{Status: http.StatusRequestEntityTooLarge, Code: codeBodyTooLarge,
			Message: fmt.Sprintf("the request body is larger than the limit of %d bytes", limit)}
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return &apiError{Status: http.StatusRequestTimeout, Code: codeRequestTimeout,
			Message: "the request body did not arrive within the server's read timeout"}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest,
			Message: "the request body ended before the length it announced"}
	}
	return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest, Message: "the request body could not be read"}
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/abi"
)

// handleRun answers POST /api/run: a Request in, the sandbox's Result out,
// byte for byte. A user's error is a Result (200); only the server's own
// limits are HTTP errors.
func (s *Server) handleRun(c echo.Context) error {
	body, err := readBody(c, s.cfg.Limits.BodyBytes)
	if err != nil {
		if ae, ok := err.(*apiError); ok && ae.Status == http.StatusRequestEntityTooLarge {
			s.metrics.refuse(limitBody)
		}
		return err
	}
	// encoding/json reads null as the empty Request; any other value that
	// is not an object fails to decode.
	if kind := jsonKind(body); kind != "an object" && kind != "" {
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest,
			Message: `a Request is a JSON object {"config": "...", "snippet": "..."}, not ` + kind}
	}
	req, err := abi.DecodeRequest(body)
	if err != nil {
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest, Message: err.Error()}
	}
	if err := s.checkRequest(req); err != nil {
		return err
	}
	out, err := s.runJSON(c.Request().Context(), req)
	if err != nil {
		return s.runError(err)
	}
	return writeJSON(c, out)
}

// checkRequest applies the server's limits that need the decoded Request.
func (s *Server) checkRequest(req engine.Request) error {
	if len(req.Snippet) > s.cfg.Limits.SnippetBytes {
		s.metrics.refuse(limitSnippet)
		return &apiError{Status: http.StatusRequestEntityTooLarge, Code: codeSnippetTooLarge,
			Message: fmt.Sprintf("the snippet is %d bytes, more than the limit of %d", len(req.Snippet), s.cfg.Limits.SnippetBytes)}
	}
	// A crate's files count against the same limit as its snippet.
	size := len(req.Snippet)
	for _, text := range req.Files {
		size += len(text)
	}
	if size > s.cfg.Limits.SnippetBytes {
		s.metrics.refuse(limitSnippet)
		return &apiError{Status: http.StatusRequestEntityTooLarge, Code: codeSnippetTooLarge,
			Message: fmt.Sprintf("the crate's files are %d bytes, more than the limit of %d", size, s.cfg.Limits.SnippetBytes)}
	}
	return nil
}

// runJSON runs a request in the sandbox (or Config.Runner) and records it.
func (s *Server) runJSON(ctx context.Context, req engine.Request) ([]byte, error) {
	run := s.cfg.Runner
	if run == nil {
		if s.cfg.Sandbox == nil {
			s.metrics.observe("error", 0)
			return nil, fmt.Errorf("%w: %v", wasm.ErrUnavailable, s.cfg.SandboxError)
		}
		run = s.cfg.Sandbox.RunJSON
	}
	done, err := s.clients.admit(ctx)
	if err != nil {
		s.metrics.refuse(limitClientRuns)
		return nil, err
	}
	start := time.Now()
	var out []byte
	defer func() { done(out, time.Since(start), s.settle()) }()
	out, err = run(ctx, req)
	status := "error"
	switch {
	case err == nil:
		status = statusOf(out)
	case ctx.Err() != nil:
		status = "canceled"
	}
	if !errors.Is(err, wasm.ErrBusy) {
		s.metrics.observe(status, time.Since(start))
	}
	return out, err
}

// run is the runner the pages get: the same path as /api/run.
func (s *Server) run(ctx context.Context, req engine.Request) (engine.Result, error) {
	if err := s.checkRequest(req); err != nil {
		return engine.Result{}, err
	}
	out, err := s.runJSON(ctx, req)
	if err != nil {
		return engine.Result{}, err
	}
	var res engine.Result
	err = json.Unmarshal(out, &res)
	return res, err
}

// statusOf reads the status of a Result JSON without decoding the rest:
// json.Marshal writes the fields of engine.Result in order, status first.
func statusOf(result []byte) string {
	for _, status := range []string{engine.StatusOK, engine.StatusPanicked, engine.StatusRejected} {
		if bytes.HasPrefix(result, []byte(`{"status":"`+status+`"`)) {
			return status
		}
	}
	return "error"
}

// runError maps an error of the sandbox to the API's answer.
func (s *Server) runError(err error) error {
	switch {
	case errors.Is(err, wasm.ErrBusy):
		return &apiError{Status: http.StatusTooManyRequests, Code: codeBusy,
			Message: "every sandbox instance is busy and the queue is full; retry after the time in Retry-After"}
	case errors.Is(err, wasm.ErrUnavailable), errors.Is(err, wasm.ErrClosed):
		return &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable, Message: err.Error()}
	case errors.Is(err, wasm.ErrCrashed):
		s.log.Error("engine crashed", "err", err)
		return &apiError{Status: http.StatusInternalServerError, Code: codeCrashed,
			Message: "the engine crashed on this request; this is a bug in the playground"}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// The client went away: nobody reads this answer, and it is no
		// failure of the server's (nginx's 499, for the logs).
		return &apiError{Status: statusClientClosed, Code: codeCanceled, Message: "the client went away before the run finished"}
	}
	return err
}

func (s *Server) handleCatalog(c echo.Context) error {
	return c.JSONBlob(http.StatusOK, s.catalog)
}

func (s *Server) handleSharePut(c echo.Context) error {
	if s.cfg.Shares == nil {
		return &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable, Message: "sharing is off on this server"}
	}
	body, err := readBody(c, store.MaxStateBytes)
	var refused *apiError
	switch {
	case errors.As(err, &refused) && refused.Status == http.StatusRequestEntityTooLarge:
		s.metrics.refuse(limitState)
		return &apiError{Status: http.StatusRequestEntityTooLarge, Code: codeStateTooLarge,
			Message: fmt.Sprintf("a state is limited to %d bytes of JSON", store.MaxStateBytes)}
	case err != nil:
		return err
	}
	// Put validates the state with store.DecodeState, the reading /s/{id}
	// and /embed/{id} use: a share acknowledged here opens there.
	id, err := s.cfg.Shares.Put(c.Request().Context(), body)
	var invalid *store.StateError
	switch {
	case errors.As(err, &invalid):
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest, Message: "not a playground state: " + invalid.Reason}
	case err != nil:
		return s.shareError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]string{"id": id})
}

func (s *Server) handleShareGet(c echo.Context) error {
	if s.cfg.Shares == nil {
		return &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable, Message: "sharing is off on this server"}
	}
	state, err := s.cfg.Shares.Get(c.Request().Context(), c.Param("id"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &apiError{Status: http.StatusNotFound, Code: codeNotFound, Message: "no shared state with this id"}
	case err != nil:
		return s.shareError(c, err)
	}
	return writeJSON(c, state)
}

// shareError answers an error of the share store that is not the
// request's: 503 when the database cannot be reached (what went wrong goes
// to the log, not to the client, since it names the database), 499 when
// the client went away first, and 500 for anything else.
func (s *Server) shareError(c echo.Context, err error) error {
	switch {
	case errors.Is(err, store.ErrUnavailable):
		s.log.Warn("the database of shared states is unavailable", "path", c.Request().URL.Path, "err", err)
		return &apiError{Status: http.StatusServiceUnavailable, Code: codeDatabaseUnavailable,
			Message: "the database of shared states cannot be reached; try again later"}
	case c.Request().Context().Err() != nil:
		return &apiError{Status: statusClientClosed, Code: codeCanceled, Message: "the client went away before the share was answered"}
	}
	return err
}

// handleHealth is 200 when runs can succeed, 503 when the sandbox did not
// start. instances is the live count out of poolSize: a worker that dies is
// counted out when it dies and back in once its successor is warm, which
// also happens after every run a limit stopped, so fewer than poolSize for
// a moment is no failure; runs wait for the successor.
//
// database is the share store's state (databaseState). It does not change
// the status: runs need no database, and every replica shares the one
// there is, so a load balancer that took replicas out for it would stop
// the runs and mend nothing.
func (s *Server) handleHealth(c echo.Context) error {
	database := s.databaseState(c.Request().Context())
	if s.cfg.Sandbox == nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "sandbox": s.cfg.SandboxError.Error(), "database": database})
	}
	st := s.cfg.Sandbox.Stats()
	return c.JSON(http.StatusOK, map[string]any{"status": "ok", "version": s.cfg.Version,
		"instances": st.Instances, "poolSize": st.PoolSize, "workerExits": st.Exits, "database": database})
}

// Database states of /healthz and /metrics.
const (
	databaseOK          = "ok"
	databaseUnreachable = "unreachable"
	databaseOff         = "off" // sharing is off
)

// databaseState pings the share store, for at most databasePingTimeout.
func (s *Server) databaseState(ctx context.Context) string {
	if s.cfg.Shares == nil {
		return databaseOff
	}
	ctx, cancel := context.WithTimeout(ctx, databasePingTimeout)
	defer cancel()
	if err := s.cfg.Shares.Ping(ctx); err != nil {
		s.log.Warn("the database of shared states does not answer", "err", err)
		return databaseUnreachable
	}
	return databaseOK
}

func (s *Server) handleMetrics(c echo.Context) error {
	var stats *wasm.Stats
	if s.cfg.Sandbox != nil {
		st := s.cfg.Sandbox.Stats()
		stats = &st
	}
	var buf bytes.Buffer
	s.metrics.write(&buf, stats, s.databaseState(c.Request().Context()))
	return c.Blob(http.StatusOK, "text/plain; version=0.0.4; charset=utf-8", buf.Bytes())
}

// readBody reads at most limit bytes, or fails with bodyError's answer:
// 413 past the limit, 408 or 400 for a body that stopped coming or was cut
// short.
func readBody(c echo.Context, limit int64) ([]byte, error) {
	r := http.MaxBytesReader(c.Response(), c.Request().Body, limit)
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, bodyError(err, limit)
	}
	return body, nil
}

// writeJSON sends JSON bytes as they are, with the newline every JSON
// answer of this server ends with.
func writeJSON(c echo.Context, body []byte) error {
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := w.Write([]byte{'\n'})
	return err
}

// jsonKind names the kind of JSON value body holds: "an object" when it
// starts as one (whether it is valid is the decoder's to say), "an array",
// "a string", "null", "a boolean", "a number", "an empty body", or "" when
// it is not JSON.
func jsonKind(body []byte) string {
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return "an empty body"
	case trimmed[0] == '{':
		return "an object"
	case !json.Valid(trimmed):
		return ""
	}
	switch trimmed[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

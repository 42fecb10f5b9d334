package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/web"
)

// awayShares is a share store whose database can go away: then every call
// fails as store.Postgres fails when it cannot reach its database, with
// an error that names the database.
type awayShares struct {
	web.ShareStore
	away atomic.Bool
}

const databaseDetail = "dial tcp 10.1.2.3:5432: connect: connection refused"

func (a *awayShares) fail(op string) error {
	return fmt.Errorf("%w (%s: %s)", store.ErrUnavailable, op, databaseDetail)
}

func (a *awayShares) Put(ctx context.Context, state []byte) (string, error) {
	if a.away.Load() {
		return "", a.fail("put")
	}
	return a.ShareStore.Put(ctx, state)
}

func (a *awayShares) Get(ctx context.Context, id string) ([]byte, error) {
	if a.away.Load() {
		return nil, a.fail("get")
	}
	return a.ShareStore.Get(ctx, id)
}

func (a *awayShares) Ping(ctx context.Context) error {
	if a.away.Load() {
		return a.fail("ping")
	}
	return a.ShareStore.Ping(ctx)
}

// TestDatabaseAwayAnswers503: while the database of shared states cannot
// be reached, every route that reads or writes a share answers 503 (the
// API with its JSON error, code database_unavailable), never 500 or 404,
// and says nothing of where the database is; /healthz and /metrics say the
// database is unreachable while runs go on. Once it is back, so is all of
// it.
func TestDatabaseAwayAnswers503(t *testing.T) {
	var shares *awayShares
	s := newStubServer(t, func(cfg *web.Config) {
		shares = &awayShares{ShareStore: cfg.Shares}
		cfg.Shares = shares
	})
	rec := serve(s, http.MethodPost, "/api/share", `{"snippet":"kept"}`)
	var created struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("share: %d %s", rec.Code, rec.Body)
	}
	if h := databaseHealth(t, s); h.Database != "ok" {
		t.Errorf("healthz before: %+v", h)
	}

	shares.away.Store(true)
	form := url.Values{"snippet": {"let a = 1;"}}.Encode()
	for _, r := range []struct{ method, target, body string }{
		{http.MethodPost, "/api/share", `{"snippet":"new"}`},
		{http.MethodGet, "/api/share/" + created.ID, ""},
		{http.MethodGet, "/s/" + created.ID, ""},
		{http.MethodGet, "/embed/" + created.ID, ""},
		{http.MethodPost, "/share", form},
	} {
		header := []string{"Content-Type", "application/json"}
		if r.target == "/share" {
			header = []string{"Content-Type", "application/x-www-form-urlencoded"}
		}
		rec := serve(s, r.method, r.target, r.body, header...)
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s %s while the database is away: %d %.300s", r.method, r.target, rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "10.1.2.3") {
			t.Errorf("%s %s names the database: %.300s", r.method, r.target, rec.Body)
		}
		if strings.HasPrefix(r.target, "/api/") {
			wantError(t, rec, http.StatusServiceUnavailable, "database_unavailable")
		}
	}
	if rec := serve(s, http.MethodPost, "/api/run", `{"snippet":"let a = 1;"}`); rec.Code != http.StatusOK {
		t.Errorf("a run while the database is away: %d %s", rec.Code, rec.Body)
	}
	if h := databaseHealth(t, s); h.Database != "unreachable" {
		t.Errorf("healthz while away: %+v", h)
	}
	m := serve(s, http.MethodGet, "/metrics", "").Body.String()
	for _, line := range []string{"playground_database_up 0", "playground_database_errors_total 5"} {
		if !strings.Contains(m, line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, m)
		}
	}

	shares.away.Store(false)
	if rec := serve(s, http.MethodGet, "/api/share/"+created.ID, ""); rec.Code != http.StatusOK || rec.Body.String() != `{"snippet":"kept"}`+"\n" {
		t.Errorf("once back: %d %s", rec.Code, rec.Body)
	}
	if h := databaseHealth(t, s); h.Database != "ok" {
		t.Errorf("healthz once back: %+v", h)
	}
	if m := serve(s, http.MethodGet, "/metrics", "").Body.String(); !strings.Contains(m, "playground_database_up 1\n") {
		t.Errorf("metrics once back:\n%s", m)
	}
}

// TestHealthWithoutSharing: with sharing off, /healthz says the database
// is off and /metrics has no database to report.
func TestHealthWithoutSharing(t *testing.T) {
	s := newStubServer(t, func(cfg *web.Config) { cfg.Shares = nil })
	if h := databaseHealth(t, s); h.Database != "off" {
		t.Errorf("healthz: %+v", h)
	}
	if m := serve(s, http.MethodGet, "/metrics", "").Body.String(); strings.Contains(m, "playground_database") {
		t.Errorf("metrics:\n%s", m)
	}
}

type healthAnswer struct {
	Status, Database string
}

func databaseHealth(t *testing.T, s http.Handler) healthAnswer {
	t.Helper()
	rec := serve(s, http.MethodGet, "/healthz", "")
	var h healthAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
		t.Fatalf("healthz: %d %s", rec.Code, rec.Body)
	}
	return h
}

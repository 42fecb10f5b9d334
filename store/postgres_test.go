package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dispatch-playground/playground/store/storetest"
)

// TestOpenPostgresNamesAnUnreachableDatabase: a server whose database is
// not there fails at start, with an error that says where it looked and
// what happened, and not the password. It needs no database: the port is
// one nothing listens on.
func TestOpenPostgresNamesAnUnreachableDatabase(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	start := time.Now()
	s, err := OpenPostgres(context.Background(), "postgres://playground:hunter2@"+addr+"/shares?sslmode=disable", 0)
	if err == nil {
		_ = s.Close()
		t.Fatal("opened a database nothing serves")
	}
	t.Log(err)
	for _, want := range []string{"PostgreSQL at " + addr, `database "shares"`, `user "playground"`, "is unreachable", "connection refused"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %q shows the password", err)
	}
	if took := time.Since(start); took > startTimeout {
		t.Errorf("took %v", took)
	}
	if _, err := OpenPostgres(context.Background(), "postgres://a:hunter2@[::1", 0); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a URL that does not parse: %v", err)
	}
}

// TestOpenPostgresMigrates: an empty database gets the schema, one at
// this server's version is left as it is, and one at a later version (a
// newer server migrated it) is refused rather than misread.
func TestOpenPostgresMigrates(t *testing.T) {
	dbURL := storetest.PostgresURL(t)
	ctx := context.Background()
	for range 2 {
		s, err := OpenPostgres(ctx, dbURL, 0)
		if err != nil {
			t.Fatal(err)
		}
		var version, rows int
		if err := s.pool.QueryRow(ctx, `SELECT version, (SELECT count(*) FROM playground_schema) FROM playground_schema`).Scan(&version, &rows); err != nil {
			t.Fatal(err)
		}
		if version != len(migrations) || rows != 1 {
			t.Errorf("schema version %d in %d rows, want %d in one", version, rows, len(migrations))
		}
		if _, err := s.pool.Exec(ctx, `UPDATE playground_schema SET version = $1`, len(migrations)+1); err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
		_, err = OpenPostgres(ctx, dbURL, 0)
		want := fmt.Sprintf("the schema is at version %d, newer than this server's %d", len(migrations)+1, len(migrations))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("a newer schema: %v", err)
		}
		resetVersion(t, dbURL, len(migrations))
	}
}

// TestOpenPostgresStartsTogether: replicas that start at once on an empty
// database migrate it once, and all start.
func TestOpenPostgresStartsTogether(t *testing.T) {
	dbURL := storetest.PostgresURL(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			s, err := OpenPostgres(context.Background(), dbURL, 1)
			if err == nil {
				_ = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestOpenPostgresRefusesADatabaseItCannotWrite: a database that takes
// reads but not writes (a standby, or a user who may only read; here
// every transaction is read-only) fails at start, as a SQLite file the
// server cannot write does.
func TestOpenPostgresRefusesADatabaseItCannotWrite(t *testing.T) {
	dbURL := storetest.PostgresURL(t)
	s, err := OpenPostgres(context.Background(), dbURL, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	readOnly := withParam(t, dbURL, "default_transaction_read_only", "on")
	if s, err := OpenPostgres(context.Background(), readOnly, 0); err == nil {
		_ = s.Close()
		t.Fatal("a read-only database opened")
	} else if !strings.Contains(err.Error(), "can be read but not written") {
		t.Errorf("error %q", err)
	} else {
		t.Log(err)
	}
}

// TestPostgresIsUnavailableWhileTheDatabaseIsAway: once started, a store
// whose database goes away answers ErrUnavailable, promptly, and works
// again as soon as the database is back, without a restart.
func TestPostgresIsUnavailableWhileTheDatabaseIsAway(t *testing.T) {
	proxied, proxy := storetest.ThroughProxy(t, storetest.PostgresURL(t))
	ctx := context.Background()
	s, err := OpenPostgres(ctx, proxied, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	kept, err := s.Put(ctx, []byte(`{"snippet":"before"}`))
	if err != nil {
		t.Fatal(err)
	}

	proxy.Cut()
	start := time.Now()
	if _, err := s.Put(ctx, []byte(`{"snippet":"while away"}`)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Put while the database is away: %v", err)
	} else {
		t.Log(err)
	}
	if _, err := s.Get(ctx, kept); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Get while the database is away: %v", err)
	}
	if err := s.Ping(ctx); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Ping while the database is away: %v", err)
	}
	if took := time.Since(start); took > queryTimeout {
		t.Errorf("the three answers took %v", took)
	}
	// The caller's own deadline is the caller's error, not the database's.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Get(done, kept); err == nil || errors.Is(err, ErrUnavailable) {
		t.Errorf("Get with a cancelled context: %v", err)
	}

	proxy.Restore()
	if got, err := s.Get(ctx, kept); err != nil || string(got) != `{"snippet":"before"}` {
		t.Fatalf("Get once the database is back: %s, %v", got, err)
	}
	if _, err := s.Put(ctx, []byte(`{"snippet":"after"}`)); err != nil {
		t.Errorf("Put once the database is back: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping once the database is back: %v", err)
	}
}

func withParam(t *testing.T, dbURL, key, value string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

func resetVersion(t *testing.T, dbURL string, version int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE playground_schema SET version = $1`, version); err != nil {
		t.Fatal(err)
	}
}

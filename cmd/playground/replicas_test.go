package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/store/storetest"
)

// replicaRounds is how many times one of the two replicas is killed.
const replicaRounds = 6

// TestReplicasShareOnePostgres starts two real servers on one PostgreSQL
// database. A share made on either opens on the other. Then, round after
// round, clients share through both at once, one replica is killed with
// SIGKILL part-way and the clients go on through the other: every share
// either acknowledged reads back byte for byte from the survivor. The
// killed replica is started again, and the next round kills the other. At
// the end every row holds the state its id is the hash of.
func TestReplicasShareOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and starts it a dozen times")
	}
	dbURL := storetest.PostgresURL(t)
	bin := buildPlayground(t)
	replicas := []*playgroundProcess{startPlayground(t, bin, dbURL), startPlayground(t, bin, dbURL)}

	acked := map[string][]byte{}
	for i, from := range replicas {
		state := []byte(`{"v":1,"config":"","snippet":"// shared on replica ` + string(rune('A'+i)) + `","mode":"panic"}`)
		id, ok := postShare(context.Background(), http.DefaultClient, from.url, state)
		if !ok {
			t.Fatalf("replica %c did not acknowledge a share", 'A'+i)
		}
		acked[id] = state
		verifyShares(t, replicas[1-i].url, map[string][]byte{id: state})
	}
	for i, r := range replicas {
		if h := healthOf(t, r.url); h.Database != "ok" {
			t.Errorf("replica %c: /healthz %+v", 'A'+i, h)
		}
	}

	rng := rand.New(rand.NewPCG(17, 2))
	for round := range replicaRounds {
		victim := round % 2
		killAfter := time.Duration(100+rng.IntN(200)) * time.Millisecond
		got := shareUntilKilled(t, replicas, replicas[victim], round, killAfter, killAfter+300*time.Millisecond, acked)
		if len(got) == 0 {
			t.Fatalf("round %d: no share was acknowledged", round)
		}
		for id, state := range got {
			acked[id] = state
		}
		verifyShares(t, replicas[1-victim].url, acked)
		t.Logf("round %d: %d shares acknowledged, replica %c killed at %v; the other reads all %d", round, len(got), 'A'+victim, killAfter, len(acked))
		replicas[victim] = startPlayground(t, bin, dbURL)
	}
	verifyShares(t, replicas[0].url, acked)
	checkPostgres(t, dbURL, acked)
}

// TestReplicaAnswers503WhileTheDatabaseIsAway: a real server whose
// database goes away after it started answers shares with 503 and the
// API's JSON error, says so in /healthz, and serves shares again once the
// database is back, without a restart.
func TestReplicaAnswers503WhileTheDatabaseIsAway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server")
	}
	proxied, proxy := storetest.ThroughProxy(t, storetest.PostgresURL(t))
	srv := startPlayground(t, buildPlayground(t), proxied)
	state := []byte(`{"v":1,"snippet":"kept"}`)
	id, ok := postShare(context.Background(), http.DefaultClient, srv.url, state)
	if !ok {
		t.Fatal("no share acknowledged")
	}

	proxy.Cut()
	for _, req := range []struct{ method, path, body string }{
		{http.MethodPost, "/api/share", `{"snippet":"while away"}`},
		{http.MethodGet, "/api/share/" + id, ""},
	} {
		status, body := request(t, req.method, srv.url+req.path, req.body)
		var answer struct {
			Error struct{ Code, Message string }
		}
		if status != http.StatusServiceUnavailable || json.Unmarshal(body, &answer) != nil || answer.Error.Code != "database_unavailable" {
			t.Errorf("%s %s while the database is away: %d %s", req.method, req.path, status, body)
		}
	}
	if h := healthOf(t, srv.url); h.Database != "unreachable" {
		t.Errorf("/healthz while the database is away: %+v", h)
	}

	proxy.Restore()
	verifyShares(t, srv.url, map[string][]byte{id: state})
	if h := healthOf(t, srv.url); h.Database != "ok" {
		t.Errorf("/healthz once the database is back: %+v", h)
	}
}

// TestServeExitsWhenTheDatabaseIsUnreachable: a server whose PostgreSQL
// cannot be reached at start exits, saying where it looked and what
// happened, and not the password; DATABASE_URL stands for --db. It needs
// no database: the port is one nothing listens on.
func TestServeExitsWhenTheDatabaseIsUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	dbURL := "postgres://playground:hunter2@" + addr + "/shares"
	noEngine := filepath.Join(t.TempDir(), "no-engine.wasm")
	check := func(how string, args ...string) {
		t.Helper()
		code, _, stderr := cli(t, append([]string{"serve", "--addr", "127.0.0.1:0", "--wasm", noEngine, "--cache-dir", ""}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "PostgreSQL at "+addr) || !strings.Contains(stderr, "is unreachable") {
			t.Errorf("%s: exit %d, stderr %q", how, code, stderr)
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("%s: stderr shows the password: %q", how, stderr)
		}
	}
	check("--db", "--db", dbURL)
	t.Setenv("DATABASE_URL", dbURL)
	check("DATABASE_URL")

	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"--db", "mysql://u@h/db"}, `not "mysql://..."`},
		{"data/shares.db", nil, "DATABASE_URL is not a postgres:// URL"},
		{"", []string{"--db", filepath.Join(t.TempDir(), "s.db"), "--db-conns", "8"}, "--db-conns sizes the pool of a PostgreSQL --db"},
		{"", []string{"--db", dbURL, "--db-conns", "0"}, "--db-conns is at least 1"},
	} {
		t.Setenv("DATABASE_URL", c.env)
		code, _, stderr := cli(t, append([]string{"serve", "--wasm", noEngine}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("DATABASE_URL=%q %q: exit %d, stderr %q", c.env, c.args, code, stderr)
		}
	}
}

type healthAnswer struct {
	Status, Database string
}

func healthOf(t *testing.T, url string) healthAnswer {
	t.Helper()
	_, body := request(t, http.MethodGet, url+"/healthz", "")
	var h healthAnswer
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("/healthz: %s", body)
	}
	return h
}

func request(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// checkPostgres reads the shares table below the API: every row holds the
// state its id is the hash of, and no acknowledged share is missing.
func checkPostgres(t *testing.T, dbURL string, acked map[string][]byte) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT id, state FROM shares`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	found := map[string]bool{}
	for rows.Next() {
		var id string
		var state []byte
		if err := rows.Scan(&id, &state); err != nil {
			t.Fatal(err)
		}
		if store.ID(state) != id || !json.Valid(state) {
			t.Errorf("row %s holds %d bytes whose hash is %s", id, len(state), store.ID(state))
		}
		if want, ok := acked[id]; ok && !bytes.Equal(state, want) {
			t.Errorf("row %s differs from the state acknowledged", id)
		}
		found[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range acked {
		if !found[id] {
			t.Errorf("acknowledged share %s has no row", id)
		}
	}
	t.Logf("database: %d rows, each holding the state its id names; all %d acknowledged shares among them", len(found), len(acked))
}

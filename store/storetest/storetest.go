// Package storetest gives tests a PostgreSQL database of their own, when
// the machine has one for them, and a proxy in front of it that can cut
// the connections: a database that goes away and comes back, without
// stopping the one other tests use.
//
// It is for tests only. Without EnvPostgres the PostgreSQL tests skip,
// and SQLite's run alone.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvPostgres names the environment variable that holds the URL
// (postgres://...) of a PostgreSQL database the tests may create schemas
// in. .ci/run starts a server and sets it.
const EnvPostgres = "PLAYGROUND_TEST_POSTGRES"

// PostgresURL returns the URL of a new, empty schema in the test database,
// dropped when t ends: the URL sets search_path, so what a test creates
// there is its own. It skips t when EnvPostgres is not set, and fails it
// when the database it names cannot be reached.
func PostgresURL(t testing.TB) string {
	t.Helper()
	SkipWithoutPostgres(t)
	base := os.Getenv(EnvPostgres)
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("%s is not a postgres:// URL", EnvPostgres)
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	schema := "test_" + hex.EncodeToString(suffix[:])
	exec(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { exec(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// SkipWithoutPostgres skips t, saying why, when EnvPostgres is not set.
func SkipWithoutPostgres(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvPostgres) == "" {
		t.Skipf("%s is not set, so the PostgreSQL tests are skipped: set it to the postgres:// URL of a database they may create schemas in (.ci/run starts one)", EnvPostgres)
	}
}

// exec runs one statement on its own connection.
func exec(t testing.TB, dbURL, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("the test database (%s): %v", EnvPostgres, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// Proxy forwards TCP connections on a loopback port to a database.
type Proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]bool
}

// ThroughProxy returns dbURL with its host replaced by a new Proxy's
// address, and the proxy, which is closed when t ends.
func ThroughProxy(t testing.TB, dbURL string) (string, *Proxy) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	go p.accept()
	t.Cleanup(func() {
		_ = ln.Close()
		p.Cut()
	})
	u.Host = ln.Addr().String()
	return u.String(), p
}

// Cut closes every connection through the proxy, and every new one at
// once, until Restore: to a client the database has gone away.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
}

// Restore forwards new connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

func (p *Proxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.forward(client)
	}
}

func (p *Proxy) forward(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = client.Close()
		return
	}
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		_ = client.Close()
		_ = server.Close()
		return
	}
	p.conns[client], p.conns[server] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(server, client)
	go pipe(client, server)
	<-done
	_ = client.Close()
	_ = server.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

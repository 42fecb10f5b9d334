package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeout is how long a write waits for another writer.
const busyTimeout = 5 * time.Second

const sqliteSchema = `CREATE TABLE IF NOT EXISTS shares (
	id      TEXT PRIMARY KEY,
	state   BLOB NOT NULL,
	created INTEGER NOT NULL
) STRICT`

// SQLite is a share store in one SQLite file, for a server on one
// machine. It is safe for concurrent use.
type SQLite struct {
	db *sql.DB
}

// OpenSQLite opens (creating if needed) the database file at path. A file
// the server may read but not write fails here, not at the first share.
func OpenSQLite(path string) (*SQLite, error) { return openSQLite(path, nil) }

// openSQLite is OpenSQLite with more parameters of SQLite's URI (a test
// opens a file read-only with mode=ro).
func openSQLite(path string, params url.Values) (*SQLite, error) {
	query := url.Values{"_pragma": {
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
	}}
	for k, v := range params {
		query[k] = v
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + query.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(sqliteSchema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := probeWrite(db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: %s can be read but not written (%w); shares need a database file the server can write", path, err)
	}
	return &SQLite{db: db}, nil
}

// probeWrite writes to the database and takes the write back. The schema
// alone proves nothing: on a database that has it, CREATE TABLE IF NOT
// EXISTS writes nothing.
func probeWrite(db *sql.DB) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	_, err = tx.Exec(`CREATE TABLE write_probe (x INTEGER)`)
	return err
}

// Close closes the database.
func (s *SQLite) Close() error { return s.db.Close() }

// Ping reports whether the database file answers.
func (s *SQLite) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Put stores state and returns its id. It stores only a state DecodeState
// reads, and fails with DecodeState's error otherwise. Whitespace outside
// strings does not count: two states that differ only there get the same
// id.
func (s *SQLite) Put(ctx context.Context, state []byte) (string, error) {
	id, compact, err := prepare(state)
	if err != nil {
		return "", err
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO shares (id, state, created) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		id, compact, time.Now().Unix())
	if err != nil {
		return "", fmt.Errorf("store: put: %w", err)
	}
	return id, nil
}

// Get returns the state stored under id.
func (s *SQLite) Get(ctx context.Context, id string) ([]byte, error) {
	if !validID(id) {
		return nil, ErrNotFound
	}
	var state []byte
	err := s.db.QueryRowContext(ctx, `SELECT state FROM shares WHERE id = ?`, id).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: get: %w", err)
	}
	return state, nil
}

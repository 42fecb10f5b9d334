package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// MaxStateBytes bounds the JSON of one stored state. Its texts are limited
// to MaxTextBytes; JSON escaping can make their encoding up to six times
// larger (a control character takes six bytes), and this leaves room.
const MaxStateBytes = 512 << 10

// IDLength is the length of an id: 11 base64url characters carry 66 bits
// of the SHA-256 of the state, as in the Go playground's links.
const IDLength = 11

// Errors of Put and Get.
var (
	ErrNotFound = errors.New("store: no state with this id")
	ErrTooLarge = fmt.Errorf("store: a state is limited to %d bytes", MaxStateBytes)
)

// busyTimeout is how long a write waits for another writer.
const busyTimeout = 5 * time.Second

const schema = `CREATE TABLE IF NOT EXISTS shares (
	id      TEXT PRIMARY KEY,
	state   BLOB NOT NULL,
	created INTEGER NOT NULL
) STRICT`

// Store is a share store. It is safe for concurrent use.
type Store struct {
	db *sql.DB
}

// Open opens (creating if needed) the database file at path. A file the
// server may read but not write fails here, not at the first share.
func Open(path string) (*Store, error) { return open(path, nil) }

// open is Open with more parameters of SQLite's URI (a test opens a file
// read-only with mode=ro).
func open(path string, params url.Values) (*Store, error) {
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
	if _, err := db.Exec(schema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := probeWrite(db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: %s can be read but not written (%w); shares need a database file the server can write", path, err)
	}
	return &Store{db: db}, nil
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
func (s *Store) Close() error { return s.db.Close() }

// ID is the id of a state: the first IDLength characters of the base64url
// SHA-256 of its compact JSON.
func ID(compact []byte) string {
	sum := sha256.Sum256(compact)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:IDLength]
}

// Put stores state and returns its id. It stores only a state DecodeState
// reads, and fails with DecodeState's error otherwise. Whitespace outside
// strings does not count: two states that differ only there get the same
// id.
func (s *Store) Put(ctx context.Context, state []byte) (string, error) {
	if _, err := DecodeState(state); err != nil {
		return "", err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, state); err != nil {
		return "", err // DecodeState accepted it as JSON
	}
	id := ID(compact.Bytes())
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO shares (id, state, created) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		id, compact.Bytes(), time.Now().Unix())
	if err != nil {
		return "", fmt.Errorf("store: put: %w", err)
	}
	return id, nil
}

// Get returns the state stored under id.
func (s *Store) Get(ctx context.Context, id string) ([]byte, error) {
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

func validID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

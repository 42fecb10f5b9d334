package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Timeouts of the PostgreSQL store. A database that stops answering (a
// network partition drops packets rather than refusing them) fails a share
// within queryTimeout instead of holding its request until TCP gives up.
const (
	// startTimeout bounds OpenPostgres: connecting, migrating the schema
	// and checking that the database takes writes.
	startTimeout = 15 * time.Second
	// queryTimeout bounds one Put or Get, its one retry included.
	queryTimeout = 5 * time.Second
)

// DefaultPostgresConns is the pool's size when OpenPostgres is given none:
// connections one server may hold open to the database.
const DefaultPostgresConns = 4

// migrations are the versions of the PostgreSQL schema: migrations[i]
// takes a database at version i to version i+1. A server migrates the
// database when it starts; playground_schema holds the version reached.
// States are bytea, not jsonb, which would not keep their bytes.
var migrations = []string{
	`CREATE TABLE shares (
		id      text PRIMARY KEY,
		state   bytea NOT NULL,
		created timestamptz NOT NULL DEFAULT now()
	)`,
}

// migrationLock is the key of the advisory lock a server holds while it
// migrates, so that replicas starting together migrate the database once.
const migrationLock = 0x706c617967726e64 // "playgrnd"

// Postgres is a share store in a PostgreSQL database, which any number of
// servers may share. It is safe for concurrent use.
type Postgres struct {
	pool  *pgxpool.Pool
	where string // describe's
}

// String names the database, without its password.
func (p *Postgres) String() string { return p.where }

// OpenPostgres connects to the database at url (postgres://...), creates
// or migrates its schema and checks that it takes writes. maxConns sizes
// the pool (0: DefaultPostgresConns). It fails, naming the database and
// the reason, when the database cannot be reached, runs a newer schema
// than this server knows, or can be read but not written.
func OpenPostgres(ctx context.Context, url string, maxConns int) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err) // pgx leaves the password out
	}
	if maxConns <= 0 {
		maxConns = DefaultPostgresConns
	}
	cfg.MaxConns = int32(maxConns)
	where := describe(cfg.ConnConfig)

	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: %s is unreachable: %w", where, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: %s: %w", where, err)
	}
	if err := probeWritePostgres(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: %s can be read but not written (%w); shares need a database the server can write", where, err)
	}
	return &Postgres{pool: pool, where: where}, nil
}

// describe names a database for errors and logs: where it is, which
// database and as whom, never the password.
func describe(c *pgx.ConnConfig) string {
	host := c.Host
	if !strings.HasPrefix(host, "/") {
		host = fmt.Sprintf("%s:%d", host, c.Port)
	}
	return fmt.Sprintf("PostgreSQL at %s (database %q, user %q)", host, c.Database, c.User)
}

// migrate brings the schema to the last of migrations, under the advisory
// lock, in one transaction: a server killed part-way leaves the schema as
// it was.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	// A database at this server's version needs neither the lock nor a
	// write, so a server that may only read gets as far as
	// probeWritePostgres, which says so.
	var current int
	if pool.QueryRow(ctx, `SELECT version FROM playground_schema`).Scan(&current) == nil && current == len(migrations) {
		return nil
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return fmt.Errorf("the schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS playground_schema (version integer NOT NULL)`); err != nil {
			return fmt.Errorf("the schema: %w", err)
		}
		version := 0
		err := tx.QueryRow(ctx, `SELECT version FROM playground_schema`).Scan(&version)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("the schema's version: %w", err)
		}
		if version > len(migrations) {
			return fmt.Errorf("the schema is at version %d, newer than this server's %d; run a newer server", version, len(migrations))
		}
		if version == len(migrations) {
			return nil
		}
		for v := version; v < len(migrations); v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM playground_schema`); err != nil {
			return fmt.Errorf("the schema's version: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO playground_schema (version) VALUES ($1)`, len(migrations)); err != nil {
			return fmt.Errorf("the schema's version: %w", err)
		}
		return nil
	})
}

// probeWritePostgres inserts a row into shares and takes it back: a user
// who may only read, or a standby, fails here. Its id is empty, which no
// share has.
func probeWritePostgres(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	_, err = tx.Exec(ctx, `INSERT INTO shares (id, state) VALUES ('', '') ON CONFLICT (id) DO NOTHING`)
	return err
}

// Close closes the pool's connections.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Ping reports whether the database answers: nil, or an error that is
// ErrUnavailable.
func (p *Postgres) Ping(ctx context.Context) error {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	if err := p.pool.Ping(qctx); err != nil {
		return p.fail(ctx, "ping", err)
	}
	return nil
}

// Put stores state and returns its id, as SQLite.Put does: the same
// validation, the same errors, the same id.
func (p *Postgres) Put(ctx context.Context, state []byte) (string, error) {
	id, compact, err := prepare(state)
	if err != nil {
		return "", err
	}
	err = p.retry(ctx, func(ctx context.Context) error {
		_, err := p.pool.Exec(ctx, `INSERT INTO shares (id, state) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, compact)
		return err
	})
	if err != nil {
		return "", p.fail(ctx, "put", err)
	}
	return id, nil
}

// Get returns the state stored under id.
func (p *Postgres) Get(ctx context.Context, id string) ([]byte, error) {
	if !validID(id) {
		return nil, ErrNotFound
	}
	var state []byte
	err := p.retry(ctx, func(ctx context.Context) error {
		return p.pool.QueryRow(ctx, `SELECT state FROM shares WHERE id = $1`, id).Scan(&state)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, p.fail(ctx, "get", err)
	}
	return state, nil
}

// retry runs op within queryTimeout, and once more when the database did
// not answer it: a connection of the pool may have died since its last
// use (the database restarted), and the next is likely fresh. Put and Get
// may run twice: the id is the content's hash, and a second insert of it
// does nothing.
func (p *Postgres) retry(ctx context.Context, op func(context.Context) error) error {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	err := op(qctx)
	if err != nil && qctx.Err() == nil && unreachable(err) {
		err = op(qctx)
	}
	return err
}

// fail wraps an error of the database. One that says the database could
// not be reached, or did not answer within queryTimeout, is
// ErrUnavailable, unless the caller gave up first (ctx is done): then the
// error is the caller's.
func (p *Postgres) fail(ctx context.Context, op string, err error) error {
	if ctx.Err() == nil && unreachable(err) {
		return fmt.Errorf("%w (%s: %w)", ErrUnavailable, op, err)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// unreachable says whether err means the database is not there to answer,
// rather than that it refused the statement. PostgreSQL's answers are
// SQLSTATE codes: the classes of a broken connection (08), of a server
// short of resources (53: connections, disk, memory) and of an operator's
// intervention (57: a shutdown, a cancelled or timed-out statement), and a
// read-only transaction (25006: a standby where the primary was). Any
// error that is no answer of the server's (a refused or closed connection,
// a timeout) is unreachable too.
func unreachable(err error) bool {
	if errors.Is(err, pgx.ErrNoRows) {
		return false
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		class := pgErr.Code[:min(2, len(pgErr.Code))]
		return class == "08" || class == "53" || class == "57" || pgErr.Code == "25006"
	}
	return true
}

package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/web"
)

func serveCommand(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", web.DefaultAddr, "address to listen on")
	db := fs.String("db", defaultDB, "shared states: a SQLite file, or a postgres:// URL of a database every replica reaches; without --db, $DATABASE_URL when it is set; empty: sharing off")
	dbConns := fs.Int("db-conns", store.DefaultPostgresConns, "connections to PostgreSQL this server may hold open (with a postgres:// --db)")
	origins := fs.String("cors-origins", strings.Join(web.DefaultCORSConfig.AllowOrigins, ","), "origins that may read /api/* from a browser, comma-separated; * for any, empty for none")
	writes := fs.Bool("cors-writes", false, "also let those origins POST to /api/run and /api/share")
	proxies := fs.String("trusted-proxies", "", "reverse proxies whose X-Forwarded-For names the client (IP addresses or CIDR ranges, comma-separated); empty: the client is the connection's peer")
	logFormat := fs.String("log-format", "text", "log format: text or json")
	limits := web.DefaultLimits()
	fs.Int64Var(&limits.BodyBytes, "max-body", web.DefaultBodyBytes, "largest request body, in bytes (413 above)")
	fs.IntVar(&limits.SnippetBytes, "max-snippet", web.DefaultSnippetBytes, "largest snippet, in bytes (413 above)")
	rate := web.DefaultRateLimit
	fs.Float64Var(&rate.PerSecond, "rate-limit", rate.PerSecond, "runs and writes a client may make per second, sustained (429 above), counted by this server alone: each replica behind a load balancer counts its own; 0 turns the limit off")
	fs.IntVar(&rate.Burst, "rate-burst", rate.Burst, "runs and writes a client may make at once")
	fs.DurationVar(&rate.TimeCost, "rate-time-cost", rate.TimeCost, "a run stopped by the wall time, the step budget or the memory limit costs its client one more request per this much time it took; 0: one request like any other")
	fs.IntVar(&rate.ClientRuns, "client-runs", rate.ClientRuns, "runs one client may have in the sandbox at once, running or queued (429 above); 0: no limit")
	sf := addSandboxFlags(fs)
	fs.StringVar(&sf.workerUser, "worker-user", "", "when serving as root, run the sandbox's workers as this user (a name or uid), one of their own")
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usageError("unexpected arguments %q", rest)
	}
	if sf.workerUser != "" {
		if sf.isolation != wasm.ProcessIsolation {
			return usageError("--worker-user needs --isolation %s", wasm.ProcessIsolation)
		}
		if err := wasm.CheckWorkerUser(sf.workerUser); err != nil {
			return usageError("--worker-user: %v", err)
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["db"] {
		if env := os.Getenv("DATABASE_URL"); env != "" {
			if !isPostgresURL(env) {
				return usageError("DATABASE_URL is not a postgres:// URL; a SQLite file is given with --db")
			}
			*db = env
		}
	}
	if strings.Contains(*db, "://") && !isPostgresURL(*db) {
		return usageError("--db is a SQLite file or a postgres:// URL, not %q", strings.SplitN(*db, "://", 2)[0]+"://...")
	}
	if set["db-conns"] && !isPostgresURL(*db) {
		return usageError("--db-conns sizes the pool of a PostgreSQL --db; SQLite has none")
	}
	if *dbConns < 1 {
		return usageError("--db-conns is at least 1, not %d", *dbConns)
	}
	logger, err := newLogger(*logFormat, stderr)
	if err != nil {
		return err
	}
	// The database comes first: a server that cannot reach it exits at
	// once, before it starts the sandbox.
	shares, err := openShares(ctx, *db, *dbConns, logger)
	if err != nil {
		return err
	}
	if shares != nil {
		defer shares.Close()
	}

	cfg := web.Config{
		Limits:    limits,
		RateLimit: rate,
		CORS:      web.CORSConfig{AllowOrigins: splitList(*origins), AllowWrites: *writes, MaxAge: web.DefaultCORSConfig.MaxAge},
		Version:   engine.Version,
		Logger:    logger,
	}
	cfg.TrustedProxies = splitList(*proxies)
	// A server without a sandbox still serves pages and answers runs with
	// 503, which says more than refusing to start.
	if sb, err := sf.start(ctx, logger); err != nil {
		logger.Error("the sandbox did not start; runs will answer 503", "err", err)
		cfg.SandboxError = err
	} else {
		cfg.Sandbox = sb
		defer sb.Close(context.Background())
		// GOMEMLIMIT, when set, is the operator's choice.
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(web.SoftMemoryLimit(sf.limits, sb.Isolation()))
		}
		logger.Info("sandbox ready", "isolation", sb.Isolation(), "instances", sf.limits.PoolSize, "memory_pages", sf.limits.MemoryPages, "wall_time", sf.limits.WallTime)
	}
	if shares != nil {
		cfg.Shares = shares
	}
	server, err := web.New(cfg)
	if err != nil {
		return err
	}
	return server.ListenAndServe(ctx, *addr)
}

// defaultDB is the SQLite file of `playground serve`, relative to where
// it runs.
var defaultDB = filepath.Join("data", "playground.db")

// shareStore is what serve holds of either store.
type shareStore interface {
	web.ShareStore
	Close() error
}

// openShares opens the share store --db names: nil for "", PostgreSQL for
// a postgres:// URL, else a SQLite file (its folder made if needed).
func openShares(ctx context.Context, db string, conns int, logger *slog.Logger) (shareStore, error) {
	switch {
	case db == "":
		logger.Info("sharing is off: no --db")
		return nil, nil
	case isPostgresURL(db):
		pg, err := store.OpenPostgres(ctx, db, conns)
		if err != nil {
			return nil, err
		}
		logger.Info("shares in PostgreSQL", "database", pg.String(), "conns", conns)
		return pg, nil
	}
	if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
		return nil, err
	}
	lite, err := store.OpenSQLite(db)
	if err != nil {
		return nil, err
	}
	logger.Info("shares in SQLite", "file", db)
	return lite, nil
}

// isPostgresURL says whether --db names a PostgreSQL database, in either
// of the schemes libpq takes.
func isPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, usageError("--log-format is text or json, not %q", format)
}

func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

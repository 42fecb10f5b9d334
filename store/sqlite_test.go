package store

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSQLiteRefusesADatabaseItCannotWrite: a database file that exists and
// can be read but not written fails OpenSQLite with an error that says so,
// instead of opening and failing every share. The tests run as root, for
// whom file permissions do not stop a write; SQLite's mode=ro opens the
// file as it opens one it may not write (it falls back to reading it).
func TestOpenSQLiteRefusesADatabaseItCannotWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shares.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Put(context.Background(), []byte(`{"snippet":"kept"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()

	ro, err := openSQLite(path, url.Values{"mode": {"ro"}})
	if err == nil {
		_, putErr := ro.Put(context.Background(), []byte(`{"snippet":"new"}`))
		_ = ro.Close()
		t.Fatalf("a read-only database opened (and a share failed with %v)", putErr)
	}
	t.Log(err)
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not written") {
		t.Errorf("error %q does not name the file and say it cannot be written", err)
	}

	// The probe leaves nothing behind: the file opens for writing again,
	// with its shares.
	again, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := again.Get(context.Background(), id); err != nil || string(got) != `{"snippet":"kept"}` {
		t.Errorf("after the probe: %s, %v", got, err)
	}
	var tables int
	if err := again.db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'write_probe'`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("the probe's table is left: %d, %v", tables, err)
	}
}

// TestOpenSQLiteRefusesAFileWithoutWritePermission: the same for a file whose
// permissions forbid writing, where they apply (not to root).
func TestOpenSQLiteRefusesAFileWithoutWritePermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("file permissions do not stop root from writing; TestOpenSQLiteRefusesADatabaseItCannotWrite covers a read-only database")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "shares.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if s, err := OpenSQLite(path); err == nil {
		_ = s.Close()
		t.Fatal("a file without write permission opened")
	} else if !strings.Contains(err.Error(), "not written") {
		t.Errorf("error %q", err)
	}
}

// TestSQLiteWritesAhead: the file is in WAL mode, so reads never wait for
// writes.
func TestSQLiteWritesAhead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shares.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Put(context.Background(), []byte(`{"snippet":"kept"}`)); err != nil {
		t.Fatal(err)
	}
	if matches, _ := filepath.Glob(path + "-wal"); len(matches) != 1 {
		t.Errorf("no WAL file beside %s", path)
	}
}

package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/store/storetest"
)

// shareStore is what the suite needs of either store.
type shareStore interface {
	Put(ctx context.Context, state []byte) (string, error)
	Get(ctx context.Context, id string) ([]byte, error)
	Ping(ctx context.Context) error
	Close() error
}

// A backend opens stores of one kind. open makes a new, empty database
// and opens it; reopen opens that database again, as another server (or
// the same one after a restart) would.
type backend struct {
	name string
	open func(t testing.TB) (s shareStore, reopen func(t testing.TB) shareStore)
}

var backends = []backend{
	{"sqlite", func(t testing.TB) (shareStore, func(testing.TB) shareStore) {
		path := filepath.Join(t.TempDir(), "shares.db")
		reopen := func(t testing.TB) shareStore {
			t.Helper()
			s, err := store.OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s
		}
		return reopen(t), reopen
	}},
	{"postgres", func(t testing.TB) (shareStore, func(testing.TB) shareStore) {
		url := storetest.PostgresURL(t)
		reopen := func(t testing.TB) shareStore {
			t.Helper()
			s, err := store.OpenPostgres(context.Background(), url, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s
		}
		return reopen(t), reopen
	}},
}

// suite is every behaviour the two stores share, each case run against
// each backend in a database of its own.
var suite = []struct {
	name string
	test func(t *testing.T, s shareStore, reopen func(testing.TB) shareStore)
}{
	{"PutGetRoundTrip", testPutGetRoundTrip},
	{"IDIsTheContentHash", testIDIsTheContentHash},
	{"LimitsAndErrors", testLimitsAndErrors},
	{"DecodeStateReadsWhatPutStores", testDecodeStateReadsWhatPutStores},
	{"PersistsAcrossOpens", testPersistsAcrossOpens},
	{"ConcurrentWriters", testConcurrentWriters},
	{"TwoServersOnOneDatabase", testTwoServersOnOneDatabase},
	{"Ping", testPing},
}

// TestStore runs the suite against SQLite, and against PostgreSQL when
// storetest.EnvPostgres names a database (it skips otherwise, saying so).
func TestStore(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			if b.name == "postgres" {
				storetest.SkipWithoutPostgres(t)
			}
			for _, c := range suite {
				t.Run(c.name, func(t *testing.T) {
					s, reopen := b.open(t)
					c.test(t, s, reopen)
				})
			}
		})
	}
}

func testPutGetRoundTrip(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	ctx := context.Background()
	id, err := s.Put(ctx, []byte(`{"v": 1, "snippet": "let a = 1;"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != store.IDLength {
		t.Fatalf("id %q has length %d", id, len(id))
	}
	got, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"v":1,"snippet":"let a = 1;"}` {
		t.Fatalf("got %s", got)
	}
}

func testIDIsTheContentHash(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	ctx := context.Background()
	a, _ := s.Put(ctx, []byte(`{"snippet":"x"}`))
	b, _ := s.Put(ctx, []byte("{\n  \"snippet\": \"x\"\n}"))
	c, _ := s.Put(ctx, []byte(`{"snippet":"y"}`))
	if a != b {
		t.Errorf("same state, different ids %q %q", a, b)
	}
	if a == c {
		t.Errorf("different states share id %q", a)
	}
	if want := store.ID([]byte(`{"snippet":"x"}`)); a != want {
		t.Errorf("id %q, want %q", a, want)
	}
	// The id of the README's example is the same on every backend and
	// every machine: links outlive a change of database.
	if id, err := s.Put(ctx, []byte(`{"config": "", "snippet": "let a = 1;"}`)); err != nil || id != "LxYIbq6HMiR" {
		t.Errorf("the README's state got id %q, %v; want LxYIbq6HMiR", id, err)
	}
}

func testLimitsAndErrors(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	ctx := context.Background()
	big := `{"snippet":"` + strings.Repeat("a", store.MaxStateBytes) + `"}`
	if _, err := s.Put(ctx, []byte(big)); !errors.Is(err, store.ErrTooLarge) {
		t.Errorf("big state: %v", err)
	}
	if _, err := s.Put(ctx, []byte(`{"snippet":`)); !errors.Is(err, store.ErrInvalidState) {
		t.Errorf("broken JSON: %v", err)
	}
	for _, id := range []string{"", "short", "AAAAAAAAAAA", "../../etc/x", "AAAAAAAAAA'"} {
		if _, err := s.Get(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Get(%q): %v", id, err)
		}
	}
}

func testPersistsAcrossOpens(t *testing.T, s shareStore, reopen func(testing.TB) shareStore) {
	ctx := context.Background()
	id, err := s.Put(ctx, []byte(`{"snippet":"kept"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	again := reopen(t)
	if got, err := again.Get(ctx, id); err != nil || string(got) != `{"snippet":"kept"}` {
		t.Fatalf("after reopen: %s, %v", got, err)
	}
}

func testConcurrentWriters(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	writeConcurrently(t, []shareStore{s})
}

// testTwoServersOnOneDatabase: what one store writes, another on the same
// database reads, while both write at once, some of them the same states.
func testTwoServersOnOneDatabase(t *testing.T, s shareStore, reopen func(testing.TB) shareStore) {
	writeConcurrently(t, []shareStore{s, reopen(t)})
}

// writeConcurrently shares from ten writers at once, spread over stores,
// and reads each state back from the next store; every writer also shares
// one state all the others share.
func writeConcurrently(t *testing.T, stores []shareStore) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for g := range 10 {
		wg.Go(func() {
			writer, reader := stores[g%len(stores)], stores[(g+1)%len(stores)]
			for i := range 10 {
				state := fmt.Appendf(nil, `{"writer":%d,"n":%d}`, g, i)
				if i == 5 {
					state = []byte(`{"every":"writer"}`)
				}
				id, err := writer.Put(ctx, state)
				if err != nil {
					errs <- err
					continue
				}
				if got, err := reader.Get(ctx, id); err != nil || string(got) != string(state) {
					errs <- fmt.Errorf("read back %s, %v", got, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func testPing(t *testing.T, s shareStore, _ func(testing.TB) shareStore) {
	if err := s.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

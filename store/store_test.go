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
)

func open(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shares.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

func TestPutGetRoundTrip(t *testing.T) {
	s, _ := open(t)
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

func TestIDIsTheContentHash(t *testing.T) {
	s, _ := open(t)
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
}

func TestLimitsAndErrors(t *testing.T) {
	s, _ := open(t)
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

func TestPersistsAcrossOpens(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	id, err := s.Put(ctx, []byte(`{"snippet":"kept"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	again, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := again.Get(ctx, id); err != nil || string(got) != `{"snippet":"kept"}` {
		t.Fatalf("after reopen: %s, %v", got, err)
	}
	if matches, _ := filepath.Glob(path + "-wal"); len(matches) != 1 {
		t.Errorf("no WAL file beside %s", path)
	}
}

func TestConcurrentWriters(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for g := range 10 {
		wg.Go(func() {
			for i := range 10 {
				state := fmt.Appendf(nil, `{"writer":%d,"n":%d}`, g, i)
				id, err := s.Put(ctx, state)
				if err != nil {
					errs <- err
					continue
				}
				if got, err := s.Get(ctx, id); err != nil || string(got) != string(state) {
					errs <- errors.New("read back " + string(got))
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

package wasm

import (
	"context"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// fakeRunner is a runner that tells instances apart.
type fakeRunner struct{ name string }

func (*fakeRunner) call(context.Context, engine.Request) ([]byte, error) { return nil, nil }
func (*fakeRunner) memoryPages() uint32                                  { return 0 }
func (*fakeRunner) guestStderr() string                                  { return "" }
func (*fakeRunner) used() bool                                           { return false }
func (*fakeRunner) close(context.Context) error                          { return nil }

func TestSlotsHandOutTheLastReturnedInstance(t *testing.T) {
	s := newSlots(3)
	a, b, c := &fakeRunner{"a"}, &fakeRunner{"b"}, &fakeRunner{"c"}
	s.put(a)
	s.put(b)
	s.put(c)
	take := func() runner {
		<-s.ready
		return s.pop()
	}
	if got := take(); got != c {
		t.Fatalf("took %v, want the last returned, c", got)
	}
	s.put(c)
	if got := take(); got != c {
		t.Fatalf("took %v after returning c, want c again", got)
	}
	if got, next := take(), take(); got != b || next != a {
		t.Fatalf("took %v then %v, want b then a", got, next)
	}
}

func TestSlotsPreferAnInstanceToAnEmptySlot(t *testing.T) {
	s := newSlots(3)
	a := &fakeRunner{"a"}
	s.put(a)
	s.put(nil) // a slot whose replacement failed
	<-s.ready
	if got := s.pop(); got != a {
		t.Fatalf("took %v, want the idle instance a before the empty slot", got)
	}
	<-s.ready
	if got := s.pop(); got != nil {
		t.Fatalf("took %v, want the empty slot", got)
	}
	select {
	case <-s.ready:
		t.Fatal("a token without an entry")
	default:
	}
}

// TestSlotsSwap: an idle entry is swapped in place, an entry out of the
// pool is not found, and the count of entries, so of tokens, is unchanged.
func TestSlotsSwap(t *testing.T) {
	s := newSlots(3)
	a, b, c := &fakeRunner{"a"}, &fakeRunner{"b"}, &fakeRunner{"c"}
	s.put(a)
	s.put(b)
	if !s.swap(a, nil) {
		t.Fatal("a, idle, was not found")
	}
	if s.swap(c, nil) {
		t.Fatal("c, never returned, was found")
	}
	if !s.swap(nil, c) {
		t.Fatal("the empty slot was not filled")
	}
	if s.swap(nil, a) {
		t.Fatal("an empty slot was found where there is none")
	}
	var got []runner
	for range 2 {
		<-s.ready
		got = append(got, s.pop())
	}
	if got[0] != b || got[1] != c {
		t.Fatalf("took %v, want b then c in a's place", got)
	}
	select {
	case <-s.ready:
		t.Fatal("a token without an entry")
	default:
	}
}

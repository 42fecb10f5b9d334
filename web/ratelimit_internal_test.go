package web

import (
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestLimiterAllowsTheBurstThenTheRate(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	l := newLimiter(RateLimit{PerSecond: 2, Burst: 3, Clients: 10}, clock.now)
	for i := range 3 {
		if ok, _ := l.take("a"); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, retry := l.take("a")
	if ok || retry != 500*time.Millisecond {
		t.Fatalf("past the burst: allowed %v, retry %v; want refused, 500ms", ok, retry)
	}
	if ok, _ := l.take("b"); !ok {
		t.Fatal("another client was refused")
	}
	clock.advance(250 * time.Millisecond)
	if ok, retry := l.take("a"); ok || retry != 250*time.Millisecond {
		t.Fatalf("a quarter second later: allowed %v, retry %v; want refused, 250ms", ok, retry)
	}
	clock.advance(250 * time.Millisecond)
	if ok, _ := l.take("a"); !ok {
		t.Fatal("refused once a token had refilled")
	}
	if ok, _ := l.take("a"); ok {
		t.Fatal("allowed twice on one refilled token")
	}
	clock.advance(time.Hour)
	for i := range 3 {
		if ok, _ := l.take("a"); !ok {
			t.Fatalf("after an hour, request %d refused: the bucket should hold a full burst, no more", i+1)
		}
	}
	if ok, _ := l.take("a"); ok {
		t.Fatal("an idle hour gave more than one burst")
	}
}

func TestLimiterTableStaysBounded(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	l := newLimiter(RateLimit{PerSecond: 1, Burst: 1, Clients: 2}, clock.now)
	l.take("a")
	l.take("b")
	// The table is full of clients that have spent their allowance: new
	// ones share one.
	if ok, _ := l.take("c"); !ok {
		t.Fatal("the first client past the table was refused")
	}
	if ok, _ := l.take("d"); ok {
		t.Fatal("the second client past the table did not share the first one's allowance")
	}
	if len(l.buckets) != 3 {
		t.Fatalf("%d buckets, want the 2 clients and the shared one", len(l.buckets))
	}
	// Once a and b have refilled they carry nothing worth keeping, and a
	// new client gets a place of its own.
	clock.advance(time.Second)
	if ok, _ := l.take("e"); !ok {
		t.Fatal("a new client was refused after the table's clients refilled")
	}
	if _, tracked := l.buckets["e"]; !tracked || len(l.buckets) > 2 {
		t.Fatalf("buckets %v: want e tracked and the full ones forgotten", l.buckets)
	}
}

func TestClientOf(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:5000":             "192.0.2.7",
		"[::ffff:192.0.2.7]:5000":    "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:80":  "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:80":       "2001:db8:1:3::/64",
		"pipe":                       "pipe",
	} {
		if got := clientOf(addr); got != want {
			t.Errorf("clientOf(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestChargeSpendsMoreThanTheRequestAndRefillsAtTheRate(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	l := newLimiter(RateLimit{PerSecond: 2, Burst: 30, Clients: 10}, clock.now)
	if ok, _ := l.take("greedy"); !ok {
		t.Fatal("the first request was refused")
	}
	// A run stopped at a wall time of 2 s, at 100 ms a request.
	l.charge("greedy", 20)
	if ok, _ := l.take("greedy"); !ok {
		t.Fatal("9 requests were left, and the next one was refused")
	}
	l.charge("greedy", 20)
	// 30 - 21 - 21 = -12: a request is 6.5 s of refill away.
	ok, retry := l.take("greedy")
	if ok || retry != 6500*time.Millisecond {
		t.Fatalf("after two stopped runs: allowed %v, retry %v; want refused, 6.5s", ok, retry)
	}
	if ok, _ := l.take("polite"); !ok {
		t.Fatal("another client paid for the greedy one's runs")
	}
	clock.advance(6500 * time.Millisecond)
	if ok, _ := l.take("greedy"); !ok {
		t.Fatal("refused once the allowance had refilled past one request")
	}
	l.charge("greedy", 0)
	l.charge("greedy", -3)
	if ok, _ := l.take("greedy"); ok {
		t.Fatal("a charge of nothing, or less, gave requests back")
	}
}

func TestChargeOfAForgottenClientIsItsOwn(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	l := newLimiter(RateLimit{PerSecond: 1, Burst: 5, Clients: 2}, clock.now)
	l.take("a")
	l.take("b")
	clock.advance(time.Minute)
	// a's run took a minute: its bucket is full again, and a new client
	// takes its place in the table. The charge still lands on a.
	l.take("c")
	l.charge("a", 10)
	if ok, _ := l.take("a"); ok {
		t.Fatal("the charge was lost")
	}
	if _, shared := l.buckets[sharedClient]; shared {
		t.Fatal("a's charge landed on the allowance that clients past the table share")
	}
}

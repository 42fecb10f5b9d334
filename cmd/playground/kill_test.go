package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// killRounds is how many times the server is killed in one test.
const killRounds = 20

// TestSharesSurviveSIGKILL starts the real server binary on a loopback port,
// sends shares from several clients at once, and kills the process with
// SIGKILL part-way through, twenty times over one database. After every
// restart each share the server acknowledged reads back byte for byte, the
// same state shared again gets the same id, and at the end every row of
// the database holds the state its id is the hash of, and SQLite's
// integrity check passes.
func TestSharesSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and restarts the server twenty times")
	}
	bin := buildPlayground(t)
	db := filepath.Join(t.TempDir(), "shares.db")
	acked := map[string][]byte{} // id -> the compact state acknowledged
	rng := rand.New(rand.NewPCG(7, 11))
	start := time.Now()
	for round := range killRounds {
		srv := startPlayground(t, bin, db)
		verifyShares(t, srv.url, acked)
		killAfter := time.Duration(100+rng.IntN(200)) * time.Millisecond
		got := shareUntilKilled(t, []*playgroundProcess{srv}, srv, round, killAfter, killAfter, acked)
		if len(got) == 0 {
			t.Fatalf("round %d: no share was acknowledged in %v", round, killAfter)
		}
		for id, state := range got {
			acked[id] = state
		}
		t.Logf("round %d: %d shares acknowledged before SIGKILL at %v", round, len(got), killAfter)
	}
	srv := startPlayground(t, bin, db)
	verifyShares(t, srv.url, acked)
	srv.kill(t)
	checkDatabase(t, db, acked)
	t.Logf("%d rounds, %d acknowledged shares, %v", killRounds, len(acked), time.Since(start).Round(time.Millisecond))
}

// buildPlayground builds this command into a temporary directory.
func buildPlayground(t *testing.T) string {
	t.Helper()
	root, err := wasmtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "playground")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/playground")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type playgroundProcess struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

// startPlayground serves db on a free loopback port. Shares need no
// sandbox, so the server is given a module that does not exist: it then
// starts in milliseconds and answers runs with 503.
func startPlayground(t *testing.T, bin, db string) *playgroundProcess {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--log-format", "json",
		"--rate-limit", "0", "--cache-dir", "", "--wasm", filepath.Join(t.TempDir(), "no-engine.wasm"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &playgroundProcess{cmd: cmd, done: make(chan struct{})}
	t.Cleanup(func() { p.kill(t) })
	addr := make(chan string, 1)
	go func() {
		defer close(p.done)
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			var record struct{ Msg, Addr string }
			if json.Unmarshal(lines.Bytes(), &record) == nil && record.Msg == "listening" {
				addr <- record.Addr
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		_ = cmd.Wait()
	}()
	select {
	case p.url = <-addr:
	case <-p.done:
		t.Fatal("the server exited before listening")
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not listen within 30 s")
	}
	return p
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *playgroundProcess) kill(t *testing.T) {
	t.Helper()
	select {
	case <-p.done:
		return
	default:
	}
	// An error here means the process has already exited.
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// shareUntilKilled sends shares from several clients, spread over
// servers, kills victim (one of them) with SIGKILL after killAfter, stops
// the clients after stopAfter, and returns the shares the servers
// acknowledged. A client whose share fails sends its next one to the next
// server, as a load balancer would. Now and then a client shares a state
// acknowledged before, which must get its id again.
func shareUntilKilled(t *testing.T, servers []*playgroundProcess, victim *playgroundProcess, round int, killAfter, stopAfter time.Duration, before map[string][]byte) map[string][]byte {
	t.Helper()
	var earlier []string
	for id := range before {
		earlier = append(earlier, id)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{}}
	var mu sync.Mutex
	got := map[string][]byte{}
	var wg sync.WaitGroup
	for worker := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(round), uint64(worker)))
			target := worker % len(servers)
			for seq := 0; ctx.Err() == nil; seq++ {
				var state []byte
				if len(earlier) > 0 && seq%5 == 4 {
					state = before[earlier[rng.IntN(len(earlier))]]
				} else {
					state = shareState(rng, round, worker, seq)
				}
				id, ok := postShare(ctx, client, servers[target].url, state)
				if !ok {
					// Not acknowledged: the server is gone, or going.
					target = (target + 1) % len(servers)
					continue
				}
				if id != store.ID(state) {
					t.Errorf("share acknowledged as %s; the hash of its content is %s", id, store.ID(state))
				}
				mu.Lock()
				got[id] = state
				mu.Unlock()
			}
		})
	}
	time.Sleep(killAfter)
	victim.kill(t)
	time.Sleep(stopAfter - killAfter)
	cancel()
	wg.Wait()
	return got
}

// shareState is a compact state whose snippet is unique to (round, worker,
// seq) and between a few bytes and 48 KiB long, so that writes of
// different sizes are in flight when the server dies.
func shareState(rng *rand.Rand, round, worker, seq int) []byte {
	snippet := fmt.Sprintf("// round %d, client %d, share %d\nlet device = Device::default();\n", round, worker, seq)
	snippet += strings.Repeat("let t = Tensor::<1>::ones([2], &device);\n", rng.IntN(1200))
	state, err := json.Marshal(map[string]any{"v": 1, "config": "", "snippet": snippet, "mode": "panic"})
	if err != nil {
		panic(err)
	}
	return state
}

// postShare shares state; ok is false when the server did not acknowledge
// it with an id.
func postShare(ctx context.Context, client *http.Client, url string, state []byte) (id string, ok bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/share", bytes.NewReader(state))
	if err != nil {
		return "", false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var answer struct{ ID string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&answer) != nil || answer.ID == "" {
		return "", false
	}
	return answer.ID, true
}

// verifyShares reads every acknowledged share back through the API.
func verifyShares(t *testing.T, url string, acked map[string][]byte) {
	t.Helper()
	for id, state := range acked {
		resp, err := http.Get(url + "/api/share/" + id)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("acknowledged share %s: %d %s", id, resp.StatusCode, body)
		}
		if !bytes.Equal(body, append(state, '\n')) {
			t.Fatalf("acknowledged share %s reads back %d bytes that differ from the %d stored", id, len(body), len(state))
		}
	}
}

// checkDatabase opens the file the server wrote and checks it below the
// API: SQLite's integrity check, and every row's id against its content,
// acknowledged or not.
func checkDatabase(t *testing.T, path string, acked map[string][]byte) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("integrity check: %q, %v", integrity, err)
	}
	rows, err := db.Query(`SELECT id, state FROM shares`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id string
		var state []byte
		if err := rows.Scan(&id, &state); err != nil {
			t.Fatal(err)
		}
		if store.ID(state) != id || !json.Valid(state) {
			t.Errorf("row %s holds %d bytes whose hash is %s", id, len(state), store.ID(state))
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < len(acked) {
		t.Errorf("%d rows, fewer than the %d acknowledged shares", n, len(acked))
	}
	t.Logf("database: integrity ok, %d rows, each holding the state its id names", n)
}

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/dispatch-playground/playground/engine/burnapi"
	"github.com/dispatch-playground/playground/store"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// chromiumPath is the browser the tests drive: $CHROMIUM, else Debian's.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

func requireChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath()); err != nil {
		t.Skipf("no Chromium at %s (install the chromium package or set $CHROMIUM): browser tests skipped", chromiumPath())
	}
}

// bundleArgs are the esbuild arguments of the build:web task in
// Taskfile.yml, less the output folder.
var bundleArgs = []string{
	"web/frontend/main.js", "web/frontend/worker.js",
	"--bundle", "--minify", "--format=esm", "--target=es2022", "--log-level=warning",
}

// staticTree is web/static as the server serves it in production: the
// committed files, a bundle built now from web/frontend (as build:web
// builds it) and an engine.wasm built from the working tree. Modules and
// bundles left in web/static by an earlier build (and the compressed
// siblings the server would prefer) are not copied.
func staticTree(t *testing.T) fs.FS {
	t.Helper()
	root, err := wasmtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "@codemirror")); err != nil {
		t.Fatalf("node_modules is missing: run `npm ci` in %s first", root)
	}
	dir := t.TempDir()
	src := os.DirFS(filepath.Join(root, "web", "static"))
	err = fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case name == "dist":
			return fs.SkipDir
		case strings.Contains(name, ".wasm"):
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dir, name), 0o755)
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append(append([]string{"tool", "esbuild"}, bundleArgs...), "--outdir="+filepath.Join(dir, "dist"))...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bundle web/frontend: %v\n%s", err, out)
	}
	// The editors' completions, as build:web writes them with
	// internal/tools/completions.
	completions, err := json.Marshal(burnapi.Default().Completions())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "completions.json"), completions, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, web.EngineWasm), wasmtest.Build(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return os.DirFS(dir)
}

// site is the playground server under test.
type site struct {
	URL string
	// apiRuns counts requests to /api/run: the page must not need them
	// when the browser runs the engine.
	apiRuns atomic.Int64
	close   func()
}

// startSite starts the real server on a loopback port, its share store in
// dbPath.
func startSite(t *testing.T, static fs.FS, dbPath string) *site {
	t.Helper()
	ctx := context.Background()
	sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), wasm.DefaultLimits(), wasm.ProcessIsolation)
	shares, err := store.OpenSQLite(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(web.Config{Sandbox: sb, Shares: shares, Static: static, Limits: web.DefaultLimits(), Version: "e2e"})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/run" {
			s.apiRuns.Add(1)
		}
		srv.ServeHTTP(w, r)
	}))
	s.URL = ts.URL
	var once sync.Once
	s.close = func() {
		once.Do(func() {
			ts.Close()
			_ = shares.Close()
			_ = sb.Close(ctx)
		})
	}
	t.Cleanup(s.close)
	return s
}

// openPlayground starts the server and a browser, opens the playground
// and waits for the engine in the page to show the default example's
// result.
func openPlayground(t *testing.T) (*site, *tab) {
	t.Helper()
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	tb := newTab(t, newBrowser(t))
	tb.do(chromedp.Navigate(site.URL + "/"))
	tb.waitBrowserRun()
	return site, tb
}

// newBrowser starts Chromium with exactly the flags CI uses and a fresh
// profile. The returned context owns the browser.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	requireChromium(t)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// Start the browser now, without a deadline: a timeout on the first
	// run would bound the browser's whole life.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromiumPath(), err)
	}
	return ctx
}

// tab is one page in its own browser context (its own storage), with a
// deadline, collecting the page's errors and CSP violations.
type tab struct {
	ctx    context.Context
	t      *testing.T
	mu     sync.Mutex
	errors []string
}

func newTab(t *testing.T, browser context.Context, setup ...chromedp.Action[chromedp.Void]) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelTimeout)
	tb := &tab{ctx: ctx, t: t}
	if _, err := chromedp.Call(ctx, cdplog.Enable, struct{}{}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev, err := range chromedp.Events(ctx, cdplog.EntryAdded) {
			if err != nil {
				return
			}
			if ev.Entry.Level == cdplog.EntryLevelError {
				tb.report(strings.TrimSpace(ev.Entry.Text+" "+ev.Entry.URL) + describeStack(ev.Entry.StackTrace))
			}
		}
	}()
	go func() {
		for ev, err := range chromedp.Events(ctx, runtime.ExceptionThrown) {
			if err != nil {
				return
			}
			tb.report("uncaught: " + ev.ExceptionDetails.Text + describeException(ev.ExceptionDetails))
		}
	}()
	if err := chromedp.Do(ctx, setup...); err != nil {
		t.Fatal(err)
	}
	return tb
}

func describeStack(st *runtime.StackTrace) string {
	if st == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range st.CallFrames {
		fmt.Fprintf(&b, "\n\tat %s (%s:%d:%d)", f.FunctionName, f.URL, f.LineNumber+1, f.ColumnNumber+1)
	}
	return b.String()
}

func describeException(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return " " + d.Exception.Description
	}
	return ""
}

func (tb *tab) report(msg string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.errors = append(tb.errors, msg)
}

// checkClean fails the test if the page logged an error or broke its
// content security policy.
func (tb *tab) checkClean() {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.errors {
		tb.t.Errorf("page error: %s", e)
	}
}

func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it is truthy.
func (tb *tab) waitFor(what, predicate string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		state, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="results"]')?.innerText.slice(0, 800) ?? document.body.innerText.slice(0, 800)`))
		tb.t.Fatalf("waiting for %s: %v\npage shows:\n%s", what, err, state)
	}
}

// waitBrowserRun waits until the page shows a run made in the browser.
func (tb *tab) waitBrowserRun() {
	tb.t.Helper()
	tb.waitFor("a run in the browser", `document.querySelector('[data-testid="run-via"]').textContent.startsWith("ran in your browser") && !document.querySelector('[data-testid="results"]').hasAttribute("aria-busy")`)
}

func darkMode(dark bool) chromedp.Action[chromedp.Void] {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

func withoutJavaScript() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
}

// screenshotDir is where the layout screenshots go: $PLAYGROUND_SCREENSHOTS,
// else a fresh temporary folder, logged either way.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_SCREENSHOTS")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "playground-screenshots-"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// share stores state through POST /api/share of the site and returns the
// share's id.
func share(t *testing.T, site *site, state map[string]any) string {
	t.Helper()
	body, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(site.URL+"/api/share", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var shared struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&shared); err != nil || resp.StatusCode != http.StatusOK || shared.ID == "" {
		t.Fatalf("share: %d %v %+v", resp.StatusCode, err, shared)
	}
	return shared.ID
}

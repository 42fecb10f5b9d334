package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/wasm"
	"github.com/dispatch-playground/playground/wasm/wasmtest"
	"github.com/dispatch-playground/playground/web"
)

// embedBundleArgs are the esbuild arguments of build:web's embed script
// step in Taskfile.yml, less the output folder (a test compares them).
var embedBundleArgs = []string{
	"web/frontend/embed.js",
	"--bundle", "--minify", "--format=iife", "--target=es2022", "--log-level=warning",
}

// demoPlayground is the playground address examples/embed/index.html
// loads the script from: where `go tool task run` serves.
const demoPlayground = "http://127.0.0.1:8080"

// embedSizeLimit is the bound on embed.js, gzipped.
const embedSizeLimit = 30 << 10

// embedStatic is staticTree with the embed script bundled as build:web
// bundles it.
func embedStatic(t *testing.T) fs.FS {
	t.Helper()
	base := staticTree(t)
	tree := fstest.MapFS{}
	err := fs.WalkDir(base, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(base, name)
		tree[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	root := moduleRoot(t)
	out := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("go", append(append([]string{"tool", "esbuild"}, embedBundleArgs...), "--outdir="+out)...)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bundle the embed script: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(filepath.Join(out, "embed.js"))
	if err != nil {
		t.Fatal(err)
	}
	tree["dist/embed.js"] = &fstest.MapFile{Data: data}
	return tree
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := wasmtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// playgroundSite is the playground server as a docs site meets it: any
// origin may read its API and post runs to it. It counts the requests the
// acceptance tests are about.
type playgroundSite struct {
	URL string
	mu  sync.Mutex
	// wasm counts GETs of engine.wasm, runs POSTs to /api/run.
	wasm, runs int
}

func (s *playgroundSite) counts() (wasmFetches, apiRuns int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wasm, s.runs
}

func startPlayground(t *testing.T, static fs.FS) *playgroundSite {
	t.Helper()
	sb := wasmtest.NewIsolatedSandbox(t, wasmtest.Build(t), wasm.DefaultLimits(), wasm.ProcessIsolation)
	srv, err := web.New(web.Config{
		Sandbox: sb, Static: static, Limits: web.DefaultLimits(), Version: "e2e",
		CORS: web.CORSConfig{AllowOrigins: []string{"*"}, AllowWrites: true, MaxAge: time.Minute},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &playgroundSite{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, ".wasm"):
			s.wasm++
		case r.Method == http.MethodPost && r.URL.Path == "/api/run":
			s.runs++
		}
		s.mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// startDocs serves examples/embed on its own origin, its script pointed at
// playground, with csp as the page's policy when not empty. It also serves
// /frame.html, a page that shows a frame of the playground and sizes it
// from the frame's messages, as docs/embedding.md tells hosts to.
func startDocs(t *testing.T, playground, csp string) string {
	t.Helper()
	demo, err := os.ReadFile(filepath.Join(moduleRoot(t), "examples", "embed", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(demo, []byte(`<script src="`+demoPlayground+`/embed.js" defer></script>`)) {
		t.Fatalf("examples/embed/index.html does not load %s/embed.js", demoPlayground)
	}
	demo = bytes.ReplaceAll(demo, []byte(demoPlayground), []byte(playground))
	framePage := fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Frame host</title><link rel="icon" href="data:,"></head><body>
<p>Above the frame.</p>
<iframe id="snippet" src="%s/embed/examples/tour-hello?theme=light" title="A live Burn snippet" style="width: 100%%; border: 0"></iframe>
<script>
window.heights = [];
addEventListener("message", (e) => {
  if (e.origin !== %q || !e.data || e.data.type !== "dispatch-snippet:resize") return;
  const frame = document.getElementById("snippet");
  if (e.source !== frame.contentWindow) return;
  window.heights.push(e.data);
  frame.style.height = e.data.height + "px";
});
</script></body></html>`, playground, playground)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/", "/index.html":
			if csp != "" {
				w.Header().Set("Content-Security-Policy", csp)
			}
			_, _ = w.Write(demo)
		case "/frame.html":
			_, _ = io.WriteString(w, framePage)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// countWorkers and withoutWebAssembly run in each new document before its
// scripts.
func onNewDocument(source string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source})
		return err
	})
}

var countWorkers = onNewDocument(`window.workersStarted = 0;
window.runs = [];
document.addEventListener("dispatch-snippet:result", (e) => window.runs.push({ ms: e.detail.ms ?? -1, at: performance.now() }));
const PageWorker = window.Worker;
window.resultsArrived = [];
window.Worker = class extends PageWorker {
  constructor(...args) {
    super(...args);
    window.workersStarted++;
    this.addEventListener("message", (e) => e.data.type === "result" && window.resultsArrived.push(performance.now()));
  }
};`)

var withoutWebAssembly = onNewDocument(`delete window.WebAssembly;`)

// screenshot saves what shot captures (the whole page when nil) into
// $PLAYGROUND_SCREENSHOTS, when it is set.
func (tb *tab) screenshot(name string, shot chromedp.Action[[]byte]) {
	tb.t.Helper()
	if os.Getenv("PLAYGROUND_SCREENSHOTS") == "" {
		return
	}
	if shot == nil {
		shot = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(tb.ctx, shot)
	if err != nil {
		tb.t.Fatal(err)
	}
	path := filepath.Join(screenshotDir(tb.t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("screenshot %s", path)
}

// shownSnippet is what a <dispatch-snippet> shows.
type shownSnippet struct {
	Status, Via, ViaTitle, Code, Message, Summary string
	Badges                                        []string
	Config, Snippet, Result                       string
}

const readSnippets = `[...document.querySelectorAll("dispatch-snippet")].map((s) => {
  const q = (sel) => s.shadowRoot ? s.shadowRoot.querySelector(sel) : null;
  return {
    Status: s.dataset.status ?? "", Via: s.dataset.via ?? "",
    ViaTitle: q('[data-testid="via"]')?.title ?? "",
    Code: q('[data-testid="card"]')?.dataset.code ?? "",
    Message: q('[data-testid="message"]')?.textContent ?? "",
    Summary: q('[data-testid="summary"]')?.textContent ?? "",
    Badges: s.shadowRoot ? [...s.shadowRoot.querySelectorAll('[data-testid="badge"]')].map((b) => b.dataset.device) : [],
    Config: s.config ?? "", Snippet: s.snippet ?? "", Result: s.result ? JSON.stringify(s.result) : "",
  };
})`

func (tb *tab) snippets() []shownSnippet {
	tb.t.Helper()
	return eval[[]shownSnippet](tb, readSnippets)
}

const finished = `["ok", "panicked", "rejected", "failed"].includes(document.querySelectorAll("dispatch-snippet")[%d]?.dataset.status)`

// runAll scrolls each snippet into view and waits for its result.
func (tb *tab) runAll(n int) {
	tb.t.Helper()
	for i := range n {
		eval[chromedp.Void](tb, fmt.Sprintf(`document.querySelectorAll("dispatch-snippet")[%d].scrollIntoView()`, i))
		tb.waitFor(fmt.Sprintf("snippet %d's result", i+1), fmt.Sprintf(finished, i))
	}
}

// demoWant is what the six snippets of examples/embed/index.html show: the
// status and the code of the diagnostic on the card.
var demoWant = []struct{ status, code string }{
	{engine.StatusOK, ""},
	{engine.StatusPanicked, "input-tensor-is-on-the-wrong-backend"},
	{engine.StatusPanicked, libtorchCode},
	{engine.StatusPanicked, "cannot-move-between-autodiff-and-non-autodiff-inst"},
	{engine.StatusOK, ""},
	{engine.StatusRejected, "feature-not-enabled"},
}

// checkDemoResults compares the six snippets with demoWant and with what
// the native engine gives for the same texts.
func checkDemoResults(t *testing.T, shown []shownSnippet, via string) {
	t.Helper()
	if len(shown) != len(demoWant) {
		t.Fatalf("the demo page shows %d snippets, want %d", len(shown), len(demoWant))
	}
	for i, s := range shown {
		w := demoWant[i]
		if s.Status != w.status || s.Code != w.code || s.Via != via {
			t.Errorf("snippet %d: %s, card %q, ran on %q; want %s, card %q, on %q", i+1, s.Status, s.Code, s.Via, w.status, w.code, via)
		}
		var got engine.Result
		if err := json.Unmarshal([]byte(s.Result), &got); err != nil {
			t.Errorf("snippet %d: result %v", i+1, err)
			continue
		}
		if diff := jsonDiff(got, engine.Run(engine.Request{Config: s.Config, Snippet: s.Snippet})); diff != "" {
			t.Errorf("snippet %d: result differs from the native engine: %s", i+1, diff)
		}
		if w.code != "" {
			for _, d := range got.Diagnostics {
				if d.Code == w.code && s.Message != d.Message {
					t.Errorf("snippet %d: card message %q, want Burn's %q", i+1, s.Message, d.Message)
					break
				}
			}
		}
	}
}

// jsonDiff compares two values as JSON data (the browser re-encodes what
// the engine wrote, so bytes may differ where values do not) and describes
// the first difference, or returns "".
func jsonDiff(got, want any) string {
	var a, b any
	for _, p := range []struct {
		v   any
		out *any
	}{{got, &a}, {want, &b}} {
		data, err := json.Marshal(p.v)
		if err != nil {
			return err.Error()
		}
		if err := json.Unmarshal(data, p.out); err != nil {
			return err.Error()
		}
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	ga, _ := json.Marshal(a)
	gb, _ := json.Marshal(b)
	at := 0
	for at < len(ga) && at < len(gb) && ga[at] == gb[at] {
		at++
	}
	from := max(at-80, 0)
	return fmt.Sprintf("at byte %d:\n got …%s\nwant …%s", at, ga[from:min(at+80, len(ga))], gb[from:min(at+80, len(gb))])
}

func TestEmbedScriptIsSmallAndCachedForever(t *testing.T) {
	site := startPlayground(t, embedStatic(t))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(site.URL + "/embed.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	versioned := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(versioned, "/static/dist/embed.") {
		t.Fatalf("GET /embed.js = %d to %q", resp.StatusCode, versioned)
	}
	resp, err = http.Get(site.URL + versioned)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("GET %s = %d, Cache-Control %q", versioned, resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	t.Logf("embed.js: %d bytes, %d gzipped", len(body), gz.Len())
	if gz.Len() >= embedSizeLimit {
		t.Errorf("embed.js is %d bytes gzipped, over the limit of %d", gz.Len(), embedSizeLimit)
	}
	// A classic script: nothing it declares lands in the host page's scope.
	if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("(()=>{")) {
		t.Errorf("embed.js is not wrapped in a function: %.40q", body)
	}
}

func TestEmbedBundleArgsMatchTheTaskfile(t *testing.T) {
	taskfile, err := os.ReadFile(filepath.Join(moduleRoot(t), "Taskfile.yml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "go tool esbuild " + strings.Join(embedBundleArgs[:len(embedBundleArgs)-1], " ") + " --outdir=web/static/dist " + embedBundleArgs[len(embedBundleArgs)-1]
	if !strings.Contains(string(taskfile), want) {
		t.Errorf("Taskfile.yml does not bundle the embed script with\n%s", want)
	}
}

func TestDemoPageRunsEverySnippetInOneBrowserEngine(t *testing.T) {
	site := startPlayground(t, embedStatic(t))
	docs := startDocs(t, site.URL, "")
	browser := newBrowser(t)
	tb := newTab(t, browser, countWorkers, chromedp.EmulateViewport(1000, 700))
	tb.do(chromedp.Navigate(docs + "/"))

	// The first snippet is in view and runs; the last is far below and
	// waits until it is scrolled to.
	tb.waitFor("the first snippet's result", fmt.Sprintf(finished, 0))
	if s := tb.snippets(); s[len(s)-1].Status != "" {
		t.Errorf("the last snippet ran before it was scrolled into view: %q", s[len(s)-1].Status)
	}
	tb.runAll(len(demoWant))
	shown := tb.snippets()
	checkDemoResults(t, shown, "browser")
	if bg := eval[string](tb, `getComputedStyle(document.querySelector("dispatch-snippet").shadowRoot.querySelector(".frame")).backgroundColor`); bg != "rgb(255, 255, 255)" {
		t.Errorf("theme auto in a light system: background %s", bg)
	}
	for i := range shown {
		tb.screenshot(fmt.Sprintf("embed-demo-%d.png", i+1), chromedp.ScreenshotScale(chromedp.CSS(fmt.Sprintf("dispatch-snippet:nth-of-type(%d)", i+1)), 1))
	}
	if got := shown[0].Badges; !reflect.DeepEqual(got, []string{"Flex(Cpu)", "Wgpu(DefaultDevice)"}) {
		t.Errorf("the ok snippet's badges = %q", got)
	}
	// A read-only snippet shows the check's hints: an inlay after each
	// tensor a let binds, and the label as the title of each hinted name.
	const first = `document.querySelector("dispatch-snippet").shadowRoot`
	inlays := eval[[]string](tb, `[...`+first+`.querySelectorAll('[data-testid="inlay-hint"]')].map((h) => h.textContent)`)
	titles := eval[[]string](tb, `[...`+first+`.querySelectorAll('[data-testid="hinted"]')].map((h) => h.title)`)
	if len(inlays) == 0 || len(titles) < len(inlays) {
		t.Errorf("the ok snippet's inlay hints %q, hinted titles %q", inlays, titles)
	}
	for _, h := range inlays {
		if !strings.HasPrefix(h, ": Tensor<") || !strings.Contains(h, " · ") {
			t.Errorf("inlay hint %q", h)
		}
	}
	if len(shown[4].Badges) == 0 {
		t.Error("the remote client shows no badges")
	}
	for _, b := range shown[4].Badges {
		if !strings.HasPrefix(b, "Remote(") && b != "Flex(Cpu)" {
			t.Errorf("the remote client's badges = %q", shown[4].Badges)
			break
		}
	}
	wasmFetches, apiRuns := site.counts()
	if wasmFetches != 1 || apiRuns != 0 {
		t.Errorf("engine.wasm fetched %d times and /api/run called %d times; want once and never", wasmFetches, apiRuns)
	}
	if n := eval[int](tb, `window.workersStarted`); n != 1 {
		t.Errorf("%d workers started, want one for the page", n)
	}
	marks := eval[[]float64](tb, `["dispatch-snippet:engine-ready", "dispatch-snippet:first-result"].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? -1)`)
	t.Logf("engine ready at %.1f ms, first result at %.1f ms: %.1f ms later (%.1f frames at 60 Hz)", marks[0], marks[1], marks[1]-marks[0], (marks[1]-marks[0])/(1000.0/60))
	t.Logf("each run in the worker, in ms: %v", eval[[]float64](tb, `window.runs.map((r) => Math.round(r.ms * 10) / 10)`))
	t.Logf("from a result's arrival to its snippet showing it, in ms: %v", eval[[]float64](tb, `window.runs.map((r, i) => Math.round((r.at - window.resultsArrived[i]) * 10) / 10)`))

	// The editable snippet: its fix runs again and is ok.
	const third = `document.querySelectorAll("dispatch-snippet")[2]`
	eval[chromedp.Void](tb, third+`.shadowRoot.querySelector('[data-testid="fix"]').click()`)
	tb.waitFor("the fixed snippet to run clean", third+`.dataset.status === "ok"`)
	fixed := tb.snippets()[2]
	if !strings.Contains(fixed.Snippet, "Device::flex()") || !strings.Contains(fixed.Config, `"flex"`) || fixed.Via != "browser" {
		t.Errorf("after the fix: %+v", fixed)
	}

	// Typing in it and pressing Ctrl+Enter runs the typed text.
	eval[chromedp.Void](tb, third+`.shadowRoot.querySelector('[data-testid="editor"]').focus()`)
	eval[chromedp.Void](tb, `(() => { const ta = `+third+`.shadowRoot.querySelector('[data-testid="editor"]'); ta.setSelectionRange(ta.value.length, ta.value.length); })()`)
	tb.do(typing("// hosted on Flex"))
	if got := eval[string](tb, third+`.dataset.status`); got != "stale" {
		t.Errorf("after an edit the snippet's status is %q, want stale", got)
	}
	tb.do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(kb.ModifierCtrl)))
	tb.waitFor("the edited snippet to run", third+`.dataset.status === "ok"`)
	fixed = tb.snippets()[2]
	if !strings.HasSuffix(fixed.Snippet, "}\n// hosted on Flex") || fixed.Status != "ok" {
		t.Errorf("after typing: %q, %s", fixed.Snippet, fixed.Status)
	}
	tb.screenshot("embed-demo-3-edited.png", chromedp.ScreenshotScale(chromedp.CSS("dispatch-snippet:nth-of-type(3)"), 1))
	if _, apiRuns := site.counts(); apiRuns != 0 {
		t.Errorf("%d requests to /api/run after the fix", apiRuns)
	}

	// "Open in playground" opens the fixed state.
	link := eval[string](tb, third+`.shadowRoot.querySelector('[data-testid="open"]').href`)
	if !strings.HasPrefix(link, site.URL+"/#1.") {
		t.Fatalf("Open in playground links to %q", link)
	}
	pg := newTab(t, browser)
	pg.do(chromedp.Navigate(link))
	pg.waitBrowserRun()
	config, snippet, mode := pg.texts()
	if config != fixed.Config || snippet != fixed.Snippet || mode != "panic" {
		t.Errorf("the playground opened %q / %q / %s, want the snippet's %q / %q / panic", config, snippet, mode, fixed.Config, fixed.Snippet)
	}
	if got := eval[string](pg, `document.querySelector('[data-testid="results"]').dataset.status`); got != "ok" {
		t.Errorf("the playground shows %q for the fixed program", got)
	}
	tb.checkClean()
	pg.checkClean()
}

func TestDemoPageFallsBackToTheServer(t *testing.T) {
	static := embedStatic(t)
	browser := newBrowser(t)
	for _, tc := range []struct {
		name     string
		csp      func(playground string) string
		setup    []chromedp.Action[chromedp.Void]
		reason   string
		maxWasms int
	}{
		{
			name:   "WebAssembly removed",
			csp:    func(string) string { return "" },
			setup:  []chromedp.Action[chromedp.Void]{withoutWebAssembly},
			reason: "WebAssembly is not available in this page",
		},
		{
			name: "CSP without wasm-unsafe-eval",
			csp: func(playground string) string {
				// Everything docs/embedding.md asks of a page's policy
				// but WebAssembly.
				return "default-src 'self'; script-src 'self' 'unsafe-inline' " + playground + "; connect-src " + playground +
					"; worker-src blob: " + playground + "; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
			},
			reason:   "WebAssembly",
			maxWasms: 1, // fetched, then refused compilation
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := startPlayground(t, static)
			docs := startDocs(t, site.URL, tc.csp(site.URL))
			tb := newTab(t, browser, append(tc.setup, chromedp.EmulateViewport(1000, 700))...)
			tb.do(chromedp.Navigate(docs + "/"))
			tb.runAll(len(demoWant))
			shown := tb.snippets()
			checkDemoResults(t, shown, "server")
			for i, s := range shown {
				if !strings.Contains(s.ViaTitle, site.URL+"/api/run") || !strings.Contains(s.ViaTitle, tc.reason) {
					t.Errorf("snippet %d's tooltip %q does not say it ran on the server because of %q", i+1, s.ViaTitle, tc.reason)
				}
			}
			t.Logf("the tooltip: %s", shown[0].ViaTitle)
			if wasmFetches, apiRuns := site.counts(); apiRuns != len(demoWant) || wasmFetches > tc.maxWasms {
				t.Errorf("%d runs on the server, want %d; engine.wasm fetched %d times, at most %d", apiRuns, len(demoWant), wasmFetches, tc.maxWasms)
			}
			// The page's own policy refusing WebAssembly is expected; any
			// other error is not.
			tb.mu.Lock()
			errs := tb.errors
			tb.errors = nil
			tb.mu.Unlock()
			for _, e := range errs {
				if !strings.Contains(e, "WebAssembly") && !strings.Contains(e, "wasm-unsafe-eval") {
					t.Errorf("page error: %s", e)
				}
			}
		})
	}
}

func TestFramePageRunsInItsFrameAndSizesIt(t *testing.T) {
	site := startPlayground(t, embedStatic(t))
	docs := startDocs(t, site.URL, "")
	browser := newBrowser(t)

	// The frame page alone, under its own policy, in the dark.
	frame := newTab(t, browser, darkMode(true), chromedp.EmulateViewport(700, 500))
	frame.do(chromedp.Navigate(site.URL + "/embed/examples/remote-server-libtorch?editable"))
	frame.waitFor("the frame's result", fmt.Sprintf(finished, 0))
	s := frame.snippets()[0]
	if s.Status != engine.StatusPanicked || s.Code != libtorchCode || s.Via != "browser" {
		t.Errorf("the frame shows %+v", s)
	}
	if bg := eval[string](frame, `getComputedStyle(document.querySelector("dispatch-snippet").shadowRoot.querySelector(".frame")).backgroundColor`); bg != "rgb(28, 29, 32)" {
		t.Errorf("theme auto in a dark system: background %s", bg)
	}
	if n := eval[int](frame, `document.body.children.length`); n != 1 {
		t.Errorf("the frame page has %d elements in its body, want the snippet alone", n)
	}
	frame.screenshot("embed-frame-dark.png", nil)
	frame.checkClean()

	// A host page sizes the frame from its messages.
	host := newTab(t, browser)
	host.do(chromedp.Navigate(docs + "/frame.html"))
	host.waitFor("the frame to be sized to its result", `window.heights.length > 0 && document.getElementById("snippet").getBoundingClientRect().height === window.heights[window.heights.length - 1].height && window.heights[window.heights.length - 1].height > 300`)
	last := eval[map[string]any](host, `window.heights[window.heights.length - 1]`)
	if last["version"] != "1" {
		t.Errorf("resize message = %v", last)
	}
	if _, apiRuns := site.counts(); apiRuns != 0 {
		t.Errorf("%d requests to /api/run from the frames", apiRuns)
	}
	host.checkClean()
}

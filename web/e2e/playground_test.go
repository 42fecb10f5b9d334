package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/examples"
)

const libtorchCode = "libtorch-is-not-supported-as-a-remote-server-backe"

func firstTourExample(t *testing.T) examples.Example {
	for _, ex := range examples.All() {
		if ex.Group == "tour" {
			return ex
		}
	}
	t.Fatal("no tour example")
	return examples.Example{}
}

// typeInto replaces the text of an editor ("config" or "snippet") by
// typing, as a person would.
func (tb *tab) typeInto(editor, text string) {
	tb.t.Helper()
	tb.do(
		chromedp.Click(chromedp.CSS(`[data-testid="`+editor+`-editor"] .cm-content`)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(kb.ModifierCtrl)),
		typing(text),
	)
}

// typing types text into the focused element. A line break is the Enter
// key alone: chromedp's "\n" also sends the character, which an editor
// that handles Enter itself would insert a second time.
func typing(text string) chromedp.Action[chromedp.Void] {
	var steps []chromedp.Action[chromedp.Void]
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			steps = append(steps, pressEnter)
		}
		if line != "" {
			steps = append(steps, chromedp.KeyEvent(line))
		}
	}
	return chromedp.Steps(steps...)
}

var pressEnter = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		_, err := chromedp.Call(ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{
			Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13,
		})
		if err != nil {
			return err
		}
	}
	return nil
})

// texts reads the two texts (the form's textareas, which the editors keep
// in sync) and the checked mode.
func (tb *tab) texts() (config, snippet, mode string) {
	tb.t.Helper()
	v := eval[[]string](tb, `[document.querySelector("#config").value, document.querySelector("#snippet").value, document.querySelector('input[name="mode"]:checked').value]`)
	return v[0], v[1], v[2]
}

type shownDiagnostic struct {
	Code, Phase, Message, Location string
}

func (tb *tab) diagnostics() []shownDiagnostic {
	tb.t.Helper()
	return eval[[]shownDiagnostic](tb, `[...document.querySelectorAll('[data-testid="panel-diagnostics"] [data-testid="diagnostic"]')].map(d => ({
		Code: d.dataset.code, Phase: d.dataset.phase,
		Message: d.querySelector('[data-testid="diagnostic-message"]').textContent,
		Location: d.querySelector('[data-testid="diagnostic-location"]').textContent,
	}))`)
}

// pageResult decodes the Raw JSON tab.
func (tb *tab) pageResult() engine.Result {
	tb.t.Helper()
	raw := eval[string](tb, `document.querySelector('[data-testid="raw-json"]').textContent`)
	var r engine.Result
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		tb.t.Fatalf("raw JSON: %v\n%s", err, raw)
	}
	return r
}

func TestLoadingShowsTheDefaultExampleWithItsResults(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	tb := newTab(t, newBrowser(t))
	ex := firstTourExample(t)

	tb.do(chromedp.Navigate(site.URL + "/"))
	// First paint already has the sandbox's results.
	if got := eval[string](tb, `document.querySelector('[data-testid="summary"]').textContent.trim()`); got == "" || got == "Not run yet" {
		t.Errorf("first paint summary = %q, want the sandbox's result", got)
	}
	tb.waitBrowserRun()
	config, snippet, mode := tb.texts()
	if config != ex.Config || snippet != ex.Snippet || mode != "panic" {
		t.Errorf("page shows %q / %q / %s, want the %s example", config, snippet, mode, ex.Name)
	}
	if got := eval[string](tb, `document.querySelector('[data-testid="engine-version"]').textContent`); got != engine.Version {
		t.Errorf("footer engine version = %q, want %q", got, engine.Version)
	}
	// The browser's engine.wasm gives what the engine gives natively.
	want := engine.Run(engine.Request{Config: ex.Config, Snippet: ex.Snippet})
	if got := tb.pageResult(); !reflect.DeepEqual(got, want) {
		t.Errorf("browser result differs from the native engine:\n got %+v\nwant %+v", got, want)
	}
	if n := site.apiRuns.Load(); n != 0 {
		t.Errorf("%d requests to /api/run; the browser engine should have run", n)
	}
	tb.checkClean()
}

func TestLibTorchRemoteServerPanicsInlineAndTheFixRunsClean(t *testing.T) {
	site, tb := openPlayground(t)

	// The config panel writes the features into Cargo.toml.
	tb.typeInto("config", "[dependencies]\nburn = \"0.22\"\n")
	tb.do(
		chromedp.Click(chromedp.CSS(`[data-testid="config-helpers"] summary`)),
		chromedp.Click(chromedp.CSS(`[data-testid="feature-tch"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="feature-remote-server"]`)),
		// Channel::WebSocket exists only with the WebSocket transport.
		chromedp.Click(chromedp.CSS(`[data-testid="feature-remote-websocket"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="config-helpers"] summary`)),
	)
	config, _, _ := tb.texts()
	if config != "[dependencies]\nburn = { version = \"0.22\", features = [\"tch\", \"remote-server\", \"remote-websocket\"] }\n" {
		t.Fatalf("the feature checkboxes wrote:\n%s", config)
	}

	tb.typeInto("snippet", "use burn::server::Channel;\nuse burn::tensor::Device;\n\nfn main() {\nburn::server::start(Device::libtorch(), Channel::WebSocket { port: 3000 });\n}")
	tb.waitFor("the LibTorch diagnostic", `document.querySelector('[data-testid="panel-diagnostics"] [data-code="`+libtorchCode+`"][data-phase="run"]') && !document.querySelector('[data-testid="results"]').hasAttribute("aria-busy")`)
	tb.waitBrowserRun()

	_, snippet, _ := tb.texts()
	if !strings.Contains(snippet, "    burn::server::start(Device::libtorch(), Channel::WebSocket { port: 3000 });\n}") {
		t.Errorf("typed snippet = %q", snippet)
	}
	if got := eval[string](tb, `document.querySelector('[data-testid="snippet-editor"] .cm-lintRange-error')?.textContent ?? ""`); got != "Device::libtorch()" {
		t.Errorf("inline marker covers %q, want Device::libtorch()", got)
	}
	raw := eval[string](tb, `document.querySelector('[data-testid="panic-raw"]').textContent`)
	if !strings.HasPrefix(raw, "thread 'main' panicked at crates/burn-dispatch/src/remote_server.rs:") ||
		!strings.Contains(raw, "\nLibTorch is not supported as a remote-server backend (no BackendIr impl)") {
		t.Errorf("raw panic:\n%s", raw)
	}
	card := `[data-testid="panel-diagnostics"] [data-code="` + libtorchCode + `"]`
	for _, part := range []string{`[data-testid="diagnostic-title"]`, `[data-testid="burn-source"]`, `[data-testid="record-documentation"]`, `[data-testid="record-solutions"] li`, `[data-testid="fix"]`} {
		if !eval[bool](tb, `!!document.querySelector('`+card+` `+part+`')`) {
			t.Errorf("the card lacks %s", part)
		}
	}
	if got := eval[string](tb, `document.querySelector('`+card+` [data-testid="diagnostic-message"]').textContent`); got != "LibTorch is not supported as a remote-server backend (no BackendIr impl)" {
		t.Errorf("card message = %q", got)
	}

	// Hovering the marker shows the message.
	box := eval[[]float64](tb, `(() => { const r = document.querySelector('[data-testid="snippet-editor"] .cm-lintRange-error').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0], box[1]))
	tb.waitFor("the marker's hover text", `document.querySelector('.cm-tooltip-lint')?.textContent.includes("LibTorch is not supported")`)

	if n := site.apiRuns.Load(); n != 0 {
		t.Errorf("%d requests to /api/run; the browser engine should have run", n)
	}

	tb.do(chromedp.Click(chromedp.CSS(card + ` [data-testid="fix"]`)))
	tb.waitFor("the fixed program to run clean", `document.querySelector('[data-testid="results"]').dataset.status === "ok"`)
	if n := site.apiRuns.Load(); n != 0 {
		t.Errorf("%d requests to /api/run after the fix", n)
	}
	tb.checkClean()
}

func TestEditorIsReachableAndLeavableByKeyboard(t *testing.T) {
	_, tb := openPlayground(t)

	inEditor := `!!document.activeElement.closest('[data-testid="snippet-editor"]')`
	tb.do(chromedp.Focus(chromedp.CSS(`[data-testid="snippet-editor"] .cm-content`)), chromedp.KeyEvent(kb.Tab))
	if !eval[bool](tb, inEditor) {
		t.Fatal("Tab in the editor left it; it should indent")
	}
	_, snippet, _ := tb.texts()
	if !strings.Contains(snippet, "\t") && !strings.HasPrefix(snippet, "  ") {
		t.Errorf("Tab did not indent: %q", snippet[:min(len(snippet), 40)])
	}
	tb.do(chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent(kb.Tab))
	if eval[bool](tb, inEditor) {
		t.Error("Escape then Tab did not leave the editor")
	}
	// Ctrl+Enter runs from the editor.
	tb.do(chromedp.Focus(chromedp.CSS(`[data-testid="snippet-editor"] .cm-content`)))
	eval[chromedp.Void](tb, `document.querySelector('[data-testid="run-via"]').textContent = ""`)
	tb.do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(kb.ModifierCtrl)))
	tb.waitFor("Ctrl+Enter to run", `document.querySelector('[data-testid="run-via"]').textContent !== ""`)
	tb.checkClean()
}

func TestConfigEditorValidatesInline(t *testing.T) {
	_, tb := openPlayground(t)
	tb.typeInto("config", "[dependencies]\nburn = { version = \"0.22\", features = [\"cudaa\"] }\n")
	tb.waitFor("a config diagnostic", `document.querySelector('[data-testid="panel-diagnostics"] [data-phase="config"]') && !document.querySelector('[data-testid="results"]').hasAttribute("aria-busy")`)
	if got := eval[string](tb, `document.querySelector('[data-testid="config-editor"] .cm-lintRange-error, [data-testid="config-editor"] .cm-lintRange-warning')?.textContent ?? ""`); !strings.Contains(got, "cudaa") {
		t.Errorf("the config editor marks %q, want the unknown feature", got)
	}
	if got := eval[string](tb, `document.querySelector('[data-testid="panel-diagnostics"] [data-phase="config"] [data-testid="diagnostic-location"]').textContent`); !strings.HasPrefix(got, "Cargo.toml:2:") {
		t.Errorf("config diagnostic at %q", got)
	}
	tb.checkClean()
}

func TestShareLinksRestoreTheStateAndSurviveARestart(t *testing.T) {
	static := staticTree(t)
	db := filepath.Join(t.TempDir(), "shares.db")
	site := startSite(t, static, db)
	browser := newBrowser(t)
	a := newTab(t, browser)
	a.do(chromedp.Navigate(site.URL + "/"))
	a.waitBrowserRun()
	a.do(
		chromedp.Click(chromedp.CSS(`[data-testid="snippet-editor"] .cm-content`)),
		chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(kb.ModifierCtrl)),
		typing("\n// shared: é 𝑥 <&>"),
		chromedp.Click(chromedp.CSS(`[data-testid="mode-validation"]`)),
	)
	wantConfig, wantSnippet, wantMode := a.texts()
	if wantMode != "validation" || !strings.HasSuffix(wantSnippet, "// shared: é 𝑥 <&>") {
		t.Fatalf("edits did not land: %q, %s", wantSnippet, wantMode)
	}
	a.do(chromedp.Click(chromedp.CSS(`[data-testid="share"]`)))
	a.waitFor("the short link", `document.querySelector('[data-testid="share-link"]').value.includes("/s/")`)
	short := eval[string](a, `document.querySelector('[data-testid="share-link"]').value`)
	hashLink := eval[string](a, `location.href`)
	if !strings.Contains(hashLink, "#1.") {
		t.Fatalf("the address bar holds no state: %s", hashLink)
	}
	id := short[strings.LastIndex(short, "/s/")+3:]

	check := func(name, url string) {
		t.Helper()
		b := newTab(t, browser)
		b.do(chromedp.Navigate(url))
		b.waitBrowserRun()
		config, snippet, mode := b.texts()
		if config != wantConfig || snippet != wantSnippet || mode != wantMode {
			t.Errorf("%s restored %q / %q / %s", name, config, snippet, mode)
		}
		if got := eval[int](b, `document.querySelectorAll('[data-testid="panel-diagnostics"] [data-phase="run"]').length`); mode == "validation" && got != 0 {
			t.Errorf("%s: the validation view shows run diagnostics", name)
		}
		b.checkClean()
	}
	check("hash link", hashLink)
	check("short link", short)

	site.close()
	restarted := startSite(t, static, db)
	check("short link after a restart", restarted.URL+"/s/"+id)
	a.checkClean()
}

func TestWithoutJavaScriptTheFormRendersTheSameDiagnostics(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	browser := newBrowser(t)
	const page = "/examples/remote-server-libtorch"
	const edit = "\n// edited"

	plain := newTab(t, browser, withoutJavaScript())
	plain.do(
		chromedp.Navigate(site.URL+page),
		chromedp.Click(chromedp.CSS(`#snippet`)),
		chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(kb.ModifierCtrl)),
		chromedp.KeyEvent(edit),
	)
	resp, err := chromedp.RunResponse(plain.ctx, chromedp.Click(chromedp.CSS(`[data-testid="run"]`)))
	if err != nil || resp.Status != 200 || !strings.HasSuffix(resp.URL, "/run") {
		t.Fatalf("submitting the form: %v (%+v)", err, resp)
	}
	_, posted, _ := plain.texts()
	if !strings.HasSuffix(posted, edit) {
		t.Fatalf("the posted page lost the edit: %q", posted)
	}
	withoutJS := plain.diagnostics()

	scripted := newTab(t, browser)
	scripted.do(chromedp.Navigate(site.URL + page))
	scripted.waitBrowserRun()
	scripted.do(
		chromedp.Click(chromedp.CSS(`[data-testid="snippet-editor"] .cm-content`)),
		chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(kb.ModifierCtrl)),
		typing(edit),
	)
	scripted.waitFor("the re-check", `document.querySelector("#snippet").value.endsWith("`+strings.ReplaceAll(edit, "\n", `\n`)+`")`)
	scripted.waitBrowserRun()
	withJS := scripted.diagnostics()

	if len(withJS) == 0 || !reflect.DeepEqual(withoutJS, withJS) {
		t.Errorf("diagnostics differ:\nwithout JavaScript %+v\nwith JavaScript    %+v", withoutJS, withJS)
	}
	rawPlain := eval[string](plain, `document.querySelector('[data-testid="panic-raw"]')?.textContent ?? ""`)
	rawScripted := eval[string](scripted, `document.querySelector('[data-testid="panic-raw"]')?.textContent ?? ""`)
	if rawPlain != rawScripted {
		t.Errorf("raw panic differs:\n%s\n---\n%s", rawPlain, rawScripted)
	}
	scripted.checkClean()
}

func TestALoopThatNeverEndsLeavesThePageResponsive(t *testing.T) {
	site, tb := openPlayground(t)
	tb.typeInto("snippet", "fn main() {\nlet mut n = 0;\nloop {\nn += 1;\n}\n}")
	// A probe on the page's main thread records its longest stall while
	// the program runs.
	eval[chromedp.Void](tb, `window.__stall = 0; (() => { let last = performance.now(); setInterval(() => { const now = performance.now(); window.__stall = Math.max(window.__stall, now - last); last = now; }, 20); })()`)
	tb.waitFor("the time limit", `document.querySelector('[data-testid="panel-diagnostics"] [data-code="playground-time-limit"]') && !document.querySelector('[data-testid="results"]').hasAttribute("aria-busy")`)
	if got := eval[string](tb, `document.querySelector('[data-testid="summary"]').textContent`); got != "Ran until the playground stopped it: its step budget" {
		t.Errorf("summary = %q", got)
	}
	if stall := eval[float64](tb, `window.__stall`); stall > 400 {
		t.Errorf("the page's main thread stalled for %.0f ms during the run", stall)
	}
	// The page still works: the next program runs.
	tb.typeInto("snippet", "fn main() {\nlet a = 1;\n}")
	tb.waitFor("the next run", `document.querySelector('[data-testid="results"]').dataset.status === "ok"`)
	if n := site.apiRuns.Load(); n != 0 {
		t.Errorf("%d requests to /api/run", n)
	}
	tb.checkClean()
}

func TestScreenshotsAndLayout(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	browser := newBrowser(t)
	dir := screenshotDir(t)
	t.Logf("screenshots in %s", dir)
	for _, layout := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1366, 900, false}, {"phone", 390, 844, true}} {
		for _, dark := range []bool{false, true} {
			scheme := map[bool]string{false: "light", true: "dark"}[dark]
			tb := newTab(t, browser, chromedp.EmulateViewport(layout.width, layout.height, func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
				p.Mobile = layout.mobile
				p.DeviceScaleFactor = 2
			}), darkMode(dark))
			tb.do(chromedp.Navigate(site.URL + "/examples/remote-server-libtorch"))
			before := eval[[]float64](tb, `(() => { const r = document.querySelector('[data-testid="results"]').getBoundingClientRect(); return [r.top, r.height]; })()`)
			tb.waitBrowserRun()
			after := eval[[]float64](tb, `(() => { const r = document.querySelector('[data-testid="results"]').getBoundingClientRect(); return [r.top, r.height]; })()`)
			if !reflect.DeepEqual(before, after) {
				t.Errorf("%s %s: the results area moved from %v to %v when the run finished", layout.name, scheme, before, after)
			}
			if w := eval[float64](tb, `document.documentElement.scrollWidth`); w > float64(layout.width) {
				t.Errorf("%s %s: the page is %v px wide, wider than the screen", layout.name, scheme, w)
			}
			panes := eval[[]float64](tb, `[...document.querySelectorAll('.pane')].map(p => p.getBoundingClientRect().top)`)
			if stacked := panes[1] > panes[0]; stacked != layout.mobile {
				t.Errorf("%s: editors stacked = %v", layout.name, stacked)
			}
			background := eval[string](tb, `getComputedStyle(document.body).backgroundColor`)
			if isDark := background == "rgb(20, 21, 23)"; isDark != dark {
				t.Errorf("%s %s: body background %s", layout.name, scheme, background)
			}
			png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, fmt.Sprintf("playground-%s-%s.png", layout.name, scheme))
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			// The trace of the default example, which moves a tensor
			// between backends.
			tb.do(chromedp.Navigate(site.URL + "/"))
			tb.waitBrowserRun()
			tb.do(chromedp.Click(chromedp.CSS(`[data-testid="tab-trace"]`)))
			if n := eval[int](tb, `document.querySelectorAll('[data-testid="trace-svg"] [data-testid="trace-node"]').length`); n == 0 {
				t.Errorf("%s %s: the trace picture has no operations", layout.name, scheme)
			}
			if png, err = chromedp.Run(tb.ctx, chromedp.FullScreenshot(100)); err != nil {
				t.Fatal(err)
			}
			name = filepath.Join(dir, fmt.Sprintf("trace-%s-%s.png", layout.name, scheme))
			if err := os.WriteFile(name, png, 0o644); err != nil {
				t.Fatal(err)
			}
			tb.checkClean()
		}
	}
}

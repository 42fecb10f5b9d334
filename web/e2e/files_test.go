package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestCrateFileTabs: "+ File" adds a file of the crate in a tab of its
// own; the program then runs as a crate (src/main.rs reaches the new
// module), a share link opens both tabs with their texts, and the share's
// embed runs the crate.
func TestCrateFileTabs(t *testing.T) {
	// The static tree with the embed script, for the share's embed.
	site := startSite(t, embedStatic(t), filepath.Join(t.TempDir(), "shares.db"))
	tb := newTab(t, newBrowser(t))
	tb.do(chromedp.Navigate(site.URL + "/"))
	tb.waitBrowserRun()
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="add-file"]`)))
	tb.do(chromedp.SendKeys(`[data-testid="new-file-name"]`, "src/model.rs"), pressEnter)
	tb.waitFor("the new tab", `[...document.querySelectorAll('[data-testid="file-tab"]')].map((t) => t.textContent).join(" ") === "src/main.rs src/model.rs×"`)
	tb.do(
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="file-src/model.rs"] + .cm-editor .cm-content').focus()`),
		typing("pub fn two() -> usize { 2 }"),
	)
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="file-tab"][data-file="src/main.rs"]`)))
	tb.do(
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="snippet-editor"] .cm-content').focus()`),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(kb.ModifierCtrl)),
		typing("mod model;\nfn main() { println!(\"{}\", model::two()); }"),
	)
	tb.waitFor("the crate's run", `document.querySelector('[data-testid="output"]')?.textContent === "2\n"`)
	tb.screenshot("crate-file-tabs.png", chromedp.Screenshot(chromedp.CSS(`section.pane[aria-labelledby="snippet-label"]`)))

	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="share"]`)))
	tb.waitFor("the share link", `document.querySelector('[data-testid="share-link"]').value.includes("/s/")`)
	link := eval[string](tb, `document.querySelector('[data-testid="share-link"]').value`)
	other := newTab(t, newBrowser(t))
	other.do(chromedp.Navigate(link))
	other.waitBrowserRun()
	other.waitFor("the shared tabs", `document.querySelectorAll('[data-testid="file-tab"]').length === 2`)
	model := eval[string](other, `document.querySelector('[data-testid="file-src/model.rs"] + .cm-editor .cm-content').textContent`)
	if !strings.Contains(model, "pub fn two() -> usize { 2 }") {
		t.Errorf("the shared src/model.rs reads %q", model)
	}
	other.waitFor("the shared crate's run", `document.querySelector('[data-testid="output"]')?.textContent === "2\n"`)

	// The share's embed runs the crate too.
	id := link[strings.LastIndex(link, "/s/")+3:]
	frame := newTab(t, newBrowser(t))
	frame.do(chromedp.Navigate(site.URL + "/embed/" + id))
	frame.waitFor("the embed's result", `document.querySelector("dispatch-snippet")?.dataset.status === "ok"`)
	if got := eval[string](frame, `document.querySelector("dispatch-snippet").result.output`); got != "2\n" {
		t.Errorf("the embed of the shared crate printed %q", got)
	}
	tb.checkClean()
	other.checkClean()
	frame.checkClean()
}

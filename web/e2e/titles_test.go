package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dispatch-playground/playground/engine/catalog"
)

// TestCardsShowWrittenTitles: a card whose record's message has
// placeholders is headed by the title the catalog writes for it, not by
// the message with "…" for each placeholder; the filled message is below.
func TestCardsShowWrittenTitles(t *testing.T) {
	const code = "input-tensor-is-on-the-wrong-backend"
	want, ok := catalog.WrittenTitles()[code]
	if !ok {
		t.Fatalf("the catalog writes no title for %s", code)
	}
	site := startSite(t, staticTree(t), t.TempDir()+"/shares.db")
	tb := newTab(t, newBrowser(t))
	tb.do(chromedp.Navigate(site.URL + "/examples/ext-wrong-backend-plain"))
	tb.waitBrowserRun()
	card := `document.querySelector('[data-testid="diagnostic"][data-code="` + code + `"]')`
	tb.waitFor("the card", card+` !== null`)
	title := eval[string](tb, card+`.querySelector('[data-testid="diagnostic-title"]').textContent`)
	message := eval[string](tb, card+`.querySelector('[data-testid="diagnostic-message"]').textContent`)
	if title != want || strings.Contains(title, "…") {
		t.Errorf("card title %q, want %q", title, want)
	}
	if strings.Contains(message, "{}") || !strings.Contains(message, "is on the wrong backend") {
		t.Errorf("card message %q is not the filled message", message)
	}
	tb.checkClean()
}

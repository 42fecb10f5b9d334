package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTraceMarksTheFailingOperation: the trace's table marks the row of the
// operation that panicked, in the page and in the page without
// JavaScript, and the picture's labels read whole for a plain program
// (`float_ones` reads `ones`, not a cut name).
func TestTraceMarksTheFailingOperation(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	browser := newBrowser(t)
	scripted := newTab(t, browser)
	scripted.do(chromedp.Navigate(site.URL + "/examples/wrong-device-add"))
	scripted.waitBrowserRun()
	scripted.do(chromedp.Click(chromedp.CSS(`[data-testid="tab-trace"]`)))
	plain := newTab(t, browser, withoutJavaScript())
	plain.do(chromedp.Navigate(site.URL + "/examples/wrong-device-add"))
	for name, tb := range map[string]*tab{"page": scripted, "page without JavaScript": plain} {
		rows := eval[[]string](tb, `[...document.querySelectorAll('[data-testid="trace-panic-row"] td:nth-child(2)')].map(td => td.textContent)`)
		if len(rows) != 1 || rows[0] != "float_add" {
			t.Errorf("%s: the marked rows are %q, want the one of float_add", name, rows)
		}
		labels := eval[[]string](tb, `[...document.querySelectorAll('[data-testid="trace-svg"] .op-label')].map(x => x.textContent)`)
		if got := strings.Join(labels, ","); got != "ones,ones,add" {
			t.Errorf("%s: the picture's labels are %q", name, got)
		}
	}
	scripted.screenshot("trace-panic-row.png", nil)
	scripted.checkClean()
}

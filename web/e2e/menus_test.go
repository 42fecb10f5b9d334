package e2e

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	examplesMenu = `document.querySelector('[data-testid="examples-menu"]')`
	helpersMenu  = `document.querySelector('[data-testid="config-helpers"]')`
)

// TestMenusCloseAndNeverOverlap: the toolbar's two menus close on a click
// outside them and on Escape (the focus going back to the summary), and
// opening one closes the other.
func TestMenusCloseAndNeverOverlap(t *testing.T) {
	_, tb := openPlayground(t)
	open := func(menu string) bool { return eval[bool](tb, menu+`.open`) }
	click := func(menu string) { tb.do(chromedp.Click(chromedp.CSS(`[data-testid="` + menu + `"] > summary`))) }

	click("config-helpers")
	if !open(helpersMenu) {
		t.Fatal("Features & hardware did not open")
	}
	tb.screenshot("menu-features-open.png", nil)
	click("examples-menu")
	if !open(examplesMenu) || open(helpersMenu) {
		t.Errorf("opening Examples: examples open %v, features open %v; want only Examples", open(examplesMenu), open(helpersMenu))
	}
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="results"]`)))
	if open(examplesMenu) {
		t.Errorf("a click outside left Examples open")
	}

	click("config-helpers")
	tb.do(chromedp.KeyEvent(kb.Escape))
	if open(helpersMenu) {
		t.Errorf("Escape left Features & hardware open")
	}
	if focused := eval[bool](tb, `document.activeElement === `+helpersMenu+`.querySelector('summary')`); !focused {
		t.Errorf("after Escape the focus is not on the menu's summary")
	}
	tb.checkClean()
}

// TestKeyboardHintOnlyWhereItWorks: the Ctrl+Enter hint shows on a desktop
// with the script running, not on a phone's touch screen and not in the
// page without JavaScript, where Ctrl+Enter does nothing.
func TestKeyboardHintOnlyWhereItWorks(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	browser := newBrowser(t)
	visible := func(tb *tab) bool {
		return eval[bool](tb, `(() => { const h = document.querySelector('#keyboard-hint'); return !h.hidden && h.getBoundingClientRect().height > 0; })()`)
	}

	desktop := newTab(t, browser, chromedp.EmulateViewport(1366, 900))
	desktop.do(chromedp.Navigate(site.URL + "/"))
	desktop.waitBrowserRun()
	if !visible(desktop) {
		t.Errorf("the hint is hidden on a desktop")
	}

	phone := newTab(t, browser, chromedp.EmulateViewport(390, 844, func(p *emulation.SetDeviceMetricsOverrideParams, touch *emulation.SetTouchEmulationEnabledParams) {
		p.Mobile = true
		touch.Enabled = true
	}))
	phone.do(chromedp.Navigate(site.URL + "/"))
	phone.waitBrowserRun()
	if visible(phone) {
		t.Errorf("the hint shows on a phone")
	}

	plain := newTab(t, browser, withoutJavaScript())
	plain.do(chromedp.Navigate(site.URL + "/"))
	if visible(plain) {
		t.Errorf("the hint shows without JavaScript")
	}
}

// TestPhoneResultsScrollWithThePage: on a phone the results panel is as
// tall as what it shows, so the page scrolls and nothing inside it does.
func TestPhoneResultsScrollWithThePage(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	tb := newTab(t, newBrowser(t), chromedp.EmulateViewport(390, 844, func(p *emulation.SetDeviceMetricsOverrideParams, touch *emulation.SetTouchEmulationEnabledParams) {
		p.Mobile = true
		touch.Enabled = true
	}))
	tb.do(chromedp.Navigate(site.URL + "/examples/remote-server-libtorch"))
	tb.waitBrowserRun()
	inner := eval[[]string](tb, `[...document.querySelectorAll('[data-testid="results"] *')].filter(e => e.scrollHeight > e.clientHeight + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).map(e => e.className || e.tagName)`)
	if len(inner) > 0 {
		t.Errorf("boxes that scroll inside the page's results: %q", inner)
	}
	tb.screenshot("results-phone.png", nil)
	tb.checkClean()
}

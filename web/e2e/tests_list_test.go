package e2e

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTestList: a program with three tests shows a Tests tab listing each
// test with its status (ok, FAILED with Burn's panic, ignored), as
// `cargo test` runs them, and so does its share's embed; editing the tests
// away removes the tab.
func TestTestList(t *testing.T) {
	const snippet = `use burn::tensor::{Device, Tensor};

#[test]
fn same_device() {
    let device = Device::default();
    let a = Tensor::<1>::ones([2], &device);
    assert_eq!((a.clone() + a).dims(), [2]);
}

#[test]
fn two_devices() {
    let a = Tensor::<1>::ones([2], &Device::cuda(0));
    let b = Tensor::<1>::ones([2], &Device::flex());
    let _ = a + b;
}

#[test]
#[ignore]
fn slow() {}

fn main() {}
`
	state := map[string]any{"v": 1, "mode": "panic", "snippet": snippet,
		"config": "[dependencies]\nburn = { version = \"0.22\", features = [\"cuda\", \"flex\"] }\n\n[package.metadata.playground]\nhardware = { cuda = 1 }\n"}
	site := startSite(t, embedStatic(t), filepath.Join(t.TempDir(), "shares.db"))
	id := share(t, site, state)

	tb := newTab(t, newBrowser(t))
	tb.do(chromedp.Navigate(site.URL + "/s/" + id))
	tb.waitBrowserRun()
	tb.waitFor("the Tests tab", `!!document.querySelector('[data-testid="tab-tests"]')`)
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="tab-tests"]`)))
	type shownTest struct{ Name, Status, Panic string }
	got := eval[[]shownTest](tb, `[...document.querySelectorAll('[data-testid="test"]')].map((li) => ({
		Name: li.dataset.name, Status: li.dataset.status, Panic: li.querySelector(".test-panic")?.textContent ?? "" }))`)
	if len(got) != 3 || got[0].Name != "same_device" || got[0].Status != "ok" ||
		got[1].Name != "slow" || got[1].Status != "ignored" ||
		got[2].Name != "two_devices" || got[2].Status != "failed" || got[2].Panic == "" {
		t.Errorf("the test list shows %+v", got)
	}
	if count := eval[string](tb, `document.querySelector('[data-testid="tab-tests"] .count').textContent`); count != "1/3" {
		t.Errorf("the tab's count is %q, want 1/3 (failed/all)", count)
	}
	if !eval[bool](tb, `document.querySelector("#panel-tests").classList.contains("active")`) {
		t.Error("the Tests panel is not shown after its tab was picked")
	}
	tb.screenshot("test-list.png", chromedp.Screenshot(chromedp.CSS(`[data-testid="results"]`)))

	// The share's embed lists the same tests under its result.
	frame := newTab(t, newBrowser(t))
	frame.do(chromedp.Navigate(site.URL + "/embed/" + id))
	frame.waitFor("the embed's test list", `document.querySelector("dispatch-snippet")?.shadowRoot?.querySelectorAll('[data-testid="test"]').length === 3`)
	embedded := eval[[]shownTest](frame, `[...document.querySelector("dispatch-snippet").shadowRoot.querySelectorAll('[data-testid="test"]')].map((li) => ({
		Name: li.dataset.name, Status: li.dataset.status, Panic: li.querySelector(".test-panic")?.textContent ?? "" }))`)
	if len(embedded) != 3 || embedded[0] != got[0] || embedded[1] != got[1] || embedded[2].Name != "two_devices" || embedded[2].Status != "failed" || embedded[2].Panic == "" {
		t.Errorf("the embed's test list shows %+v, the page's %+v", embedded, got)
	}
	if summary := eval[string](frame, `document.querySelector("dispatch-snippet").shadowRoot.querySelector('[data-testid="tests-summary"]').textContent`); summary != "cargo test: FAILED. 1 passed; 1 failed; 1 ignored" {
		t.Errorf("the embed's tests summary reads %q", summary)
	}
	frame.screenshot("embed-test-list.png", nil)
	frame.checkClean()
	tb.checkClean()
}

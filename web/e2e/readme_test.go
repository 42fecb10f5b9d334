package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// TestReadmeScreenshot opens the README's example, the LibTorch
// remote-server panic, as the README's picture shows it, and checks that
// the card names the line the panic prints. It saves the picture in the
// screenshots folder; with $PLAYGROUND_UPDATE_README set it also writes
// web/frontend/screenshot.png, the README's picture:
//
//	PLAYGROUND_UPDATE_README=1 go test ./web/e2e -run TestReadmeScreenshot
func TestReadmeScreenshot(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	tb := newTab(t, newBrowser(t), chromedp.EmulateViewport(1351, 1133, func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
		p.DeviceScaleFactor = 2
	}))
	tb.do(chromedp.Navigate(site.URL + "/examples/remote-server-libtorch"))
	tb.waitBrowserRun()
	raw := eval[string](tb, `document.querySelector('[data-testid="panic-raw"]').textContent`)
	source := eval[string](tb, `document.querySelector('[data-testid="burn-source"]').textContent`)
	if !strings.Contains(raw, "remote_server.rs:115") || source != "crates/burn-dispatch/src/remote_server.rs:115" {
		t.Errorf("the panic prints %q and the card says it is raised at %q", raw, source)
	}
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(screenshotDir(t), "readme.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PLAYGROUND_UPDATE_README") != "" {
		root, err := wasmtest.ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "web", "frontend", "screenshot.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb.checkClean()
}

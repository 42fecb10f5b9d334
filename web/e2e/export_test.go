package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"io"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDownloadAndReport: "Download" gives a zip that opens and holds the
// page's program as a Cargo project (Cargo.toml, src/main.rs, a README
// that links back), and "Report a problem" opens a dialog with the text of
// an issue (the program, the result, the engine's version and Burn's
// commit) that Escape closes.
func TestDownloadAndReport(t *testing.T) {
	_, tb := openPlayground(t)
	config, snippet, _ := tb.texts()
	eval[chromedp.Void](tb, `(() => {
		window.zips = [];
		const make = URL.createObjectURL;
		URL.createObjectURL = (blob) => { window.zips.push(blob); return make(blob); };
	})()`)
	tb.screenshot("toolbar-download-report.png", chromedp.Screenshot(chromedp.CSS(`.toolbar`)))
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="download"]`)))
	tb.waitFor("the zip", `window.zips.length === 1`)
	encoded, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`(async () => {
		const b = new Uint8Array(await window.zips[0].arrayBuffer());
		let s = "";
		for (const x of b) s += String.fromCharCode(x);
		return btoa(s);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the download is not a zip: %v", err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		files[f.Name] = string(b)
	}
	var folder string
	for name := range files {
		folder, _, _ = strings.Cut(name, "/")
	}
	if len(files) != 3 || files[folder+"/src/main.rs"] == "" || files[folder+"/README.md"] == "" {
		t.Fatalf("the zip holds %d files: %v", len(files), keys(files))
	}
	if got := files[folder+"/Cargo.toml"]; !strings.HasSuffix(got, config) || !strings.Contains(got, "[package]") {
		t.Errorf("Cargo.toml in the zip:\n%s\nthe page's:\n%s", got, config)
	}
	if got := files[folder+"/src/main.rs"]; got != snippet && !strings.Contains(got, "fn main") {
		t.Errorf("src/main.rs in the zip:\n%s", got)
	}
	if !strings.Contains(files[folder+"/README.md"], "#1.") {
		t.Errorf("the README does not link back:\n%s", files[folder+"/README.md"])
	}

	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="report"]`)))
	tb.waitFor("the report dialog", `document.querySelector('[data-testid="report-dialog"]')?.open === true`)
	text := eval[string](tb, `document.querySelector('[data-testid="report-text"]').value`)
	firstLine, _, _ := strings.Cut(strings.TrimSpace(snippet), "\n")
	for _, want := range []string{firstLine, "engine 0.2.0, Burn 2c06be35.", "## What the playground showed", "Result JSON", "#1."} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	tb.screenshot("report-dialog.png", nil)
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.waitFor("the dialog to close", `document.querySelector('[data-testid="report-dialog"]').open === false`)
	tb.checkClean()
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

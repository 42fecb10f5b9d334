package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestCompletion: typing `Tensor::<2>::` in main.rs offers Tensor's
// associated functions with their signatures, and accepting one inserts
// it; a word offers the program's own items; in Cargo.toml a features
// array offers burn's features.
func TestCompletion(t *testing.T) {
	_, tb := openPlayground(t)
	options := `[...document.querySelectorAll('.cm-tooltip-autocomplete li')].map((li) => li.textContent)`
	endOf := func(editor string) {
		tb.do(
			chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid="`+editor+`"] .cm-content').focus()`),
			chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(kb.ModifierCtrl)),
		)
	}

	endOf("snippet-editor")
	tb.do(typing("\nfn helper_one() {}\nlet z = Tensor::<2>::on"))
	tb.waitFor("Tensor's associated functions", options+`.some((o) => o.startsWith("ones") && o.includes("fn ones<S: Into<Shape>>(shape: S"))`)
	tb.screenshot("completion-tensor.png", chromedp.Screenshot(chromedp.CSS(`[data-testid="snippet-editor"]`)))
	// CodeMirror takes no Enter for a completion in its first 75 ms
	// (interactionDelay), so a key already on its way is not taken for one.
	time.Sleep(300 * time.Millisecond)
	tb.do(pressEnter)
	tb.waitFor("the accepted completion", `document.querySelector("#snippet").value.endsWith("let z = Tensor::<2>::ones")`)

	tb.do(typing("\nhelper_"))
	tb.waitFor("the program's own function", options+`.some((o) => o.startsWith("helper_one"))`)
	tb.do(chromedp.KeyEvent(kb.Escape))

	endOf("config-editor")
	tb.do(typing("\n[dependencies.other]\nfeatures = [\"cu"))
	tb.waitFor("burn's features", options+`.some((o) => o.startsWith("cuda"))`)
	tb.screenshot("completion-features.png", chromedp.Screenshot(chromedp.CSS(`[data-testid="config-editor"]`)))
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.checkClean()
}

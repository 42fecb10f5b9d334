package e2e

import (
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestHintsAndHover: on wrong-device-add, the editor shows the check's
// label of each tensor a `let` binds after its name, and hovering a use of
// a tensor variable shows its label; the panic's two operands are on the
// two devices the message names.
func TestHintsAndHover(t *testing.T) {
	site := startSite(t, staticTree(t), t.TempDir()+"/shares.db")
	tb := newTab(t, newBrowser(t))
	tb.do(chromedp.Navigate(site.URL + "/examples/wrong-device-add"))
	tb.waitBrowserRun()
	inlays := `[...document.querySelectorAll('[data-testid="snippet-editor"] [data-testid="inlay-hint"]')].map((h) => h.closest(".cm-line").textContent)`
	tb.waitFor("the inlay hints", inlays+`.length === 2`)
	lines := eval[[]string](tb, inlays)
	want := []string{
		"    let a: Tensor<2> · Cuda(Cuda(0)) · [2, 3] = Tensor::<2>::ones([2, 3], &cuda);",
		"    let b: Tensor<2> · Wgpu(DefaultDevice) · [2, 3] = Tensor::<2>::ones([2, 3], &gpu);",
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d with its hint reads\n%q\nwant\n%q", i, lines[i], want[i])
		}
	}

	// Hover the `b` of `let c = a + b;`, a use, then the one `let b`
	// binds.
	at := func(lineText, before string) []float64 {
		return eval[[]float64](tb, `(() => {
		const line = [...document.querySelectorAll('[data-testid="snippet-editor"] .cm-line')].find((l) => l.textContent.includes(`+strconv.Quote(lineText)+`));
		const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
		let offset = line.textContent.indexOf(`+strconv.Quote(before)+`) + `+strconv.Itoa(len(before))+`, node;
		while ((node = walker.nextNode()) && offset >= node.length) offset -= node.length;
		const range = document.createRange();
		range.setStart(node, offset);
		range.setEnd(node, offset + 1);
		const r = range.getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2];
	})()`)
	}
	const label = `document.querySelector('[data-testid="hint-tooltip"]')?.textContent`
	box := at("let c = a + b;", "+ ")
	tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0], box[1]))
	tb.waitFor("the hover label of a use", label+` === "Tensor<2> · Wgpu(DefaultDevice) · [2, 3]"`)
	box = at("let b", "let ")
	tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0]+200, box[1]+200))
	tb.waitFor("the tooltip to go", label+` === undefined`)
	tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0], box[1]))
	tb.waitFor("the hover label of a let", label+` === "Tensor<2> · Wgpu(DefaultDevice) · [2, 3]"`)
	tb.screenshot("hints-and-hover.png", chromedp.Screenshot(chromedp.CSS(`[data-testid="snippet-editor"]`)))
	tb.checkClean()
}

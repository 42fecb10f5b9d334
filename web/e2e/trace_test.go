package e2e

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// traceModelSnippet is a two-layer model of the program's own (a Linear
// and a Vec of Linears) whose forward runs between operations outside any
// module.
const traceModelSnippet = `use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Model {
    input: Linear,
    blocks: Vec<Linear>,
}

impl Model {
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let mut x = self.input.forward(x).exp();
        for block in &self.blocks {
            x = block.forward(x);
        }
        x
    }
}

fn main() {
    let device = Device::default();
    let model = Model {
        input: LinearConfig::new(4, 3).init(&device),
        blocks: vec![LinearConfig::new(3, 3).init(&device), LinearConfig::new(3, 2).init(&device)],
    };
    let y = model.forward(Tensor::<2>::ones([2, 4], &device));
    let s = y.sum();
}
`

// traceGroups reads the trace table's module groups: each group's module
// and how many operation rows it holds.
const traceGroups = `[...document.querySelectorAll('[data-testid="trace-table"] tbody')].map((b) =>
  (b.dataset.module ?? "-") + " x" + b.querySelectorAll("tr:not(.trace-group-head)").length)`

// timedOut reports a run stopped by the wall-time limit, which a loaded
// machine can hit with any program: the test runs it again.
func timedOut(tb *tab) bool {
	tb.t.Helper()
	return eval[bool](tb, `!!document.querySelector('[data-testid="panel-diagnostics"] [data-code="playground-time-limit"]')`)
}

func TestTraceTableGroupsOperationsByModule(t *testing.T) {
	site := startSite(t, staticTree(t), filepath.Join(t.TempDir(), "shares.db"))
	page := site.URL + "/s/" + share(t, site, map[string]any{"v": 1, "snippet": traceModelSnippet})
	want := []string{"- x1", "model.input x7", "model x1", "model.blocks.0 x7", "model.blocks.1 x7", "- x1"}
	browser := newBrowser(t)

	// The server's first paint, without JavaScript, groups them too.
	plain := newTab(t, browser, withoutJavaScript())
	for try := 0; ; try++ {
		plain.do(chromedp.Navigate(page))
		if try == 3 || !timedOut(plain) {
			break
		}
	}
	if got := eval[[]string](plain, traceGroups); !reflect.DeepEqual(got, want) {
		t.Errorf("without JavaScript the groups are %q, want %q", got, want)
	}

	tb := newTab(t, browser)
	tb.do(chromedp.Navigate(page))
	tb.waitBrowserRun()
	for try := 0; try < 3 && timedOut(tb); try++ {
		// renderResults replaces the panels' contents: a new Raw JSON
		// element is the next run's.
		eval[bool](tb, `document.querySelector('[data-testid="raw-json"]').__seen = true`)
		tb.do(chromedp.Click(chromedp.CSS(`[data-testid="run"]`)))
		tb.waitFor("the run again", `!document.querySelector('[data-testid="raw-json"]')?.__seen`)
		tb.waitBrowserRun()
	}
	if got := eval[[]string](tb, traceGroups); !reflect.DeepEqual(got, want) {
		t.Errorf("the browser's run groups %q, want %q", got, want)
	}
	heading := eval[string](tb, `document.querySelector('[data-module="model.blocks.0"] .trace-group-head').textContent.replace(/\s+/g, " ").trim()`)
	if heading != "model.blocks.0 7 operations" {
		t.Errorf("heading of model.blocks.0 = %q", heading)
	}
	if got := eval[string](tb, `document.querySelector('[data-testid="trace-node"][data-step="3"] title').textContent`); !strings.HasSuffix(got, " in model.input") {
		t.Errorf("the picture's node 3 says %q, want its module", got)
	}

	// A heading's toggle collapses its module's rows and only those.
	tb.do(chromedp.Click(chromedp.CSS(`[data-testid="tab-trace"]`)))
	visible := `[...document.querySelectorAll('[data-testid="trace-table"] tbody > tr:not(.trace-group-head)')].filter((r) => r.getClientRects().length > 0).length`
	if n := eval[int](tb, visible); n != 24 {
		t.Fatalf("%d operation rows shown before collapsing, want 24", n)
	}
	toggle := `[data-module="model.blocks.0"] [data-testid="trace-group-toggle"]`
	tb.do(chromedp.Click(chromedp.CSS(toggle)))
	if n := eval[int](tb, visible); n != 24-7 {
		t.Errorf("%d operation rows shown after collapsing model.blocks.0, want %d", n, 24-7)
	}
	if got := eval[string](tb, `document.querySelector('`+toggle+`').getAttribute("aria-expanded")`); got != "false" {
		t.Errorf("aria-expanded of a collapsed group = %q", got)
	}
	tb.screenshot("trace-module-groups.png", chromedp.Screenshot(chromedp.CSS(`[data-testid="panel-trace"]`)))
	tb.do(chromedp.Click(chromedp.CSS(toggle)))
	if n := eval[int](tb, visible); n != 24 {
		t.Errorf("%d operation rows shown after expanding again, want 24", n)
	}
	tb.checkClean()
	plain.checkClean()
}

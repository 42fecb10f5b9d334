package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/dispatch-playground/playground/engine"
)

// moduleTrace is the same trace as "operations of one module are grouped"
// in web/frontend/trace.test.js: both must cut it identically.
var moduleTrace = []engine.TraceEntry{
	{Op: "float_ones", Device: "Cpu"},
	{Op: "float_matmul", Device: "Cpu", Kind: "Float", Shape: []int64{2, 3}, Module: "model.input"},
	{Op: "float_add", Device: "Cpu", Module: "model.input"},
	{Op: "float_exp", Device: "Cpu", Module: "model"},
	{Op: "float_matmul", Device: "Cpu", Module: "model.blocks.0"},
	{Op: "float_sum", Device: "Cpu"},
	{Op: "float_sum", Device: "Cpu"},
	{Op: "float_add", Device: "Cpu", Module: "model.input"},
}

func TestTraceGroupsConsecutiveOperationsOfOneModule(t *testing.T) {
	l := layoutTrace(moduleTrace, nil)
	var got []string
	for _, g := range l.Groups {
		var steps []string
		for _, n := range g.Nodes {
			steps = append(steps, n.Entry.Op)
		}
		got = append(got, g.Module+":"+strings.Join(steps, ","))
	}
	want := ":float_ones|model.input:float_matmul,float_add|model:float_exp|model.blocks.0:float_matmul|" +
		":float_sum,float_sum|model.input:float_add"
	if strings.Join(got, "|") != want {
		t.Errorf("groups\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if g := l.Groups[1]; g.operations() != "2 operations" || l.Groups[2].operations() != "1 operation" {
		t.Errorf("counts %q, %q", g.operations(), l.Groups[2].operations())
	}
	if got := nodeTitle(l.Nodes[1]); got != "2. float_matmul on Cpu (Float [2, 3]) in model.input" {
		t.Errorf("title of an op in a module: %q", got)
	}
	if got := nodeTitle(l.Nodes[0]); strings.Contains(got, " in ") {
		t.Errorf("title of an op outside any module: %q", got)
	}
}

func TestTracePanelRendersModuleGroups(t *testing.T) {
	var b strings.Builder
	if err := tracePanel(layoutTrace(moduleTrace, nil)).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	groups := regexp.MustCompile(`<tbody class="trace-group" data-module="([^"]+)" data-testid="trace-group">`).FindAllStringSubmatch(html, -1)
	var modules []string
	for _, g := range groups {
		modules = append(modules, g[1])
	}
	if got := strings.Join(modules, ","); got != "model.input,model,model.blocks.0,model.input" {
		t.Errorf("module groups in the table: %s\n%s", got, html)
	}
	if n := strings.Count(html, `aria-expanded="true" data-trace-toggle`); n != 4 {
		t.Errorf("%d toggles, want one per module group (4)", n)
	}
	if n := strings.Count(html, "<tbody>"); n != 2 {
		t.Errorf("%d plain row groups, want 2 (the operations outside any module)", n)
	}
	if n := strings.Count(html, `data-testid="trace-row"><td>`); n != len(moduleTrace) {
		t.Errorf("%d operation rows, want %d", n, len(moduleTrace))
	}
}

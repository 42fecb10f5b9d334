package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"golang.org/x/net/html"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/source"
	"github.com/dispatch-playground/playground/examples"
)

// xssPayloads break out of every context a page renders text in: element
// content, a double- or single-quoted attribute, a textarea, a script, a
// URL.
var xssPayloads = []string{
	`<script>alert("xss-element")</script>`,
	`"><img src=x onerror=alert("xss-double-quote")>`,
	`'><svg onload=alert("xss-single-quote")>`,
	`</textarea><script>alert("xss-textarea")</script>`,
	`</script><script>alert("xss-script")</script>`,
	`javascript:alert("xss-url")`,
}

var allPayloads = strings.Join(xssPayloads, " ")

// hostileRunner answers every run with a Result that carries the payloads
// in every field a page shows: each diagnostic's code, message, labels,
// help, fixes and catalog record, the panic, the trace and the output.
type hostileRunner struct{}

func (hostileRunner) run(_ context.Context, req engine.Request) (engine.Result, error) {
	f := source.NewFile("main.rs", req.Snippet)
	span := f.Span(source.Range{Start: 0, End: min(len(req.Snippet), 4)})
	rec, err := json.Marshal(map[string]any{
		"slug": allPayloads, "errorMessage": allPayloads, "messagePattern": allPayloads,
		"filePath": allPayloads, "lineNumber": 7, "githubUrl": xssPayloads[5],
		"documentation": allPayloads, "triggerScenarios": allPayloads, "solutions": xssPayloads,
		"exampleFix": allPayloads, "preventionTips": xssPayloads, "tags": xssPayloads,
	})
	if err != nil {
		return engine.Result{}, err
	}
	var diags []engine.Diagnostic
	for _, phase := range []string{"check", "run"} {
		for _, p := range xssPayloads {
			diags = append(diags, engine.Diagnostic{
				Code: p, Severity: "error", Phase: phase, Message: allPayloads, File: "main.rs", Span: span,
				Labels: []engine.Label{{File: "main.rs", Span: span, Message: allPayloads}},
				Help:   xssPayloads, Record: rec,
				Fixes: []engine.Fix{{Title: allPayloads,
					Edits: []engine.Edit{{File: "main.rs", Span: span, NewText: allPayloads}}}},
			})
		}
	}
	var trace []engine.TraceEntry
	for _, p := range xssPayloads {
		trace = append(trace, engine.TraceEntry{Span: span, Op: p, Backend: p, Device: p, Kind: p,
			Shape: []int64{2, 3}, Note: allPayloads}, engine.TraceEntry{Span: span, Op: "to_device", Backend: p, Device: p + "2", Kind: p})
	}
	return engine.Result{
		Status: engine.StatusPanicked,
		Panic: &engine.Panic{Message: allPayloads, Location: allPayloads, Code: xssPayloads[0], Span: span,
			Rendered: "thread 'main' panicked at " + allPayloads},
		Diagnostics: diags,
		Trace:       trace,
		Output:      allPayloads,
		Engine:      engine.EngineInfo{Version: allPayloads, Burn: engine.BurnCommit},
	}, nil
}

// TestPagesEscapeEveryField pushes the payloads through every field the
// pages render (diagnostics, labels, records, the panic, the trace, the
// output, the texts of a form post and of a shared state, the catalog's
// search query, names in not-found messages, embed frames) and requires
// that none of them comes out as markup.
func TestPagesEscapeEveryField(t *testing.T) {
	shares := &memoryShares{items: map[string][]byte{}}
	e := echo.New()
	Register(e, Deps{Run: hostileRunner{}.run, Shares: shares, Version: allPayloads})

	hostileState := url.Values{}
	hostileState.Set("config", allPayloads)
	hostileState.Set("snippet", allPayloads)
	hostileState.Set("mode", allPayloads)
	hostileState.Set("origin", "/examples/"+xssPayloads[0])
	withFix := url.Values{}
	for k, v := range hostileState {
		withFix[k] = v
	}
	withFix.Set("fix", "0:0")

	share := do(t, e, http.MethodPost, "/share", hostileState)
	shared := share.Header().Get("Location")
	if share.Code != http.StatusSeeOther || !strings.HasPrefix(shared, "/s/") {
		t.Fatalf("POST /share = %d, Location %q", share.Code, shared)
	}
	id := strings.TrimPrefix(shared, "/s/")

	requests := []struct {
		method, target string
		form           url.Values
	}{
		{http.MethodGet, "/", nil},
		{http.MethodPost, "/run", hostileState},
		{http.MethodPost, "/run", withFix},
		{http.MethodGet, shared, nil},
		{http.MethodGet, "/embed/" + id, nil},
		{http.MethodGet, "/embed/" + id + "?mode=" + url.QueryEscape(allPayloads) + "&theme=" + url.QueryEscape(allPayloads), nil},
		{http.MethodGet, "/catalog?q=" + url.QueryEscape(allPayloads), nil},
		{http.MethodGet, "/catalog/" + url.PathEscape(allPayloads), nil},
		{http.MethodGet, "/examples/" + url.PathEscape(allPayloads), nil},
		{http.MethodGet, "/s/" + url.PathEscape(allPayloads), nil},
		{http.MethodGet, "/embed/" + url.PathEscape(allPayloads), nil},
		{http.MethodGet, "/embed/examples/" + url.PathEscape(allPayloads), nil},
	}
	for _, r := range requests {
		rec := do(t, e, r.method, r.target, r.form)
		if rec.Code >= 500 {
			t.Errorf("%s %.60s = %d", r.method, r.target, rec.Code)
		}
		where := r.method + " " + r.target
		if len(where) > 60 {
			where = where[:60] + "…"
		}
		checkNoMarkup(t, where, rec.Body.String())
	}
	// The payloads must have reached the pages, or the test proves nothing.
	page := do(t, e, http.MethodPost, "/run", hostileState).Body.String()
	for _, escaped := range []string{"&lt;script&gt;alert(&#34;xss-element&#34;)&lt;/script&gt;", `xss-url`, `xss-textarea`} {
		if !strings.Contains(page, escaped) {
			t.Errorf("the form post's page does not show %q: the payloads did not reach it", escaped)
		}
	}
}

// TestExamplesMenuEscapesTitles renders the examples menu of examples whose
// names, titles and groups are payloads.
func TestExamplesMenuEscapesTitles(t *testing.T) {
	var exs []examples.Example
	for _, p := range xssPayloads {
		exs = append(exs, examples.Example{Name: p, Title: p, Group: p, Snippet: p, Config: p})
	}
	groups := exampleGroups(exs, map[string][]examples.Example{xssPayloads[0]: exs}, func(string) string { return allPayloads })
	v := playgroundView{State: newState(allPayloads, allPayloads, ModePanic), Origin: "/", Groups: groups,
		Results: &resultsView{Failure: allPayloads, Mode: ModePanic}}
	var b strings.Builder
	m := pageMeta{Title: allPayloads, Description: allPayloads, Version: allPayloads, Nonce: allPayloads, Asset: func(s string) string { return "/static/" + s }}
	if err := playgroundPage(m, v, m.Asset).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "xss-element") {
		t.Fatal("the payloads did not reach the page")
	}
	checkNoMarkup(t, "playground page of hostile examples", b.String())
}

// checkNoMarkup parses a page and fails on anything a payload could have
// made: an event handler attribute, a javascript: URL, an inline script
// that is not JSON, JSON that does not parse (a payload broke out of it),
// or a payload's text appearing verbatim.
func checkNoMarkup(t *testing.T, where, page string) {
	t.Helper()
	for _, p := range xssPayloads {
		if strings.Contains(page, p) {
			t.Errorf("%s: the payload %q appears unescaped", where, p)
		}
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				key, val := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(key, "on") {
					t.Errorf("%s: <%s> has an event handler %s=%q", where, n.Data, a.Key, a.Val)
				}
				if (key == "href" || key == "src" || key == "action" || key == "formaction") && strings.HasPrefix(val, "javascript:") {
					t.Errorf("%s: <%s %s=%q>", where, n.Data, a.Key, a.Val)
				}
			}
			if n.Data == "script" {
				checkScript(t, where, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

func checkScript(t *testing.T, where string, n *html.Node) {
	t.Helper()
	var src, typ string
	for _, a := range n.Attr {
		switch a.Key {
		case "src":
			src = a.Val
		case "type":
			typ = a.Val
		}
	}
	var body strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		body.WriteString(c.Data)
	}
	switch {
	case src != "" && strings.TrimSpace(body.String()) == "":
	case typ == "application/json" && json.Valid([]byte(body.String())):
	default:
		t.Errorf("%s: a script that is neither a file of this site nor JSON: type %q src %q: %.200s", where, typ, src, body.String())
	}
}

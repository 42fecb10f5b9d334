package ui

import (
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/examples"
)

func (p *pages) catalogIndex(c echo.Context) error {
	all := catalog.All()
	query := strings.TrimSpace(c.QueryParam("q"))
	records := all
	if query != "" {
		records = catalog.Search(query)
	}
	return Render(c, http.StatusOK, catalogIndexPage(p.meta(c, "Panic catalog", "Burn's dispatch panics, searchable by message"), query, records, len(all)))
}

func (p *pages) catalogRecord(c echo.Context) error {
	r, ok := catalog.ByCode(c.Param("code"))
	if !ok {
		return p.notFound(c, "There is no catalog record “"+c.Param("code")+"”.")
	}
	var v *playgroundView
	origin := "/catalog/" + r.Code
	if s, _, err := p.startState(c.Request().Context(), origin); err == nil {
		v = &playgroundView{State: s, Reset: s, Origin: origin, Compact: true, Results: p.runState(c.Request().Context(), s)}
	}
	return Render(c, http.StatusOK, catalogRecordPage(p.meta(c, r.Title, r.Documentation), r, v, p.deps.AssetURL))
}

// recordExample is the example that shows a record's error: the first
// whose expected result leads with the record's code.
func recordExample(code string) (examples.Example, bool) {
	exs := examplesByRecord()[code]
	if len(exs) == 0 {
		return examples.Example{}, false
	}
	return exs[0], true
}

// examplesByRecord maps a catalog code to the examples whose expected
// result leads with it, in name order. It is derived once from embedded
// data and never changes.
var examplesByRecord = sync.OnceValue(func() map[string][]examples.Example {
	m := map[string][]examples.Example{}
	for _, ex := range examples.All() {
		if code := leadingCode(ex.Want); code != "" {
			m[code] = append(m[code], ex)
		}
	}
	return m
})

// leadingCode is the first catalog code an example's `want` section names:
// its panic ("panic: <code> at 5:17-5:22") or its first diagnostic
// ("check error <code> main.rs:5:17-5:22").
func leadingCode(want string) string {
	for _, line := range strings.Split(want, "\n") {
		f := strings.Fields(line)
		var code string
		switch {
		case len(f) >= 2 && f[0] == "panic:":
			code = f[1]
		case len(f) >= 3 && (f[1] == "error" || f[1] == "warning" || f[1] == "note"):
			code = f[2]
		default:
			continue
		}
		if _, ok := catalog.ByCode(code); ok {
			return code
		}
	}
	return ""
}

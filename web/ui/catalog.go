package ui

import (
	"net/http"
	"strings"

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
	if ex, ok := recordExample(r.Code); ok {
		s := exampleState(ex)
		v = &playgroundView{State: s, Reset: s, Origin: "/catalog/" + r.Code, Compact: true, Results: p.runState(c.Request().Context(), s)}
	}
	return Render(c, http.StatusOK, catalogRecordPage(p.meta(c, r.Title, r.Documentation), r, v, p.deps.AssetURL))
}

// recordExample is the example that shows a record's error: the one named
// after its code, else the first whose expected result names the code.
func recordExample(code string) (examples.Example, bool) {
	if ex, ok := examples.ByName(code); ok {
		return ex, true
	}
	for _, ex := range examples.All() {
		if strings.Contains(ex.Want, `"`+code+`"`) {
			return ex, true
		}
	}
	return examples.Example{}, false
}

package web

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// baseHeaders gives every response the headers that do not depend on what
// it is: browsers must not guess a content type (an SVG or a JSON body
// sniffed as HTML runs script), referrers stay on this site, and no other
// site may frame anything but the frame pages under /embed/, which set
// their own policy. The pages add their content security policy on top.
func baseHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if !strings.HasPrefix(c.Request().URL.Path, "/embed/") {
			h.Set(echo.HeaderXFrameOptions, "SAMEORIGIN")
		}
		return next(c)
	}
}

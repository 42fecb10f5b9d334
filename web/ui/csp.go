package ui

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/labstack/echo/v4"
)

const nonceKey = "ui.cspNonce"

// securityHeaders gives each page response a fresh nonce and a content
// security policy that runs only the site's own scripts. WebAssembly needs
// 'wasm-unsafe-eval'; styles need the nonce because the editor inserts
// its style sheets at run time (it tags them with the nonce, read from the
// page's csp-nonce meta element). Style attributes are allowed: when a
// keystroke replaces a selection, the browser's own editing briefly writes
// them into the editor before CodeMirror redraws, and they cannot run code.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		nonce := newNonce()
		c.Set(nonceKey, nonce)
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy(nonce))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		return next(c)
	}
}

func contentSecurityPolicy(nonce string) string {
	return "default-src 'self'; " +
		"script-src 'self' 'wasm-unsafe-eval'; " +
		"style-src 'self' 'nonce-" + nonce + "'; " +
		"style-src-attr 'unsafe-inline'; " +
		"img-src 'self' data:; " +
		"connect-src 'self'; " +
		"worker-src 'self'; " +
		"object-src 'none'; " +
		"base-uri 'none'; " +
		"form-action 'self'; " +
		"frame-ancestors 'self'"
}

func newNonce() string {
	b := make([]byte, 16)
	// crypto/rand.Read never fails on the platforms Go supports.
	_, _ = rand.Read(b)
	return base64.RawStdEncoding.EncodeToString(b)
}

func nonceOf(c echo.Context) string {
	n, _ := c.Get(nonceKey).(string)
	return n
}

// Package web is the playground's HTTP server: the JSON API (/api/run,
// /api/catalog, /api/share), /healthz, /metrics, the static files under
// /static/ (engine.wasm among them) and the middleware around all of it:
// request logs, CORS for /api, security headers, a rate limit per client,
// limits and JSON error bodies. The pages come from package web/ui, wired
// in through ui.Register.
//
// Runs go through the wazero sandbox (package wasm), never through the
// engine directly, so the server executes the bytes the browser loads;
// Config.Runner, which puts the native engine behind the same server, exists
// only to measure what the sandbox costs. This package must not render
// pages or hold state beyond its counters and the rate limit's allowances:
// shared states live in package store.
package web

// Package web is the playground's HTTP server: the JSON API (/api/run,
// /api/catalog, /api/share), /healthz, /metrics, the static files under
// /static/ (engine.wasm among them) and the middleware around all of it:
// request logs, CORS for /api, limits and JSON error bodies. The pages come
// from package web/ui, wired in through ui.Register.
//
// Runs go through the wazero sandbox (package wasm), never through the
// engine directly, so the server executes the bytes the browser loads. This
// package must not render pages or hold state beyond its counters: shared
// states live in package store.
package web

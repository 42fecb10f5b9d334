// Package e2e drives the playground in headless Chromium: the real server
// (web.New with the wasm sandbox and the SQLite store), the real engine.wasm
// built from the working tree and the real page bundle. Its tests skip when
// Chromium is not installed; CI installs it.
//
// It holds only tests; nothing imports it.
package e2e

// Package ui renders the playground's pages: the playground itself, the
// examples, the catalog of Burn panics and shared programs. Register adds the
// page routes to an Echo server; the page runs the engine in the browser and
// falls back to a form post that the server answers with the same components.
//
// It also serves the embedding surface (embed.go): /embed.js, the manifest
// that script reads, and the /embed/{id} frame pages, the only pages other
// sites may frame.
//
// It must not run the engine itself (the sandbox runner comes in through
// Deps.Run), own storage (Deps.Shares), or serve /api or /static: the
// server package does that.
package ui

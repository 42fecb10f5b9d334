package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dispatch-playground/playground/wasm/wasmtest"
)

// moduleFile writes engine.wasm, built from the working tree, where -wasm
// can read it.
func moduleFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engine.wasm")
	if err := os.WriteFile(path, wasmtest.Build(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

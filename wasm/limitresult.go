package wasm

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/engine/catalog"
	"github.com/dispatch-playground/playground/engine/diag"
	"github.com/dispatch-playground/playground/engine/source"
)

// Codes of the diagnostics the sandbox adds when it, rather than the engine,
// stops a run. The messages follow the errorMessage of their catalog
// records; a code the catalog does not have gets a null record.
const (
	CodeTimeLimit   = "playground-time-limit"
	CodeMemoryLimit = "playground-memory-limit"
	// CodeResultLimit: the Result, printed output and trace together, is
	// larger than the sandbox returns. (The engine's own limit on printed
	// output is playground-output-limit.)
	CodeResultLimit = "playground-result-limit"
	// CodeSandboxStopped: the instance running the program ended (its
	// guest trapped, or its worker died), and so did a fresh one it was
	// run on again. A bug in the playground, never an answer about the
	// program, but a Result rather than a server error.
	CodeSandboxStopped = "playground-sandbox-stopped"
)

// TimeLimitResult is the Result of a run the host stopped after limit.
func TimeLimitResult(snippet string, limit time.Duration) engine.Result {
	return limitResult(snippet, CodeTimeLimit,
		fmt.Sprintf("the run did not finish within the playground's time limit of %v", limit),
		"loops run for real here: iterate over a smaller range; dispatch behaves the same for a few iterations")
}

// MemoryLimitResult is the Result of a run that hit the memory limit of
// pages wasm pages.
func MemoryLimitResult(snippet string, pages uint32) engine.Result {
	return limitResult(snippet, CodeMemoryLimit,
		fmt.Sprintf("the run needed more memory than the playground's limit of %s", formatBytes(uint64(pages)*PageSize)),
		"use smaller shapes: dispatch, transfers and panics do not depend on size")
}

// ResultLimitResult is the Result of a run whose Result JSON (size bytes)
// is larger than limit bytes.
func ResultLimitResult(snippet string, size, limit int) engine.Result {
	return limitResult(snippet, CodeResultLimit,
		fmt.Sprintf("the result of the run is %s, more than the playground's limit of %s", formatBytes(uint64(size)), formatBytes(uint64(limit))),
		"the result holds the printed output and one trace entry per tensor operation: print less, or loop fewer times")
}

// SandboxStoppedResult is the Result of a run whose instance ended under
// it twice, the second time a fresh one.
func SandboxStoppedResult(snippet string) engine.Result {
	return limitResult(snippet, CodeSandboxStopped,
		"the sandbox stopped twice while running this program",
		"this is a bug in the playground, not in the program: run it again, or report it with the program")
}

func limitResult(snippet, code, message, help string) engine.Result {
	file := source.NewFile(diag.MainRS, snippet)
	record := json.RawMessage("null")
	if r, ok := catalog.ByCode(code); ok {
		record = r.JSON()
	}
	return engine.Result{
		Status: engine.StatusRejected,
		Diagnostics: []engine.Diagnostic{{
			Code:     code,
			Severity: string(diag.Error),
			Phase:    string(diag.Run),
			Message:  message,
			File:     diag.MainRS,
			Span:     file.Span(source.Range{Start: 0, End: len(snippet)}),
			Labels:   []engine.Label{},
			Help:     []string{help},
			Record:   record,
			Fixes:    []engine.Fix{},
		}},
		Trace:  []engine.TraceEntry{},
		Engine: engine.EngineInfo{Version: engine.Version, Burn: engine.BurnCommit},
	}
}

// formatBytes prints a size the way people say it: 64 MiB, 512 KiB, 900 B.
func formatBytes(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

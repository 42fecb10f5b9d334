package engine

import (
	"encoding/json"

	"github.com/dispatch-playground/playground/engine/source"
)

// Version is the engine's semantic version, reported in every Result.
const Version = "0.1.0"

// BurnCommit is the Burn commit whose behaviour the engine reproduces.
const BurnCommit = "2c06be35"

// Request is the input of a run: the user's Cargo.toml and main.rs.
// An empty Config means `[dependencies] burn = "0.22"` with default features.
type Request struct {
	Config  string `json:"config"`
	Snippet string `json:"snippet"`
}

// Status values of a Result.
const (
	StatusOK       = "ok"
	StatusPanicked = "panicked"
	StatusRejected = "rejected"
)

// Result is the output of a run, the JSON contract shared by the browser,
// the sandbox, the CLI and the tests.
type Result struct {
	Status      string       `json:"status"`
	Panic       *Panic       `json:"panic"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Trace       []TraceEntry `json:"trace"`
	Output      string       `json:"output"`
	Engine      EngineInfo   `json:"engine"`
}

// Panic describes where and how Burn would panic.
type Panic struct {
	Message  string      `json:"message"`
	Location string      `json:"location"`
	Rendered string      `json:"rendered"`
	Code     string      `json:"code"`
	Span     source.Span `json:"span"`
}

// Diagnostic is the JSON form of a diag.Diagnostic with its catalog record.
type Diagnostic struct {
	Code     string      `json:"code"`
	Severity string      `json:"severity"`
	Phase    string      `json:"phase"`
	Message  string      `json:"message"`
	File     string      `json:"file"`
	Span     source.Span `json:"span"`
	Labels   []Label     `json:"labels"`
	Help     []string    `json:"help,omitempty"`
	// Record is the catalog record of Code, or null. Its bytes are the
	// catalog's own (catalog.Record.EncodedJSON): read them, never change
	// them.
	Record json.RawMessage `json:"record"`
	Fixes  []Fix           `json:"fixes"`
}

// Label is a related span with a message.
type Label struct {
	File    string      `json:"file"`
	Span    source.Span `json:"span"`
	Message string      `json:"message"`
}

// Fix is a machine-applicable suggestion.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
}

// Edit replaces a span of one file with new text.
type Edit struct {
	File    string      `json:"file"`
	Span    source.Span `json:"span"`
	NewText string      `json:"newText"`
}

// TraceEntry is one dispatched operation.
type TraceEntry struct {
	Span     source.Span `json:"span"`
	Op       string      `json:"op"`
	Backend  string      `json:"backend"`
	Device   string      `json:"device"`
	Autodiff bool        `json:"autodiff"`
	Kind     string      `json:"kind"`
	Shape    []int64     `json:"shape"`
	Note     string      `json:"note,omitempty"`
}

// EngineInfo identifies the engine and the Burn commit it models.
type EngineInfo struct {
	Version string `json:"version"`
	Burn    string `json:"burn"`
}

// Package diag defines the engine's one diagnostic type and its list.
//
// A Diagnostic is data: a stable code, a message that makes sense on its own,
// a primary range in one file, related labels, help lines and suggested fixes.
// It is rendered separately (see Render for rustc-style text; the engine
// package turns it into the JSON of the contract).
package diag

import (
	"slices"
	"sort"

	"github.com/dispatch-playground/playground/engine/source"
)

// File names used in diagnostics.
const (
	MainRS    = "main.rs"
	CargoToml = "Cargo.toml"
)

// Severity of a diagnostic.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Phase that produced a diagnostic.
type Phase string

const (
	Parse  Phase = "parse"
	Config Phase = "config"
	Check  Phase = "check"
	Run    Phase = "run"
)

// Label points at a related range with a short message.
type Label struct {
	File    string
	Range   source.Range
	Message string
}

// Edit replaces the text of a range in one file.
type Edit struct {
	File    string
	Range   source.Range
	NewText string
}

// Fix is a machine-applicable suggestion: applying all its edits is meant to
// remove the diagnostic.
type Fix struct {
	Title string
	Edits []Edit
}

// Diagnostic is one finding of one phase.
type Diagnostic struct {
	Code     string
	Severity Severity
	Phase    Phase
	Message  string
	File     string
	Range    source.Range
	Labels   []Label
	Help     []string
	Fixes    []Fix
	// PanicID names the row of Burn's panic table this diagnostic reproduces,
	// empty for diagnostics of the playground itself.
	PanicID string
}

// List collects diagnostics.
type List []Diagnostic

// Add appends d.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

var phaseOrder = map[Phase]int{Config: 0, Parse: 1, Check: 2, Run: 3}

var severityOrder = map[Severity]int{Error: 0, Warning: 1, Note: 2}

// Sort orders diagnostics by file (Cargo.toml first), position, phase, then
// severity (an error before the notes that explain it).
// The order is total so that output is deterministic.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File == CargoToml
		}
		if a.Range.Start != b.Range.Start {
			return a.Range.Start < b.Range.Start
		}
		if a.Range.End != b.Range.End {
			return a.Range.End < b.Range.End
		}
		if phaseOrder[a.Phase] != phaseOrder[b.Phase] {
			return phaseOrder[a.Phase] < phaseOrder[b.Phase]
		}
		if severityOrder[a.Severity] != severityOrder[b.Severity] {
			return severityOrder[a.Severity] < severityOrder[b.Severity]
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// Clone returns a copy that shares no memory with l, so that either can be
// changed, or appended to, without the other seeing it.
func (l List) Clone() List {
	if l == nil {
		return nil
	}
	out := make(List, len(l))
	for i, d := range l {
		d.Labels = slices.Clone(d.Labels)
		d.Help = slices.Clone(d.Help)
		if d.Fixes != nil {
			fixes := make([]Fix, len(d.Fixes))
			for j, f := range d.Fixes {
				f.Edits = slices.Clone(f.Edits)
				fixes[j] = f
			}
			d.Fixes = fixes
		}
		out[i] = d
	}
	return out
}

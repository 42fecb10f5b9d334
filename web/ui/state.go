package ui

import (
	"encoding/json"
	"fmt"

	"github.com/dispatch-playground/playground/engine"
	"github.com/dispatch-playground/playground/store"
)

// Mode selects which diagnostics the results show.
type Mode string

const (
	// ModePanic shows what Burn would do: the run stops at the first panic,
	// which is shown as Rust prints it beside its structured card.
	ModePanic Mode = "panic"
	// ModeValidation shows every diagnostic the static check finds, at once.
	ModeValidation Mode = "validation"
)

// parseMode reads a form or JSON value; anything unknown is the default.
func parseMode(s string) Mode {
	if Mode(s) == ModeValidation {
		return ModeValidation
	}
	return ModePanic
}

// stateVersion is written into every State. A link made by an older page
// keeps working as long as decodeState accepts its version.
const stateVersion = store.StateVersion

// maxStateBytes bounds a State accepted from a form or the share store, the
// same bound the server applies to a shared state.
const maxStateBytes = store.MaxTextBytes

// State is what a share link carries: the two texts and the mode. The page
// writes the same JSON, compressed, into the URL hash and posts it to
// /api/share.
type State struct {
	Version int    `json:"v"`
	Config  string `json:"config"`
	Snippet string `json:"snippet"`
	Mode    Mode   `json:"mode"`
	// Files are a crate's other files by path from its root, the snippet
	// being its src/main.rs (store.State).
	Files map[string]string `json:"files,omitempty"`
}

var errStateTooLarge = fmt.Errorf("a playground state is limited to %d bytes", maxStateBytes)

func newState(config, snippet string, mode Mode) State {
	return State{Version: stateVersion, Config: config, Snippet: snippet, Mode: mode}
}

func (s State) size() int {
	n := len(s.Config) + len(s.Snippet)
	for p, t := range s.Files {
		n += len(p) + len(t)
	}
	return n
}

// request is the Request that runs the state: a crate when it has files.
func (s State) request() engine.Request {
	return engine.Request{Config: s.Config, Snippet: s.Snippet, Files: s.Files}
}

// encode returns the JSON stored behind a share link.
func (s State) encode() ([]byte, error) {
	if s.size() > maxStateBytes {
		return nil, errStateTooLarge
	}
	s.Version = stateVersion
	return json.Marshal(s)
}

// decodeState reads a stored state through store.DecodeState, the reading
// that POST /api/share validates a state with before storing it.
func decodeState(b []byte) (State, error) {
	s, err := store.DecodeState(b)
	if err != nil {
		return State{}, err
	}
	return State{Version: s.Version, Config: s.Config, Snippet: s.Snippet, Mode: parseMode(s.Mode), Files: s.Files}, nil
}

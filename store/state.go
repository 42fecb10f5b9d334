package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// StateVersion is the version of the state format this server writes and
// reads. A link made by an older page keeps working as long as DecodeState
// accepts its version.
const StateVersion = 1

// MaxTextBytes bounds the texts of a state: its config and snippet
// together, in bytes of UTF-8. The page refuses to share more.
const MaxTextBytes = 64 << 10

// Modes of a state; any other mode reads as ModePanic.
const (
	ModePanic      = "panic"
	ModeValidation = "validation"
)

// State is what a share link carries: the JSON object
//
//	{"v": 1, "config": "<Cargo.toml>", "snippet": "<Rust>", "mode": "panic",
//	 "files": {"src/model.rs": "<Rust>"}}
//
// Every field may be missing: "v" means StateVersion, the texts are empty,
// the mode is ModePanic and there are no files. Files are a crate's other
// files by path from its root (the snippet is then its src/main.rs), as a
// Request's files are. Fields of other names are ignored.
type State struct {
	Version int
	Config  string
	Snippet string
	Mode    string
	Files   map[string]string
}

// MaxFiles bounds the files of a state, as engine.MaxCrateFiles bounds a
// crate's.
const MaxFiles = 64

// ErrInvalidState is what every *StateError is.
var ErrInvalidState = errors.New("store: not a playground state")

// StateError says why bytes are not a state the playground can read.
type StateError struct {
	Reason string
}

func (e *StateError) Error() string { return ErrInvalidState.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrInvalidState) true.
func (e *StateError) Is(target error) bool { return target == ErrInvalidState }

func invalid(format string, args ...any) error {
	return &StateError{Reason: fmt.Sprintf(format, args...)}
}

// DecodeState reads a state. It is the one reading of the format: Put
// stores only what it accepts, and the pages read shares through it, so a
// share that was stored always opens. Its errors are ErrTooLarge (more
// than MaxStateBytes of JSON) or a *StateError.
func DecodeState(b []byte) (State, error) {
	if len(b) > MaxStateBytes {
		return State{}, ErrTooLarge
	}
	// encoding/json would read invalid UTF-8 in a string as U+FFFD: the
	// state read back would not be the one sent.
	if !utf8.Valid(b) {
		return State{}, invalid("it is not valid UTF-8")
	}
	if !json.Valid(b) {
		return State{}, invalid("it is not JSON")
	}
	if kind := jsonKind(b); kind != "an object" {
		return State{}, invalid("it is %s, not a JSON object", kind)
	}
	var raw struct {
		Version *int              `json:"v"`
		Config  string            `json:"config"`
		Snippet string            `json:"snippet"`
		Mode    string            `json:"mode"`
		Files   map[string]string `json:"files"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return State{}, invalid("%q must be %s, not %s", te.Field, typeName(te.Type), te.Value)
		}
		return State{}, invalid("%v", err)
	}
	s := State{Version: StateVersion, Config: raw.Config, Snippet: raw.Snippet, Mode: ModePanic, Files: raw.Files}
	if raw.Version != nil && *raw.Version != StateVersion {
		return State{}, invalid("its version %d is unknown; this server reads version %d", *raw.Version, StateVersion)
	}
	if len(s.Files) > MaxFiles {
		return State{}, invalid("it has %d files, more than the limit of %d", len(s.Files), MaxFiles)
	}
	n := len(s.Config) + len(s.Snippet)
	for path, text := range s.Files {
		if path == "" || path == "Cargo.toml" || path == "src/main.rs" || strings.Contains(path, "\x00") {
			return State{}, invalid("its file name %q is not a crate file besides Cargo.toml and src/main.rs", path)
		}
		n += len(path) + len(text)
	}
	if n > MaxTextBytes {
		return State{}, invalid("its texts hold %d bytes, more than the limit of %d", n, MaxTextBytes)
	}
	if raw.Mode == ModeValidation {
		s.Mode = ModeValidation
	}
	return s, nil
}

// jsonKind names the kind of a valid JSON value.
func jsonKind(b []byte) string {
	b = bytes.TrimLeft(b, " \t\r\n")
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Pointer:
		return "an integer"
	}
	return t.String()
}

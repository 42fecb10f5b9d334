package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxStateBytes bounds the JSON of one stored state. Its texts are limited
// to MaxTextBytes; JSON escaping can make their encoding up to six times
// larger (a control character takes six bytes), and this leaves room.
const MaxStateBytes = 512 << 10

// IDLength is the length of an id: 11 base64url characters carry 66 bits
// of the SHA-256 of the state, as in the Go playground's links.
const IDLength = 11

// Errors of Put and Get, whichever the database.
var (
	ErrNotFound = errors.New("store: no state with this id")
	ErrTooLarge = fmt.Errorf("store: a state is limited to %d bytes", MaxStateBytes)
	// ErrUnavailable: the database could not be reached, or could not
	// answer in time. Nothing is wrong with the request; it may succeed
	// later.
	ErrUnavailable = errors.New("store: the database cannot be reached")
)

// ID is the id of a state: the first IDLength characters of the base64url
// SHA-256 of its compact JSON.
func ID(compact []byte) string {
	sum := sha256.Sum256(compact)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:IDLength]
}

// prepare is what every Put does before it writes: it refuses what
// DecodeState does not read, with DecodeState's error, and returns the
// state's compact JSON and its id. Whitespace outside strings does not
// count: two states that differ only there get the same id.
func prepare(state []byte) (id string, compact []byte, err error) {
	if _, err := DecodeState(state); err != nil {
		return "", nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, state); err != nil {
		return "", nil, err // DecodeState accepted it as JSON
	}
	return ID(buf.Bytes()), buf.Bytes(), nil
}

func validID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

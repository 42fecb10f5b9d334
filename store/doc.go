// Package store keeps shared playground states behind short links, in a
// SQLite file (pure Go, no cgo) in WAL mode so reads never wait for writes.
//
// An id is derived from the content, so sharing the same state twice gives
// the same link and a link can never point at different content later.
// States are opaque JSON to this package: it checks only that they are JSON
// and within MaxStateBytes. It must not know about HTTP or the engine.
package store

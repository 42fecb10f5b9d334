// Package store keeps shared playground states behind short links, in one
// of two databases with the same behaviour: SQLite, a file on one machine
// (pure Go, no cgo) in WAL mode so reads never wait for writes; or
// PostgreSQL, which any number of servers reach, so that replicas behind a
// load balancer open each other's links.
//
// An id is derived from the content, so sharing the same state twice gives
// the same link and a link can never point at different content later; it
// also makes a write safe to repeat, which is all the coordination
// replicas need. States are opaque JSON to this package: it checks them
// with DecodeState and stores their compact bytes. It must not know about
// HTTP or the engine.
package store

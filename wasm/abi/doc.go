// Package abi is the contract between engine.wasm and its hosts: the names
// of the guest's exports, how a pointer and a length travel in one uint64,
// and the canonical bytes of a run.
//
// HandleRequest is the whole of a run as bytes: the guest calls it on the
// Request the host wrote into its memory, and native callers (the CLI, the
// parity test) call the very same function, so the two can be compared byte
// for byte. Encode is the one JSON form of a Result. It must stay free of anything that does not build for wasip1:
// no wazero, no HTTP, no files.
package abi

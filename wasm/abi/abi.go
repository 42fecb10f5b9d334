package abi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dispatch-playground/playground/engine"
)

// Names of the functions engine.wasm exports.
//
//	alloc(size u32) -> ptr u32      a buffer the host may write, kept alive until free
//	free(ptr u32)                   releases a buffer from alloc
//	run(ptr u32, len u32) -> u64    Request JSON in, Packed Result JSON out; the
//	                                result stays valid until the next run; 0 on a
//	                                request that is not valid JSON
//	run_request(ptr u32, config u32, snippet u32) -> u64
//	                                the same with the Request as its two texts, the
//	                                config's bytes then the snippet's, so the guest
//	                                need not parse JSON (the browser uses run, the
//	                                server this)
//	configure(pages u32)            the host's cap on the guest's memory, in 64 KiB
//	                                pages, so that the guest's collector works harder
//	                                before the cap than after; optional (the browser
//	                                sets no cap and does not call it)
const (
	ExportAlloc      = "alloc"
	ExportFree       = "free"
	ExportRun        = "run"
	ExportRunRequest = "run_request"
	ExportConfigure  = "configure"
	// ExportCollect runs a whole collection, for a host to call between
	// runs.
	ExportCollect = "collect"
	// ExportInitialize is the reactor's start function, run once per instance.
	ExportInitialize = "_initialize"
)

// ErrBadRequest is returned for input that is not a JSON Request.
var ErrBadRequest = errors.New("request is not a JSON object of the form {\"config\": string, \"snippet\": string}")

// Pack puts a pointer and a length into one result value.
func Pack(ptr, length uint32) uint64 { return uint64(ptr)<<32 | uint64(length) }

// Unpack is the inverse of Pack.
func Unpack(v uint64) (ptr, length uint32) { return uint32(v >> 32), uint32(v) }

// Handle runs one request given as JSON and returns the Result as JSON.
func Handle(request []byte) ([]byte, error) {
	req, err := DecodeRequest(request)
	if err != nil {
		return nil, err
	}
	return HandleRequest(req)
}

// HandleRequest runs one request and returns the Result as JSON.
func HandleRequest(req engine.Request) ([]byte, error) {
	return Encode(engine.Run(req))
}

// DecodeRequest reads a Request from JSON, as every surface does.
func DecodeRequest(request []byte) (engine.Request, error) {
	var req engine.Request
	if err := json.Unmarshal(request, &req); err != nil {
		return engine.Request{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	return req, nil
}

// Encode is the one JSON form of a Result: the bytes the sandbox returns,
// `playground run --json` prints and the HTTP API sends (without the final
// newline each of them adds). They are the bytes json.Marshal gives; see
// encodeResult for why it is not used.
func Encode(res engine.Result) ([]byte, error) {
	return encodeResult(&res)
}

// EncodeRequest is the JSON form of a Request the host sends to the guest.
func EncodeRequest(req engine.Request) ([]byte, error) {
	return json.Marshal(req)
}

// NeedsJSON tells a Request that the two-text export run_request cannot
// carry: one of contract version 2, with an entry or files. Such a Request
// goes to the run export as JSON.
func NeedsJSON(req engine.Request) bool {
	return req.Entry != "" || len(req.Files) > 0
}

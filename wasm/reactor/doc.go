// Package reactor holds the exports of a wasip1 reactor module (see package
// abi): alloc and free for request buffers, and run and run_request, which
// hand each request to the function given to Serve. A main package imports
// it, calls Serve from init, and leaves main empty.
//
// On targets other than wasip1 it exports nothing and Serve only records the
// handler. It must not run the engine itself: what a run does is the
// caller's.
package reactor
